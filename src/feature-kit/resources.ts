// Per-account memory of gateway resources: whether a resource is read again is the fetch plan's
// answer (plan.ts, nextFetch) for its row, the moment of the child's day and what the copy in memory
// is; a module the portal refuses (403/404/405/401 Insufficient scopes) or the school switched off
// (200 {"Status":"Disabled"}, live-notes 9) is not asked again for a day (spec 7.3). At each pass the
// scheduler reads every due copy first (readDue: what the features' last passes asked for), so that a
// feature's poll reads copies; a copy is asked for at most once a pass, a failed one's error standing.
import type { z } from 'zod';
import { UnexpectedResponseError } from '../portal/errors.js';
import type { Gateway } from '../portal/gateway.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { nextFetch, readBy, steady, type Decision, type Intervals, type Known, type Moment, type PlanClock, type PlanRow } from './plan.js';

export { MINUTE, HOUR, DAY, CADENCE } from './cadence.js';
import { CADENCE, DAY } from './cadence.js';
import { ReadOrigins, type ReadsByOrigin } from './read-origins.js';
import type { ResourceSpec } from './resource-spec.js';
import { dropClock, whyDue, type NextRead } from './next-reads.js';
export type { NextRead } from './next-reads.js';
export type { ReadsByOrigin } from './read-origins.js';

/** The moment a cycle asks at, set by the runner (a command between polls asks at the last one's). */
export interface CacheMoment {
  moment: Moment;
  intervals: Intervals;
  /** The cycle is a user's refresh. */
  refresh: boolean;
  /** The cycle is a start's first pass: rows kept for later are not read (PlanRow.notAtStart). */
  startPass?: boolean;
  /** A pass begins: each copy is asked for at most once until the next call of `at` (a command between passes is none). */
  pass?: boolean;
}

export type { ResourceSpec } from './resource-spec.js';

interface Entry {
  at: number;
  value?: unknown;
  refusedUntil?: number;
  signal?: string;
  /** Its last read failed after this copy was read: it is read again at the next look. */
  failed?: boolean;
  /** The row's own rule says the copy answers its question until then (ResourceSpec.settled). */
  settledUntil?: number;
}

export type OwnKnown = Pick<Known, 'fetchedAt' | 'now' | 'failed' | 'signal' | 'empty' | 'refusedUntil'>;

/**
 * What one feature's poll asked of the plan: the cache's resources, and the copies it keeps itself
 * (with how to know them again later), so that the scheduler can tell when each is due again.
 */
export interface Recording {
  specs: ResourceSpec<z.ZodType>[];
  /** `read`: how the scheduler reads the copy at a pass (`now`, the pass's moment) when its row says it is due. */
  own: { row: PlanRow; known: () => OwnKnown; read?: (now: number) => Promise<unknown> }[];
}

export interface ResourceCacheOptions {
  gateway: Gateway;
  clock: Clock;
  log: Logger;
  /** Fetch everything on every poll (the benchmark's naive schedule). */
  alwaysFetch?: boolean;
}

export class ResourceCache {
  private readonly entries = new Map<string, Entry>();
  /** The copies asked for since the pass began (and the error a failed one raised): one request per copy per pass. */
  private pass: Map<string, { error?: unknown }> | undefined;
  /** This pass's reads of the copies features keep themselves, by row and key (see oncePerPass). */
  private ownPass: Map<string, Promise<unknown>> | undefined;
  private readonly origins = new ReadOrigins();
  /** Endpoints asked for without a row (see readsOutsideTable). */
  private readonly outside = new Set<string>();
  private readonly options: ResourceCacheOptions;
  private moment: CacheMoment = { moment: 'lessons', intervals: { news: 0, normal: 0, fast: 0 }, refresh: false };
  private recorder: Recording | undefined;

  constructor(options: ResourceCacheOptions) {
    this.options = options;
  }

  /** The moment the next reads are asked at (the runner sets it at the start of each cycle). */
  at(moment: CacheMoment): void {
    this.moment = moment;
    this.pass = moment.pass === true ? new Map() : undefined;
    this.ownPass = moment.pass === true ? new Map() : undefined;
    this.origins.newPass();
  }

  /**
   * The scheduler's read of what the table says is due (the copies the features' last passes asked
   * for), before the features compute: each due copy at once; a feature's poll then finds it read.
   * Stops at a failure that is not one resource's (a dead session, the portal down), as a pass does.
   */
  async readDue(specs: readonly ResourceSpec<z.ZodType>[]): Promise<void> {
    // What a command or a refresh needed at once then (askNow) is not needed again for that.
    const now = this.options.clock.now();
    const wanted = specs.filter((spec) => spec.wantedUntil === undefined || now < spec.wantedUntil);
    const due = wanted.map((spec) => ({ ...spec, askNow: undefined })).filter((spec) => !this.pass?.has(keyOf(spec.endpoint, spec.query)) && this.wouldFetch(spec));
    await this.origins.scheduled(specs.map((spec) => keyOf(spec.endpoint, spec.query)), async () => {
      const failures = await Promise.all(due.map((spec) => this.get(spec).then(() => undefined, (error: unknown) => error)));
      const fatal = failures.find((error) => error !== undefined && !(error instanceof UnexpectedResponseError));
      if (fatal !== undefined) throw fatal;
    });
  }

