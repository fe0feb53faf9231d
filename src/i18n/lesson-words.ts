// A lesson, its day and an agenda entry in words, written once per language: what a changed lesson is
// called, where a moved one went or came from, the names of the weekdays and the kinds of the agenda. The board,
// the dashboard and the calendar feeds all say them from here, so that a moved lesson is
// "przeniesiona" on every screen.
import type { ChangeKind } from '../rules/plan-changes.js';
import type { AgendaEntryKind } from '../rules/calendar-feeds.js';
import type { Language } from '../config/language.js';
import { dayOfWeek } from '../util/time.js';

/** A changed lesson's change, as a word after its subject ("Matematyka (przeniesiona)"). */
export const CHANGE_WORDS: Readonly<Record<Language, Readonly<Record<ChangeKind, string>>>> = {
  pl: { cancelled: 'odwołana', substitution: 'zastępstwo', room_change: 'zmiana sali', shifted: 'przeniesiona' },
  en: { cancelled: 'cancelled', substitution: 'substitution', room_change: 'room change', shifted: 'moved' },
  uk: { cancelled: 'скасовано', substitution: 'заміна', room_change: 'зміна кабінету', shifted: 'перенесено' },
};

/** An extra class (zajęcia dodatkowe, live-notes 42-46), named beside its title on every screen. */
export const EXTRA_CLASS: Readonly<Record<Language, string>> = { pl: 'zajęcia dodatkowe', en: 'extra class', uk: 'додаткові заняття' };

/** The weekdays, Monday first (as Python's weekday() and our dayOfWeek() - 1 count). */
export const WEEKDAYS: Readonly<Record<Language, { long: readonly string[]; short: readonly string[] }>> = {
  pl: {
    long: ['poniedziałek', 'wtorek', 'środa', 'czwartek', 'piątek', 'sobota', 'niedziela'],
    short: ['pon.', 'wt.', 'śr.', 'czw.', 'pt.', 'sob.', 'niedz.'],
  },
  en: {
    long: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
    short: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
  },
  uk: {
    long: ['понеділок', 'вівторок', 'середа', 'четвер', "п'ятниця", 'субота', 'неділя'],
    short: ['пн', 'вт', 'ср', 'чт', 'пт', 'сб', 'нд'],
  },
};

/** What an agenda entry is, as its title says when it names no subject ("Wycieczka: Kopalnia Soli"). */
export const AGENDA_WORDS: Readonly<Record<Language, Readonly<Record<AgendaEntryKind, string>>>> = {
  pl: {
    test: 'Sprawdzian',
    quiz: 'Kartkówka',
    homework: 'Zadanie domowe',
    meeting: 'Zebranie z rodzicami',
    trip: 'Wycieczka',
    event: 'Wydarzenie',
    term_grade: 'Ocena okresowa',
  },
  en: { test: 'Test', quiz: 'Quiz', homework: 'Homework', meeting: 'Parent-teacher meeting', trip: 'Trip', event: 'Event', term_grade: 'Term grade' },
  uk: {
    test: 'Контрольна',
    quiz: 'Коротка контрольна',
    homework: 'Домашнє завдання',
    meeting: 'Батьківські збори',
    trip: 'Екскурсія',
    event: 'Подія',
    term_grade: 'Підсумкова оцінка',
  },
};

/** "czw. 26.11" / "Thu 26.11" for a YYYY-MM-DD date (the date itself when it is not one). */
export function shortDay(date: string, language: Language): string {
  const match = /^\d{4}-(\d{2})-(\d{2})/.exec(date);
  return match ? `${WEEKDAYS[language].short[dayOfWeek(match[0]) - 1]} ${match[2]}.${match[1]}` : date;
}

/**
 * Where a lesson moved to, or where one moved in came from: "przeniesiona na czw. 26.11, lekcja 7",
 * "moved from Tue 24.11, lesson 5"; no number, no "lesson" part.
 */
export function moved(language: Language, way: 'to' | 'from', date: string, lessonNo: number | null): string {
  const words = MOVED_WORDS[language];
  const lesson = lessonNo === null ? '' : `, ${words.lesson} ${lessonNo}`;
  return `${words[way]} ${shortDay(date, language)}${lesson}`;
}

const MOVED_WORDS: Readonly<Record<Language, { to: string; from: string; lesson: string }>> = {
  pl: { to: 'przeniesiona na', from: 'przeniesiona z', lesson: 'lekcja' },
  en: { to: 'moved to', from: 'moved from', lesson: 'lesson' },
  uk: { to: 'перенесено на', from: 'перенесено з', lesson: 'урок' },
};

