// An account's features: their states, the entities the child has, what they read and compute in a
// pass (feature-runs.ts, `runs`) and the way to their command handlers.
import { accountEntities, commandOwners, runOrder } from '../features/index.js';
import type { EntityDef } from '../features/kit/entities.js';
import type { EntityState } from '../engine/state.js';
import type { CommandAccount, Feature, FeatureAccess, FeatureState } from '../features/feature.js';
import type { CommandRequest } from '../features/kit/commands.js';
import type { FeatureOutputs, SourceContext } from '../engine/source.js';
import type { SchoolDayTimes } from '../engine/moments.js';
import type { Host, Want } from '../engine/resource.js';
import { warsawDate } from '../util/time.js';
import { FeatureRuns, type CycleOutcome, type Running } from './feature-runs.js';
import type { CalendarFeedContents } from '../rules/calendar-feeds.js';
import { AbsentModules } from '../features/kit/modules.js';
import { AnsweredListsStore, RefusedModulesStore } from '../portal/login-records.js';
import { KINDERGARTEN_SEARCH, sourceOf } from '../engine/resources/kindergarten.js';
import { TIMETABLE } from '../engine/resources/timetable.js';
import { GRADES, UNITS } from '../engine/resources/grades.js';
import { childUnit, givesNoGrades } from '../portal/schemas/identity.js';
import { GRADE_LISTS } from '../features/grades/newest.js';
import type { AccountKind } from '../features/timetable/kindergarten.js';

/** A pupil's own lists, which a kindergarten child's account refuses (live-notes 33, 58): one answered tells a pupil. */
const PUPIL_LISTS = [TIMETABLE, ...GRADE_LISTS];

export class AccountFeatures {
  private readonly running: Running[];
  /** What the features read now (`wants`), and which of them compute in a pass. */
  readonly runs: FeatureRuns;
  /** The entities as last handed out by entities(), to tell when the child needs announcing again. */
  private announced = '';
  /** The modules the portal refuses the child for a day, and the lists that have answered it: which entities it declares. */
  readonly absent: AbsentModules;

  constructor(
    features: readonly Feature[],
    private readonly access: FeatureAccess,
    /** The copies a person asked for on demand, kept (engine/on-demand.ts). */
    onDemand?: () => readonly Want[],
  ) {
    this.running = runOrder(features).map((feature) => ({ feature, state: feature.create(access) }));
    this.runs = new FeatureRuns(this.running, access, onDemand);
    const { dataDir, account } = access;
    this.absent = new AbsentModules(
      new RefusedModulesStore(dataDir, account.login),
      access.log,
      () => this.kind() === 'kindergarten',
      new AnsweredListsStore(dataDir, account.login),
    );
  }

  /**
   * What the child is, from what its passes have learned (interface 16.2, live-notes 58), on either road: a
   * kindergarten child once its kindergarten plan is found; a pupil once its timetable or a kind of grade has answered; else a
   * kindergarten child when its Me names no class or its unit gives no grades; a pupil when its class is named (a
   * pupil whose school refuses its timetable and grades stays one: those lists leave its device after a day of
   * refusals, interface 12.2, as for any pupil); a kindergarten child when nothing tells but its timetable and grades
   * are refused; undefined while none of it is known (a first pass that failed).
   */
  kind(): AccountKind | undefined {
    const { cache } = this.access;
    const identity = this.access.identity();
    if (sourceOf(cache.peek(KINDERGARTEN_SEARCH)) !== undefined) return 'kindergarten';
    if (PUPIL_LISTS.some((res) => this.absent.hasAnswered(res))) return 'school';
    const unit = identity === undefined ? undefined : childUnit(cache.peek(UNITS), identity.unitId);
    if (identity?.noClass === true || givesNoGrades(unit)) return 'kindergarten';
    if (identity?.className !== undefined) return 'school';
    return [TIMETABLE, GRADES].every((res) => this.absent.refuses(res)) ? 'kindergarten' : undefined;
  }

