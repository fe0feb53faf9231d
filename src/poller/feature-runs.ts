// The features' computations in a pass: each runs, in run order, only when something it takes in
// moved since its last clean run (a copy it reads was read anew, refused or failed; another feature's
// output it takes; the day; the child), otherwise its states stand as published (most passes read one
// or two copies: computing every feature each time was most of a simulated day's CPU). A feature
// computes from the copies it said it reads and nothing else: reading another is a programming error.
import { UnexpectedResponseError } from '../portal/errors.js';
import { keptForLater, type Feature, type FeatureState, type ReadsContext } from '../features/feature.js';
import type { KeptStatesStore, KeptStates } from '../store/kept-states.js';
import type { ResourceCache } from '../feature-kit/cache.js';
import type { Copies, Host, Resource, Want } from '../feature-kit/resource.js';
import type { EntityState } from '../feature-kit/state.js';
import type { SourceContext } from '../feature-kit/source.js';
import type { FeedContents } from '../school/calendar-feeds.js';
import type { Logger } from '../util/log.js';
import type { EventBatch } from './event-gate.js';
import type { FeatureProblem } from './health.js';

/** One feature's state for an account. */
export interface Running {
  feature: Feature;
  state: FeatureState;
}

export interface CycleOutcome {
  states: Record<string, EntityState>;
  events: EventBatch[];
  /** The calendar feeds the pass's computations made. */
  feeds: FeedContents;
  /** The last feature that answered in an unexpected way. */
  problem?: FeatureProblem;
  /** Set when the account could not be read at all. */
  sessionError?: unknown;
  /** Set when the features' dynamic entities changed: the child must be announced again. */
  entitiesChanged?: boolean;
}

/** What a feature's last clean run took in, each compared by identity: its copies (copiesOf), the day, the child, its inputs. */
type Taken = readonly [copies: string, today: string, identity: unknown, ...inputs: unknown[]];

export class FeatureRuns {
  private readonly last = new Map<string, Taken>();
  /** Each feature's last output, by feature name, for the features that name it as an input. */
  readonly outputs = new Map<string, unknown>();
  /**
   * The states of the features a start does not read in its first pass, kept in data_dir from one run
   * to the next (store/kept-states.ts): the first pass publishes them, so that no entity stays without a
   * state until the second.
   */
  private kept: KeptStates = {};
  /** The last write of the kept states (the store writes only a change). */
  written: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: KeptStatesStore,
    private readonly log: Logger,
  ) {}

  async load(): Promise<void> {
    this.kept = await this.store.load((error) => this.log.warn({ err: error.message }, 'kept states unreadable; the first pass publishes unknowns'));
  }

  /** Whether a feature's last clean run took in the copies `wants` hold now (it computed from them, without a failure). */
  upToDate(feature: string, wants: readonly Want[], cache: ResourceCache): boolean {
    return this.last.get(feature)?.[0] === copiesOf(wants, cache);
  }

  /**
   * Runs the features that must, in run order. `ctx` is the pass's (its copies are the account's cache);
   * `reads` answers what a feature reads now. A refresh or downloads (which a computation retries) run every one.
   */
  async run(
    running: readonly Running[],
    cache: ResourceCache,
    ctx: Omit<SourceContext, 'inputs' | 'cache'>,
    reads: (feature: Feature) => readonly Want[],
    pass: { startPass: boolean; unread: ReadonlySet<Host> },
    log: Logger,
  ): Promise<CycleOutcome> {
    const outcome: CycleOutcome = { states: {}, events: [], feeds: {} };
    const { startPass, unread } = pass;
    for (const { feature, state } of running) {
      if (!state.poll) continue;
      const wants = feature.reads ? reads(feature) : [];
      // A host this pass could not read (the portal down, a dead session): what reads it keeps its states.
      if (wants.some((w) => unread.has(w.res.host))) continue;
      const inputs = (feature.inputs ?? []).map((name) => this.outputs.get(name));
      // Made only for a feature that computes: most passes leave most features alone.
      const featureCtx = (): SourceContext => ({
        ...ctx,
        cache: view(cache, { feature: feature.name, wants }),
        inputs: Object.fromEntries((feature.inputs ?? []).map((name, i) => [name, inputs[i]])),
      });
      if (startPass && keptForLater(wants)) {
        // Kept for later: what the last run published, or an honest unknown on a first run.
        const kept = this.kept[feature.name];
        Object.assign(outcome.states, kept && Object.keys(kept).length > 0 ? kept : (state.unknown?.() ?? state.restate?.(featureCtx())));
        continue;
      }
      const taken: Taken = [copiesOf(wants, cache), ctx.today, ctx.identity, ...inputs];
      const last = this.last.get(feature.name);
      const moved =
        ctx.asked ||
        (ctx.downloads !== undefined && feature.downloads === true) ||
        feature.everyPass === true ||
        last === undefined ||
        taken.some((value, i) => value !== last[i]);
      if (!moved) continue;
      this.last.delete(feature.name);
      try {
        const result = await state.poll(featureCtx());
        if ('output' in result) this.outputs.set(feature.name, result.output);
        Object.assign(outcome.states, result.states);
        if (keptForLater(wants)) this.keep(feature.name, result.states);
        Object.assign(outcome.feeds, result.feeds);
        if (result.suspicious !== undefined) {
          outcome.problem = { error: new UnexpectedResponseError(200, result.suspicious), feature: feature.name };
          log.warn({ source: feature.name, err: result.suspicious }, 'source answered in an unexpected way');
        } else {
          this.last.set(feature.name, taken);
        }
        for (const [kind, items] of Object.entries(result.events ?? {})) outcome.events.push([kind, items, result.tracked?.[kind]]);
      } catch (error) {
        if (!(error instanceof UnexpectedResponseError)) {
          outcome.sessionError = error;
          return outcome;
        }
        if (!error.refused) outcome.problem = { error, feature: feature.name };
        log.warn({ source: feature.name, status: error.status, err: error.message }, 'source failed; keeping its last values');
      }
    }
    return outcome;
  }

  /** A feature's states after a good computation, kept for the next start (saved in the background). */
  private keep(feature: string, states: Record<string, EntityState>): void {
    this.kept[feature] = { ...this.kept[feature], ...states };
    this.written = this.store
      .save(this.kept)
      .catch((error: Error) => this.log.warn({ err: error.message }, 'could not keep the states for the next start'));
  }
}