/**
 * The timetable feature's words: a lesson's change as timetable_*'s `note` says it ("zmiana sali · s. 4 · było:
 * s. 12"), which the board and the dashboard print; a lesson the portal names no subject of.
 * The words every screen shares come from the tables above; the English table is every language's shape.
 */
const lessonWords = (language: Language) => ({
  changes: CHANGE_WORDS[language],
  extra: EXTRA_CLASS[language],
  /** A lesson moved away: "przeniesiona na czw. 26.11, lekcja 7". */
  movedTo: (date: string, lessonNo: number | null) => moved(language, 'to', date, lessonNo),
  /** A lesson moved in: "przeniesiona z wt. 24.11, lekcja 5". */
  movedFrom: (date: string, lessonNo: number | null) => moved(language, 'from', date, lessonNo),
  /** The room a lesson moved to, "s. 4", and the one it left, "było: s. 12". */
  room: (room: string) => `${ROOM_WORDS[language].room} ${room}`,
  wasRoom: (room: string) => `${ROOM_WORDS[language].was} ${ROOM_WORDS[language].room} ${room}`,
});

const ROOM_WORDS: Readonly<Record<Language, { room: string; was: string }>> = {
  pl: { room: 's.', was: 'było:' },
  en: { room: 'room', was: 'was' },
  uk: { room: 'каб.', was: 'було:' },
};

/** How a day differs from the standing weekly plan (rules/standing-timetable.ts), as every screen says it: the English shape. */
const STANDING_EN = {
  heading: 'Different from the standing plan',
  missing: (was: string) => `no lesson: ${was} (in the standing plan)`,
  added: (now: string) => `an extra lesson: ${now}`,
  subject: (was: string, now: string) => `${now} instead of ${was}`,
  teacher: (was: string, now: string) => `taught by ${now} instead of ${was}`,
  room: (was: string, now: string) => `room ${now} instead of ${was}`,
  noLessons: (lessons: string, dayOff: string | null) => `no lessons${dayOff === null ? '' : ` (${dayOff})`}; the standing plan has ${lessons}`,
};

const EN = {
  ...lessonWords('en'),
  instead: (what: string) => `instead of ${what}`,
  /** A substitute's lesson of the same subject, by the teacher who is away (the substitute is the lesson's teacher). */
  substituteFor: (away: string) => `substitute for ${away}`,
  unnamed: 'Lesson',
  standing: STANDING_EN,
};

export type TimetableWords = typeof EN;

export const TIMETABLE_WORDS: Readonly<Record<Language, TimetableWords>> = {
  pl: {
    ...lessonWords('pl'),
    instead: (what) => `zamiast: ${what}`,
    // A name after "za" would want its accusative: the teacher's is given as it is written.
    substituteFor: (away) => `zastępstwo za: ${away}`,
    unnamed: 'Lekcja',
    standing: {
      heading: 'Inaczej niż w stałym planie',
      missing: (was) => `brak lekcji: ${was} (jest w stałym planie)`,
      added: (now) => `dodatkowa lekcja: ${now}`,
      // A name after "zamiast" would want its genitive: the plan's one is given as it is written.
      subject: (was, now) => `${now} (w stałym planie: ${was})`,
      teacher: (was, now) => `uczy ${now} (w stałym planie: ${was})`,
      room: (was, now) => `sala ${now} zamiast ${was}`,
      noLessons: (lessons, dayOff) => `bez lekcji${dayOff === null ? '' : ` (${dayOff})`}; w stałym planie lekcji: ${lessons}`,
    },
  },
  en: EN,
  uk: {
    ...lessonWords('uk'),
    instead: (what) => `замість: ${what}`,
    substituteFor: (away) => `заміна, замість: ${away}`,
    unnamed: 'Урок',
    standing: {
      heading: 'Не так, як у сталому розкладі',
      missing: (was) => `немає уроку: ${was} (є в сталому розкладі)`,
      added: (now) => `додатковий урок: ${now}`,
      subject: (was, now) => `${now} (у сталому розкладі: ${was})`,
      teacher: (was, now) => `веде ${now} (у сталому розкладі: ${was})`,
      room: (was, now) => `кабінет ${now} замість ${was}`,
      noLessons: (lessons, dayOff) => `без уроків${dayOff === null ? '' : ` (${dayOff})`}; у сталому розкладі уроків: ${lessons}`,
    },
  },
};
