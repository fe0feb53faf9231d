// School days and lesson times: the timetable minus cancelled lessons and free days (the whole
// school's, and the child's class's, possibly only some lessons). Tells which days are school days,
// when lessons start and end, the next lesson, the next school day, and which timetable weeks to fetch.
import type { ClassFreeDay, ClassFreeDayType, SchoolFreeDay } from '../portal/schemas/calendar.js';
import type { TimetableDays } from '../portal/schemas/timetable.js';
import { addDays, isoAt, weekStart } from '../util/time.js';
import { byId, dayOf } from './portal-values.js';
import type { Names } from './names.js';
import { dayLessons, sameSlot, type DayLesson } from './timetable.js';

export interface FreeDaysInput {
  schoolFreeDays?: readonly SchoolFreeDay[];
  classFreeDays?: readonly ClassFreeDay[];
  classFreeDayTypes?: readonly ClassFreeDayType[];
  /**
   * The child's class (Users/<id>.Class.Id). Without it class free days are not applied: ClassFreeDays
   * lists every class of the school, and wrongly turning a school day OFF (a missed alarm) is worse
   * than wrongly leaving it ON.
   */
  classId?: string;
}

export interface FreeDay {
  /** The portal's id of the entry (unique within its scope): what keeps a moved free day the same one. */
  id?: string;
  name: string | null;
  scope: 'school' | 'class';
  from: string;
  to: string;
  /** Only some lessons are free: which (`to` Infinity: to the end of the day); null when the whole day is. */
  lessons: { from: number; to: number } | null;
}

export function freeDays(input: FreeDaysInput): FreeDay[] {
  const out: FreeDay[] = [];
  for (const d of input.schoolFreeDays ?? []) {
    const from = dayOf(d.DateFrom);
    const to = dayOf(d.DateTo) ?? from;
    if (from && to) out.push({ id: d.Id, name: d.Name?.trim() ?? null, scope: 'school', from, to, lessons: null });
  }
  if (input.classId === undefined) return out;
  const types = byId(input.classFreeDayTypes);
  for (const d of input.classFreeDays ?? []) {
    if (d.Class !== input.classId) continue;
    const from = dayOf(d.DateFrom);
    const to = dayOf(d.DateTo) ?? from;
    if (!from || !to) continue;
    const type = d.Type === undefined ? undefined : types.get(d.Type);
    const day: FreeDay = { id: d.Id, name: type?.Name?.trim() ?? null, scope: 'class', from, to, lessons: null };
    // Values are not documented: a positive bound makes it partial, a missing bound is open.
    const [lf, lt] = [d.LessonNoFrom, d.LessonNoTo].map((n) => (n !== undefined && n > 0 ? n : undefined));
    if (lf !== undefined || lt !== undefined) day.lessons = { from: lf ?? 0, to: lt ?? Infinity };
    out.push(day);
  }
  return out;
}

/** What a day is made of: the timetable, the names to show, and the free days. */
export interface SchoolCalendar {
  days: TimetableDays;
  names: Names;
  free: readonly FreeDay[];
}

function freeOn(cal: SchoolCalendar, date: string): FreeDay[] {
  return cal.free.filter((f) => f.from <= date && date <= f.to);
}

function isFreed(lesson: Pick<DayLesson, 'lessonNo'>, free: readonly FreeDay[]): boolean {
  return free.some((f) => f.lessons === null || (lesson.lessonNo !== null && lesson.lessonNo >= f.lessons.from && lesson.lessonNo <= f.lessons.to));
}

/** Whether a free day (the school's, or the class's with its lessons) frees this slot of a day: no lesson of it takes place. */
export function freesSlot(free: readonly FreeDay[], date: string, lessonNo: number | null): boolean {
  return isFreed(
    { lessonNo },
    free.filter((f) => f.from <= date && date <= f.to),
  );
}

/** A lesson of the timetable and whether it takes place (neither cancelled nor freed). */
export interface PlannedLesson extends DayLesson {
  takesPlace: boolean;
}

/**
 * Every lesson the timetable has on a day, in slot order; undefined when the day is not known. A
 * whole free day the timetable does not cover is known: a day without lessons.
 */
export function plannedLessons(cal: SchoolCalendar, date: string): PlannedLesson[] | undefined {
  const free = freeOn(cal, date);
  const lessons = dayLessons(cal.days, date, cal.names);
  if (lessons === undefined) return free.some((f) => f.lessons === null) ? [] : undefined;
  // A lesson moved elsewhere does not take place in the slot it leaves, flagged cancelled or not.
  return lessons.map((l) => ({ ...l, takesPlace: !l.cancelled && l.moved === null && !isFreed(l, free) }));
}

