// The account's one cache: every copy of a portal resource the bridge holds, the register's and the
// messaging host's, with what is known of each (when read, refused until, its signal then, a failed
// read). When a copy is read is its declaration's schedule asked about it (plan.ts, next), the change
// feed's safety age applied to the schedule of what it vouches for. In a pass each copy is read at most once; a copy whose last read failed
// answers that error (or, where its declaration says so, its last good value) until a read succeeds.
import { UnexpectedResponseError } from '../portal/errors.js';
import { recordsCameOrWent } from '../util/records.js';
import { atLeast, next, type Intervals, type Known, type Moment, type PlanClock, type Schedule, type When, type Why } from './plan.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { Copies, Portal, Resource, Want } from './resource.js';
import { errorText } from '../util/text.js';

/**
 * While the change feed is on: its safety age (what the lists it names are read at for their age
 * alone) and since when it watches. The register's lists it names, read since it watches, are vouched
 * for by it; a copy read before then may hide a change the feed never saw: it keeps its own age.
 */
export interface FeedVouching {
  safetyMs: number;
  since: number;
}

/** The moment a pass reads at, whether a person asked for it (a refresh) or a start made it, and what the change feed vouches for. */
export interface PassMoment {
  moment: Moment;
  intervals: Intervals;
  asked?: boolean;
  startPass?: boolean;
  feed?: FeedVouching;
}

/** One read the scheduler has planned: the resource (and copy), by when, and why then (plan.ts, next). */
export interface NextRead {
  row: string;
  at: number;
  why: Why;
}

interface Copy {
  /** Counts its reads (a good one, a refusal, a failure): a feature runs again when it moved. */
  version: number;
  value?: unknown;
  readAt?: number;
  refusedUntil?: number;
  /** While its answers are refusals: when the first of them in a row came (readAt is the latest's). */
  refusedSince?: number;
  /** The signal's value when the copy was read. */
  signal?: string;
  failedAt?: number;
  /** The error of its last read, when it failed (a resource's failure, not the session's). */
  error?: unknown;
  settledUntil?: number;
  /** The bridge itself (a message opened, one sent) or the change feed says it changed. */
  moved?: boolean;
}

export interface ResourceCacheOptions {
  portal: Omit<Portal, 'copies'>;
  clock: Clock;
  log: Logger;
  /** Read every copy at every pass (the benchmark's naive schedule). */
  naive?: boolean;
  /** The benchmark's comparison with the reference: no copy read for its age more often than this, by resource name. */
  agesAtLeast?: Readonly<Record<string, number>>;
  /** A list the change feed vouches for changed at a read for its age: the feed missed it (live-notes 32). */
  onMissed?: (res: Resource) => void;
}

export class ResourceCache implements Copies {
  private readonly copies = new Map<string, Copy>();
  /** The declarations' schedules with the change feed's safety age laid over them (schedule). */
  private readonly safe = new WeakMap<Resource, { safetyMs: number; schedule: Schedule }>();
  /** The copies read in the pass under way (and the error a read that failed for the whole host raised); undefined between passes. */
  private pass: Map<string, { error?: unknown }> | undefined;
  private moment: PassMoment = { moment: 'lessons', intervals: { news: 0, normal: 0, fast: 0 } };
  /** Counts every change of what a copy holds (a good read, a refusal, a seed): what is read next may differ after one. */
  private held = 0;

  get changes(): number {
    return this.held;
  }

  constructor(private readonly options: ResourceCacheOptions) {}

  get naive(): boolean {
    return this.options.naive === true;
  }

  /** A pass begins: each copy is read at most once until `end`. */
  begin(moment: PassMoment): void {
    this.moment = moment;
    this.pass = new Map();
  }

  /** The pass ended: a command until the next one reads at its moment, as no refresh and no start, with what the feed vouches for now. */
  end(feed?: FeedVouching): void {
    this.moment = { moment: this.moment.moment, intervals: this.moment.intervals, ...(feed ? { feed } : {}) };
    this.pass = undefined;
  }

  get<T>(res: Resource<T>, key?: string): T | undefined {
    const copy = this.copies.get(keyOf(res, key));
    // A settled copy still answers its question (the day's lucky number), whatever a read since met.
    const answers = copy?.value !== undefined && (res.keepOnError === true || (copy.settledUntil ?? -Infinity) > this.options.clock.now());
    if (copy?.error !== undefined && !answers) throw copy.error;
    return copy?.value as T | undefined;
  }

  /** How many times the copy was read (a feature that took it in at another count runs again). */
  version(w: Want): number {
    return this.copies.get(keyOf(w.res, w.key))?.version ?? 0;
  }