  /**
   * A copy a feature keeps itself, read once a pass: the pass's first `read` of `key` asks the portal,
   * a later one in the same pass gets its answer or its error (the scheduler's read, then the feature's).
   * Between passes (a command) every read asks.
   */
  oncePerPass<T>(key: string, read: () => Promise<T>): Promise<T> {
    const known = this.ownPass?.get(key);
    if (known !== undefined) return known as Promise<T>;
    const reading = read();
    this.ownPass?.set(key, reading);
    return reading;
  }

  /** How many reads the scheduler made, and which a feature's poll made itself (test/integration/coordinator.test.ts). */
  readsByOrigin(): ReadsByOrigin {
    return this.origins.snapshot();
  }

  /**
   * The plan's answer for a resource this cache does not keep (the messaging host's counters, lists and
   * sent box, whose copies a feature holds itself), at this cycle's moment: fetch now, or when. `later`
   * tells of the copy as it will be after this pass, for the scheduler (readBy).
   */
  decideRow(row: PlanRow, known: OwnKnown, later: () => OwnKnown, read?: (now: number) => Promise<unknown>): Decision {
    this.recorder?.own.push({ row, known: later, read });
    return nextFetch(row, this.clockAt(this.options.clock.now()), this.ownKnown(known));
  }

  /**
   * The scheduler's read of the copies features keep themselves (the messaging host's), those of
   * `own` whose row says they are due, one after another; a failure is the feature's to meet (its read
   * of the same copy in this pass answers the error again without a request).
   */
  async readDueOwn(own: Recording['own'], now: number): Promise<void> {
    for (const { row, known, read } of own) {
      if (read === undefined || !nextFetch(row, this.clockAt(now), this.ownKnown(known())).fetch) continue;
      await this.origins.scheduled([], () => read(now).then(() => undefined, () => undefined));
    }
  }

  /** A request for a copy a feature keeps itself (OwnReads counts it): the scheduler's, or the feature's and why. */
  countOwn(resource: string, why: string): void {
    this.origins.count(resource, '', why);
  }

  /**
   * Keeps what is asked from now on in `recording` (one feature's poll, so that the runner can later
   * ask whether any of it would be read, and when: see wouldFetch, readBy); undefined stops it.
   */
  record(recording: Recording | undefined): void {
    this.recorder = recording;
  }

  /** Whether get(spec) would ask the portal now (the plan's answer, without asking). */
  wouldFetch(spec: ResourceSpec<z.ZodType>): boolean {
    return this.decide(spec, this.options.clock.now()).decision.fetch;
  }

  /** By when what a poll asked must be read again (plan.ts, readBy), judged at `clock`: the soonest of its copies. */
  readBy(recording: Recording, clock: PlanClock): number {
    const times = recording.specs.map((spec) => readBy(...this.question(spec, clock)));
    for (const own of recording.own) times.push(readBy(own.row, clock, this.ownKnown(own.known())));
    return Math.min(...times);
  }

  /** The reads a recording's copies are due for, each with its instant and why (the diagnostics' next reads). */
  nextReads(recording: Recording, clock: PlanClock): NextRead[] {
    const one = (row: PlanRow, known: Known): NextRead => ({ row: row.resource, at: readBy(row, clock, known), why: whyDue(known, clock.now) });
    return [...recording.specs.map((spec) => one(...dropClock(this.question(spec, clock)))), ...recording.own.map((own) => one(own.row, this.ownKnown(own.known())))];
  }

  /**
   * The resources asked for without a row of the fetch plan (decided by a bare age of their own): none,
   * while every read is one row of the table (test/integration/table-reads.test.ts asks).
   */
  readsOutsideTable(): string[] {
    return [...this.outside].sort();
  }

  private clockAt(now: number): PlanClock {
    return { now, ...this.moment };
  }

  private ownKnown(known: OwnKnown): Known {
    return { ...known, fetchedAt: this.naive ? undefined : known.fetchedAt, refresh: this.moment.refresh, startPass: this.moment.startPass };
  }

  /** When the copy of a resource in memory was read (or refused); undefined when there is none. */
  stamp(endpoint: string, query?: Record<string, string>): number | undefined {
    return this.entries.get(keyOf(endpoint, query))?.at;
  }

  private decide<S extends z.ZodType>(spec: ResourceSpec<S>, now: number): { decision: Decision; key: string; entry: Entry | undefined; row: PlanRow } {
    const key = keyOf(spec.endpoint, spec.query);
    const entry = this.entries.get(key);
    const [row, clock, known] = this.question(spec, this.clockAt(now));
    return { decision: nextFetch(row, clock, known), key, entry, row };
  }

