// The school year day by day: a sensor's figure as it stood at the end of each day, from the year's first
// record to today, by the sensor's own rule applied to the records dated up to that day, in that day's
// semester. A figure moves only on a day with a record or on a semester's first day, so the rule runs on
// those days alone and the figure stands in between.
import { dayOf } from './portal-values.js';
import { semesterOf, type Semester } from './semester.js';
import { addDays } from '../util/time.js';

/** Where the year runs: its first day as the portal gives it, the first semester's end, and today. */
export interface YearSpan {
  begins: string | undefined;
  endFirstSemester: string | undefined;
  today: string;
}

/**
 * A record's day; one without a date counts from today, as the sensor counts it now.
 */
export const recordDay =
  (today: string) =>
  (record: { Date?: string }): string =>
    dayOf(record.Date) ?? today;

/**
 * Each day from the year's first record day (on or after the year's first day) to today, with the figure
 * `rule(day, semester)` made on the last day it could move: the records' days are those in `recordDays`.
 */
export function dayByDay<F>(
  recordDays: ReadonlySet<string>,
  span: YearSpan,
  rule: (day: string, semester: Semester) => F,
): { day: string; figure: F }[] {
  const first = firstDay(recordDays, span.begins, span.today);
  if (first === undefined) return [];
  const out: { day: string; figure: F }[] = [];
  let before: Semester | undefined;
  let figure: F | undefined;
  for (let day = first; day <= span.today; day = addDays(day, 1)) {
    const semester = semesterOf(day, span.endFirstSemester);
    if (day === first || semester !== before || recordDays.has(day)) figure = rule(day, semester);
    before = semester;
    out.push({ day, figure: figure as F });
  }
  return out;
}

/** The school year's first day with a record, on or after the year's first day. */
function firstDay(days: Iterable<string>, begins: string | undefined, today: string): string | undefined {
  let first: string | undefined;
  for (const day of days) if (day >= (begins ?? '') && day <= today && (first === undefined || day < first)) first = day;
  return first;
}
