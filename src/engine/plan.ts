// The one planner: when each copy a child's features read is read, and when the child's timer fires
// next. `plan` answers from data alone (the declarations' schedules, what is known of each copy, the
// change feed's watch, the child's day and the clock); `next` is its rule for one copy, row by row.
// The coordinator reads what it says is due, the scheduler wakes when it says, and the diagnostics'
// next_reads are its rows as they are. docs/polling.md is generated from the declarations (features/plan-table.ts).
import { addDays, wallTime, warsawOffsetAt, warsawDate, warsawInstant } from '../util/time.js';
import { MINUTE, HOUR } from '../util/duration.js';
import { atLeast, type Age, type Freshness, type Intervals, type Known, type Moment, type Schedule, type When, type Why } from './schedule.js';
import { awakeAt, inHours, isSchoolDay, momentOf, nextMomentAt, nightEndsAt, type SchoolDayTimes } from './moments.js';
import { plCompare } from '../rules/order.js';

/** One copy a feature reads, as the planner sees it. */
export interface Wanted {
  /** The diagnostics' row: the resource's name, and the copy's key in brackets. */
  readonly row: string;
  /** The host it is read from (a failing host's retry). */
  readonly host: string;
  /** Its declaration's schedule. */
  readonly schedule: Schedule;
  /** The change feed names it: while the change feed watches, it may vouch for the copy (Watch). */
  readonly fed?: boolean;
}

/**
 * The change feed watching (src/engine/resources/change-feed.ts): a copy read since `since` (the device's
 * registration) is read for its age alone no sooner than the change feed's age for it (next): a list the change
 * feed names at `safetyMs`, its age `feed safety`; a lookup (Schedule.missAgeMs), which a record naming an id it
 * lacks reads at once, at `lookupMs`, its age `change feed lookup`.
 */
export interface Watch {
  readonly since: number;
  readonly safetyMs: number;
  readonly lookupMs: number;
}

/** The change feed's age for a copy it watches (Watch), and its name in the diagnostics' why. */
export interface ChangeFeedAge {
  readonly ms: number;
  readonly name: 'feed safety' | 'change feed lookup';
}

/** The reading policy: the configured intervals, poll.quiet_hours, and the demo's one moment. */
export interface SchedulePolicy {
  intervalMs: number;
  fastIntervalMs: number;
  /** News while lessons are on (poll.school_interval). */
  schoolIntervalMs: number;
  /** "22:00-06:00": fast reading slows to hourly inside this window (Warsaw time). */
  quietHours?: string;
  /**
   * One kind of moment at every hour, and so no night (the demo: its simulated school is in lessons day and
   * night, so a parent trying it at 23:00 sees its news as one trying it at 10:00 does). Never set from a config.
   */
  fixedMoment?: Moment;
}

/** The child's day as the planner is told it. */
export interface Day {
  /** Today's first lesson's start and last one's end, as the timetable last gave them; undefined when not known. */
  readonly lessons: SchoolDayTimes | undefined;
  readonly policy: SchedulePolicy;
  /** Hosts whose failed pass backs off, and until when: nothing of theirs wakes the child before. */
  readonly retryAt?: ReadonlyMap<string, number>;
  /** The pass under way: a person asked for it (a refresh), or it is a start's first. */
  readonly pass?: { readonly asked?: boolean; readonly start?: boolean };
}

/** One row of the plan: when a copy is read (`at`, `by`, `why`). */
export interface PlanRow extends When {
  readonly row: string;
  readonly host: string;
}

/** What the planner answers: each copy's row, soonest `by` first, and when the child's timer must fire. */
export interface Plan {
  readonly rows: readonly PlanRow[];
  readonly wake: number;
}

/** The wake's caps: never more than this many `interval`s away; a copy due now that a pass did not read waits this long. */
const CAPS = { intervals: 6, dueWait: MINUTE };

/**
 * When each copy in `wants` is read, and when the child's timer fires next. A copy of a host backing off
 * is read from its retry on. The timer fires at the soonest `by`, or a waiting host's retry, never past the
 * next change of moment nor CAPS.intervals `interval`s; a copy due now (one the pass just done did not
 * read) waits CAPS.dueWait. A want named twice is planned once.
 */
