// How a week differs from the standing weekly plan (TimetableEntries, spec 2.7; interface 18.2): for each day of the
// weeks read, each slot of the plan against the lessons that day's timetable holds. A lesson of the plan that does
// not take place is missing; one the plan has not is added; another subject, teacher or room is told as such; a
// school weekday of the plan with no lesson at all is a day without lessons. Pure: copies and names in, facts out.
import type { TimetableEntry } from '../portal/schemas/timetable.js';
import type { Names } from './names.js';
import type { SchoolDay, ScheduledLesson } from './schedule.js';
import { dayOfWeek } from '../util/time.js';

export const STANDING_KINDS = ['missing', 'added', 'subject', 'teacher', 'room', 'no_lessons'] as const;
export type StandingKind = (typeof STANDING_KINDS)[number];

/** One difference: the day, the lesson number (null for a whole day), its kind, and what the plan has and the day has. */
export interface StandingDifference {
  date: string;
  no: number | null;
  kind: StandingKind;
  /** As the standing plan has it (a subject, a teacher, a room; the number of lessons for a day without any); null for an added lesson. */
  was: string | null;
  /** As the day has it; null for a missing lesson (and a day without lessons that is no named day off). */
  now: string | null;
}

/** A slot of the standing plan on a date: its lesson number, the lesson's subject, teacher and room, and which entry and lesson it is. */
export interface StandingSlot {
  no: number;
  subject: string | null;
  teacher: string | null;
  room: string | null;
  /** The entry's Id and its Lesson.Id: a day's lesson names them both (TimetableEntry, Lesson) when the portal gives them. */
  entry?: string | undefined;
  lesson?: string | undefined;
}

/** The Lessons lookup's lessons: Lesson.Id to its subject and teacher. */
export type LessonSides = ReadonlyMap<string, { Subject?: string | undefined; Teacher?: string | undefined }>;

/** What the plan left out: entries naming no lesson (or one without a subject), on a weekday never taught, or repeated. */
export interface StandingDropped {
  noLesson: number;
  notTaught: number;
  repeated: number;
}

/** The standing plan indexed by weekday once, each entry's names resolved once: the slots of a date, and what was left out. */
export interface StandingTimetable {
  slots(date: string): StandingSlot[];
  dropped: StandingDropped;
}

type DatedSlot = StandingSlot & { weekday: number; from: string; to: string };

/** One entry as a slot with its dates; null when it names no lesson with a subject, or no lesson number. */
function entrySlot(e: TimetableEntry, lessons: LessonSides, names: Names): DatedSlot | null {
  const lesson = e.Lesson === undefined ? undefined : lessons.get(e.Lesson);
  const subject = names.subject(lesson?.Subject);
  if (lesson === undefined || subject === null || e.LessonNo === undefined) return null;
  return {
    no: e.LessonNo,
    subject,
    teacher: names.teacher(lesson.Teacher),
    room: names.room(e.Classroom?.id, e.Classroom),
    entry: e.Id === undefined ? undefined : String(e.Id),
    lesson: e.Lesson,
    weekday: e.DayOfTheWeek ?? 0,
    from: e.DateFrom ?? '',
    to: e.DateTo ?? '9999',
  };
}

/**
 * The plan's entries by weekday, in one pass over them: an entry naming no lesson, on a weekday `taught` says the
 * school never teaches, or the same as one already kept (weekday, number, lesson, room and dates) is left out and counted.
 */
export function standingTimetable(
  entries: readonly TimetableEntry[],
  lessons: LessonSides,
  names: Names,
  taught: (weekday: number) => boolean,
): StandingTimetable {
  const dropped: StandingDropped = { noLesson: 0, notTaught: 0, repeated: 0 };
  const kept: DatedSlot[] = [];
  const seen = new Set<string>();
  for (const e of entries) {
    const slot = entrySlot(e, lessons, names);
    const key = slot && [slot.weekday, slot.no, slot.lesson, slot.room, slot.from, slot.to].join('|');
    if (slot === null || key === null) dropped.noLesson++;
    else if (!taught(slot.weekday)) dropped.notTaught++;
    else if (seen.has(key)) dropped.repeated++;
    else kept.push(slot);
    if (key !== null) seen.add(key);
  }
  const byWeekday = groupBy(kept, (s) => s.weekday);
  const slots = (date: string): StandingSlot[] =>
    (byWeekday.get(dayOfWeek(date)) ?? [])
      .filter((s) => s.from <= date && date <= s.to)
      .map(({ weekday: _weekday, from: _from, to: _to, ...slot }) => slot)
      .sort((a, b) => a.no - b.no);
  return { slots, dropped };
}

/** Items by a number of theirs (a weekday, a lesson number), in one pass; an item without one left out. */
function groupBy<T>(items: readonly T[], no: (item: T) => number | null): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const item of items) {
    const n = no(item);
    if (n === null) continue;
    const list = out.get(n);
    if (list === undefined) out.set(n, [item]);
    else list.push(item);
  }
  return out;
}

