// When a copy of a portal resource is read again: the kinds of moment of a child's day, how old a
// copy may be at each (a resource's declaration states its ages), and one pure function, next, that
// answers "read now, or from when, by when, and why" from what is known of the copy and the clock. The
// account wakes at the soonest `by` of what its features read; the diagnostics list them.
// docs/polling.md is generated from the declarations (features/plan-table.ts).
import { addDays, wallTime, warsawDate, warsawInstant } from '../util/time.js';
import { MINUTE, HOUR } from '../util/duration.js';

/**
 * The kinds of moment of a child's day. `lessons`: from the first lesson's start to an hour after the
 * last one's end, on a school day; `morning` before it (from 07:00), `afternoon` after it until 18:00,
 * `evening` until 21:00; `early` (06:00-07:00) and `late` (21:00-22:00) the edges of a school day, when
 * a family is up but the school is not; `night` 22:00-06:00 on any day; `weekend` and `holiday` are the
 * daytime (06:00-22:00) of a Saturday or Sunday, and of a weekday without lessons (a free day, the holidays).
 */
export const MOMENTS = ['lessons', 'morning', 'afternoon', 'evening', 'early', 'late', 'night', 'weekend', 'holiday'] as const;
export type Moment = (typeof MOMENTS)[number];

/**
 * How old a copy may be: milliseconds (Infinity: age alone never reads it again) or a configured interval
 * by name: `news` is poll.school_interval (what must reach a family within minutes while lessons are on),
 * `normal` poll.interval, `fast` poll.fast_interval (hourly inside poll.quiet_hours).
 */
export type Age = number | keyof Intervals;
export type Freshness = Readonly<Record<Moment, Age>>;

/** When a resource is read, as its declaration states it (see resource.ts). */
export interface Schedule {
  /** The resource as the documentation names it (`Grades`, `messaging inbox/messages`). */
  readonly name: string;
  readonly fresh: Freshness;
  /**
   * The cheap signal that vouches for the copy (its documentation name) and how old the copy may be
   * while it does. A changed signal reads the resource at once; a missing one leaves `fresh`.
   */
  readonly vouch?: { readonly by: string; readonly fresh: Freshness };
  /** While the last copy's list was empty (a kind of grade the school does not use), it may be this old. */
  readonly whileEmptyMs?: number;
  /** A lookup that lacks an id a record names is read again once this old (a new teacher's name the same day). */
  readonly missAgeMs?: number;
  /** Ages of a copy wanted ahead of need (next week's timetable for the calendar feeds). */
  readonly ahead?: Freshness;
  /**
   * What a person's asking (a refresh) does: `read` reads it now; `read refused` reads it even while
   * the portal refuses it (a school may start the lucky number any morning); `unvouched` keeps the
   * moment's age but trusts no signal (an edit keeps the ids); `keep` changes nothing (a lookup).
   */
  readonly whenAsked: 'read' | 'read refused' | 'unvouched' | 'keep';
  /**
   * A copy that must be of the day (who the child is: its class, tutor and the year's dates): read at the
   * first pass from this wall time ('06:00') of each day after the one it was read on, whatever its age.
   * A year's edges (EndFirstSemester, EndSchoolYear, 1 September) are days like any other, so the first
   * pass on each of them reads it as well.
   */
  readonly daily?: string;
  /** Not read in a start's first pass (a start's requests are the budget's dearest); read at the next. */
  readonly notAtStart?: true;
  /** How long a refusal (403, a switched-off module) stands before the portal is asked again (a day when not given). */
  readonly refusedForMs?: number;
  /** Read at night by its ages too (the bench's naive schedule, a client with no night; the plan table's ages alone): the bridge's own never are. */
  readonly readsAtNight?: true;
  /** Why the ages are what they are, for the generated documentation. */
  readonly note?: string;
}

/** The configured intervals, in milliseconds. */
export interface Intervals {
  news: number;
  normal: number;
  fast: number;
}

/** The moment the plan is asked at: the time, its kind for this child, and the intervals then. */
export interface PlanClock {
  now: number;
  moment: Moment;
  intervals: Intervals;
  /** No hour is night (the demo, whose simulated school is in lessons at every hour): what falls due is read then. */
  noNight?: boolean;
}