export function plan(wants: readonly Wanted[], known: ReadonlyMap<string, Known>, watch: Watch | undefined, day: Day, now: number): Plan {
  const clock = planClock(now, day.policy, day.lessons);
  const pass = { asked: day.pass?.asked ? ('refresh' as const) : undefined, startPass: day.pass?.start };
  const rows = new Map<string, PlanRow>();
  let soonest = now + CAPS.intervals * clock.intervals.normal;
  let hours: string | undefined;
  for (const w of wants) {
    if (rows.has(w.row)) continue;
    hours ??= w.schedule.hours;
    const copy = withPass(known.get(w.row), pass);
    const when = next(w.schedule, copy, clock, changeFeedAge(w, copy, watch));
    const retry = day.retryAt?.get(w.host) ?? -Infinity;
    const waits = retry > now;
    rows.set(w.row, { row: w.row, host: w.host, ...when, ...(waits ? { at: Math.max(when.at, retry), by: Math.max(when.by, retry) } : {}) });
    const by = waits ? retry : when.by;
    soonest = Math.min(soonest, by > now ? by : now + CAPS.dueWait);
  }
  // The next change of moment is dear (some 80 readings of the wall clock): worked out only when the wake
  // is asked (after a pass), not at each of a pass's rounds, which ask what is due.
  let wake: number | undefined;
  return {
    rows: inOrder([...rows.values()]),
    get wake() {
      wake ??= Math.min(nextMomentAt(now, day.lessons, hours), soonest);
      return wake;
    },
  };
}

/**
 * Each row's place in Polish alphabetical order (plCompare), the tie-break of rows due together. A plan's rows tie
 * often (every copy a pass leaves for later, each list of a read day), and the planner is asked a few times a pass:
 * the comparison itself, a walk of both names' letters, was 3% of a simulated day's CPU. The rows' names
 * are few and come back every pass: they are put in order once, and again only when a new one comes.
 */
const ROW_ORDER = new Map<string, number>();
/** More names than a child's rows over years (a row per week's list among them): the order starts anew. */
const ROW_ORDER_MAX = 2_000;

/** The rows in the order a plan lists them: soonest `by` first, ties in Polish alphabetical order of their names. */
function inOrder(rows: PlanRow[]): PlanRow[] {
  const fresh = rows.filter((r) => !ROW_ORDER.has(r.row)).map((r) => r.row);
  if (fresh.length > 0) {
    const names = ROW_ORDER.size + fresh.length > ROW_ORDER_MAX ? rows.map((r) => r.row) : [...ROW_ORDER.keys(), ...fresh];
    names.sort(plCompare);
    ROW_ORDER.clear();
    names.forEach((name, i) => ROW_ORDER.set(name, i));
  }
  return rows.sort((a, b) => a.by - b.by || ROW_ORDER.get(a.row)! - ROW_ORDER.get(b.row)!);
}

/** The change feed's age for the copy, when it watches it (Watch): read since the registration, a list it names or a lookup. */
function changeFeedAge(w: Wanted, copy: Known, watch: Watch | undefined): ChangeFeedAge | undefined {
  if (watch === undefined || (copy.readAt ?? -Infinity) < watch.since) return undefined;
  if (w.fed) return { ms: watch.safetyMs, name: 'feed safety' };
  return w.schedule.missAgeMs === undefined ? undefined : { ms: watch.lookupMs, name: 'change feed lookup' };
}

/**
 * What is known of a copy, with the pass's own facts (asked, start) over it: every fact named, so that each
 * copy the planner weighs has one shape (a spread of varied ones cost a fifth of the planner's CPU).
 */
function withPass(known: Known | undefined, pass: Pick<Known, 'asked' | 'startPass'>): Known {
  const copy: { [K in keyof Required<Known>]: Known[K] } = {
    readAt: known?.readAt,
    empty: known?.empty,
    refusedUntil: known?.refusedUntil,
    signal: known?.signal,
    asked: pass.asked,
    failedAt: known?.failedAt,
    settledUntil: known?.settledUntil,
    startPass: pass.startPass,
    missing: known?.missing,
    ahead: known?.ahead,
    onDemand: known?.onDemand,
  };
  return copy;
}

/** The moment the plan is asked at: the time, its kind for this child, and the intervals then. */
export interface PlanClock {
  now: number;
  moment: Moment;
  intervals: Intervals;
  /** No hour is night (the demo, whose simulated school is in lessons at every hour): what falls due is read then. */
  noNight?: boolean;
  /** It is a school day (Schedule.hours). */
  schoolDay?: boolean;
}

/** The plan's clock at `now` for a child whose lessons are `lessons`: its moment, and what its knobs stand for (inside poll.quiet_hours `fast` slows to hourly). */
export function planClock(now: number, policy: SchedulePolicy, lessons: SchoolDayTimes | undefined): PlanClock {
  const fast = inHours(now, policy.quietHours) ? Math.max(HOUR, policy.fastIntervalMs) : policy.fastIntervalMs;
  const intervals = { news: policy.schoolIntervalMs, normal: policy.intervalMs, fast };
  return policy.fixedMoment
    ? { now, moment: policy.fixedMoment, intervals, noNight: true }
    : { now, moment: momentOf(now, lessons), intervals, schoolDay: isSchoolDay(now, lessons) };
}