  /** What the account's child announces: what it has, without the entities of the modules the portal refuses it. */
  entities(): EntityDef[] {
    const shown = this.shown();
    this.announced = announcement(shown);
    return shown;
  }

  /**
   * What the child has (AbsentModules.declares): not what the portal refuses it; and unless it is a pupil, only
   * what a list that has answered fills, so that a kindergarten child's device never lists grades, from her first
   * discovery, whichever lists her first pass asked for.
   */
  private shown(): EntityDef[] {
    const all = this.all();
    // Its kind asked only of a child with entities made of lists (every child, but a test's handful of entities).
    const pupil = all.some((e) => e.module?.length) && this.kind() === 'school';
    return all.filter((e) => this.absent.declares(e, pupil));
  }

  /** Every entity the child may have now: the features' fixed ones, then those that follow the data. */
  private all(): EntityDef[] {
    const features = this.running.map((r) => r.feature);
    return [...accountEntities(this.access.account, features), ...this.dynamic()];
  }

  /** The entities that follow the data (one per subject), as the features have them now, in feature order. */
  dynamic(): EntityDef[] {
    return this.running.flatMap((r) => r.state.dynamic?.() ?? []);
  }

  /** Today's lessons as the last timetable read gives them (the planner's kind of moment); undefined when not known. */
  schoolDay(now: number): SchoolDayTimes | undefined {
    const date = warsawDate(now);
    const timetable = this.runs.outputs.get('timetable') as FeatureOutputs['timetable'] | undefined;
    const day = timetable?.fortnight.find((d) => d.date === date);
    return day?.lessons === undefined ? undefined : { date, start: day.start, end: day.end };
  }

  async prepare(): Promise<void> {
    for (const { state } of this.running) await state.prepare?.();
    await this.runs.load();
    await this.absent.load();
  }

  /** The calendar feeds the last run served (restored by prepare), to publish before the first read. */
  restoredCalendarFeeds(): CalendarFeedContents {
    return Object.assign({}, ...this.running.map(({ state }) => state.restoredCalendarFeeds?.() ?? {})) as CalendarFeedContents;
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
   * never at the same time as a pass) unless the feature declares it concurrent (it only waits for the
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

  /** The earliest instant after `now` at which a feature's states move without a pass; null for none. */
  nextBoundary(now: number): number | null {
    const times = this.running.map((r) => r.state.nextBoundary?.(now) ?? null).filter((t) => t !== null);
    return times.length > 0 ? Math.min(...times) : null;
  }

  /** The states of the features with boundaries, computed again from the copies (no request) at `now`; undefined before the first identity. */
  restate(now: number): Record<string, EntityState> | undefined {
    const { cache, log } = this.access;
    const identity = this.access.identity();
    if (identity === undefined) return undefined;
    const states: Record<string, EntityState> = {};
    for (const { state } of this.running) {
      if (state.nextBoundary && state.restate)
        Object.assign(states, state.restate({ cache, identity, log, now, today: warsawDate(now), asked: false, inputs: {} }));
    }
    return states;
  }

  /** The pass's computations (feature-runs.ts), then the device's entities: a module refused for a day leaves it, one that answers again comes back. */
  async compute(ctx: Omit<SourceContext, 'inputs' | 'cache'>, pass: { startPass: boolean; unread: ReadonlySet<Host> }): Promise<CycleOutcome> {
    const outcome = await this.runs.run(ctx, pass);
    this.absent.update(this.access.cache, this.all());
    if (announcement(this.shown()) !== this.announced) outcome.entitiesChanged = true;
    return outcome;
  }
}

/** What discovery shows of a child's entities, to tell when it changed: each entity with its names. */
function announcement(entities: readonly EntityDef[]): string {
  return entities.map((e) => `${e.platform}:${e.key}:${e.name.en}:${e.name.pl}`).join('\n');
}
