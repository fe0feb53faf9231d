// The weeks of the school year a person asked Assist about that the bridge does not hold (interface 18.2): which week
// answers a date, read on demand (engine/on-demand.ts), and its days computed as the fortnight's are, with the
// year's plan changes and free days. A week the portal has not published (403) is told as such, not as a week off.
import { mergeTimetables } from '../../rules/timetable.js';
import { schoolDays, type ScheduleInput, type SchoolDay } from '../../rules/schedule.js';
import { addDays, weekStart } from '../../util/time.js';
import { want, type Copies, type Want } from '../../engine/resource.js';
import { TIMETABLE } from '../../engine/resources/timetable.js';

/** The school year's first and last day, as the child's identity says them; null while not known. */
export interface SchoolYearSpan {
  from: string;
  to: string;
}

/** The weeks asked for on demand that the timetable reads (a school's own weeks: a kindergarten's plan holds its own). */
export function askedWeeks(asked: readonly Want[]): Want[] {
  return asked.filter((w) => w.res === TIMETABLE && w.key !== undefined);
}

/**
 * The weeks to read for `dates` that `held` (the fortnight's days with lessons read) does not cover, within the school
 * year: one want a week, on demand.
 */
export function weeksToReach(dates: readonly string[], held: readonly SchoolDay[], year: SchoolYearSpan | null): Want[] {
  const known = new Set(held.filter((d) => d.lessons !== undefined).map((d) => d.date));
  const mondays = dates.filter((d) => !known.has(d) && year !== null && d >= year.from && d <= year.to).map(weekStart);
  return [...new Set(mondays)].map((monday) => want(TIMETABLE, monday, { onDemand: true }));
}

/** The days of the asked weeks that answered (their lessons, changes, free days), and the Mondays the portal refused. */
export function askedDays(
  copies: Copies,
  weeks: readonly Want[],
  input: Omit<ScheduleInput, 'now' | 'days'>,
): { days: SchoolDay[]; unpublished: string[] } {
  const answered = weeks.filter((w) => copies.peek(TIMETABLE, w.key) !== undefined);
  const unpublished = weeks.filter((w) => copies.refused(TIMETABLE, w.key)).map((w) => w.key as string);
  const days = mergeTimetables(...answered.map((w) => copies.peek(TIMETABLE, w.key)?.Timetable));
  const dates = answered.flatMap((w) => Array.from({ length: 7 }, (_, i) => addDays(w.key as string, i)));
  return { days: schoolDays({ ...input, days }, dates), unpublished };
}
