// What the calendar feeds of one child hold (interface 6.5), as plain entries in no language: the
// lessons of this and next week with their changes, the agenda (tests, homework due, meetings, trips, and the
// year's term grades, proposed and given, on their days) and the free days. Each entry has a UID that stays the same when the portal edits what it stands for.
import { addDays } from '../util/time.js';
import { sameSubject, textCompare } from './order.js';
import type { AgendaItem } from './agenda.js';
import type { HomeworkItem } from './homework.js';
import { slotsOf, type GroupOut, type ScheduledLesson, type SchoolDay } from './schedule.js';
import type { FreeDay } from './schooldays.js';
import type { TermGrade } from './term-grades.js';
import type { GradePeriod } from './grades-standard.js';

/** The calendar feeds of one child (interface 6.5): `/calendar/<child>/<name>.ics`. */
export const CALENDAR_FEED_NAMES = ['lessons', 'agenda', 'free-days'] as const;
export type CalendarFeedName = (typeof CALENDAR_FEED_NAMES)[number];

/** When an entry happens: timed (Warsaw wall clock) when the hours are known, else whole days. */
export type EntryTime =
  | { date: string; from: string; to: string }
  /** `last` is the last day included (a free day may span several). */
  | { date: string; last: string; from?: undefined };

/** A slot of the lessons feed, in no language: what the timetable says of it, when, and the school's own remark (its note). */
export type LessonEntry = GroupOut & { uid: string; when: EntryTime; lessonNo: number | null; remark: string | null };

export type AgendaEntryKind = 'test' | 'quiz' | 'homework' | 'meeting' | 'trip' | 'event' | 'term_grade';

export interface AgendaEntry {
  uid: string;
  kind: AgendaEntryKind;
  when: EntryTime;
  subject: string | null;
  /** The teacher's words (the test's content, the homework's text). */
  text: string | null;
  /** The homework's topic, the agenda entry's category. */
  label: string | null;
  teacher: string | null;
  /** A term grade's kind (a semester's or the year's, proposed or given); `text` is its grade. */
  period?: GradePeriod;
}

export interface FreeDayEntry {
  uid: string;
  when: EntryTime;
  name: string | null;
  scope: FreeDay['scope'];
  /** Set when only these lessons are free. */
  lessons: { from: number; to: number | null } | null;
}

/** Every calendar feed's entries of one child, each list in date order. */
export interface CalendarFeedEntries {
  lessons: LessonEntry[];
  agenda: AgendaEntry[];
  freeDays: FreeDayEntry[];
}

/** Which part of the entries each calendar feed shows. */
export const CALENDAR_FEED_PARTS = { lessons: 'lessons', agenda: 'agenda', 'free-days': 'freeDays' } as const satisfies Record<
  CalendarFeedName,
  keyof CalendarFeedEntries
>;

/** What one calendar feed of a child shows, in no language: the feature publishes it, the web server renders it. */
export interface CalendarFeedContent<K extends CalendarFeedName = CalendarFeedName> {
  /** The child's first name (its id before the identity is known), for the calendar's name. */
  child: string;
  entries: CalendarFeedEntries[(typeof CALENDAR_FEED_PARTS)[K]];
}

/** Each calendar feed's content, by calendar feed name (what a pass of the calendar feeds gives). */
export type CalendarFeedContents = { [K in CalendarFeedName]?: CalendarFeedContent<K> };

export interface CalendarFeedInput {
  /** The child's id in topics: part of every UID, so that two children's calendar feeds never share one. */
  child: string;
  /** This and next week's days as the timetable computed them (schoolDays). */
  days: readonly SchoolDay[];
  agenda: readonly AgendaItem[];
  homework: readonly HomeworkItem[];
  /** The year's term grades, the one list the grades feature made (termGrades); none before its first read. */
  terms?: readonly TermGrade[];
  free: readonly FreeDay[];
  /** A slot's facts as the timetable says them (features/timetable/day.ts slotFacts). */
  slot: (slot: ScheduledLesson[]) => GroupOut;
}

/** How long a timed entry lasts when nothing tells its end: one lesson. */
const LESSON_MINUTES = 45;

const uidOf = (local: string, child: string): string => `${local.replace(/[^A-Za-z0-9-]/g, '-')}.${child}@dziennik2mqtt`;

function plusMinutes(time: string, minutes: number): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const total = Math.min(h * 60 + m + minutes, 23 * 60 + 59);
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

const allDay = (date: string, last = date): EntryTime => ({ date, last });

/**
 * The lessons of the days given, one entry per slot (a split class's groups in one, as every screen shows it): its
 * facts as the timetable says them (`facts`: features/timetable/day.ts slotFacts, the slot's change slotChange's), its
 * time, the school's own remark, and a UID that stays while the slot does.
 */
export function lessonEntries(days: readonly SchoolDay[], child: string, facts: (slot: ScheduledLesson[]) => GroupOut): LessonEntry[] {
  return days.flatMap((day) =>
    slotsOf(day.lessons ?? []).map((slot) => {
      const l = slot[0] as ScheduledLesson;
      // An extra class by its start and title: its number (when it has one) is a lesson's hour, not its slot.
      const local = l.extra
        ? `extra-${l.date}-${(l.from ?? 'x').replace(':', '')}-${l.subject ?? ''}`
        : `lesson-${l.date}-${l.lessonNo ?? (l.from ?? 'x').replace(':', '')}`;
      const remarks = [...new Set(slot.map((x) => x.note ?? x.change?.note).filter((r) => r))];
      return {
        ...facts(slot),
        uid: uidOf(local, child),
        when: l.from !== null ? { date: l.date, from: l.from, to: l.to ?? plusMinutes(l.from, LESSON_MINUTES) } : allDay(l.date),
        lessonNo: l.lessonNo,
        remark: remarks.length > 0 ? remarks.join(' / ') : null,
      };
    }),
  );
}

