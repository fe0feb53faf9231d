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
    /** An achievement as words beside its count ("10 good grades in a row"); the first 6 by itself. */
    firstSix: 'First 6',
    goodGrades: 'good grades in a row',
    noAbsence: 'school days without an absence',
    noNegativeNote: 'school days without a negative note',
    /** Under an achievement's badge on the board. */
    bravo: 'Well done!',
  },
};

export const FEATURE_TEXT: Record<Language, typeof EN> = {
  en: EN,
  pl: {
    lucky: { yours: 'To Ty!', forDay: (day) => `na ${day}`, yoursNamed: (name) => `Szczęśliwy numerek: to Ty, ${name}!` },
    // Every count of an achievement (5, 10, 20; 7, 30, 90) takes the genitive plural.
    streaks: {
      firstSix: 'Pierwsza szóstka',
      goodGrades: 'dobrych ocen z rzędu',
      noAbsence: 'dni szkolnych bez nieobecności',
      noNegativeNote: 'dni szkolnych bez negatywnej uwagi',
      bravo: 'Brawo!',
    },
  },
  uk: {
    lucky: { yours: 'Це ти!', forDay: (day) => `на ${day}`, yoursNamed: (name) => `Щасливий номер: це ти, ${name}!` },
    streaks: {
      firstSix: 'Перша шістка',
      goodGrades: 'хороших оцінок поспіль',
      noAbsence: 'навчальних днів без пропусків',
      noNegativeNote: 'навчальних днів без негативних зауважень',
      bravo: 'Браво!',
    },
  },
};
