// The fetch plan: when each portal resource is read, as data (one row per resource: its freshness by
// kind of moment of the child's own day, the cheap signal that vouches for it, its maximum age, what a
// refresh forces) and one pure function, nextFetch, that answers "fetch now, or when". The cache asks
// it for every resource; the scheduler asks readBy when a copy must be read again. docs/polling.md is generated
// from the rows (see features/plan-table.ts).
import { wallTime } from '../util/time.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The kinds of moment of a child's day. `lessons`: from the first lesson's start to an hour after the
 * last one's end, on a school day; `morning` before it (from 06:00), `afternoon` after it until 18:00,
 * `evening` until 22:00; `night` 22:00-06:00 on any day; `weekend` and `holiday` are the daytime
 * (06:00-22:00) of a Saturday or Sunday, and of a weekday without lessons (a free day, the holidays).
 */
export const MOMENTS = ['lessons', 'morning', 'afternoon', 'evening', 'night', 'weekend', 'holiday'] as const;
export type Moment = (typeof MOMENTS)[number];

/**
 * A configured interval by name: `news` is poll.school_interval (what must reach a family within
 * minutes while lessons are on), `normal` poll.interval, `fast` poll.fast_interval (hourly inside
 * poll.quiet_hours).
 */
export type Knob = 'news' | 'normal' | 'fast';
/** How old a copy may be: milliseconds (Infinity: age alone never reads it again) or a configured interval. */
export type Age = number | Knob;
export type Freshness = Readonly<Record<Moment, Age>>;

export interface PlanRow {
  /** The resource as the documentation names it (`Grades`, `Timetables` (next week)). */
  readonly resource: string;
  /** How old a copy may be, by kind of moment. */
  readonly fresh: Freshness;
  /**
   * The cheap signal that vouches for the copy (documentation name) and how old the copy may be
   * while it does. A changed signal reads the resource at once; a failed or missing one leaves `fresh`.
   */
  readonly vouch?: { readonly by: string; readonly fresh: Freshness };
  /** A copy is never older than this, whatever the moment or the signal (the default: no bound). */
  readonly maxAgeMs?: number;
  /** While the last copy's list was empty (a kind of grade the school does not use), it may be this old. */
  readonly whileEmptyMs?: number;
  /**
   * What a user's refresh does: `read` reads it now; `unvouched` keeps the moment's age but trusts no
   * signal (an edit keeps the ids); `keep` changes nothing (a lookup, a list no entity shows).
   */
  readonly refresh: 'read' | 'unvouched' | 'keep';
  /**
   * Not read in a start's first pass (a start's requests are the budget's dearest): the feature goes
   * without it until the next look. A user's refresh reads it.
   */
  readonly notAtStart?: true;
  /** How long a refusal (403, a switched-off module) stands before the portal is asked again (a day when not given). */
  readonly refusedForMs?: number;
  /** Why the row is what it is, for the generated documentation. */
  readonly note?: string;
}

/** The configured intervals the knobs stand for. */
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
}

/** What is known of a resource when the plan is asked about it. */
export interface Known {
  /** When the copy in memory was read; undefined when there is none. */
  fetchedAt?: number;
  /** The copy's list was empty. */
  empty?: boolean;
  /** A refusal stands until then. */
  refusedUntil?: number;
  /** The vouching signal: the same as when the copy was read, changed since, or not had (not read, failed). */
  signal?: 'same' | 'changed' | 'none';
  /** A user's refresh. */
  refresh?: boolean;
  /** A command needs the resource now (a lucky-number refresh), whatever its age or a refusal. */
  now?: boolean;
  /**
   * The last read of it failed (after the copy was read): it is read again at the next look, whatever
   * the row's cadence, so that the problem it raised clears only once it is read (issue 36).
   */
  failed?: boolean;
  /**
   * The copy answers its question until then, whatever its age or a failed read since (the lucky
   * number once the next school day's is known): the row's own rule, as data.
   */
  settledUntil?: number;
  /** The look is a start's first pass (see PlanRow.notAtStart). */
  startPass?: boolean;
}

/**
 * Fetch now, or not before `at`. `slack`: how much later than `at` the copy may still be read, so that
 * reads falling due close together go out in one pass (see readBy); none for a refusal or a settled copy.
 */
export type Decision = { fetch: true; why: 'asked' | 'no copy' | 'failed' | 'refresh' | 'signal' | 'age' } | { fetch: false; at: number; slack?: number };

/**
 * The share of a copy's age it may wait past it for other reads to fall due with it. A copy read every
 * `fast` (poll.fast_interval: the unread counters, the look that tells of a message at once) or `news`
 * (poll.school_interval: what must reach a family within it while lessons are on) has none: those knobs
 * are promises of how old a copy may be, not how often to look.
 */
export const SLACK = 1 / 8;

/** The age in milliseconds an Age stands for at this clock. */
export function resolve(age: Age, intervals: Intervals): number {
  return typeof age === 'number' ? age : intervals[age];
}