/**
 * The share of a copy's age it may wait past it, so that reads falling due close together go out in one
 * pass. None for `fast` and `news` ages: those are promises of how old a copy may be, not how often to look;
 * the change feed's safety age is hours, not a configured interval, and has it (8 hours: within 9).
 */
const SLACK = 1 / 8;

/** The age in milliseconds an Age stands for at this clock. */
function resolve(age: Age, intervals: Intervals): number {
  return typeof age === 'number' ? age : intervals[age];
}

/**
 * The longest a copy may be old at some moment of a day it is read in: the longest finite of its ages (ahead of need
 * too), as the policy's intervals stand for them (0: age alone never reads it). A copy kept through a restart
 * (engine/kept-copies.ts) older than this is not told as current.
 */
export function longestAge(schedule: Schedule, policy: SchedulePolicy): number {
  const intervals = { news: policy.schoolIntervalMs, normal: policy.intervalMs, fast: policy.fastIntervalMs };
  const freshness = schedule.ahead === undefined ? [schedule.fresh] : [schedule.fresh, schedule.ahead];
  const ages = freshness.flatMap((fresh) => Object.values(fresh).map((age) => resolve(age, intervals)));
  return Math.max(0, ...ages.filter(Number.isFinite));
}

/**
 * A row's why as the diagnostics' next_reads say it: a read for its age with which one (`age: lessons 5 min`), and
 * when the night moved it, to when (`new day; night: at 06:00`).
 */
export function whyOf(when: When): string {
  const why = when.age === undefined ? when.why : `${when.why}: ${when.age}`;
  return when.night ? `${why}; night: at ${wallTime(when.at).time.slice(0, 5)}` : why;
}

/** An age as a reader says it: minutes, hours or days (an age a little under the hour or the day, as declarations write some, by it). */
export function span(ms: number): string {
  const minutes = Math.round(ms / MINUTE);
  if (ms === Infinity || minutes >= 23 * 60) return ms === Infinity ? 'never' : `${Math.round(minutes / (24 * 60))} d`;
  return minutes >= 55 && [0, 55].includes(minutes % 60) ? `${Math.ceil(minutes / 60)} h` : `${minutes} min`;
}

/**
 * The one function that says when a copy is read, from its declaration, what is known of it and the clock;
 * `changeFeed` while the change feed watches it (Watch). The night (22:00 to 06:00) reads nothing but what a
 * person asks for (a refresh, what a command changed) and a start's first pass: a read that falls due then
 * (its age, a refusal's end, a failure's retry, a list riding along) waits for 06:00. A clock with no night
 * (PlanClock.noNight) reads it when due.
 */
export function next(schedule: Schedule, known: Known, clock: PlanClock, changeFeed?: ChangeFeedAge): When {
  const when = dueBy(schedule, known, clock, changeFeed);
  // A changed signal at night is the bridge's own doing (a message sent, a command): nothing reads one then.
  if (clock.noNight || known.asked === 'refresh' || known.startPass || when.why === 'signal' || schedule.readsAtNight) return when;
  const morning = nightEndsAt(Math.max(when.at, clock.now));
  return morning === undefined ? when : { ...when, at: morning, by: Math.max(when.by, morning), night: true };
}