/** What is known of a copy when the plan is asked about it (each field's rule is a row of next). */
export interface Known {
  /** When the copy was read; undefined when there is none. */
  readAt?: number;
  /** The copy's list was empty (Schedule.whileEmptyMs). */
  empty?: boolean;
  refusedUntil?: number;
  /**
   * The vouching signal: the same as when the copy was read, changed since (or the bridge itself changed it), or
   * none. For a copy not read yet, `changed` means the bridge itself changed it (it has no earlier value to differ from).
   */
  signal?: 'same' | 'changed' | 'none';
  /** A person asked for a refresh (what Schedule.whenAsked says). */
  asked?: 'refresh';
  failedAt?: number;
  /** The copy answers its question until then, whatever its age or a failed read since (the lucky number once known). */
  settledUntil?: number;
  /** The look is a start's first pass (Schedule.notAtStart). */
  startPass?: boolean;
  /** A record names an id the copy lacks (Schedule.missAgeMs). */
  missing?: boolean;
  /** It is wanted ahead of need only (Schedule.ahead). */
  ahead?: boolean;
}

/**
 * A schedule whose ages are never shorter than `ms` (the change feed's safety age, where it vouches; the
 * bench's reference ages); a configured interval (minutes, where these are hours) gives way to it.
 */
export function atLeast<S extends Schedule>(schedule: S, ms: number): S {
  const longer = (fresh: Freshness): Freshness =>
    Object.fromEntries(MOMENTS.map((m) => [m, typeof fresh[m] === 'number' ? Math.max(fresh[m], ms) : ms])) as Record<Moment, Age>;
  return { ...schedule, fresh: longer(schedule.fresh), ...(schedule.ahead ? { ahead: longer(schedule.ahead) } : {}) };
}

/** Why a copy is read when it is (the diagnostics' `why`; each is defined in docs/development.md's glossary). */
export type Why = 'asked' | 'no copy' | 'signal' | 'failed' | 'missing' | 'age' | 'new day' | 'refused' | 'settled' | 'after start';

/** When a copy is read: from `at` on (at or before the clock: now), by `by` at the latest (the scheduler's wake; past `at` by its SLACK), and why. */
export interface When {
  at: number;
  by: number;
  why: Why;
}

/**
 * The share of a copy's age it may wait past it, so that reads falling due close together go out in one
 * pass. None for `fast` and `news` ages: those are promises of how old a copy may be, not how often to look.
 */
const SLACK = 1 / 8;

/** The age in milliseconds an Age stands for at this clock. */
function resolve(age: Age, intervals: Intervals): number {
  return typeof age === 'number' ? age : intervals[age];
}

/**
 * The one function that says when a copy is read, from its declaration, what is known of it and the clock.
 * The night (22:00 to 06:00) reads nothing but what a person asks for (a refresh, what a command changed)
 * and a start's first pass: a read that falls due then (its age, a refusal's end, a failure's retry, a
 * list riding along) waits for 06:00. A clock with no night (PlanClock.noNight) reads it when due.
 */
export function next(schedule: Schedule, known: Known, clock: PlanClock): When {
  const when = dueBy(schedule, known, clock);
  // A changed signal at night is the bridge's own doing (a message sent, a command): nothing reads one then.
  if (clock.noNight || known.asked === 'refresh' || known.startPass || when.why === 'signal' || schedule.readsAtNight) return when;
  const morning = nightEndsAt(Math.max(when.at, clock.now));
  return morning === undefined ? when : { at: morning, by: Math.max(when.by, morning), why: when.why };
}

