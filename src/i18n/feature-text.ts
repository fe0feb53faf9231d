// What a feature says on the screens beyond its entities' names (their names are its labels), in each
// language, grouped by feature: a translator finds all of a feature's words of one language in one place.
import type { Language } from '../config/language.js';

/** The English words: their type is every language's shape, so a word missing in one does not compile. */
const EN = {
  lucky: {
    /** Under the child's own number on the board. */
    yours: "It's you!",
    /** Beside a number that is not today's, with its day in words ("na jutro"). */
    forDay: (day: string) => `for ${day}`,
    /** The dashboard's banner over the child's column while today's number is the child's. */
    yoursNamed: (name: string) => `Lucky number: it's you, ${name}!`,
  },
  streaks: {
    /**
     * Each achievement's words (streaks.ts ACHIEVEMENT_SHOWN says how its value goes with them): after its count
     * ("10 good grades in a row"), before its count, subject or semester ("Praise: 3"), or alone ("First 6").
     */
    kinds: {
      first_six: 'First 6',
      good_grades: 'good grades in a row',
      no_absence: 'school days without an absence',
      no_negative_note: 'school days without a negative note',
      sixes: 'sixes this school year',
      subject_star: 'Subject star',
      honours: 'Honours on the forecast',
      comeback: 'A 1 or 2 made good',
      semester_without_one: 'Semester without a 1',
      full_month: 'Whole months without an absence',
      punctual: 'school days without being late',
      praise: 'Praise',
      exemplary_behaviour: 'Exemplary behaviour',
      lucky: 'Days with the lucky number',
    },
    /** Under an achievement's badge on the board. */
    bravo: 'Well done!',
  },
};

export const FEATURE_TEXT: Record<Language, typeof EN> = {
  en: EN,
  pl: {
    lucky: { yours: 'To Ty!', forDay: (day) => `na ${day}`, yoursNamed: (name) => `Szczęśliwy numerek: to Ty, ${name}!` },
    // Every count an achievement's words follow (5, 10, 20, 25; 7, 30, 90) takes the genitive plural.
    streaks: {
      kinds: {
        first_six: 'Pierwsza szóstka',
        good_grades: 'dobrych ocen z rzędu',
        no_absence: 'dni szkolnych bez nieobecności',
        no_negative_note: 'dni szkolnych bez negatywnej uwagi',
        sixes: 'szóstek w tym roku szkolnym',
        subject_star: 'Gwiazda przedmiotu',
        honours: 'Świadectwo z paskiem w prognozie',
        comeback: 'Jedynka lub dwójka poprawiona',
        semester_without_one: 'Semestr bez jedynki',
        full_month: 'Całe miesiące bez nieobecności',
        punctual: 'dni szkolnych bez spóźnienia',
        praise: 'Pochwały',
        exemplary_behaviour: 'Wzorowe zachowanie',
        lucky: 'Dni ze szczęśliwym numerkiem',
      },
      bravo: 'Brawo!',
    },
  },
  uk: {
    lucky: { yours: 'Це ти!', forDay: (day) => `на ${day}`, yoursNamed: (name) => `Щасливий номер: це ти, ${name}!` },
    streaks: {
      kinds: {
        first_six: 'Перша шістка',
        good_grades: 'хороших оцінок поспіль',
        no_absence: 'навчальних днів без пропусків',
        no_negative_note: 'навчальних днів без негативних зауважень',
        sixes: 'шісток цього навчального року',
        subject_star: 'Зірка предмета',
        honours: 'Свідоцтво з відзнакою в прогнозі',
        comeback: 'Виправлена одиниця чи двійка',
        semester_without_one: 'Семестр без одиниці',
        full_month: 'Цілі місяці без пропусків',
        punctual: 'навчальних днів без запізнень',
        praise: 'Похвали',
        exemplary_behaviour: 'Зразкова поведінка',
        lucky: 'Дні зі щасливим номером',
      },
      bravo: 'Браво!',
    },
  },
};