/** The first row that holds answers: when the copy is due, whatever the hour. */
function dueBy(schedule: Schedule, known: Known, clock: PlanClock, changeFeed: ChangeFeedAge | undefined): When {
  const { now } = clock;
  // A settled copy answers a question of the day (the lucky number: today's, or the next school day's once
  // drawn). While the change feed watches it, the change feed names a new answer (the next draw), so the looks
  // its own rule makes for one (hourly) are the change feed's: it stays settled until the first morning after its
  // own time, when the question is a new day's and a draw the change feed lost is read with it (a school without
  // the lucky number, settled for a little under a day, is asked the first morning after that).
  if (known.settledUntil !== undefined && changeFeed !== undefined) known = { ...known, settledUntil: morningAfter(known.settledUntil) };
  // A settled copy still answers its question: a read that failed meanwhile is not retried before.
  if (known.settledUntil !== undefined && now < known.settledUntil) known = { ...known, failedAt: undefined };
  // The age a moment gives (the change feed's hours count as lessons), and its name; where the change feed watches
  // the copy, one shorter than the change feed's age for it gives way to it (a configured interval always does).
  const hours = schedule.hours !== undefined && clock.moment === 'day' && clock.schoolDay === true && inHours(now, schedule.hours);
  const moment: Moment = hours ? 'lessons' : clock.moment;
  const ageOf = (fresh: Freshness, name: string): [Age, string] =>
    changeFeed === undefined || atLeast(fresh[moment], changeFeed.ms) === fresh[moment] ? [fresh[moment], name] : [changeFeed.ms, changeFeed.name];
  const named = hours ? schedule.hours! : moment;
  const own = resolve(ageOf(schedule.fresh, named)[0], clock.intervals);
  // A copy whose last read failed is read again at the next look, but the scheduler wakes for it only
  // within its age and poll.interval, so that a failing portal is not asked in a loop.
  const retry = known.failedAt === undefined ? now : Math.max(now, known.failedAt + Math.min(own, clock.intervals.normal));
  const soon = (why: Why): When => ({ at: now, by: why === 'asked' ? now : retry, why });
  const later = (at: number, why: Why): When => ({ at, by: at, why });
  // A copy a person asked for on demand is read when they ask again (engine/on-demand.ts), never by a pass.
  if (known.onDemand) return later(Infinity, 'on demand');
  const asked = known.asked === 'refresh' ? schedule.whenAsked : undefined;
  if (asked === 'read refused') return soon('asked');
  // What can wait (a list the declaration says so of, a copy wanted ahead of need only, unless its declaration reads
  // that at a start): a start's first pass leaves it for the next, and until its first read it rides along with a
  // pass, making none of its own.
  const canWait = schedule.notAtStart === true || (known.ahead === true && schedule.aheadAtStart !== true);
  if (known.startPass && canWait) return later(Infinity, 'after start');
  if (known.refusedUntil !== undefined && now < known.refusedUntil) return later(known.refusedUntil, 'refused');
  // Never read, but the bridge itself changed it (a reply sent before the sent box's first read): read now, as a read copy would be.
  if (known.readAt === undefined && known.signal === 'changed') return soon('signal');
  if (known.readAt === undefined) return canWait ? { at: now, by: Infinity, why: 'no copy' } : soon('no copy');
  if (asked === 'read') return soon('asked');
  if (known.signal === 'changed') return soon('signal');
  // A record names an id the lookup lacks and has not been asked for: read in this pass, before its event fires.
  if (known.missing === 'new' && schedule.missAgeMs !== undefined) return soon('missing');
  // A settled copy still answers its question: a read that failed meanwhile is not retried before.
  if (known.settledUntil !== undefined && now < known.settledUntil) return later(known.settledUntil, 'settled');
  if (known.failedAt !== undefined) return soon('failed');
  const mine = known.ahead && schedule.ahead ? ageOf(schedule.ahead, `${named} ahead`) : ageOf(schedule.fresh, named);
  const trusted = schedule.vouch !== undefined && known.signal === 'same' && asked !== 'unvouched';
  // A signal that vouches for a copy only ever lets it grow older: never read more often for it.
  const vouched: [Age, string] = trusted ? [schedule.vouch!.fresh[moment], `${named} vouched`] : mine;
  const [age, ageName] = resolve(vouched[0], clock.intervals) > resolve(mine[0], clock.intervals) ? vouched : mine;
  const empty = known.empty === true && (schedule.whileEmptyMs ?? 0) > resolve(age, clock.intervals);
  const [limit, name] = empty ? [schedule.whileEmptyMs!, 'while empty'] : [resolve(age, clock.intervals), ageName];
  const missAt = known.missing === 'asked' && schedule.missAgeMs !== undefined ? known.readAt + schedule.missAgeMs : Infinity;
  const dayAt = schedule.daily === undefined ? Infinity : dayStartAfter(known.readAt, schedule.daily);
  const agedAtMs = agedAt(known.readAt, limit);
  const soonest = Math.min(agedAtMs, missAt, dayAt);
  const why: Why = soonest === agedAtMs ? 'age' : soonest === missAt ? 'missing' : 'new day';
  const aged = why === 'age' ? { age: `${name} ${span(limit)}` } : {};
  // A copy read "in the future" (a clock set back) is read again rather than kept for years.
  const at = known.readAt > now ? now : soonest;
  if (at <= now) return { ...soon(why), ...aged };
  const slack = why !== 'age' || age === 'fast' || age === 'news' ? 0 : Math.floor((limit * SLACK) / 1000) * 1000;
  return { at, by: at + slack, why, ...aged };
}

/** The first end of a night (06:00) after `ms`. */
function morningAfter(ms: number): number {
  const date = warsawDate(ms);
  const own = awakeAt(warsawInstant(date, '00:00'));
  return own > ms ? own : awakeAt(warsawInstant(addDays(date, 1), '00:00'));
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
  return at + (warsawOffsetAt(readAt) - warsawOffsetAt(at)) * MINUTE;
}