/** Whether a lesson takes place on a day (not cancelled, not freed); undefined when the day is not known. */
export function isSchoolDay(cal: SchoolCalendar, date: string): boolean | undefined {
  return plannedLessons(cal, date)?.some((l) => l.takesPlace);
}

/** The first school day after `date`; null when an unknown day comes first or none within `horizon` days. */
export function nextSchoolDay(cal: SchoolCalendar, date: string, horizon = 21): string | null {
  for (let i = 1; i <= horizon; i++) {
    const day = addDays(date, i);
    const school = isSchoolDay(cal, day);
    if (school === undefined) return null;
    if (school) return day;
  }
  return null;
}

/** The free day covering a whole date, if any (a partial one only removes some lessons). */
export function wholeFreeDay(cal: SchoolCalendar, date: string): FreeDay | undefined {
  return freeOn(cal, date).find((f) => f.lessons === null);
}

/** First start and last end of the day's lessons that take place, as ISO timestamps with the Warsaw offset; null when unknown or none. */
export function lessonHours(date: string, lessons: readonly PlannedLesson[] | undefined): { start: string | null; end: string | null } {
  const held = (lessons ?? []).filter((l) => l.takesPlace);
  const known = (times: (string | null)[]): string[] => times.filter((t) => t !== null).sort();
  const first = known(held.map((l) => l.from))[0];
  const last = known(held.map((l) => l.to)).at(-1);
  return { start: first !== undefined ? isoAt(date, first) : null, end: last !== undefined ? isoAt(date, last) : null };
}

/** The lesson going on now or the next one: its slot and every group's lesson in it. */
export type NextLesson<L extends PlannedLesson = PlannedLesson> = NonNullable<ReturnType<typeof nextLesson<L>>>;

/**
 * The lesson of `date` going on at `time` (HH:MM) or the next one after it (all groups of a split slot), among the
 * day's lessons in start order (schedule.ts: the timetable's and the extra classes); null when none is left.
 * A substitute lesson often has no room in the timetable; `roomOf` (from the plan changes) fills it in.
 */
export function nextLesson<L extends PlannedLesson>(
  lessons: readonly L[] | undefined,
  date: string,
  time: string,
  roomOf: (date: string, lessonNo: number | null) => string | null = () => null,
) {
  const upcoming = (lessons ?? []).filter((l) => l.takesPlace && l.date === date && (l.to ?? l.from ?? '') > time);
  const first = upcoming[0];
  if (first === undefined) return null;
  const slot = upcoming.filter((l) => sameSlot(l, first));
  return {
    date,
    lessonNo: first.lessonNo,
    /** HH:MM. */
    from: first.from,
    to: first.to,
    /** ISO timestamp of `from`. */
    start: first.from ? isoAt(date, first.from) : null,
    /** Every group's lesson of the slot (a split class has several). */
    lessons: slot.map((l) => ({ ...l, room: l.room ?? (l.extra ? null : roomOf(date, l.lessonNo)) })),
  };
}

/**
 * The Mondays whose Timetables must be fetched: this week always; next week when tomorrow is in it
 * (Sunday) or, once this week is known (`cal`), when no school day is left after today this week.
 * Call it without `cal` first, fetch, then call it again with this week's data.
 */
export function timetableWeeks(today: string, cal?: SchoolCalendar): string[] {
  const thisWeek = weekStart(today);
  const nextWeek = addDays(thisWeek, 7);
  if (weekStart(addDays(today, 1)) === nextWeek) return [thisWeek, nextWeek];
  if (cal === undefined) return [thisWeek];
  for (let day = addDays(today, 1); day < nextWeek; day = addDays(day, 1)) {
    if (isSchoolDay(cal, day) !== false) return [thisWeek];
  }
  return [thisWeek, nextWeek];
}

/** What a `free_day` event carries: its name, scope and days, and lessons_from/lessons_to when only these lessons are free (lessons_to null: to the end of the day). */
export type FreeDayPayload = ReturnType<typeof freeDayEvents>[number]['payload'];

/**
 * Free days not over yet (the child's class's and the whole school's), as `free_day` event
 * candidates: one per free day, keyed by its scope, dates and lessons (the lists carry no stable
 * meaning in their ids across the two endpoints).
 */
export function freeDayEvents(free: readonly FreeDay[], today: string) {
  return free
    .filter((f) => f.to >= today)
    .map(({ name, scope, from, to, lessons }) => ({
      id: `${scope}:${from}:${to}:${lessons ? `${lessons.from}-${lessons.to}` : 'all'}`,
      payload: { name, scope, from, to, lessons_from: lessons?.from ?? null, lessons_to: lessons && Number.isFinite(lessons.to) ? lessons.to : null },
    }));
}