  peek<T>(res: Resource<T>, key?: string): T | undefined {
    return this.copies.get(keyOf(res, key))?.value as T | undefined;
  }

  refused(res: Resource, key?: string): boolean {
    return this.options.clock.now() < (this.copies.get(keyOf(res, key))?.refusedUntil ?? -Infinity);
  }

  /**
   * While the portal's answers to the copy are refusals (a failed read between them aside): since the first, and the
   * latest's time. Without a key, of every copy of the resource (a keyed one's weeks), while none of them holds an answer.
   */
  refusal(res: Resource, key?: string): { since: number; at: number } | undefined {
    const copies = key === undefined ? this.copiesOf(res) : [this.copies.get(keyOf(res, key))].filter((c) => c !== undefined);
    const refused = copies.filter((c) => c.refusedSince !== undefined && c.readAt !== undefined);
    if (refused.length === 0 || copies.some((c) => c.value !== undefined)) return undefined;
    return { since: Math.min(...refused.map((c) => c.refusedSince!)), at: Math.max(...refused.map((c) => c.readAt!)) };
  }

  /** Whether some copy of the resource (any key) holds an answer. */
  answered(res: Resource): boolean {
    return this.copiesOf(res).some((c) => c.value !== undefined);
  }

  private copiesOf(res: Resource): Copy[] {
    const prefix = keyOf(res, '');
    return [...this.copies].filter(([k]) => k.startsWith(prefix)).map(([, c]) => c);
  }

  /** Whether the copy was read (or its read failed) in the pass under way. */
  readThisPass(w: Want): boolean {
    return this.pass?.has(keyOf(w.res, w.key)) === true;
  }

  /** Whether the copy was read in the pass under way and its read did not fail (a refusal is an answer). */
  readOkThisPass(w: Want): boolean {
    const copy = this.copies.get(keyOf(w.res, w.key));
    return this.readThisPass(w) && copy?.readAt !== undefined && copy.failedAt === undefined;
  }

  /** Whether the copy is to be read now: its schedule says so and the pass has not read it yet. */
  due(w: Want): boolean {
    const clock = this.clock();
    return !this.readThisPass(w) && this.when(w, clock).at <= clock.now;
  }

  /** When the copy is read, and why (plan.ts, next), judged at `clock`. */
  when(w: Want, clock = this.clock()): When {
    const copy = this.copies.get(keyOf(w.res, w.key));
    return next(this.schedule(w.res, copy), this.known(w, clock.now), clock);
  }

  /** By when the copy must be read again, judged at `clock`. */
  readBy(w: Want, clock = this.clock()): number {
    const copy = this.copies.get(keyOf(w.res, w.key));
    if (this.naive) {
      // The naive schedule reads every copy at every pass, a pass every `interval` (a refusal still stands).
      if (copy?.refusedUntil !== undefined && copy.refusedUntil > clock.now) return copy.refusedUntil;
      return copy?.readAt === undefined ? clock.now : Math.max(clock.now, copy.readAt + clock.intervals.normal);
    }
    return this.when(w, clock).by;
  }

  /** The reads `wants` are due for, one per copy, soonest first (the diagnostics' next reads). */
  nextReads(wants: readonly Want[], clock: PlanClock): NextRead[] {
    const reads = new Map<string, NextRead>();
    for (const w of wants) {
      const { by, why } = this.when(w, clock);
      if (Number.isFinite(by)) reads.set(keyOf(w.res, w.key), { row: w.key === undefined ? w.res.name : `${w.res.name} (${w.key})`, at: by, why });
    }
    return [...reads.values()].sort((a, b) => a.at - b.at || a.row.localeCompare(b.row));
  }

  /**
   * Reads the copy now (the scheduler's read of a due copy, or a command's `asked`), keeping it, or
   * remembering a refusal or a failure; a failure is thrown (a refusal is not). Read already in this
   * pass: its error again, without a request.
   */
  async read(w: Want, asked?: 'now'): Promise<void> {
    const k = keyOf(w.res, w.key);
    const done = this.pass?.get(k);
    if (done !== undefined) {
      if (done.error !== undefined) throw done.error;
      return;
    }
    const now = this.options.clock.now();
    const forAge = asked === undefined && this.when(w).why === 'age';
    this.pass?.set(k, {});
    const before = this.copies.get(k);
    const version = (before?.version ?? 0) + 1;
    try {
      const value = await w.res.read({ ...this.options.portal, copies: this }, w.key);
      if (forAge && before?.value !== undefined && this.vouchedByFeed(w.res, before) && recordsCameOrWent(before.value, value))
        this.options.onMissed?.(w.res);
      this.copies.set(k, { version, value, readAt: now, signal: w.res.signal?.(this, w.key), settledUntil: w.res.settled?.(value, now) });
      this.held++;
    } catch (error) {
      const until = w.res.refusal(error, now);
      if (until !== undefined) {
        this.refusedNow(w.res, error, until);
        const since = (before?.value === undefined ? before?.refusedSince : undefined) ?? now;
        this.copies.set(k, { version, readAt: now, refusedUntil: until, refusedSince: since });
        this.held++;
        return;
      }
      if (error instanceof UnexpectedResponseError) this.copies.set(k, { ...before, version, failedAt: now, error });
      else {
        // A dead session or the portal down is the host's, not this copy's: the pass stops reading the
        // host, and the copy, unchanged, is read again when the host is.
        this.pass?.set(k, { error });
        this.copies.set(k, { version: before?.version ?? 0, ...before, failedAt: now });
      }
      throw error;
    }
  }

