// The weeks of the school year a person asked Assist about that the bridge does not hold (interface 18.2): which week
// answers a date, read on demand (engine/on-demand.ts), and its days computed as the fortnight's are, with the
// year's plan changes and free days. A week the portal has not published (403) is told as such, not as a week off.
import { mergeTimetables } from '../../rules/timetable.js';
import { schoolDays, type ScheduleInput, type SchoolDay } from '../../rules/schedule.js';
import { addDays, weekStart } from '../../util/time.js';
import { want, type Copies, type Want } from '../../engine/resource.js';
import { TIMETABLE } from '../../engine/resources/timetable.js';
import { KINDERGARTEN_PLAN } from './kindergarten-resources.js';
import type { TimetableDays } from '../../portal/schemas/timetable.js';

/** The school year's first and last day, as the child's identity says them; null while not known. */
export interface SchoolYearSpan {
  from: string;
  to: string;
}

/** The weeks asked for on demand that the timetable reads: a school's weeks, or a kindergarten's fortnights of blocks. */
export function askedWeeks(asked: readonly Want[]): Want[] {
  return asked.filter((w) => (w.res === TIMETABLE || w.res === KINDERGARTEN_PLAN) && w.key !== undefined);
}

/**
 * The weeks to read for `dates` that `held` (the fortnight's days with lessons read) does not cover, within the school
 * year: one want a week, on demand. A kindergarten's (`kindergartenPlan`: the host and identifier its plan answers at)
 * is its plan of blocks from that Monday.
 */
export function weeksToReach(dates: readonly string[], held: readonly SchoolDay[], year: SchoolYearSpan | null, kindergartenPlan?: string): Want[] {
  const known = new Set(held.filter((d) => d.lessons !== undefined).map((d) => d.date));
  const mondays = dates.filter((d) => !known.has(d) && year !== null && d >= year.from && d <= year.to).map(weekStart);
  return [...new Set(mondays)].map((monday) =>
    kindergartenPlan === undefined
      ? want(TIMETABLE, monday, { onDemand: true })
      : want(KINDERGARTEN_PLAN, `${kindergartenPlan} ${monday}`, { onDemand: true }),
  );
}

/**
 * The days of the asked weeks that answered (their lessons, changes, free days), and the Mondays the portal refused. A
 * kindergarten's weeks are its blocks (`blocks`: a copy of its plan as timetable days), the week of their Monday alone.
 */
export function askedDays(
  copies: Copies,
  weeks: readonly Want[],
  input: Omit<ScheduleInput, 'now' | 'days'>,
  blocks: (key: string) => TimetableDays | undefined = () => undefined,
): { days: SchoolDay[]; unpublished: string[] } {
  const mondayOf = (w: Want): string => (w.key as string).split(' ').at(-1) as string;
  const timetable = (w: Want): TimetableDays | undefined =>
    w.res === KINDERGARTEN_PLAN ? blocks(w.key as string) : copies.peek(TIMETABLE, w.key)?.Timetable;
  const answered = weeks.filter((w) => timetable(w) !== undefined);
  const unpublished = weeks.filter((w) => copies.refused(w.res, w.key)).map(mondayOf);
  const dates = answered.flatMap((w) => Array.from({ length: 7 }, (_, i) => addDays(mondayOf(w), i)));
  const days = mergeTimetables(...answered.map(timetable));
  return { days: schoolDays({ ...input, days }, dates), unpublished };
}
