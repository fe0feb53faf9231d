// The briefing's table of days, in every language: which day a parent hears about and what is said.
import { describe, expect, it } from 'vitest';
import { briefingAt } from '../../../src/features/briefing/briefing.js';
import { BRIEFING_TEXT, MAX_STATE } from '../../../src/i18n/briefing-text.js';
import { LANGUAGES, type Language } from '../../../src/config/language.js';
import { at, day, lesson } from './briefing-days.js';

interface Row {
  name: string;
  input: Parameters<typeof briefingAt>[0];
  day: string | null;
  state: Record<Language, string>;
  /** Words the spoken text holds in each language (the order of the subjects is checked as a whole). */
  aloud: Record<Language, string[]>;
}

const ROWS: Row[] = [
  {
    name: 'a school day before its lessons: today',
    input: at('2026-11-23', '07:10'),
    day: '2026-11-23',
    state: { pl: 'Dziś 8:00–11:30, 4 lekcje.', en: 'Today 8:00–11:30, 4 lessons.', uk: 'Сьогодні 8:00–11:30, 4 уроки.' },
    aloud: {
      pl: ['Dziś lekcje od 8:00 do 11:30.', 'Po kolei: Matematyka, Język polski, Historia, Wychowanie fizyczne.'],
      en: ['Today lessons from 8:00 to 11:30.', 'In order: Matematyka, Język polski, Historia, Wychowanie fizyczne.'],
      uk: ['Сьогодні уроки з 8:00 до 11:30.', 'По черзі: Matematyka, Język polski, Historia, Wychowanie fizyczne.'],
    },
  },
  {
    name: "during the lessons, with the child's lucky number",
    input: at('2026-11-23', '11:00', { lucky: { number: 12, day: '2026-11-23', mine: true } }),
    day: '2026-11-23',
    state: {
      pl: 'Dziś 8:00–11:30, 4 lekcje, szczęśliwy numerek!',
      en: 'Today 8:00–11:30, 4 lessons, lucky number!',
      uk: 'Сьогодні 8:00–11:30, 4 уроки, щасливий номер!',
    },
    aloud: { pl: ['Szczęśliwy numerek to numer dziecka!'], en: ["The lucky number is the child's number!"], uk: ['Щасливий номер — номер дитини!'] },
  },
  {
    name: "another child's lucky number is not mentioned",
    input: at('2026-11-23', '11:00', { lucky: { number: 7, day: '2026-11-23', mine: false } }),
    day: '2026-11-23',
    state: { pl: 'Dziś 8:00–11:30, 4 lekcje.', en: 'Today 8:00–11:30, 4 lessons.', uk: 'Сьогодні 8:00–11:30, 4 уроки.' },
    aloud: { pl: [], en: [], uk: [] },
  },
  {
    name: 'no lessons left today: the next school day, with the homework due (not the done one)',
    input: at('2026-11-23', '15:00'),
    day: '2026-11-24',
    state: {
      pl: 'Jutro 8:00–12:25, 5 lekcji. Zadanie domowe na ten dzień: Biologia.',
      en: 'Tomorrow 8:00–12:25, 5 lessons. Homework due: Biologia.',
      uk: 'Завтра 8:00–12:25, 5 уроків. Домашнє завдання на цей день: Biologia.',
    },
    aloud: {
      pl: ['Jutro lekcje od 8:00 do 12:25.', 'Po kolei: Język polski, Matematyka, Biologia, Plastyka, Język angielski.'],
      en: ['Tomorrow lessons from 8:00 to 12:25.'],
      uk: ['Завтра уроки з 8:00 до 12:25.'],
    },
  },
  {
    name: "cancelled, moved and substituted lessons in the timetable's words (by their kind aloud), a test and a quiz, the lucky number of that day",
    input: at('2026-11-24', '14:00', { lucky: { number: 12, day: '2026-11-25', mine: true } }),
    day: '2026-11-25',
    state: {
      pl: 'Jutro 8:55–12:25, 3 lekcje, szczęśliwy numerek! Sprawdzian: Matematyka. Kartkówka: Język polski. Zmiany: Fizyka (odwołana), Chemia (przeniesiona na pt. 27.11, lekcja 7), Geografia (zastępstwo).',
      en: 'Tomorrow 8:55–12:25, 3 lessons, lucky number! Test: Matematyka. Quiz: Język polski. Changes: Fizyka (cancelled), Chemia (moved to Fri 27.11, lesson 7), Geografia (substitution).',
      uk: 'Завтра 8:55–12:25, 3 уроки, щасливий номер! Контрольна: Matematyka. Коротка контрольна: Język polski. Зміни: Fizyka (скасовано), Chemia (перенесено на пт 27.11, урок 7), Geografia (заміна).',
    },
    aloud: {
      pl: ['Po kolei: Matematyka, Geografia, Język polski.', 'Sprawdzian: Matematyka.'],
      en: ['In order: Matematyka, Geografia, Język polski.', 'Quiz: Język polski.'],
      uk: ['По черзі: Matematyka, Geografia, Język polski.', 'Контрольна: Matematyka.'],
    },
  },
  {
    name: 'a free day in between: said, and the day after briefed',
    input: at('2026-11-25', '16:00'),
    day: '2026-11-27',
    state: {
      pl: 'W piątek 8:00–10:35, 3 lekcje. Czwartek wolny: Dzień Edukacji.',
      en: 'On Friday 8:00–10:35, 3 lessons. Thursday is free: Dzień Edukacji.',
      uk: "У п'ятницю 8:00–10:35, 3 уроки. Четвер — вихідний: Dzień Edukacji.",
    },
    aloud: { pl: ['Czwartek wolny: Dzień Edukacji.'], en: ['Thursday is free: Dzień Edukacji.'], uk: ['Четвер — вихідний: Dzień Edukacji.'] },
  },
  {
    name: 'the weekend: Monday',
    input: at('2026-11-28', '10:00'),
    day: '2026-11-30',
    state: { pl: 'W poniedziałek 8:00–10:35, 3 lekcje.', en: 'On Monday 8:00–10:35, 3 lessons.', uk: 'У понеділок 8:00–10:35, 3 уроки.' },
    aloud: {
      pl: ['W poniedziałek lekcje od 8:00 do 10:35.'],
      en: ['On Monday lessons from 8:00 to 10:35.'],
      uk: ['У понеділок уроки з 8:00 до 10:35.'],
    },
  },
  {
    name: 'no school day the timetable knows ahead',
    input: at('2026-11-30', '18:00'),
    day: null,
    state: { pl: 'Brak lekcji w najbliższych dniach.', en: 'No lessons in the days ahead.', uk: 'Найближчими днями уроків немає.' },
    aloud: { pl: [], en: [], uk: [] },
  },
];

