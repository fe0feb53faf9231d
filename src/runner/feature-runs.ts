// What the features read and when they compute. What a feature reads is decided from the copies held
// and the day, and decided again only when a question its last decision asked of the copies answers
// otherwise (deciding every feature at each ask, the timetable's weeks, the grades' lookups, was a tenth
// of a pass's CPU). A feature computes, in run order, only when something it takes in moved since its
// last clean run (a copy it reads was read anew, refused or failed; another feature's output it takes;
// the day; the child), otherwise its states stand as published (computing every feature at each pass
// was most of a simulated day's CPU). It computes from the copies it said it reads and nothing else:
// reading another is a programming error.
import { UnexpectedResponseError } from '../portal/errors.js';
import { keptForLater, type Feature, type FeatureAccess, type FeatureState } from '../features/feature.js';
import { KeptStatesStore, type KeptStates } from '../portal/login-records.js';
import { KeptAskedFacts } from './kept-asked.js';
import type { ResourceCache } from '../engine/cache.js';
import type { Copies, Host, Resource, Want } from '../engine/resource.js';
import type { EntityState } from '../engine/state.js';
import type { SourceContext } from '../engine/source.js';
import type { Identity } from '../engine/identity.js';
import type { CalendarFeedContents } from '../rules/calendar-feeds.js';
import type { YearSeries } from '../engine/series.js';
import type { EventBatch } from '../once/gate.js';
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
  calendarFeeds: CalendarFeedContents;
  /** The figures of the school year of the pass's computations, by feature name (none when none computed them). */
  year: Record<string, YearSeries>;
  /** What the features that computed kept for Assist, by feature name. */
  ask: Record<string, unknown>;
  /** The last feature that answered in an unexpected way. */
  problem?: FeatureProblem;
  /** Set when the features' dynamic entities changed: the child must be announced again. */
  entitiesChanged?: boolean;
}

/** The reads of a feature that reads nothing: one list, so that the merge of the reads sees nothing moved (wants). */
const NONE: readonly Want[] = Object.freeze([]);

/** What a feature's last clean run took in, each compared by identity: its copies (copiesOf), the day, the child, its inputs. */
type Taken = readonly [copies: string, today: string, identity: unknown, ...inputs: unknown[]];

export class FeatureRuns {
  /** Each feature's reads as last decided: from which day and child, whether the copies still answer as they did, the answer. */
  private readonly decided = new Map<
    Feature,
    { today: string; identity: Identity; onDemand: readonly Want[]; same: (() => boolean)[]; wants: readonly Want[] }
  >();
  /** The last merge of the features' reads (wants): from which decisions and signal reads, and the answer. */
  private merged: { each: readonly (readonly Want[])[]; signals: readonly Want[]; wants: readonly Want[] } | undefined;
  private readonly taken = new Map<string, Taken>();
  /** Each feature's last output, by feature name, for the features that name it as an input. */
  readonly outputs = new Map<string, unknown>();
  /** The states of the features a start leaves for later, kept in data_dir: a first pass publishes them, not unknowns. */
  private kept: KeptStates = {};
  private readonly store: KeptStatesStore;
  /** What the same features last kept for Assist, told at a start's first pass as their states are. */
  private readonly asked: KeptAskedFacts;
  /** The last write of the kept states (the store writes only a change). */
  private statesWritten: Promise<void> = Promise.resolve();

  constructor(
    private readonly running: readonly Running[],
    private readonly access: Pick<FeatureAccess, 'account' | 'cache' | 'dataDir' | 'log'>,
    /** The copies a person asked for on demand, kept (engine/on-demand.ts): the same list until one comes or goes. */
    private readonly onDemand: () => readonly Want[] = () => NONE,
  ) {
    this.store = new KeptStatesStore(access.dataDir, access.account.login);
    this.asked = new KeptAskedFacts(access.dataDir, access.account.login, access.log);
  }

  /** The last writes of what is kept for the next start (its states and Assist's facts). */
  get written(): Promise<void> {
    return Promise.all([this.statesWritten, this.asked.written]).then(() => undefined);
  }

  async load(): Promise<void> {
    this.kept = await this.store.load((error) =>
      this.access.log.warn({ err: error.message }, 'kept states unreadable; the first pass publishes unknowns'),
    );
    await this.asked.load();
  }

