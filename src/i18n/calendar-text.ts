// The calendar feeds' words in each language: the calendars' names, the agenda's kinds and the labels of the
// descriptions (a changed lesson's title says its change in the timetable's words, lesson-words.ts).
import type { CalendarFeedName } from '../rules/calendar-feeds.js';
import type { Language } from '../config/language.js';
import { AGENDA_WORDS } from './lesson-words.js';
import type { GradePeriod } from '../rules/grades-standard.js';

/** The English words: their type is every language's shape (CalendarText). */
const EN = {
  /**
   * The second half of a calendar's name: "Ania – lekcje". One name everywhere a family meets the calendar: the
   * calendar feed's own name, the board's link and the calendar's entry in Home Assistant (homeassistant-text.ts takes these).
   */
  calendarFeeds: { lessons: 'lessons', agenda: 'agenda', 'free-days': 'days off' } satisfies Record<CalendarFeedName, string>,
  lesson: 'Lesson',
  room: 'Room',
  teacher: 'Teacher',
  note: 'Note',
  agenda: AGENDA_WORDS.en,
  /** A term grade's title, by its kind: "Proposed semester grade: History 3". */
  termGrades: {
    semester_proposal: 'Proposed semester grade',
    semester: 'Semester grade',
    final_proposal: 'Proposed end-of-year grade',
    final: 'End-of-year grade',
  } satisfies Record<GradePeriod, string>,
  /** The title of a free day the portal does not name. */
  freeDay: 'Free day',
  /** "lessons 3–8" of a partly free day. */
  lessons: (from: number, to: number | null) => (to === null ? `from lesson ${from}` : `lessons ${from}–${to}`),
  scope: { school: 'whole school', class: 'class' },
};

export type CalendarText = typeof EN;

const PL: CalendarText = {
  calendarFeeds: { lessons: 'lekcje', agenda: 'wydarzenia', 'free-days': 'dni wolne' },
  lesson: 'Lekcja',
  room: 'Sala',
  teacher: 'Nauczyciel',
  note: 'Uwagi',
  agenda: AGENDA_WORDS.pl,
  termGrades: {
    semester_proposal: 'Propozycja oceny śródrocznej',
    semester: 'Ocena śródroczna',
    final_proposal: 'Propozycja oceny rocznej',
    final: 'Ocena roczna',
  },
  freeDay: 'Dzień wolny',
  lessons: (from, to) => (to === null ? `od lekcji ${from}` : `lekcje ${from}–${to}`),
  scope: { school: 'cała szkoła', class: 'klasa' },
};

const UK: CalendarText = {
  calendarFeeds: { lessons: 'уроки', agenda: 'події', 'free-days': 'вихідні дні' },
  lesson: 'Урок',
  room: 'Кабінет',
  teacher: 'Вчитель',
  note: 'Примітка',
  agenda: AGENDA_WORDS.uk,
  termGrades: {
    semester_proposal: 'Пропозиція семестрової оцінки',
    semester: 'Семестрова оцінка',
    final_proposal: 'Пропозиція річної оцінки',
    final: 'Річна оцінка',
  },
  freeDay: 'Вихідний день',
  lessons: (from, to) => (to === null ? `з уроку ${from}` : `уроки ${from}–${to}`),
  scope: { school: 'уся школа', class: 'клас' },
};

export const CALENDAR_TEXT: Readonly<Record<Language, CalendarText>> = { pl: PL, en: EN, uk: UK };
