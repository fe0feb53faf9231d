// The class agenda: HomeWorks entries (tests, quizzes, trips, meetings), parent-teacher meetings
// (the same meeting may also be in HomeWorks) and school trips: the tests ahead and the agenda
// entries that are news.
import type { HomeWork, HomeWorkCategory, ParentTeacherConference, SchoolTrip } from '../portal/schemas/agenda.js';
import { addDays } from '../util/time.js';
import { byId, collapse, dayOf, hhmm } from './portal-values.js';
import { fold, textCompare } from './order.js';
import type { NewsItem } from './news.js';
import { fullName, type Names } from './names.js';

/** What an entry is: a test or a quiz (kartkówka), a parent-teacher meeting, a trip or another entry. */
export type AgendaKind = TestKind | 'meeting' | 'trip' | 'event';
/** What kind of test an entry is, for an automation: `quiz` (kartkówka, quiz) or `test` (the rest). */
export type TestKind = 'test' | 'quiz';

export interface AgendaItem {
  /** Stable and unique: the event id. */
  key: string;
  kind: AgendaKind;
  date: string;
  /** The last day of an entry of several days (a trip's termTo); null for an entry of one day. */
  until: string | null;
  /** HH:MM, when known. */
  time: string | null;
  /** HH:MM the entry ends on its (last) day, when the school gives it (HomeWorks' TimeTo, a trip's termTo); else null. */
  time_to: string | null;
  subject: string | null;
  category: string | null;
  content: string | null;
  teacher: string | null;
}

/**
 * Tests and quizzes by the words schools use, in the category name or in the content (a quiz may be
 * filed under a generic category, spec 2.8). Matched at a word start, without diacritics, so that
 * 'Kartkówka', 'kartkowki' and 'sprawdzianu' all count.
 */
const TEST = /(^|[^a-z])(sprawdzian|kartkowk|klasowk|praca klasowa|test|quiz|egzamin)/;
// An open day (dzień otwarty) is the school's own event, not a parents' meeting: its entry is told by its category.
const MEETING = /(^|[^a-z])(zebrani|wywiadowk|konsultacj|spotkanie z rodzicami)/;
const TRIP = /(^|[^a-z])(wycieczk|wyjazd|wyjscie|zielona szkola)/;
/** Of the tests, the short unannounced-size ones: a kartkówka or a quiz. */
const QUIZ = /(^|[^a-z])(kartkowk|quiz)/;

/** The kind a text names: a test (a quiz when it names one) first (a meeting about a test's results is rare), then a meeting, then a trip. */
function kindNamed(text: string): AgendaKind | undefined {
  if (TEST.test(text)) return QUIZ.test(text) ? 'quiz' : 'test';
  if (MEETING.test(text)) return 'meeting';
  if (TRIP.test(text)) return 'trip';
  return undefined;
}

/**
 * What an entry is, by its category and its content (spec 2.8: match both): the category decides when
 * it names a kind ("Zebranie z rodzicami" whose text mentions a trip is a meeting, a quiz filed as
 * "Sprawdzian" a test); an entry filed under a generic category ("Inne") is what its content names.
 * The one rule every screen, the events, the briefing and the calendar feeds read as `kind`.
 */
export function agendaKind(category: string | undefined, content: string | undefined): AgendaKind {
  return kindNamed(fold(category)) ?? kindNamed(fold(content)) ?? 'event';
}

/**
 * What an entry is called where its kind is said, when the school's words must say it: the category the school filed
 * an entry under that no kind names (`event`, "Inne"), never a kind guessed for it; null for a kind the bridge names
 * (a test, a quiz, a meeting, a trip: the family's word for it) and for an entry filed under no category.
 */
export const schoolCategory = (e: { kind: AgendaKind; category: string | null }): string | null => (e.kind === 'event' ? e.category : null);

/** A test or a quiz, as against a meeting, a trip or another entry. */
export const isTest = <T extends { kind: AgendaKind }>(i: T): i is T & { kind: TestKind } => i.kind === 'test' || i.kind === 'quiz';