/** Which copies, at which reads, a feature takes in. */
function copiesOf(wants: readonly Want[], cache: ResourceCache): string {
  return wants.map((w) => `${w.res.name}:${w.key ?? ''}:${cache.version(w)}`).join('|');
}

/** One question a feature's `reads` asked of the copies, and the answer it had. */
interface Asked {
  question: 'peek' | 'refused' | 'readAt';
  res: Resource;
  key: string | undefined;
  answer: unknown;
}

/**
 * What each feature reads now, from the copies held (their last good values), decided again only when one of the questions its last
 * decision asked of the copies (a copy's value, by identity; a refusal; a read's time) answers otherwise,
 * or the day, the child or the account changed. A pass asks several times (after each round of reads,
 * for its next wake, for the diagnostics) while most reads change what one or two features read:
 * deciding every feature each time (the timetable's weeks, the grades' lookups) was a tenth of a pass's CPU.
 * A `reads` is a function of its context and the copies' answers alone (no clock): the answer is the same.
 */
export class FeatureReads {
  private readonly last = new Map<Feature, { ctx: Omit<ReadsContext, 'copies'>; asked: Asked[]; wants: readonly Want[] }>();

  of(feature: Feature, cache: ResourceCache, ctx: Omit<ReadsContext, 'copies'>): readonly Want[] {
    if (!feature.reads) return [];
    const last = this.last.get(feature);
    if (
      last !== undefined &&
      last.ctx.today === ctx.today &&
      last.ctx.identity === ctx.identity &&
      last.ctx.account === ctx.account &&
      last.asked.every((a) => Object.is(ask(cache, a.question, a.res, a.key), a.answer))
    )
      return last.wants;
    const asked: Asked[] = [];
    const answer = (question: Asked['question'], res: Resource, key: string | undefined): unknown => {
      const value = ask(cache, question, res, key);
      asked.push({ question, res, key, answer: value });
      return value;
    };
    const copies: Copies = {
      get: <T>(res: Resource<T>, key?: string) => answer('peek', res, key) as T | undefined,
      peek: <T>(res: Resource<T>, key?: string) => answer('peek', res, key) as T | undefined,
      refused: (res, key) => answer('refused', res, key) as boolean,
      readAt: (res, key) => answer('readAt', res, key) as number | undefined,
    };
    const wants = feature.reads({ ...ctx, copies });
    this.last.set(feature, { ctx, asked, wants });
    return wants;
  }
}

/** A question of the copies as a feature's reads see them: the last good value of each, whatever this pass met. */
function ask(cache: ResourceCache, question: Asked['question'], res: Resource, key: string | undefined): unknown {
  if (question === 'peek') return cache.peek(res, key);
  if (question === 'refused') return cache.refused(res, key);
  return cache.readAt(res, key);
}

/**
 * The copies as a feature sees them: for its computation, only those it said it reads (`wants`; reading
 * another is a programming error); for its reads, the last good value of each, whatever this pass met.
 */
function view(cache: ResourceCache, computing?: { feature: string; wants: readonly Want[] }): Copies {
  return {
    get: (res, key) => {
      if (computing === undefined) return cache.peek(res, key);
      if (!computing.wants.some((w) => w.res.name === res.name && w.key === key))
        throw new Error(`feature ${computing.feature} reads ${res.name}${key === undefined ? '' : ` (${key})`} without saying so in its reads`);
      return cache.get(res, key);
    },
    peek: (res, key) => cache.peek(res, key),
    refused: (res, key) => cache.refused(res, key),
    readAt: (res, key) => cache.readAt(res, key),
  };
}