  /**
   * Every copy the features read now, once each (a copy two features read is one want), with what their
   * lists' signals are read from.
   */
  wants(identity: Identity, today: string): readonly Want[] {
    const each = this.running.map(({ feature }) => this.reads(feature, identity, today));
    const signals = signalReads(each.flat(), this.access.cache);
    // Asked a few times a pass (each round, the wake) and mostly of the same decisions: merged again only when one moved.
    const last = this.merged;
    if (last !== undefined && each.every((w, i) => w === last.each[i]) && sameWants(signals, last.signals)) return last.wants;
    const merged = new Map<string, Want>();
    for (const w of [...each.flat(), ...signals]) {
      const copy = `${w.res.name}\u0000${w.key ?? ''}`;
      const known = merged.get(copy);
      merged.set(copy, known === undefined ? w : both(known, w));
    }
    const wants = [...merged.values()];
    this.merged = { each, signals, wants };
    return wants;
  }

  /** Whether every feature reading `w` (as last decided) computed from the copy held now: the change feed acknowledges a change only then. */
  computedFrom(w: Want): boolean {
    for (const [feature, { wants }] of this.decided) {
      if (wants.some((r) => r.res === w.res && r.key === w.key) && this.taken.get(feature.name)?.[0] !== copiesOf(wants, this.access.cache))
        return false;
    }
    return true;
  }

  /** What a feature reads now (its `reads`, a function of its context and the copies' answers alone), decided again only when one answers otherwise. */
  private reads(feature: Feature, identity: Identity, today: string): readonly Want[] {
    if (!feature.reads) return NONE;
    const { cache, account } = this.access;
    const last = this.decided.get(feature);
    const onDemand = this.onDemand();
    if (last?.today === today && last.identity === identity && last.onDemand === onDemand && last.same.every((same) => same())) return last.wants;
    // Each question asked of the copies (their last good values, whatever this pass met), kept with its answer.
    const same: (() => boolean)[] = [];
    const asking =
      <R>(question: (res: Resource, key?: string) => R) =>
      (res: Resource, key?: string): R => {
        const answer = question(res, key);
        same.push(() => Object.is(question(res, key), answer));
        return answer;
      };
    const peek = asking((res, key) => cache.peek(res, key));
    const copies: Copies = {
      get: <T>(res: Resource<T>, key?: string) => peek(res, key) as T | undefined,
      peek: <T>(res: Resource<T>, key?: string) => peek(res, key) as T | undefined,
      refused: asking((res, key) => cache.refused(res, key)),
      readAt: asking((res, key) => cache.readAt(res, key)),
    };
    const wants = feature.reads({ identity, today, account, copies, onDemand });
    this.decided.set(feature, { today, identity, onDemand, same, wants });
    return wants;
  }

