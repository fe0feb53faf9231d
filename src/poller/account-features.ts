// An account's features: their states, one cycle's polls (each feature of the cycle's tiers in run
// order, given the outputs of the features it names as inputs), what the polls found (states, events,
// calendar feeds) and the way to their command handlers.
// A feature that answers unexpectedly keeps its last values; anything else (a dead session, the
// portal down) ends the cycle for all.
import { UnexpectedResponseError } from '../portal/errors.js';
import { accountEntities, commandOwners, runOrder } from '../features/index.js';
import type { EntityDef } from '../feature-kit/entities.js';
import type { EntityState } from '../feature-kit/state.js';
import type { AccountConfig } from '../config/schema.js';
import { keptForLater, type CommandAccount, type Feature, type FeatureAccess, type FeatureState } from '../features/feature.js';
import type { CommandRequest } from '../feature-kit/commands.js';
import type { FeatureProblem } from './health.js';
import type { EventBatch } from './event-gate.js';
import type { FeatureOutputs, LookupMemory, SourceContext, Tier } from '../feature-kit/source.js';
import type { Logger } from '../util/log.js';
import { ageAt, type PlanClock, type SchoolDayTimes } from '../feature-kit/plan.js';
import type { NextRead, ResourceCache } from '../feature-kit/resources.js';
import { warsawDate } from '../util/time.js';
import { FeatureInputs } from './feature-inputs.js';
import { FEED_NAMES, type FeedContents } from '../school/calendar-feeds.js';
import type { Publisher } from '../ha/publisher.js';
import { KeptStatesStore, type KeptStates } from '../store/kept-states.js';

/** One feature's state for an account. */
export interface Running {
  feature: Feature;
  state: FeatureState;
}

export interface CycleOutcome {
  states: Record<string, EntityState>;
  events: EventBatch[];
  /** The calendar feeds the cycle's polls made (none when the feeds feature did not poll). */
  feeds: FeedContents;
  /** The last feature that answered in an unexpected way. */
  problem?: FeatureProblem;
  /** Set when the account could not be polled at all. */
  sessionError?: unknown;
  /** Set when the features' dynamic entities changed: the child must be announced again. */
  entitiesChanged?: boolean;
}

export class AccountFeatures {
  private readonly running: Running[];
  /** Each feature's last output, by feature name, for the features that name it as an input. */
  private readonly outputs = new Map<string, unknown>();
  /** The dynamic entities as last handed out by entities(), to tell when the child needs announcing again. */
  private announced = '';
  readonly lookups: LookupMemory = {};
  /** What each feature's last clean poll took in: it runs again only when some of it changed. */
  private readonly inputs = new FeatureInputs();
  private readonly later: LaterStates;

  constructor(features: readonly Feature[], access: FeatureAccess) {
    this.running = runOrder(features).map((feature) => ({ feature, state: feature.create(access) }));
    this.later = new LaterStates(new KeptStatesStore(access.dataDir, access.account.login), access.log);
  }

  /** What the account's child announces. */
  entities(account: AccountConfig): EntityDef[] {
    const dynamic = this.dynamic();
    this.announced = signature(dynamic);
    return [...accountEntities(account, this.running.map((r) => r.feature)), ...dynamic];
  }

  /** The entities that follow the data, in feature order. */
  private dynamic(): EntityDef[] {
    return this.running.flatMap((r) => r.state.dynamic?.() ?? []);
  }

  /** Today's lessons as the last timetable read gives them (the fetch plan's kind of moment); undefined when not known. */
  schoolDay(now: number): SchoolDayTimes | undefined {
    const date = warsawDate(now);
    const day = this.outputOf('timetable')?.fortnight.find((d) => d.date === date);
    if (day?.lessons === undefined) return undefined;
    return { date, start: day.start, end: day.end };
  }

  /** A feature's last output (undefined before its first good poll). */
  outputOf<N extends keyof FeatureOutputs>(name: N): FeatureOutputs[N] | undefined {
    return this.outputs.get(name) as FeatureOutputs[N] | undefined;
  }