export interface AgendaInput {
  homeWorks?: readonly HomeWork[];
  homeWorkCategories?: readonly HomeWorkCategory[];
  conferences?: readonly ParentTeacherConference[];
  trips?: readonly SchoolTrip[];
  names: Names;
  /** The school's bells (the timetable's): an entry with a lesson number and no hour starts at its lesson's. */
  bells?: readonly { no: number; from: string }[];
}

const timeOf = (value: string | undefined): string | null => {
  const m = value === undefined ? null : /\d{1,2}:\d{2}/.exec(value);
  return m ? (hhmm(m[0]) ?? null) : null;
};

/**
 * A school trip the teacher also wrote into the agenda: an agenda entry on the trip's first day whose
 * text names the destination (its part before the first comma, so "Centrum Nauki Kopernik,
 * Warszawa" matches "Wycieczka do Centrum Nauki Kopernik"). Compared without case and diacritics, and
 * each word of the place by its stem (a longer word without its last letter), since Polish declines a
 * place: "Warszawa" is named in "Wycieczka do Warszawy", "Tatry" in "Wyjazd w Tatry".
 */
function inAgenda(agenda: readonly AgendaItem[], date: string, destination: string | undefined): AgendaItem | undefined {
  const words = fold(collapse(destination?.split(',')[0]))
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((w) => (w.length > 4 ? w.slice(0, -1) : w));
  if (words.length === 0) return undefined;
  return agenda.find((i) => {
    if (i.date !== date) return false;
    const text = fold(collapse([i.category, i.content].filter(Boolean).join(' ')));
    return words.every((w) => new RegExp(`(^|[^a-z0-9])${w}`).test(text));
  });
}

/** A parent-teacher meeting already in HomeWorks: a meeting of the same day at its hour, or with no hour on either side. */
function meetingWritten(meetings: readonly AgendaItem[], date: string, time: string | null): boolean {
  return meetings.some((m) => m.date === date && (m.time === null || time === null || m.time === time));
}

/** A trip's last day when it ends on a later day than it starts (termTo); else null. */
function lastDay(from: string, termTo: string | undefined): string | null {
  const to = dayOf(termTo);
  return to !== undefined && to > from ? to : null;
}

/**
 * The agenda by date and time (an entry given a lesson number and no hour at its lesson's start); a parent-teacher meeting already in HomeWorks as a meeting (same date,
 * the same hour or none given) once, a school trip already in HomeWorks (same date, same destination) once, as the agenda
 * entry. A test or another entry at the meeting's hour hides nothing.
 */
export function agendaItems(input: AgendaInput): AgendaItem[] {
  const categories = byId(input.homeWorkCategories);
  const starts = new Map(input.bells?.map((b) => [b.no, b.from]));
  const out: AgendaItem[] = [];
  for (const h of input.homeWorks ?? []) {
    const date = dayOf(h.Date);
    if (date === undefined) continue;
    const category = h.Category === undefined ? undefined : categories.get(h.Category)?.Name?.trim();
    out.push({
      key: `agenda:${h.Id}`,
      kind: agendaKind(category, h.Content),
      date,
      until: null,
      time: hhmm(h.TimeFrom) ?? (h.LessonNo === undefined ? undefined : starts.get(h.LessonNo)) ?? null,
      time_to: hhmm(h.TimeTo) ?? null,
      subject: input.names.subject(h.Subject),
      category: category ?? null,
      content: collapse(h.Content) ?? null,
      teacher: input.names.teacher(h.CreatedBy),
    });
  }
  const meetings = out.filter((i) => i.kind === 'meeting');
  for (const c of input.conferences ?? []) {
    const date = dayOf(c.Date);
    const time = hhmm(c.Time) ?? null;
    if (date === undefined || meetingWritten(meetings, date, time)) continue;
    out.push({
      key: `meeting:${c.Id}`,
      kind: 'meeting',
      date,
      until: null,
      time,
      time_to: null,
      subject: null,
      category: null,
      content: collapse(c.Topic) ?? null,
      teacher: input.names.teacher(c.Teacher),
    });
  }
  const agenda = out.slice();
  for (const t of input.trips ?? []) {
    const date = dayOf(t.termFrom);
    if (date === undefined) continue;
    const until = lastDay(date, t.termTo);
    const written = inAgenda(agenda, date, t.destination);
    if (written !== undefined) {
      // The teacher's entry stands for the trip, over all of its days.
      written.until = until;
      continue;
    }
    out.push({
      key: `trip:${t.id}`,
      kind: 'trip',
      date,
      until,
      time: timeOf(t.termFrom?.slice(10)),
      time_to: timeOf(t.termTo?.slice(10)),
      subject: null,
      category: null,
      content: collapse([t.destination, t.route].filter(Boolean).join(': ')) ?? null,
      teacher: t.coordinatorName?.trim() ?? fullName(t.creatorName, t.creatorLastName),
    });
  }
  return out.sort((a, b) => textCompare(a.date, b.date) || textCompare(a.time ?? '', b.time ?? ''));
}