  /**
   * Runs the features that must, in run order, after the pass's reads; those reading a host it could not
   * read (`unread`: the portal down, a dead session) keep their states. A refresh or downloads (which a
   * computation retries) run every one.
   */
  async run(ctx: Omit<SourceContext, 'inputs' | 'cache'>, pass: { startPass: boolean; unread: ReadonlySet<Host> }): Promise<CycleOutcome> {
    const outcome: CycleOutcome = { states: {}, events: [], calendarFeeds: {}, year: {}, ask: {} };
    const { cache } = this.access;
    for (const { feature, state } of this.running) {
      if (!state.compute) continue;
      const wants = this.reads(feature, ctx.identity, ctx.today);
      if (wants.some((w) => pass.unread.has(w.res.host))) continue;
      const inputs = (feature.inputs ?? []).map((name) => this.outputs.get(name));
      // Made only for a feature that computes: most passes leave most features alone.
      const featureCtx = (): SourceContext => ({
        ...ctx,
        cache: view(cache, feature.name, wants),
        onDemand: wants.filter((w) => w.onDemand === true),
        inputs: Object.fromEntries((feature.inputs ?? []).map((name, i) => [name, inputs[i]])),
      });
      if (pass.startPass && keptForLater(wants) && !wants.every((w) => cache.readAt(w.res, w.key) !== undefined)) {
        // Kept for later, its copies not held (a first run, or kept past their age: engine/kept-copies.ts): what the last
        // run published, or an honest unknown on a first run. Held, it computes from them, whatever version kept them.
        const kept = this.kept[feature.name];
        Object.assign(outcome.states, kept && Object.keys(kept).length > 0 ? kept : (state.unknown?.() ?? state.restate?.(featureCtx())));
        const asked = this.asked.of(feature.name, feature.ask?.unknown);
        if (asked !== undefined) outcome.ask[feature.name] = asked;
        continue;
      }
      const taken: Taken = [copiesOf(wants, cache), ctx.today, ctx.identity, ...inputs];
      const last = this.taken.get(feature.name);
      const moved =
        ctx.asked ||
        (ctx.downloads !== undefined && feature.downloads === true) ||
        feature.everyPass === true ||
        last === undefined ||
        taken.some((value, i) => value !== last[i]);
      if (!moved) continue;
      this.taken.delete(feature.name);
      try {
        const result = await state.compute(featureCtx());
        if ('output' in result) this.outputs.set(feature.name, result.output);
        Object.assign(outcome.states, result.states);
        if (keptForLater(wants) && result.states !== undefined) this.keep(feature.name, result.states);
        Object.assign(outcome.calendarFeeds, result.calendarFeeds);
        if (result.year !== undefined) outcome.year[feature.name] = result.year;
        if (result.ask !== undefined) outcome.ask[feature.name] = result.ask;
        if (keptForLater(wants) && result.ask !== undefined) this.asked.keep(feature.name, result.ask);
        if (result.suspicious !== undefined) {
          outcome.problem = { error: new UnexpectedResponseError(200, result.suspicious), feature: feature.name };
          ctx.log.warn({ source: feature.name, err: result.suspicious }, 'source answered in an unexpected way');
        } else {
          this.taken.set(feature.name, taken);
        }
        for (const [kind, items] of Object.entries(result.events ?? {})) outcome.events.push([kind, items, result.tracked?.[kind]]);
      } catch (error) {
        // Not the feature's own failure (a dead session): the pass fails.
        if (!(error instanceof UnexpectedResponseError)) throw error;
        if (!error.refused) outcome.problem = { error, feature: feature.name };
        ctx.log.warn({ source: feature.name, status: error.status, err: error.message }, 'source failed; keeping its last values');
      }
    }
    return outcome;
  }

  /** A feature's states after a good computation, kept for the next start (saved in the background). */
  private keep(feature: string, states: Record<string, EntityState>): void {
    this.kept[feature] = { ...this.kept[feature], ...states };
    this.statesWritten = this.store
      .save(this.kept)
      .catch((error: Error) => this.access.log.warn({ err: error.message }, 'could not keep the states for the next start'));
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

/** One copy two readers want: a lookup lacks the ids either reader names; a copy any reader needs now is neither ahead of need nor on demand. */
function both(a: Want, b: Want): Want {
  const missing = a.missing === undefined || b.missing === undefined ? (a.missing ?? b.missing) : [...new Set([...a.missing, ...b.missing])];
  const ahead = a.ahead === true && b.ahead === true;
  const onDemand = a.onDemand === true && b.onDemand === true;
  // Spelt out rather than spread: wants come in many shapes, and a spread of them was a third of this merge's CPU.
  return b.key === undefined ? { res: b.res, missing, ahead, onDemand } : { res: b.res, key: b.key, missing, ahead, onDemand };
}

/** Whether two lists name the same copies, in the same order, wanted alike. */
function sameWants(a: readonly Want[], b: readonly Want[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (w, i) =>
        w.res === b[i]!.res &&
        w.key === b[i]!.key &&
        String(w.missing) === String(b[i]!.missing) &&
        w.ahead === b[i]!.ahead &&
        w.onDemand === b[i]!.onDemand,
    )
  );
}

/** Which copies, at which reads, a feature takes in. */
function copiesOf(wants: readonly Want[], cache: ResourceCache): string {
  return wants.map((w) => `${w.res.name}:${w.key ?? ''}:${cache.version(w)}`).join('|');
}

/** The copies as a feature's computation sees them: only those it said it reads (`wants`). */
function view(cache: ResourceCache, feature: string, wants: readonly Want[]): Copies {
  return {
    get: (res, key) => {
      if (!wants.some((w) => w.res.name === res.name && w.key === key))
        throw new Error(`feature ${feature} reads ${res.name}${key === undefined ? '' : ` (${key})`} without saying so in its reads`);
      return cache.get(res, key);
    },
    peek: (res, key) => cache.peek(res, key),
    refused: (res, key) => cache.refused(res, key),
    readAt: (res, key) => cache.readAt(res, key),
  };
}
