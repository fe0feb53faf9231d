// The child's day as the planner sees it (plan.ts): the kind of moment each instant is (lessons, the rest
// of the day, the night), when that changes next, and when the night ends (nothing is read in it on its own).
import { addDays, dayOfWeek, wallTime, warsawInstant, warsawTimeOfDay } from '../util/time.js';
import { MINUTE, HOUR } from '../util/duration.js';
import type { Moment } from './schedule.js';

/**
 * The day's hours, each idea named once. The night, on the wall clock: the moment `night` of every day, in which the
 * bridge reads nothing on its own (the board's sign of old data waits for its end). A school's hours: lessons fall in
 * them whatever a timetable says of its edges, and the change feed is read at the news age in them on a school day.
 */
const NIGHT = { from: '22:00', to: '06:00' };
export const SCHOOL_HOURS = { from: '07:00', to: '21:00' };

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

/** Whether `now` falls on a school day: a weekday the timetable does not give without lessons (a free day, the holidays). */
export function isSchoolDay(now: number, day: SchoolDayTimes | undefined, date = wallTime(now).date): boolean {
  return dayOfWeek(date) <= 5 && !(day?.date === date && (day.start === null || day.end === null));
}

/** The kind of moment `now` is for a child whose day is `day` (undefined when the timetable is not known). */
export function momentOf(now: number, day: SchoolDayTimes | undefined): Moment {
  const wall = wallTime(now);
  const time = wall.time.slice(0, 5);
  if (atNight(time)) return 'night';
  if (!isSchoolDay(now, day, wall.date) || time < SCHOOL_HOURS.from || time >= SCHOOL_HOURS.to) return 'day';
  const [started, ended] =
    day?.date === wall.date
      ? [now >= Date.parse(day.start!), now >= Date.parse(day.end!) + HOUR]
      : [time >= USUAL_LESSONS.from, time >= USUAL_LESSONS.to];
  return started && !ended ? 'lessons' : 'day';
}

/** True when the Warsaw wall-clock time of `now` falls inside "HH:MM-HH:MM" (which may span midnight). */
export function inHours(now: number, hours: string | undefined): boolean {
  if (!hours) return false;
  const [from = '', to = ''] = hours.split('-');
  const time = warsawTimeOfDay(now);
  return from <= to ? time >= from && time < to : time >= from || time < to;
}

/**
 * The next instant (to the minute, within 12 hours) at which the kind of moment changes, or a school day's
 * `hours` (Schedule.hours: the change feed's) begin or end.
 */
export function nextMomentAt(now: number, day: SchoolDayTimes | undefined, hours?: string): number {
  const kind = (t: number) => `${momentOf(t, day)}${hours !== undefined && inHours(t, hours) && isSchoolDay(t, day)}`;
  const here = kind(now);
  const step = 10 * MINUTE;
  for (let before = now, at = now + step; at <= now + 12 * HOUR; before = at, at += step) {
    if (kind(at) === here) continue;
    let [a, b] = [before, at];
    while (b - a > MINUTE) {
      const mid = Math.floor((a + b) / 2);
      if (kind(mid) === here) a = mid;
      else b = mid;
    }
    return b;
  }
  return now + 12 * HOUR;
}