  /**
   * By when the features of a tier must poll again, judged at `clock`: the soonest copy their last clean
   * polls asked for (plan.ts, readBy); a feature without one (it failed, or waits for a start's second
   * pass) after the shortest age of its rows at this moment.
   */
  readBy(tier: Tier, cache: ResourceCache, clock: PlanClock): number {
    let soonest = Infinity;
    for (const { feature } of this.running) {
      if (feature.tier !== tier) continue;
      const rows = feature.plan ?? [];
      const by = this.inputs.readBy(feature, cache, clock) ?? clock.now + Math.min(...rows.map((row) => ageAt(row, clock)));
      soonest = Math.min(soonest, by);
    }
    return soonest;
  }

  /** The reads the features' last polls planned, soonest first (the diagnostics' next reads). */
  nextReads(cache: ResourceCache, clock: PlanClock): NextRead[] {
    return this.inputs.nextReads(cache, clock, this.running.map(({ feature }) => feature));
  }

  async prepare(): Promise<void> {
    for (const { state } of this.running) await state.prepare?.();
    await this.later.load();
  }

  /** The calendar feeds the last run served (restored by prepare), to publish before the first read. */
  restoredFeeds(): FeedContents {
    return Object.assign({}, ...this.running.map(({ state }) => state.restoredFeeds?.() ?? {})) as FeedContents;
  }

  /** Resolves when the last states kept for a start's first pass are written. */
  saved(): Promise<void> {
    return this.later.written;
  }

  /** A feature's state for this account (undefined when the account does not run it). */
  stateOf<S extends FeatureState>(feature: Feature<S>): S | undefined {
    return this.running.find((r) => r.feature === feature)?.state as S | undefined;
  }

  /**
   * Runs a command with the state of the feature that declares it, through `queue` (the account's, so
   * never at the same time as a poll) unless the feature declares it concurrent (it only waits for the
   * account: a refresh).
   */
  command(request: CommandRequest, account: CommandAccount, queue: <T>(work: () => Promise<T>) => Promise<T>): Promise<Record<string, unknown>> {
    const owner = commandOwners(this.running.map((r) => r.feature)).get(request.command);
    const handler = owner?.commands?.[request.command];
    const state = owner && this.stateOf(owner);
    if (!handler || !state) throw new Error(`no feature handles ${request.command}`);
    const run = (): Promise<Record<string, unknown>> => handler(request, account, state);
    return owner.concurrent?.includes(request.command) ? run() : queue(run);
  }

  /** The earliest instant after `now` at which a feature's states move without a poll; null for none. */
  nextBoundary(now: number): number | null {
    const times = this.running.map((r) => r.state.nextBoundary?.(now) ?? null).filter((t) => t !== null);
    return times.length > 0 ? Math.min(...times) : null;
  }

  /** The states of the features with boundaries, recomputed from memory (no request) for ctx.now. */
  restateBoundaries(ctx: Omit<SourceContext, 'inputs' | 'lookups'>): Record<string, EntityState> {
    const states: Record<string, EntityState> = {};
    for (const { state } of this.running) {
      if (state.nextBoundary && state.restate) Object.assign(states, state.restate({ ...ctx, lookups: this.lookups, inputs: {} }));
    }
    return states;
  }

  /** One cycle of the given tiers; `startPass`: a start's first pass, which leaves the features whose rows all wait (keptForLater) for later. */
  async poll(tiers: readonly Tier[], ctx: Omit<SourceContext, 'inputs' | 'lookups'>, log: Logger, startPass = false): Promise<CycleOutcome> {
    const outcome = await pollFeatures(this.running, tiers, { ...ctx, lookups: this.lookups }, { outputs: this.outputs, inputs: this.inputs, later: this.later, startPass }, log);
    if (signature(this.dynamic()) !== this.announced) outcome.entitiesChanged = true;
    return outcome;
  }
}

/** What about the dynamic entities discovery shows: their keys, platforms and names. */
function signature(entities: readonly EntityDef[]): string {
  return entities.map((e) => `${e.platform}:${e.key}:${e.name.en}:${e.name.pl}`).join('\n');
}

