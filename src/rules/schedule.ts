// One child's timetable at one instant, computed together because every part shares the school
// calendar: each day that matters (its lessons, its changes, whether it is free), the next lesson,
// the next school day, and the plan changes that are news.
import type { Bell } from '../portal/schemas/identity.js';
import type { OtherActivity, Substitution, TimetableDays } from '../portal/schemas/timetable.js';
import { bellTimes, otherGroupLessons, sameSlot, withoutLessons } from './timetable.js';
import { extraLessons, withExtra } from './extra-classes.js';
import { addDays, warsawDate, warsawInstant, warsawTimeOfDay } from '../util/time.js';
import type { Names } from './names.js';
import { changesOn, planChangeEvents, planChanges, slotOn, type ChangeKind, type PlanChange } from './plan-changes.js';
import {
  freeDays,
  freesSlot,
  lessonHours,
  nextLesson,
  nextSchoolDay,
  plannedLessons,
  wholeFreeDay,
  type FreeDay,
  type FreeDaysInput,
  type PlannedLesson,
  type SchoolCalendar,
} from './schooldays.js';

export interface ScheduleInput {
  /** Timetables of the weeks fetched (see timetableWeeks), merged with mergeTimetables. */
  days: TimetableDays;
  /** Calendars/Substitutions. */
  substitutions?: readonly Substitution[];
  /** Timetables/OtherActivitiesRegister's extra classes, merged into their days (extra-classes.ts). */
  extra?: readonly OtherActivity[];
  free: FreeDaysInput;
  names: Names;
  /**
   * The Lesson.Ids of the child's attendance marks: a split class's other group (otherGroupLessons)
   * is then left out of the day, its hours and the next lesson. Undefined: every group counts.
   */
  attended?: ReadonlySet<string>;
  /** The school's bells (schoolBells), for a change in a week not fetched; the timetable's when not given. */
  bells?: readonly Bell[];
  /** Whether the standing plan splits a slot of a day into groups (a change of a week not fetched: plan-changes.ts). */
  split?: (date: string, no: number | null) => boolean;
  /** The instant to compute for (ms); "today" is its Warsaw date. */
  now: number;
}

/** A lesson of the day with the change to its slot, if any. */
export interface ScheduledLesson extends PlannedLesson {
  change: PlanChange | null;
}

/** A slot on a day: its date, lesson number (none when unknown) and hours. */
export type SlotPlace = { date: string; lesson_no: number | null; hours: string | null };

/** One group's lesson of a slot as the timetable publishes it (features/timetable/day.ts) and the lessons feed shows it. */
export interface GroupOut {
  subject: string | null;
  teacher: string | null;
  room: string | null;
  change: ChangeKind | null;
  /** What was planned, for a changed lesson; undefined (left out of the published lesson) for an unchanged one. */
  original_subject: string | null | undefined;
  original_teacher: string | null | undefined;
  original_room: string | null | undefined;
  /** A lesson that moved away from this slot: where it goes (live-notes 11). */
  moved_to?: SlotPlace;
  /** A lesson that moved into this slot from another day or hour: where it was. */
  moved_from?: SlotPlace;
  /** An extra class (zajęcia dodatkowe, live-notes 42-46), not a lesson of the timetable; undefined (left out) for a lesson. */
  extra: true | undefined;
}

/** One day with its lessons and their changes: what a family looks at for a date. */
export interface SchoolDay {
  date: string;
  /**
   * Every lesson of the timetable that day in slot order, each with whether it takes place (neither
   * cancelled nor freed) and its change; undefined when the timetable does not cover the day.
   */
  lessons: ScheduledLesson[] | undefined;
  /** Every change to the timetable that touches the day, by lesson (a lesson moved away shows in its old slot). */
  changes: PlanChange[];
  /** The free day covering the whole date, if any. */
  freeDay: FreeDay | undefined;
  /**
   * First start and last end of the lessons that take place, extra classes included (the child is at school
   * for them), ISO timestamps; null when unknown or none. Every screen's span of the day is this one.
   */
  start: string | null;
  end: string | null;
}

/** The slot in progress at `time` (HH:MM): its groups' lessons that take place; empty when none. */
function slotAt(lessons: readonly ScheduledLesson[] | undefined, time: string): ScheduledLesson[] {
  const on = (lessons ?? []).filter((l) => l.takesPlace && l.from !== null && l.to !== null && l.from <= time && time < l.to);
  const first = on[0];
  return first === undefined ? [] : on.filter((l) => sameSlot(l, first));
}

