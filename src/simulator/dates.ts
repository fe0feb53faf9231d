// Calendar arithmetic for the simulator's world: Warsaw wall time, day offsets, weeks and the Polish
// school year (1 September to the last Friday of June, first semester ending late January).
// Dates are YYYY-MM-DD strings throughout.

// The Warsaw wall clock and day steps are generic date helpers (util/time.ts), no reading of the
// portal's interface, so the simulator shares them with the bridge; the school year below is its own.
import { addDays, dayOfWeek, wallTime, weekStart } from '../util/time.js';

export { addDays };

/** The Warsaw calendar date and wall-clock time (HH:MM:SS) of an instant. */
export function warsawNow(ms: number): { date: string; time: string } {
  const { date, time } = wallTime(ms);
  return { date, time };
}

export function isDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(value);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** ISO day of the week: 1 is Monday, 7 is Sunday. */
export const isoWeekday = dayOfWeek;

export const mondayOf = weekStart;

/** Moves by whole weekdays (Monday to Friday); 0 gives the date itself or, on a weekend, the next Monday. */
export function addWeekdays(date: string, count: number): string {
  let d = date;
  while (isoWeekday(d) > 5) d = addDays(d, 1);
  const step = count < 0 ? -1 : 1;
  // Five weekdays from a weekday are a calendar week: whole weeks in one move, the rest day by day
  // (fixtures hold dates a semester back; every pass of a simulated day expands them).
  d = addDays(d, step * 7 * Math.floor(Math.abs(count) / 5));
  for (let left = Math.abs(count) % 5; left > 0; ) {
    d = addDays(d, step);
    if (isoWeekday(d) <= 5) left--;
  }
  return d;
}

export interface SchoolYear {
  /** 1 September. */
  start: string;
  /** Last Friday of January: the end of the first semester. */
  semester1End: string;
  /** Last Friday of June. */
  end: string;
}

function lastFriday(year: number, month: number): string {
  let d = addDays(`${year + (month === 12 ? 1 : 0)}-${pad(month === 12 ? 1 : month + 1)}-01`, -1);
  while (isoWeekday(d) !== 5) d = addDays(d, -1);
  return d;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * The school year a date belongs to. July and August still belong to the year that ended in June, so
 * over the summer the data shows the finished year, as the real register does.
 */
export function schoolYearOf(date: string): SchoolYear {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const startYear = month >= 9 ? year : year - 1;
  // Asked for every date a fixture expands: the last Fridays are walked to once per year.
  let known = SCHOOL_YEARS.get(startYear);
  if (known === undefined) {
    known = { start: `${startYear}-09-01`, semester1End: lastFriday(startYear + 1, 1), end: lastFriday(startYear + 1, 6) };
    SCHOOL_YEARS.set(startYear, known);
  }
  return { ...known };
}

const SCHOOL_YEARS = new Map<number, SchoolYear>();

/** A month-day (MM-DD) placed in the given school year: September to December in its first year. */
export function dateInSchoolYear(year: SchoolYear, monthDay: string): string {
  const startYear = Number(year.start.slice(0, 4));
  const month = Number(monthDay.slice(0, 2));
  return `${month >= 9 ? startYear : startYear + 1}-${monthDay}`;
}

export function semesterOf(date: string): 1 | 2 {
  return date <= schoolYearOf(date).semester1End ? 1 : 2;
}