/** How far a planned slot is from a lesson held: 0 when teacher and room are as planned. */
function distance(p: StandingSlot, l: ScheduledLesson): number {
  const teacher = l.org?.teacher ?? l.teacher;
  return (
    (p.teacher !== null && teacher !== null && p.teacher !== teacher ? 2 : 0) + (p.room !== null && l.room !== null && p.room !== l.room ? 1 : 0)
  );
}

/**
 * The child's own entry of a slot for a lesson held: the entry the lesson names, else the one of its lesson, else of
 * the entries with its subject the nearest (its group's teacher and room); undefined when no entry has its subject.
 */
function ownEntry(planned: readonly StandingSlot[], l: ScheduledLesson): StandingSlot | undefined {
  const named =
    (l.entryId === undefined ? undefined : planned.find((p) => p.entry === l.entryId)) ??
    (l.lessonId === undefined ? undefined : planned.find((p) => p.lesson === l.lessonId));
  if (named !== undefined) return named;
  const same = planned.filter((p) => p.subject === l.subject);
  return same.sort((a, b) => distance(a, l) - distance(b, l))[0];
}

/** The distinct subjects of a slot's lessons: "Matematyka, Informatyka". */
const subjects = (list: readonly { subject: string | null }[]): string | null => [...new Set(list.map((l) => l.subject ?? ''))].join(', ') || null;

/** A lesson held against its own entry: another subject, teacher or room. */
function heldDifferences(date: string, no: number, planned: readonly StandingSlot[], l: ScheduledLesson): StandingDifference[] {
  const own = ownEntry(planned, l);
  if (own === undefined || own.subject !== l.subject) return [{ date, no, kind: 'subject', was: own?.subject ?? subjects(planned), now: l.subject }];
  return [
    ...(own.teacher !== null && l.teacher !== null && own.teacher !== l.teacher
      ? [{ date, no, kind: 'teacher' as const, was: own.teacher, now: l.teacher }]
      : []),
    ...(own.room !== null && l.room !== null && own.room !== l.room ? [{ date, no, kind: 'room' as const, was: own.room, now: l.room }] : []),
  ];
}

/** One slot against the plan: missing, added, or each lesson held against its group's own entry (the other group aside). */
function slotDifferences(date: string, no: number, planned: readonly StandingSlot[], held: readonly ScheduledLesson[]): StandingDifference[] {
  if (held.length === 0) return planned.length === 0 ? [] : [{ date, no, kind: 'missing', was: subjects(planned), now: null }];
  if (planned.length === 0) return [{ date, no, kind: 'added', was: null, now: subjects(held) }];
  return held.flatMap((l) => heldDifferences(date, no, planned, l));
}

/** One day against its slots of the plan, at most `limit`: a day without any lesson held is one difference, else each slot's. */
function dayDifferences(day: SchoolDay & { lessons: ScheduledLesson[] }, planned: readonly StandingSlot[], limit: number): StandingDifference[] {
  const plan = groupBy(planned, (p) => p.no);
  const lessons = day.lessons.filter((l) => !l.extra);
  if (!lessons.some((l) => l.takesPlace))
    return [{ date: day.date, no: null, kind: 'no_lessons', was: String(plan.size), now: day.freeDay?.name ?? null }];
  // The lessons of a slot that take place (an extra class is no lesson of the plan); a slot held none of is missing.
  const held = groupBy(
    lessons.filter((l) => l.takesPlace),
    (l) => l.lessonNo,
  );
  const numbers = [...new Set([...plan.keys(), ...groupBy(lessons, (l) => l.lessonNo).keys()])].sort((a, b) => a - b);
  const out: StandingDifference[] = [];
  for (const no of numbers) {
    if (out.length >= limit) break;
    out.push(...slotDifferences(day.date, no, plan.get(no) ?? [], held.get(no) ?? []));
  }
  return out.slice(0, limit);
}

/** More differences than a fortnight of honest lessons could hold: a plan past it is told up to it (interface 19.2). */
export const MAX_STANDING_DIFFERENCES = 300;

/**
 * How the days differ from the standing plan, in date and lesson order, the nearest `limit`: only days whose lessons
 * were read, and a weekday the plan has lessons on. A day without any lesson (all cancelled, or a day off) is one
 * difference. Linear in the lessons and slots read: each day's are grouped by number once.
 */
export function standingDifferences(
  days: readonly SchoolDay[],
  slots: (date: string) => readonly StandingSlot[],
  limit = MAX_STANDING_DIFFERENCES,
): StandingDifference[] {
  const out: StandingDifference[] = [];
  for (const day of days) {
    const planned = day.lessons === undefined || out.length >= limit ? [] : slots(day.date);
    if (day.lessons !== undefined && planned.length > 0) out.push(...dayDifferences({ ...day, lessons: day.lessons }, planned, limit - out.length));
  }
  return out;
}