/** The instants after `now` at which a lesson of the day starts or ends, ascending and distinct. */
function boundariesOf(day: SchoolDay, now: number): number[] {
  const times = (day.lessons ?? []).filter((l) => l.takesPlace).flatMap((l) => [l.from, l.to]);
  const instants = times.filter((t) => t !== null).map((t) => warsawInstant(day.date, t));
  return [...new Set(instants)].filter((t) => t > now).sort((a, b) => a - b);
}

/**
 * The change to a lesson's slot. A split slot's groups share a lesson number: there the change goes
 * to the group it names (its subject, now or as planned, and its teacher as planned where the change names one:
 * groups of one subject differ by teacher), or to the one cancelled group.
 */
function changeOf(l: PlannedLesson, own: readonly PlanChange[], day: readonly PlannedLesson[], date: string): PlanChange | null {
  // A lesson that moves away (also to another hour of the same day) is the change that left its slot.
  if (l.moved !== null) return own.find((c) => c.kind === 'shifted' && c.original_date === date && c.original_lesson_no === l.lessonNo) ?? null;
  const inSlot = own.filter((c) => slotOn(c, date) !== null && slotOn(c, date) === l.lessonNo);
  if (inSlot.length === 0) return null;
  const groups = day.filter((g) => g.lessonNo === l.lessonNo).length;
  if (groups <= 1) return inSlot[0] ?? null;
  const teacher = l.org?.teacher ?? l.teacher;
  const named = inSlot.find(
    (c) =>
      (c.subject === l.subject || c.original_subject === l.subject) &&
      (c.original_teacher === null || teacher === null || c.original_teacher === teacher),
  );
  if (named) return named.kind === 'cancelled' && !l.cancelled ? null : named;
  return l.cancelled ? (inSlot.find((c) => c.kind === 'cancelled') ?? null) : null;
}

/** The school calendar and the plan changes of an input, and how to read any one day of it. */
function schoolDayReader(input: Omit<ScheduleInput, 'now'>): { cal: SchoolCalendar; changes: PlanChange[]; day: (date: string) => SchoolDay } {
  const other = input.attended === undefined ? new Set<string>() : otherGroupLessons(input.days, input.attended);
  const free = freeDays(input.free);
  const cal: SchoolCalendar = { days: withoutLessons(input.days, other), names: input.names, free };
  // The changes, and which group a change of a split slot goes to, are read from every group's lessons.
  const every: SchoolCalendar = { ...cal, days: input.days };
  const changes = planChanges({ days: input.days, substitutions: input.substitutions, names: input.names, bells: input.bells, split: input.split });
  const extra = extraLessons(input.extra, bellTimes(input.days)).map((l) => ({ ...l, takesPlace: !l.cancelled, change: null }));
  const day = (date: string): SchoolDay => {
    const planned = plannedLessons(cal, date);
    const groups = plannedLessons(every, date) ?? [];
    const own = changesOn(changes, date);
    const regular = planned?.map((l) => ({ ...l, change: changeOf(l, own, groups, date) }));
    const extraOn = extra.filter((l) => l.date === date);
    const lessons = regular && withExtra(regular, extraOn);
    return { date, lessons, changes: own, freeDay: wholeFreeDay(cal, date), ...lessonHours(date, lessons) };
  };
  return { cal, changes, day };
}

/**
 * A lesson's change as a parent reads it on every screen and in the calendar feeds: the plan change of its slot, "shifted"
 * for one that left its slot, or "cancelled" for one that does not take place for another reason (a free day).
 */
export function lessonChange(l: ScheduledLesson): ChangeKind | null {
  if (!l.takesPlace) return movedAway(l) ? 'shifted' : 'cancelled';
  return l.change?.kind ?? null;
}

/** A slot and its change: a lesson of the day, or a plan change where it stands on a day (`slotOn`). */
type SlotChange = Pick<ScheduledLesson, 'change' | 'date' | 'lessonNo'>;

/** A day and lesson number are the slot's own. */
const isSlot = (l: SlotChange, date: string | null, lessonNo: number | null): boolean => date === l.date && lessonNo === l.lessonNo;

/** The lesson left its slot for another day or hour (the change says where to). */
export function movedAway(l: SlotChange): boolean {
  const c = l.change;
  return c?.kind === 'shifted' && isSlot(l, c.original_date, c.original_lesson_no) && !isSlot(l, c.date, c.lesson_no);
}