async function pollFeatures(
  running: readonly Running[],
  tiers: readonly Tier[],
  ctx: Omit<SourceContext, 'inputs'>,
  memory: { outputs: Map<string, unknown>; inputs: FeatureInputs; later: LaterStates; startPass: boolean },
  log: Logger,
): Promise<CycleOutcome> {
  const { outputs, inputs, later: kept, startPass } = memory;
  const outcome: CycleOutcome = { states: {}, events: [], feeds: {} };
  // The scheduler reads what the table says is due, feature by feature in run order, before any
  // computes: a poll then reads copies, and asks the portal itself only for what its last pass did not.
  try {
    for (const { feature } of running) {
      if (feature.tier === undefined || !tiers.includes(feature.tier) || (startPass && keptForLater(feature))) continue;
      await ctx.cache.readDue(inputs.asked(feature));
      await ctx.cache.readDueOwn(inputs.askedOwn(feature), ctx.now);
    }
  } catch (error) {
    outcome.sessionError = error;
    return outcome;
  }
  // Polls run one after another, each after the features it reads (runOrder); each fetches its own
  // resources concurrently.
  for (const run of running) {
    const { feature, state: source } = run;
    if (feature.tier === undefined || !tiers.includes(feature.tier) || !source.poll) continue;
    const featureCtx: SourceContext = { ...ctx, inputs: Object.fromEntries((feature.inputs ?? []).map((name) => [name, outputs.get(name)])) };
    const later = keptForLater(feature);
    if (later && startPass) {
      // Kept for later: what the last run published, or an honest unknown on a first run.
      Object.assign(outcome.states, kept.first(feature.name) ?? source.unknown?.() ?? source.restate?.(featureCtx));
      continue;
    }
    // Nothing it reads changed: its states stand as published.
    if (!(await inputs.changed(feature, featureCtx))) continue;
    const recording = inputs.begin(feature, featureCtx);
    try {
      const result = await source.poll(featureCtx);
      if ('output' in result) outputs.set(feature.name, result.output);
      Object.assign(outcome.states, result.states);
      if (later) kept.keep(feature.name, result.states);
      Object.assign(outcome.feeds, result.feeds);
      if (result.suspicious !== undefined) {
        outcome.problem = { error: new UnexpectedResponseError(200, result.suspicious), feature: feature.name };
        log.warn({ source: feature.name, err: result.suspicious }, 'source answered in an unexpected way');
        inputs.forget(feature, featureCtx);
      } else {
        await inputs.done(feature, featureCtx, recording);
      }
      for (const [kind, items] of Object.entries(result.events ?? {})) outcome.events.push([kind, items, result.tracked?.[kind]]);
    } catch (error) {
      inputs.forget(feature, featureCtx);
      if (error instanceof UnexpectedResponseError) {
        if (!error.refused) outcome.problem = { error, feature: feature.name };
        log.warn({ source: feature.name, status: error.status, err: error.message }, 'source failed; keeping its last values');
      } else {
        outcome.sessionError = error;
        return outcome;
      }
    }
  }
  return outcome;
}

/**
 * The states of the features a start does not read in its first pass, kept in data_dir from one run
 * to the next (store/kept-states.ts): the first pass publishes them, so that no entity stays without a
 * state until the second.
 */
class LaterStates {
  private kept: KeptStates = {};
  written: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: KeptStatesStore,
    private readonly log: Logger,
  ) {}

  async load(): Promise<void> {
    this.kept = await this.store.load((error) => this.log.warn({ err: error.message }, 'kept states unreadable; the first pass publishes unknowns'));
  }

  /** What the last run kept of a feature's states; undefined when nothing was. */
  first(feature: string): Record<string, EntityState> | undefined {
    const states = this.kept[feature];
    return states !== undefined && Object.keys(states).length > 0 ? states : undefined;
  }

  /** A feature's states after a good poll, saved in the background (the store writes only a change). */
  keep(feature: string, states: Record<string, EntityState>): void {
    this.kept[feature] = { ...this.kept[feature], ...states };
    this.written = this.store.save(this.kept).catch((error: Error) => this.log.warn({ err: error.message }, 'could not keep the states for the next start'));
  }
}

/** Publishes a cycle's calendar feeds, as its states are (the publisher keeps or drops them). */
export function publishFeeds(publisher: Publisher, childId: string, feeds: FeedContents): void {
  for (const name of FEED_NAMES) {
    const content = feeds[name];
    if (content !== undefined) publisher.publishFeed(childId, name, content);
  }
}