  /** The bridge itself changed the resource on the portal, or the change feed names it: every copy is read at the next look. */
  moved(res: Resource, key?: string): void {
    for (const [k, copy] of this.copies) if (k === keyOf(res, key) || (key === undefined && k.startsWith(keyOf(res, '')))) copy.moved = true;
  }

  /** A copy read outside a pass's reads (a login's proof, what the last run kept in data_dir), read at `at`. */
  seed<T>(res: Resource<T>, value: T, at: number, key?: string): void {
    const version = (this.copies.get(keyOf(res, key))?.version ?? 0) + 1;
    this.copies.set(keyOf(res, key), { version, value, readAt: at, signal: res.signal?.(this, key), settledUntil: res.settled?.(value, at) });
    this.held++;
  }

  /** When the copy was read (undefined: never, or it is refused). */
  readAt(res: Resource, key?: string): number | undefined {
    const copy = this.copies.get(keyOf(res, key));
    return copy?.value === undefined ? undefined : copy.readAt;
  }

  private clock(): PlanClock {
    return { now: this.options.clock.now(), moment: this.moment.moment, intervals: this.moment.intervals };
  }

  private known(w: Want, now: number): Known {
    const copy = this.copies.get(keyOf(w.res, w.key));
    const signal = w.res.signal?.(this, w.key);
    return {
      readAt: copy?.value === undefined || this.naive ? undefined : copy.readAt,
      refusedUntil: copy?.refusedUntil,
      empty: copy?.value !== undefined && w.res.list?.(copy.value)?.length === 0,
      signal: copy?.moved ? 'changed' : signal === undefined ? 'none' : signal === copy?.signal ? 'same' : 'changed',
      asked: this.moment.asked ? 'refresh' : undefined,
      failedAt: (copy?.settledUntil ?? -Infinity) > now ? undefined : copy?.failedAt,
      settledUntil: copy?.settledUntil,
      startPass: this.moment.startPass,
      missing: w.missing,
      ahead: w.ahead,
      atLeast: this.options.agesAtLeast?.[w.res.name],
    };
  }

  /** The copy's schedule: its declaration's, at least the change feed's safety age where the feed vouches for it. */
  private schedule(res: Resource, copy: Copy | undefined): Schedule {
    const feed = this.vouchedByFeed(res, copy) ? this.moment.feed : undefined;
    if (feed === undefined) return res;
    // Made once per declaration and safety age: the plan is asked about every copy many times a pass.
    let safe = this.safe.get(res);
    if (safe?.safetyMs !== feed.safetyMs) this.safe.set(res, (safe = { safetyMs: feed.safetyMs, schedule: atLeast(res, feed.safetyMs) }));
    return safe.schedule;
  }

  /** A list of the register the change feed names, read while the feed watched. */
  private vouchedByFeed(res: Resource, copy: Copy | undefined): boolean {
    const feed = res.host === 'register' && (res.feed?.length ?? 0) > 0 ? this.moment.feed : undefined;
    return feed !== undefined && (copy?.readAt ?? -Infinity) >= feed.since;
  }

  private refusedNow(res: Resource, error: unknown, until: number): void {
    const fields = { endpoint: res.endpoints[0], until: new Date(until).toISOString() };
    // A switched-off module is the school's choice, worth one line a day; a 403 is routine.
    if (error instanceof UnexpectedResponseError && error.switchedOff)
      this.options.log.info({ ...fields, code: error.code }, 'the school does not use this module; asking again later');
    else this.options.log.debug({ ...fields, err: errorText(error) }, 'refused; not asking again for a while');
  }
}

function keyOf(res: Resource, key: string | undefined): string {
  return `${res.name}\u0000${key ?? ''}`;
}
