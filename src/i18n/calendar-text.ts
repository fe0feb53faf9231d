// The calendar feeds' words in each language: the calendars' names, what marks a changed lesson in its
// title, the agenda's kinds and the labels of the descriptions.
import type { AgendaEntryKind } from '../school/calendar-feeds.js';
import type { FeedName } from '../school/calendar-feeds.js';
import type { Language } from '../config/language.js';
import { AGENDA_WORDS, TIMETABLE_WORDS, type TimetableWords } from './lesson-words.js';

/** A changed lesson's words (`changes`, `extra`, `movedTo`) are the timetable's (i18n/lesson-words). */
export interface CalendarText extends Pick<TimetableWords, 'changes' | 'extra' | 'movedTo'> {
  /** The second half of a calendar's name: "Ania – lekcje". */
  feeds: Record<FeedName, string>;
  /** "was" before what was planned. */
  was: string;
  lesson: string;
  room: string;
  teacher: string;
  note: string;
  agenda: Record<AgendaEntryKind, string>;
  /** The title of a free day the portal does not name. */
  freeDay: string;
  /** "lessons 3–8" of a partly free day. */
  lessons: (from: number, to: number | null) => string;
  scope: { school: string; class: string };
}

const PL: CalendarText = {
  feeds: { lessons: 'lekcje', agenda: 'terminarz', 'free-days': 'dni wolne' },
  ...TIMETABLE_WORDS.pl,
  was: 'było',
  lesson: 'Lekcja',
  room: 'Sala',
  teacher: 'Nauczyciel',
  note: 'Uwagi',
  agenda: AGENDA_WORDS.pl,
  freeDay: 'Dzień wolny',
  lessons: (from, to) => (to === null ? `od lekcji ${from}` : `lekcje ${from}–${to}`),
  scope: { school: 'cała szkoła', class: 'klasa' },
};

const EN: CalendarText = {
  feeds: { lessons: 'lessons', agenda: 'agenda', 'free-days': 'free days' },
  ...TIMETABLE_WORDS.en,
  was: 'was',
  lesson: 'Lesson',
  room: 'Room',
  teacher: 'Teacher',
  note: 'Note',
  agenda: AGENDA_WORDS.en,
  freeDay: 'Free day',
  lessons: (from, to) => (to === null ? `from lesson ${from}` : `lessons ${from}–${to}`),
  scope: { school: 'whole school', class: 'class' },
};

const UK: CalendarText = {
  feeds: { lessons: 'уроки', agenda: 'розклад подій', 'free-days': 'вихідні дні' },
  ...TIMETABLE_WORDS.uk,
  was: 'було',
  lesson: 'Урок',
  room: 'Кабінет',
  teacher: 'Вчитель',
  note: 'Примітка',
  agenda: AGENDA_WORDS.uk,
  freeDay: 'Вихідний день',
  lessons: (from, to) => (to === null ? `з уроку ${from}` : `уроки ${from}–${to}`),
  scope: { school: 'уся школа', class: 'клас' },
};

const CALENDAR_TEXT: Record<Language, CalendarText> = { pl: PL, en: EN, uk: UK };

export function calendarText(language: Language): CalendarText {
  return CALENDAR_TEXT[language];
}
