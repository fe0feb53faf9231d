// An account's features: their states, what they read now (wants) and their computations after the
// pass's reads (feature-runs.ts), what the computations found (states, events, calendar feeds) and the
// way to their command handlers.
import { accountEntities, commandOwners, runOrder } from '../features/index.js';
import type { EntityDef } from '../feature-kit/entities.js';
import type { EntityState } from '../feature-kit/state.js';
import type { AccountConfig } from '../config/schema.js';
import type { CommandAccount, Feature, FeatureAccess, FeatureState, ReadsContext } from '../features/feature.js';
import type { CommandRequest } from '../feature-kit/commands.js';
import type { FeatureOutputs, SourceContext } from '../feature-kit/source.js';
import type { Logger } from '../util/log.js';
import type { SchoolDayTimes } from '../feature-kit/plan.js';
import type { ResourceCache } from '../feature-kit/cache.js';
import type { Copies, Host, Resource, Want } from '../feature-kit/resource.js';
import { warsawDate } from '../util/time.js';
import { FeatureReads, FeatureRuns, type CycleOutcome, type Running } from './feature-runs.js';
import type { FeedContents } from '../school/calendar-feeds.js';
import { KeptStatesStore } from '../store/kept-states.js';
import { AbsentModules } from '../feature-kit/modules.js';
import { RefusedModulesStore } from '../store/refused-modules.js';

export class AccountFeatures {
  private readonly running: Running[];
  /** The dynamic entities and the modules absent as last handed out by entities(), to tell when the child needs announcing again. */
  private announced = '';
  /** Which features run in a pass, and what each last took in. */
  private readonly runs: FeatureRuns;
  private readonly cache: ResourceCache;
  /** The modules the portal has refused the child for a day: their entities leave the device. */
  /** The modules the portal refuses the child for a day: their entities are not announced. */
  readonly absent: AbsentModules;
  /** What the features read as last decided, and from what (the copies' changes, the day). */
  private reads: { key: string; identity: unknown; all: Want[]; byFeature: Map<Feature, readonly Want[]> } | undefined;
  /** Each feature's reads, decided again only when what they were decided from answers otherwise. */
  private readonly featureReads = new FeatureReads();

  constructor(features: readonly Feature[], access: FeatureAccess) {
    this.running = runOrder(features).map((feature) => ({ feature, state: feature.create(access) }));
    this.runs = new FeatureRuns(new KeptStatesStore(access.dataDir, access.account.login), access.log);
    this.cache = access.cache;
    this.absent = new AbsentModules(new RefusedModulesStore(access.dataDir, access.account.login), access.log);
  }

  /** What the account's child announces: what it has, without the entities of the modules the portal refuses it. */
  entities(account: AccountConfig): EntityDef[] {
    this.announced = this.announcement();
    return this.all(account).filter((e) => !this.absent.absent(e));
  }

  /** What of the child's entities can change between passes: those that follow the data (as discovery shows them), the modules absent. */
  private announcement(): string {
    return [...this.dynamic().map((e) => `${e.platform}:${e.key}:${e.name.en}:${e.name.pl}`), '', this.absent.names()].join('\n');
  }

  /** Every entity the child may have now: the features' fixed ones, then those that follow the data. */
  private all(account: AccountConfig): EntityDef[] {
    return [
      ...accountEntities(
        account,
        this.running.map((r) => r.feature),
      ),
      ...this.dynamic(),
    ];
  }

  /** The entities that follow the data, in feature order. */
  private dynamic(): EntityDef[] {
    return this.running.flatMap((r) => r.state.dynamic?.() ?? []);
  }

  /** Today's lessons as the last timetable read gives them (the fetch plan's kind of moment); undefined when not known. */
  schoolDay(now: number): SchoolDayTimes | undefined {
    const date = warsawDate(now);
    const timetable = this.runs.outputs.get('timetable') as FeatureOutputs['timetable'] | undefined;
    const day = timetable?.fortnight.find((d) => d.date === date);
    return day?.lessons === undefined ? undefined : { date, start: day.start, end: day.end };
  }

