// The child's day as the planner sees it (plan.ts): the kind of moment each instant is (the night, a
// weekend, lessons...), when that changes next, and when the night ends (nothing is read in it on its own).
import { addDays, wallTime, warsawInstant } from '../util/time.js';
import { MINUTE, HOUR } from '../util/duration.js';
import type { Moment } from './schedule.js';

/** The night, on the wall clock: the moment `night` of every day, and what nothing is read in on its own. */
const NIGHT = { from: '22:00', to: '06:00' };

/** Whether a wall time (HH:MM) falls in the night. */
function atNight(time: string): boolean {
  return time >= NIGHT.from || time < NIGHT.to;
}

/** The end of the night (06:00) an instant falls in; undefined outside 22:00 to 06:00 (and for no instant: Infinity). */
export function nightEndsAt(ms: number): number | undefined {
  if (!Number.isFinite(ms)) return undefined;
  const { date, time } = wallTime(ms);
  if (!atNight(time)) return undefined;
  // Asked of every copy's row, many times a pass: each night's end is worked out once.
  const night = `${date}${time < NIGHT.to ? '<' : '>'}`;
  let end = NIGHT_ENDS.get(night);
  if (end === undefined) {
    if (NIGHT_ENDS.size >= 32) NIGHT_ENDS.clear();
    end = warsawInstant(time < NIGHT.to ? date : addDays(date, 1), NIGHT.to);
    NIGHT_ENDS.set(night, end);
  }
  return end;
}

/** The ends of the nights lately asked (nightEndsAt), by the date and whether before 06:00 or after 22:00. */
const NIGHT_ENDS = new Map<string, number>();

/** An instant, or the end of the night it falls in: when the bridge may first read on its own. */
export function awakeAt(ms: number): number {
  return nightEndsAt(ms) ?? ms;
}

/** Today's lessons as the child's timetable gives them; unknown parts stay undefined. */
export interface SchoolDayTimes {
  /** The Warsaw date (YYYY-MM-DD) these are for. */
  date: string;
  /** The first lesson's start and the last one's end (ISO); null on a day without lessons. */
  start: string | null;
  end: string | null;
}

/** When the timetable does not tell (before the first read, a school without one): a weekday's lessons, and their hour after. */
const USUAL_LESSONS = { from: '08:00', to: '16:00' };

/** The kind of moment `now` is for a child whose day is `day` (undefined when the timetable is not known). */
export function momentOf(now: number, day: SchoolDayTimes | undefined): Moment {
  // One reading of the wall clock: nextMomentAt asks this some 80 times a call.
  const wall = wallTime(now);
  const time = wall.time.slice(0, 5);
  if (atNight(time)) return 'night';

  const weekday = new Date(`${wall.date}T12:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return 'weekend';
  const known = day !== undefined && day.date === wall.date;
  if (known && (day.start === null || day.end === null)) return 'holiday';
  if (time < '07:00') return 'early';
  if (time >= '21:00') return 'late';
  const [started, ended] = known
    ? [now >= Date.parse(day.start!), now >= Date.parse(day.end!) + HOUR]
    : [time >= USUAL_LESSONS.from, time >= USUAL_LESSONS.to];
  if (!started) return 'morning';
  if (!ended) return 'lessons';
  return time < '18:00' ? 'afternoon' : 'evening';
}

/** The next instant (to the minute, within 12 hours) at which the kind of moment changes. */
export function nextMomentAt(now: number, day: SchoolDayTimes | undefined): number {
  const here = momentOf(now, day);
  const step = 10 * MINUTE;
  for (let before = now, at = now + step; at <= now + 12 * HOUR; before = at, at += step) {
    if (momentOf(at, day) === here) continue;
    let [a, b] = [before, at];
    while (b - a > MINUTE) {
      const mid = Math.floor((a + b) / 2);
      if (momentOf(mid, day) === here) a = mid;
      else b = mid;
    }
    return b;
  }
  return now + 12 * HOUR;
}