/** How far ahead the upcoming tests go: today and the next 14 days. */
const TESTS_AHEAD_DAYS = 14;

/** An entry's hours as a parent reads them: "07:45–16:00" with its end, "07:45" without; null without an hour. */
export const agendaHours = (e: Pick<AgendaItem, 'time' | 'time_to'>): string | null =>
  e.time === null ? null : e.time_to !== null && e.time_to > e.time ? `${e.time}–${e.time_to}` : e.time;

/** What a parent reads of an entry (its key is only for telling entries apart). */
export const agendaFields = ({ key: _key, ...item }: AgendaItem): Omit<AgendaItem, 'key'> => item;

/** The agenda from today to 14 days ahead: its tests and quizzes, and the other entries beside them. */
export type UpcomingTests = ReturnType<typeof upcomingTests>;

/** Tests and quizzes from today to 14 days ahead, nearest first; other entries alongside (a trip under way too). */
export function upcomingTests(items: readonly AgendaItem[], today: string) {
  const last = addDays(today, TESTS_AHEAD_DAYS);
  const ahead = items.filter((i) => (i.until ?? i.date) >= today && i.date <= last);
  return { tests: ahead.filter(isTest), other: ahead.filter((i) => !isTest(i)) };
}

/** An agenda entry that is neither a test nor homework: a trip, a meeting or another entry. */
export type OtherAgendaKind = Exclude<AgendaKind, TestKind>;

/**
 * What an `agenda` event carries: what the entry is (`kind`: meeting, trip or event), its day (and last
 * day), time, subject, category, text (`description`, as a test's) and teacher.
 */
export type AgendaEntryPayload = Omit<AgendaItem, 'key' | 'kind' | 'content'> & { kind: OtherAgendaKind; description: AgendaItem['content'] };

const isEntry = (i: AgendaItem): i is AgendaItem & { kind: OtherAgendaKind } => !isTest(i);

/**
 * `agenda` event candidates: the trips, meetings and other entries not yet over (a test is a `test`
 * event, never both).
 */
export function agendaEvents(items: readonly AgendaItem[], today: string): NewsItem<AgendaEntryPayload>[] {
  return items
    .filter(isEntry)
    .filter((i) => (i.until ?? i.date) >= today)
    .map(({ key, content, teacher, ...entry }) => ({ id: key, payload: { ...entry, description: content, teacher } }));
}

/** What a `test` event carries: the entry's day, time, subject and teacher, whether a quiz, its category and text. */
export type TestPayload = Omit<AgendaItem, 'key' | 'kind' | 'until' | 'content'> & { kind: TestKind; description: AgendaItem['content'] };

/**
 * `test` event candidates: tests and quizzes dated today or later (the seen memory keeps each one to a
 * single event; a past one is no news). The payload is what a notification says.
 */
export function testEvents(items: readonly AgendaItem[], today: string): NewsItem<TestPayload>[] {
  return items
    .filter(isTest)
    .filter((i) => i.date >= today)
    .map(({ key, kind, until: _until, category, content, teacher, ...test }) => ({
      id: key,
      payload: { ...test, kind, category, description: content, teacher },
    }));
}