/** The mirror of movedAway: the lesson came to its slot from another day or hour (the change's original one). */
export function movedIn(l: SlotChange): boolean {
  const c = l.change;
  return c?.kind === 'shifted' && isSlot(l, c.date, c.lesson_no) && !isSlot(l, c.original_date, c.original_lesson_no);
}

/**
 * Every slot a change of a day's list (changesOn) stands in on `date`, as the day's lessons tell it: the slot a lesson moved
 * away leaves (for another day or another hour of the same one), and the slot the change names on its own day.
 */
export function slotsOfChange(c: PlanChange, date: string): { no: number | null; hours: string | null }[] {
  const left = movedAway({ change: c, date, lessonNo: c.original_lesson_no }) ? [{ no: c.original_lesson_no, hours: c.original_hours }] : [];
  return c.date === date ? [...left, { no: c.lesson_no, hours: c.hours }] : left;
}

/** The day's lessons grouped by slot, in slot order (a split class's groups share one). */
export function slotsOf(lessons: readonly ScheduledLesson[]): ScheduledLesson[][] {
  const slots: ScheduledLesson[][] = [];
  for (const l of lessons) {
    const slot = slots.find((s) => s[0] !== undefined && sameSlot(s[0], l));
    if (slot) slot.push(l);
    else slots.push([l]);
  }
  return slots;
}

/**
 * The day's count of lessons, as every screen says it: the slots that take place (a split class's groups
 * count once, an extra class as a lesson); null when the timetable does not cover the day.
 */
export function heldSlots(day: SchoolDay): number | null {
  return day.lessons === undefined ? null : slotsOf(day.lessons).filter((s) => s.some((l) => l.takesPlace)).length;
}

/** The day's span (its start and end) as HH:MM, Warsaw time; null when the day has none. */
export function hoursOf(day: SchoolDay): { from: string; to: string } | null {
  if (day.start === null || day.end === null) return null;
  return { from: warsawTimeOfDay(Date.parse(day.start)), to: warsawTimeOfDay(Date.parse(day.end)) };
}

/** Several days with their lessons and changes, each read as schedule() reads today (the calendar feeds). */
export function schoolDays(input: Omit<ScheduleInput, 'now'>, dates: readonly string[]): SchoolDay[] {
  return dates.map(schoolDayReader(input).day);
}

export type Schedule = ReturnType<typeof schedule>;

export function schedule(input: ScheduleInput) {
  const today = warsawDate(input.now);
  const { cal, changes, day } = schoolDayReader(input);
  const next = nextSchoolDay(cal, today);
  const todays = day(today);
  const nextDay = next === null ? null : day(next);
  const time = warsawTimeOfDay(input.now);
  const roomOf = (date: string, no: number | null): string | null =>
    changesOn(changes, date).find((c) => c.date === date && c.lesson_no === no && c.kind !== 'cancelled')?.room ?? null;
  const [start, end] = [todays.start, todays.end].map((t) => (t === null ? null : Date.parse(t)));
  return {
    today: todays,
    /** The calendar day after today (alarm automations), which need not be a school day. */
    tomorrow: day(addDays(today, 1)),
    /** The next school day after today; null when the timetable cannot tell. */
    next: nextDay,
    /** Its date, for the features that read the timetable (homework_due). */
    nextSchoolDay: next,
    /** The lesson going on now or the next one today; once today's are over, the next school day's first; null when none is known. */
    nextLesson: nextLesson(todays.lessons, today, time, roomOf) ?? (nextDay && nextLesson(nextDay.lessons, nextDay.date, '', roomOf)),
    /** The slot in progress now (every group's lesson that takes place); empty outside lessons. */
    current: slotAt(todays.lessons, time),
    /** Between the first lesson's start and the last lesson's end today (lessons that take place). */
    atSchool: start != null && end != null && start <= input.now && input.now < end,
    /** Today's lesson starts and ends still ahead (ms, ascending): when current/at_school/next move. */
    boundaries: boundariesOf(todays, input.now),
    /** Plan changes from today on, as `plan_change` event candidates; none of a slot a free day frees (no lesson takes place there). */
    events: planChangeEvents(
      changes.filter((c) => !freesSlot(cal.free, c.date, c.lesson_no)),
      today,
    ),
  };
}