/**
 * When an entry of the agenda happens: at its own hour when the portal gives one (ending at its own end when given,
 * else with the lesson starting then, if any), else at the first lesson of its subject that day, else all day.
 */
function agendaTime(
  { date, time, time_to, subject }: Pick<AgendaItem, 'date' | 'time' | 'time_to' | 'subject'>,
  days: ReadonlyMap<string, SchoolDay>,
): EntryTime {
  const lessons = (days.get(date)?.lessons ?? []).filter((l) => l.takesPlace && l.from !== null);
  const lesson = lessons.find((l) => (time === null ? sameSubject(l.subject, subject) : l.from === time));
  const from = time ?? lesson?.from ?? null;
  if (from === null) return allDay(date);
  const ends = time !== null && time_to !== null && time_to > time ? time_to : undefined;
  return { date, from, to: ends ?? lesson?.to ?? plusMinutes(from, LESSON_MINUTES) };
}

/** The agenda's entries, the homework due dates and the term grades' days, by date. */
export function agendaEntries(input: Omit<CalendarFeedInput, 'free' | 'slot'>): AgendaEntry[] {
  const days = new Map(input.days.map((d) => [d.date, d]));
  // Homework is an entry of its due day, its topic the label.
  const homework = input.homework.flatMap((h) =>
    h.due === null
      ? []
      : [{ ...h, kind: 'homework' as const, date: h.due, until: null, time: null, time_to: null, content: h.text, category: h.topic }],
  );
  const entries = [...input.agenda, ...homework].map(
    ({ key, kind, date, until, time, time_to, subject, content, category, teacher }): AgendaEntry => ({
      uid: uidOf(key.replace(':', '-'), input.child),
      kind,
      // An entry of several days (a trip) spans them whole, whatever hour it starts.
      when: until !== null ? allDay(date, until) : agendaTime({ date, time, time_to, subject }, days),
      subject,
      text: content,
      label: category,
      teacher,
    }),
  );
  // Each term grade of the one list on its day (a replaced proposal once, by its newest; all of them, as the dashboard's table).
  const terms = (input.terms ?? []).flatMap(({ key, date, subject, grade, teacher, period }): AgendaEntry[] =>
    date === null
      ? []
      : [
          {
            uid: uidOf(key.replace(':', '-'), input.child),
            kind: 'term_grade',
            when: allDay(date),
            subject,
            text: grade,
            label: null,
            teacher,
            period,
          },
        ],
  );
  return sortedEntries([...entries, ...terms]);
}

/** Agenda entries in the calendar feed's order: by day, then hour (a whole day first), then uid. */
export function sortedEntries(entries: AgendaEntry[]): AgendaEntry[] {
  return entries.sort(
    (a, b) => textCompare(a.when.date, b.when.date) || textCompare(a.when.from ?? '', b.when.from ?? '') || textCompare(a.uid, b.uid),
  );
}

/** The free days of the school and of the child's class, whole days (a partial one names its lessons). */
export function freeDayEntries(free: readonly FreeDay[], child: string): FreeDayEntry[] {
  return free
    .map((f) => ({
      // Without a portal id the dates stand in (a moved free day is then a new one).
      uid: uidOf(`free-${f.scope}-${f.id ?? `${f.from}-${f.to}`}`, child),
      when: allDay(f.from, f.to < f.from ? f.from : f.to),
      name: f.name,
      scope: f.scope,
      lessons: f.lessons ? { from: f.lessons.from, to: Number.isFinite(f.lessons.to) ? f.lessons.to : null } : null,
    }))
    .sort((a, b) => textCompare(a.when.date, b.when.date) || textCompare(a.uid, b.uid));
}

export function calendarFeedEntries(input: CalendarFeedInput): CalendarFeedEntries {
  return {
    lessons: lessonEntries(input.days, input.child, input.slot),
    agenda: agendaEntries(input),
    freeDays: freeDayEntries(input.free, input.child),
  };
}

/** The Mondays-to-Sundays of this and next week: the days the lessons feed covers. */
export function calendarFeedDates(monday: string): string[] {
  return Array.from({ length: 14 }, (_, i) => addDays(monday, i));
}

/**
 * The lessons of a pass, with the kept lessons of the days it did not read (a day of `days` whose
 * lessons are unknown: next week, in a start's first pass), so that a calendar feed never loses a week it had;
 * while the extra classes are unread (`extraUnread`: their first read since the start failed), the kept ones of every day of `days`.
 */
export function keepUncovered(
  fresh: LessonEntry[],
  kept: readonly LessonEntry[] | undefined,
  days: readonly SchoolDay[],
  extraUnread = false,
): LessonEntry[] {
  if (kept === undefined || kept.length === 0) return fresh;
  const unread = new Set(days.filter((d) => d.lessons === undefined && d.freeDay === undefined).map((d) => d.date));
  const covered = new Set(extraUnread ? days.map((d) => d.date) : []);
  const carried = kept.filter((e) => unread.has(e.when.date) || (e.extra === true && covered.has(e.when.date)));
  return carried.length === 0
    ? fresh
    : [...fresh, ...carried].sort((a, b) => textCompare(a.when.date, b.when.date) || textCompare(a.when.from ?? '', b.when.from ?? ''));
}