  /** What the plan is asked about a resource: its row, the clock, and what is known of its copy. */
  private question<S extends z.ZodType>(spec: ResourceSpec<S>, clock: PlanClock): [PlanRow, PlanClock, Known] {
    const entry = this.entries.get(keyOf(spec.endpoint, spec.query));
    if (spec.row === undefined) this.outside.add(spec.endpoint);
    const row = spec.row ?? steady(spec.endpoint, spec.maxAgeMs ?? 0, { whileEmptyMs: CADENCE.whileEmpty, refusedForMs: spec.refusedForMs });
    return [row, clock, {
      fetchedAt: entry?.value === undefined || this.naive ? undefined : entry.at,
      refusedUntil: entry?.refusedUntil,
      empty: entry?.value !== undefined && spec.list?.(entry.value as z.output<S>)?.length === 0,
      signal: spec.signal === undefined ? 'none' : spec.signal === entry?.signal ? 'same' : 'changed',
      refresh: this.moment.refresh,
      now: spec.askNow,
      failed: entry?.failed,
      settledUntil: entry?.settledUntil,
      startPass: this.moment.startPass,
    }];
  }

  /**
   * Keeps an answer read outside the cache as the resource's copy, read now (the login's Auth/TokenInfo):
   * one that does not fit the schema is left out.
   */
  seed<S extends z.ZodType>(spec: Pick<ResourceSpec<S>, 'endpoint' | 'schema' | 'query'>, answer: unknown): void {
    const parsed = spec.schema.safeParse(answer);
    if (parsed.success) this.entries.set(keyOf(spec.endpoint, spec.query), { at: this.options.clock.now(), value: parsed.data });
  }

  /** The resource, from memory while the plan says it is good enough; undefined when the portal refuses it. */
  async get<S extends z.ZodType>(spec: ResourceSpec<S>): Promise<z.output<S> | undefined> {
    this.recorder?.specs.push(spec as unknown as ResourceSpec<z.ZodType>);
    const now = this.options.clock.now();
    const { decision, key, entry, row } = this.decide(spec, now);
    const asked = this.pass?.get(key);
    if (asked !== undefined) return this.again(spec, entry, asked);
    if (!decision.fetch) return entry?.value as z.output<S> | undefined;
    this.pass?.set(key, {});
    this.origins.count(spec.endpoint, key, decision.why);
    try {
      const value = await this.fetch(spec);
      this.entries.set(key, { at: now, value, signal: spec.signal, settledUntil: spec.settled?.(value) });
      return value;
    } catch (error) {
      if (error instanceof UnexpectedResponseError && error.refused) {
        const { log } = this.options;
        const fields = { endpoint: spec.endpoint, status: error.status };
        // A switched-off module is the school's choice, worth one line a day; a 403 is routine.
        if (error.switchedOff) log.info({ ...fields, code: error.code }, 'the school does not use this module; asking again in a day');
        else log.debug(fields, 'module refused; not asking again for a while');
        // A module switched off stays so for a day at least, even where a 403 is asked again sooner.
        const refusedFor = error.switchedOff ? Math.max(row.refusedForMs ?? DAY, CADENCE.daily) : (row.refusedForMs ?? DAY);
        this.entries.set(key, { at: now, refusedUntil: now + refusedFor });
        return undefined;
      }
      this.pass?.set(key, { error });
      if (spec.staleOnError && entry?.value !== undefined) {
        this.options.log.debug({ endpoint: spec.endpoint, err: (error as Error).message }, 'lookup failed; using the last good copy');
        return entry.value as z.output<S>;
      }
      if (entry?.value !== undefined) this.entries.set(key, { ...entry, failed: true });
      throw error;
    }
  }

  /**
   * A copy this pass has already asked the portal for: its answer, or the error it raised, without a
   * second request. The copy was read now, so the asking spec's signal and rule stand for it.
   */
  private again<S extends z.ZodType>(spec: ResourceSpec<S>, entry: Entry | undefined, asked: { error?: unknown }): z.output<S> | undefined {
    if (asked.error !== undefined && !(spec.staleOnError && entry?.value !== undefined)) throw asked.error;
    if (entry?.value !== undefined && asked.error === undefined) {
      entry.signal = spec.signal;
      entry.settledUntil = spec.settled?.(entry.value as z.output<S>);
    }
    return entry?.value as z.output<S> | undefined;
  }

  /** Every resource is fetched on every poll (the benchmark's naive schedule): signals are pointless. */
  get naive(): boolean {
    return this.options.alwaysFetch === true;
  }

  private async fetch<S extends z.ZodType>(spec: ResourceSpec<S>): Promise<z.output<S>> {
    if (spec.post === undefined) return this.options.gateway.get(spec.endpoint, spec.schema, spec.query);
    const answer = await this.options.gateway.post(spec.endpoint, spec.post);
    const parsed = spec.schema.safeParse(answer);
    if (!parsed.success) throw new UnexpectedResponseError(200, `${spec.endpoint}: unexpected shape`, { resource: spec.endpoint });
    return parsed.data;
  }
}

function keyOf(endpoint: string, query?: Record<string, string>): string {
  return query ? `${endpoint}?${new URLSearchParams(query).toString()}` : endpoint;
}