  /**
   * Every copy the features read now, once each (a copy two features read is one want). What they read
   * is decided from the copies held and the day: asked again with neither changed, the last answer stands.
   */
  wants(ctx: Omit<ReadsContext, 'copies'>): Want[] {
    return this.decided(ctx).all;
  }

  /** What each feature reads now, and all of it once each (wants). */
  private decided(ctx: Omit<ReadsContext, 'copies'>): { all: Want[]; byFeature: ReadonlyMap<Feature, readonly Want[]> } {
    const key = `${this.cache.changes}|${ctx.today}`;
    if (this.reads?.key === key && this.reads.identity === ctx.identity) return this.reads;
    const byFeature = new Map<Feature, readonly Want[]>();
    const merged = new Map<string, Want>();
    for (const { feature } of this.running) byFeature.set(feature, this.featureReads.of(feature, this.cache, ctx));
    for (const wants of [...byFeature.values(), signalReads([...byFeature.values()].flat(), this.cache)]) {
      for (const w of wants) {
        const copy = `${w.res.name}\u0000${w.key ?? ''}`;
        const known = merged.get(copy);
        // A lookup any reader lacks an id in is missing; a copy any reader needs now is not ahead of need.
        merged.set(
          copy,
          known === undefined ? w : { ...w, missing: known.missing === true || w.missing === true, ahead: known.ahead === true && w.ahead === true },
        );
      }
    }
    this.reads = { key, identity: ctx.identity, all: [...merged.values()], byFeature };
    return this.reads;
  }

  /** Whether every feature reading `w` (as last decided) computed from the copy held now: the feed acknowledges a change only then. */
  computedFrom(w: Want): boolean {
    for (const [feature, wants] of this.reads?.byFeature ?? []) {
      if (wants.some((r) => r.res === w.res && r.key === w.key) && !this.runs.upToDate(feature.name, wants, this.cache)) return false;
    }
    return true;
  }

  async prepare(): Promise<void> {
    for (const { state } of this.running) await state.prepare?.();
    await this.runs.load();
    await this.absent.load();
  }

  /** The calendar feeds the last run served (restored by prepare), to publish before the first read. */
  restoredFeeds(): FeedContents {
    return Object.assign({}, ...this.running.map(({ state }) => state.restoredFeeds?.() ?? {})) as FeedContents;
  }

  /** Resolves when the last states kept for a start's first pass, and the modules refused for a day, are written. */
  saved(): Promise<void> {
    return Promise.all([this.runs.written, this.absent.written]).then(() => undefined);
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
  restateBoundaries(ctx: Omit<SourceContext, 'inputs'>): Record<string, EntityState> {
    const states: Record<string, EntityState> = {};
    for (const { state } of this.running) {
      if (state.nextBoundary && state.restate) Object.assign(states, state.restate({ ...ctx, inputs: {} }));
    }
    return states;
  }

  /** The pass's computations: the features whose copies moved, after its reads. */
  async compute(
    cache: ResourceCache,
    ctx: Omit<SourceContext, 'inputs' | 'cache'>,
    readsCtx: Omit<ReadsContext, 'copies'>,
    log: Logger,
    unread: ReadonlySet<Host> = new Set(),
    startPass = false,
  ): Promise<CycleOutcome> {
    const { byFeature } = this.decided(readsCtx);
    const outcome = await this.runs.run(this.running, cache, ctx, (feature) => byFeature.get(feature) ?? [], { startPass, unread }, log);
    // A module refused for a day leaves the device, one that answers again comes back.
    this.absent.update(cache, this.all(readsCtx.account));
    if (this.announcement() !== this.announced) outcome.entitiesChanged = true;
    return outcome;
  }
}

/**
 * What the signals of `wants` are read from (the class calendar for the lists it vouches for, the
 * counters for a mailbox's list), as their declarations say: a list's signal is read whoever reads the
 * list, not only when another feature happens to read it. Not the features' own reads: a feature does
 * not compute again at each read of a signal.
 */
export function signalReads(wants: readonly Want[], copies: Copies): Want[] {
  const seen = new Set<Resource>();
  return wants.flatMap((w) => {
    if (w.res.signalReads === undefined || seen.has(w.res)) return [];
    seen.add(w.res);
    return w.res.signalReads(copies);
  });
}