/** The first row that holds answers: when the copy is due, whatever the hour. */
function dueBy(schedule: Schedule, known: Known, clock: PlanClock): When {
  const { now } = clock;
  const own = resolve(schedule.fresh[clock.moment], clock.intervals);
  // A copy whose last read failed is read again at the next look, but the scheduler wakes for it only
  // within its age and poll.interval, so that a failing portal is not asked in a loop.
  const retry = known.failedAt === undefined ? now : Math.max(now, known.failedAt + Math.min(own, clock.intervals.normal));
  const soon = (why: Why): When => ({ at: now, by: why === 'asked' ? now : retry, why });
  const later = (at: number, why: Why): When => ({ at, by: at, why });
  const asked = known.asked === 'refresh' ? schedule.whenAsked : undefined;
  if (asked === 'read refused') return soon('asked');
  // What can wait (a list the declaration says so of, a copy wanted ahead of need only): a start's first
  // pass leaves it for the next, and until its first read it rides along with a pass, making none of its own.
  const canWait = schedule.notAtStart === true || known.ahead === true;
  if (known.startPass && canWait) return later(Infinity, 'after start');
  if (known.refusedUntil !== undefined && now < known.refusedUntil) return later(known.refusedUntil, 'refused');
  // Never read, but the bridge itself changed it (a reply sent before the sent box's first read): read now, as a read copy would be.
  if (known.readAt === undefined && known.signal === 'changed') return soon('signal');
  if (known.readAt === undefined) return canWait ? { at: now, by: Infinity, why: 'no copy' } : soon('no copy');
  if (asked === 'read') return soon('asked');
  if (known.signal === 'changed') return soon('signal');
  // A settled copy still answers its question: a read that failed meanwhile is not retried before.
  if (known.settledUntil !== undefined && now < known.settledUntil) return later(known.settledUntil, 'settled');
  if (known.failedAt !== undefined) return soon('failed');
  const fresh = known.ahead && schedule.ahead ? schedule.ahead : schedule.fresh;
  const mine = fresh[clock.moment];
  const trusted = schedule.vouch !== undefined && known.signal === 'same' && asked !== 'unvouched';
  const vouched = trusted ? schedule.vouch!.fresh[clock.moment] : mine;
  // A signal that vouches for a copy only ever lets it grow older: never read more often for it.
  const age = resolve(vouched, clock.intervals) > resolve(mine, clock.intervals) ? vouched : mine;
  let limit = resolve(age, clock.intervals);
  if (known.empty && schedule.whileEmptyMs !== undefined) limit = Math.max(limit, schedule.whileEmptyMs);
  const missAt = known.missing && schedule.missAgeMs !== undefined ? known.readAt + schedule.missAgeMs : Infinity;
  const dayAt = schedule.daily === undefined ? Infinity : dayStartAfter(known.readAt, schedule.daily);
  const agedAtMs = agedAt(known.readAt, limit);
  const soonest = Math.min(agedAtMs, missAt, dayAt);
  const why: Why = soonest === agedAtMs ? 'age' : soonest === missAt ? 'missing' : 'new day';
  // A copy read "in the future" (a clock set back) is read again rather than kept for years.
  const at = known.readAt > now ? now : soonest;
  if (at <= now) return soon(why);
  const slack = why !== 'age' || age === 'fast' || age === 'news' ? 0 : Math.floor((limit * SLACK) / 1000) * 1000;
  return { at, by: at + slack, why };
}

/** The first instant at the wall time `from` (HH:MM) of a day after the one `readAt` falls in, or of its own day when read before it. */
export function dayStartAfter(readAt: number, from: string): number {
  const date = warsawDate(readAt);
  const own = warsawInstant(date, from);
  return readAt < own ? own : warsawInstant(addDays(date, 1), from);
}

/**
 * When a copy read at `readAt` is `limit` old. An age of half a day or more is kept on the wall clock, so
 * that on the days the clocks change (23 and 25 hours long) a daily read keeps its hour: 24 hours after
 * 21:00 on the last Saturday of March is 22:00, the night, and that Sunday would have had none.
 */
function agedAt(readAt: number, limit: number): number {
  const at = readAt + limit;
  if (limit < 12 * HOUR || !Number.isFinite(at)) return at;
  return at + (wallTime(readAt).offsetMinutes - wallTime(at).offsetMinutes) * MINUTE;
}

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
  return warsawInstant(time < NIGHT.to ? date : addDays(date, 1), NIGHT.to);
}

/** An instant, or the end of the night it falls in: when the bridge may first read on its own. */
export function awakeAt(ms: number): number {
  return nightEndsAt(ms) ?? ms;
}

/** The same age at every moment. */
export function always(age: Age): Freshness {
  return { lessons: age, morning: age, afternoon: age, evening: age, early: age, late: age, night: age, weekend: age, holiday: age };
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