/** Fetch now, or the instant at which the copy in memory stops being good enough. */
export function nextFetch(row: PlanRow, clock: PlanClock, known: Known): Decision {
  if (known.now) return { fetch: true, why: 'asked' };
  if (known.startPass && row.notAtStart) return { fetch: false, at: clock.now };
  if (known.refusedUntil !== undefined && clock.now < known.refusedUntil) return { fetch: false, at: known.refusedUntil };
  if (known.fetchedAt === undefined) return { fetch: true, why: 'no copy' };
  if (known.refresh && row.refresh === 'read') return { fetch: true, why: 'refresh' };
  if (known.signal === 'changed') return { fetch: true, why: 'signal' };
  // A settled copy still answers its question: a read that failed meanwhile (a refresh's) is not retried before.
  if (known.settledUntil !== undefined && clock.now < known.settledUntil) return { fetch: false, at: known.settledUntil };
  if (known.failed) return { fetch: true, why: 'failed' };
  const trusted = row.vouch !== undefined && known.signal === 'same' && !(known.refresh && row.refresh === 'unvouched');
  const own = row.fresh[clock.moment];
  const vouched = trusted ? row.vouch!.fresh[clock.moment] : own;
  // A signal that vouches for a copy only ever lets it grow older: never read more often for it (a
  // calendar's hour at a night whose own age is two).
  const age = resolve(vouched, clock.intervals) > resolve(own, clock.intervals) ? vouched : own;
  let limit = resolve(age, clock.intervals);
  if (known.empty && row.whileEmptyMs !== undefined) limit = Math.max(limit, row.whileEmptyMs);
  limit = Math.min(limit, row.maxAgeMs ?? Infinity);
  // A copy read "in the future" (a clock set back) is read again rather than kept for years.
  const at = known.fetchedAt + limit;
  return clock.now >= at || known.fetchedAt > clock.now ? { fetch: true, why: 'age' } : { fetch: false, at, slack: age === 'fast' || age === 'news' ? 0 : Math.floor((limit * SLACK) / 1000) * 1000 };
}

/** How old the row lets a copy be at this clock's moment, whatever is known of it. */
export function ageAt(row: PlanRow, clock: PlanClock): number {
  return Math.min(resolve(row.fresh[clock.moment], clock.intervals), row.maxAgeMs ?? Infinity);
}

/**
 * The instant by which the scheduler must have read the copy again, judged at `clock`: once due, it
 * may wait its slack (an eighth of its age) for other reads to fall due with it, so that one pass reads
 * them all. A copy due now (none yet, a failed read, a changed signal) that the pass just ended did not
 * read is looked at again after the row's age at this moment, not at once.
 */
export function readBy(row: PlanRow, clock: PlanClock, known: Known): number {
  const decision = nextFetch(row, clock, known);
  if (decision.fetch) return clock.now + ageAt(row, clock);
  return decision.at + (decision.slack ?? 0);
}

/** The same age at every moment. */
export function always(age: Age): Freshness {
  return { lessons: age, morning: age, afternoon: age, evening: age, night: age, weekend: age, holiday: age };
}

/** A row that only ages (a lookup, a list read a few times a day): no signal, a refresh keeps it. */
export function steady(resource: string, age: Age, extra: Partial<PlanRow> = {}): PlanRow {
  return { resource, fresh: always(age), refresh: 'keep', ...extra };
}

/** Today's lessons as the child's timetable gives them; unknown parts stay undefined. */
export interface SchoolDayTimes {
  /** The Warsaw date (YYYY-MM-DD) these are for. */
  date: string;
  /** The first lesson's start and the last one's end (ISO); null on a day without lessons. */
  start: string | null;
  end: string | null;
}

/** When the timetable does not tell (before the first read, a school without one): a weekday's lessons. */
const USUAL_LESSONS = { from: '08:00', to: '15:00' };

/** The kind of moment `now` is for a child whose day is `day` (undefined when the timetable is not known). */
export function momentOf(now: number, day: SchoolDayTimes | undefined): Moment {
  // One reading of the wall clock: nextMomentAt asks this some 80 times a call.
  const wall = wallTime(now);
  const time = wall.time.slice(0, 5);
  if (time >= '22:00' || time < '06:00') return 'night';
  const date = wall.date;
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return 'weekend';
  if (day !== undefined && day.date === date) {
    if (day.start === null || day.end === null) return 'holiday';
    const start = Date.parse(day.start);
    const end = Date.parse(day.end) + HOUR;
    if (now < start) return 'morning';
    if (now < end) return 'lessons';
    return time < '18:00' ? 'afternoon' : 'evening';
  }
  if (time < USUAL_LESSONS.from) return 'morning';
  if (time < addHour(USUAL_LESSONS.to)) return 'lessons';
  return time < '18:00' ? 'afternoon' : 'evening';
}

function addHour(hhmm: string): string {
  const [h = '0', m = '0'] = hhmm.split(':');
  return `${String(Number(h) + 1).padStart(2, '0')}:${m}`;
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

/** What a family must hear of within minutes while lessons are on: `news` then, `normal` in the day, every 2 hours at night. */
export const NEWS: Freshness = { lessons: 'news', morning: 'normal', afternoon: 'normal', evening: 'normal', night: 2 * HOUR, weekend: 'normal', holiday: 'normal' };
/** What changes while teachers work but is not news (attendance marks): `normal` by day, every 2 hours at night. */
export const CORE: Freshness = { ...always('normal'), night: 2 * HOUR };
/** What a family reads as it comes (the unread counters): `fast` while it is awake, hourly at night. */
export const AWAKE: Freshness = { ...always('fast'), night: HOUR };
/**
 * An hour: read once that old and within its eighth more (67.5 minutes), it falls on every third read
 * of what `interval` reads (20 minutes, 22.5 at most), so it needs no wake of its own.
 */
export const HOURLY = HOUR;
/** Lists that change a few times a term (trips, meetings). */
export const RARE = 3 * HOUR - 5 * MINUTE;
/** Hourly by day, every 2 hours at night (with the normal tier's night). */
export const BY_THE_HOUR: Freshness = { ...always(HOURLY), night: 2 * HOUR };
export const DAILY = 24 * HOUR - 10 * MINUTE;