describe('the briefing, day by day', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      for (const language of LANGUAGES) {
        const facts = briefingAt(row.input, language);
        expect(facts?.day ?? null).toBe(row.day);
        const words = BRIEFING_TEXT[language](facts);
        expect(words.state, language).toBe(row.state[language]);
        for (const part of row.aloud[language]) expect(words.text, language).toContain(part);
        // Read aloud: no abbreviation, no "08:00", no dash between hours.
        expect(words.text, language).not.toMatch(/\b0\d:|\d–\d|\b(s|pon|wt|godz|lek)\./);
      }
    });
  }

  it('counts a class split into groups once per lesson slot, and names each subject of the slot once', () => {
    const monday = day('2026-11-23', ['Matematyka', 'Język angielski', 'Historia']);
    // The second lesson is English in two groups (two lessons in one slot), the third Religion or Ethics.
    monday.lessons = [
      ...monday.lessons!.slice(0, 2),
      lesson('2026-11-23', 2, 'Język angielski'),
      lesson('2026-11-23', 3, 'Religia'),
      lesson('2026-11-23', 3, 'Etyka'),
    ];
    const b = briefingAt(at('2026-11-23', '07:10', { days: [monday] }), 'pl');
    expect(b?.lessons.map((l) => l.subject)).toEqual(['Matematyka', 'Język angielski', 'Religia / Etyka']);
    expect(BRIEFING_TEXT.pl(b).state).toBe('Dziś 8:00–10:35, 3 lekcje.');
    expect(BRIEFING_TEXT.en(b).state).toBe('Today 8:00–10:35, 3 lessons.');
    // One group's English cancelled, the other's held: the slot is not cancelled (slotChange), as on the board.
    monday.lessons[1] = lesson('2026-11-23', 2, 'Język angielski', 'cancelled');
    const split = briefingAt(at('2026-11-23', '07:10', { days: [monday] }), 'pl');
    expect(BRIEFING_TEXT.pl(split).state).toBe('Dziś 8:00–10:35, 3 lekcje.');
    monday.lessons[2] = lesson('2026-11-23', 2, 'Język angielski', 'cancelled');
    const both = briefingAt(at('2026-11-23', '07:10', { days: [monday] }), 'pl');
    expect(BRIEFING_TEXT.pl(both).state).toBe('Dziś 8:00–10:35, 2 lekcje. Zmiany: Język angielski (odwołana).');
  });

  it('keeps the state within 255 characters with the day and hours first, however much there is to say', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({
      key: `t${i}`,
      kind: 'test' as const,
      date: '2026-11-25',
      time: null,
      time_to: null,
      subject: `Przedmiot o bardzo długiej nazwie ${i}`,
      category: 'Sprawdzian',
      content: null,
      until: null,
      teacher: null,
    }));
    for (const language of LANGUAGES) {
      const words = BRIEFING_TEXT[language](briefingAt(at('2026-11-24', '14:00', { tests: many }), language));
      expect(words.state.length, language).toBeLessThanOrEqual(MAX_STATE);
      expect(words.state, language).toMatch(/^\S+ 8:55–12:25/);
      expect(words.state.endsWith('…'), language).toBe(true);
      expect(words.text, language).toContain('Przedmiot o bardzo długiej nazwie 11');
    }
  });
});
