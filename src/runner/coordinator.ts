// One pass of an account, as its scheduler (scheduler.ts) asks for it: who the child is, then every
// copy its features read (their `reads`) that is due, read in rounds (readDue); then the features
// whose copies moved compute (feature-runs.ts), and what they found is published, with `last_update`,
// `problem` and whether the child is available. What is due, and when the next pass is, the planner
// says (engine/plan.ts, handed the child's facts by account-plan.ts).
import { HOSTS, want, type Host, type Resource, type Want } from '../engine/resource.js';
import { IDENTITY } from '../engine/resources/identity.js';
import { isoWarsaw, warsawDate } from '../util/time.js';
import { whyOf } from '../engine/plan.js';
import type { AccountPlan, Due } from './account-plan.js';
import type { Identity } from '../engine/identity.js';
import type { EntityState } from '../engine/state.js';
import type { CycleOutcome } from './feature-runs.js';
import type { AccountFeatures } from './account-features.js';
import type { AccountChild } from './child.js';
import type { AccountHealth } from './health.js';
import type { EventGate } from '../once/gate.js';
import type { PortalAccess, PortalAccessOptions } from '../engine/resources/portal-access.js';
import { STATUS_ENTITIES } from '../features/status/status.js';
import { statesOf } from '../features/kit/contract.js';
import { kindergartenPlanFacts } from '../features/timetable/kindergarten.js';
import { hostFailed, hostStep, readDue } from './pass-reads.js';
import { schoolYearFacts, type AccountFigures } from '../features/status/figures.js';
import { CALENDAR_FEED_NAMES, type CalendarFeedContents } from '../rules/calendar-feeds.js';
import type { Bus } from '../bus/bus.js';
import type { AskFacts } from '../engine/source.js';
import type { ChildChangeFeed } from '../engine/change-feed/child.js';
import type { KeptCopies } from '../engine/kept-copies.js';
import type { Logger } from '../util/log.js';
import { errorText } from '../util/text.js';
import { loginStepOf } from '../portal/errors.js';

/** The account's parts a pass works with, built in order by the runner (account.ts). */
export interface PassParts {
  access: PortalAccess;
  child: AccountChild;
  health: AccountHealth;
  gate: EventGate;
  figures: AccountFigures;
  features: AccountFeatures;
  changeFeed: ChildChangeFeed;
  planner: AccountPlan;
  /** The copies kept through a restart (engine/kept-copies.ts): written after a pass that moved one. */
  kept: KeptCopies;
  log: Logger;
}

/**
 * A read a pass makes: the resource, the planner's why as the diagnostics say it (`age: feed safety 8 h`), and
 * whether the pass is a start's first (the bench's breakdown of what is read and why).
 */
export type ReadHook = (read: { resource: string; why: string; start: boolean }) => void;

/** One pass under way: what it was asked, when it began, the hosts it leaves unread and the failures it met. */
interface PassUnderWay {
  asked: boolean;
  /** A start's first pass: not asked, and the register not read since the start (what a start leaves for later waits). */
  start: boolean;
  started: number;
  today: string;
  /** Hosts nothing more is read of: backing off since an earlier pass, or failed in this one. */
  unread: Set<Host>;
  failed: Map<Host, unknown>;
}

/** What a pass did: the hosts it read, and those it could not (and why). */
export interface PassOutcome {
  read: Host[];
  failed: Map<Host, unknown>;
}

export class AccountCoordinator {
  /** A pass has read the register since the start: what a start leaves for later is read from then on. */
  private registerRead = false;
  /** The child's device has been announced in this run. */
  private announced = false;

  constructor(
    private readonly options: Pick<PortalAccessOptions, 'account' | 'clock' | 'familyRoad'> & {
      bus: Bus;
      /** Where a read that answers for the child's whole school is told (engine/school-reads.ts). */
      school?: { read(res: Resource, value: unknown, at: number): void };
      hooks?: { onRead?: ReadHook };
    },
    private readonly parts: PassParts,
  ) {}

  /** One pass; `waiting`: hosts whose last failure's backoff has not ended (nothing of theirs is read). */
  async pass(asked: boolean, waiting: ReadonlySet<Host>): Promise<PassOutcome> {
    const pass = this.begin(asked, waiting);
    const { cache } = this.parts.access;
    cache.begin();
    try {
      const identity = await this.identify(pass);
      if (identity === undefined) return this.failedAll(pass.failed.get('register') ?? new Error('the child is not known yet'));
      const read = await this.read(pass, identity);
      let outcome: CycleOutcome;
      try {
        outcome = await this.compute(pass, identity);
      } catch (error) {
        // A computation met what is not its own failure (a dead session): the child could not be read.
        return this.failedAll(error);
      }
      const now = this.options.clock.now();
      await this.publishPass(pass, read, outcome, now);
      await this.acknowledge(identity, pass.today);
      // A copy none of the features names any more leaves the cache.
      cache.forget(this.planned(now));
      this.parts.kept.save();
      this.keepFigures();
      await this.ended(pass, read, outcome, now);
      // The figures are saved with the planner's rows, when the scheduler asks for the next wake (nextWake).
      return { read, failed: pass.failed };
    } finally {
      cache.end();
    }
  }

  private begin(asked: boolean, waiting: ReadonlySet<Host>): PassUnderWay {
    const started = this.options.clock.now();
    return { asked, start: !asked && !this.registerRead, started, today: warsawDate(started), unread: new Set(waiting), failed: new Map() };
  }

  /** What is due now, as the planner says for this pass (a refresh, a start's first). */
  private due(pass: PassUnderWay, wants: readonly Want[]): readonly Due[] {
    return this.parts.planner.of(wants, this.options.clock.now(), { pass: { asked: pass.asked, start: pass.start } }).due;
  }

  /** Who the child is; a failed read leaves the child read before (undefined before the first), and only the register failed. */
  private identify(pass: PassUnderWay): Promise<Identity | undefined> {
    return this.identity(pass).catch((error: unknown) => {
      hostFailed('register', error, pass.unread, pass.failed);
      return this.parts.child.identity;
    });
  }

  /**
   * What is due, read in rounds, the change feed's steps around them (they are the register's: none while it is
   * unread); what answers for the whole school told to its other children. Answers the hosts read.
   */
  private async read(pass: PassUnderWay, identity: Identity): Promise<Host[]> {
    const { access, changeFeed } = this.parts;
    const { cache } = access;
    const { unread, failed } = pass;
    const changeFeedStep = (step: () => Promise<void>) => (unread.has('register') ? Promise.resolve() : hostStep('register', unread, failed, step));
    // Watch, then list: the change feed's device before the lists it covers (a start's first pass included).
    await changeFeedStep(() => changeFeed.beforeReads(cache));
    // The change feed leads its pass (Resource.leads): the lists its changes name are read in the rounds after.
    const read = await readDue(
      cache,
      () => this.due(pass, this.wanted(identity, pass.today)),
      unread,
      failed,
      () => changeFeedStep(() => changeFeed.afterRound(cache)),
      changeFeed.readForAge.bind(changeFeed),
      (w) => this.onRead(w, pass.start),
    );
    this.tellSchool(identity, pass.today);
    this.unreadStill(pass, read);
    return read;
  }

  /**
   * A host still down that this pass did not try (the night puts its retry off) is unread too: its features keep their
   * states. A login that failed is both hosts' (one session logs them in): a host down meanwhile backs off with it, so
   * that the two retry in one pass, and the login page is asked once a retry.
   */
  private unreadStill({ unread, failed }: PassUnderWay, read: readonly Host[]): void {
    const down = this.parts.health.down().filter((host) => !read.includes(host));
    for (const host of down) unread.add(host);
    const login = [...failed.values()].find((error) => loginStepOf(error) !== undefined);
    if (login !== undefined) for (const host of down) if (!failed.has(host)) failed.set(host, login);
  }

  /** The features whose copies moved compute; on the family road, a link the portal says needs action is a problem even while its token works. */
  private async compute(pass: PassUnderWay, identity: Identity): Promise<CycleOutcome> {
    const { access, child, features, log } = this.parts;
    const downloads = access.downloads(child.id);
    const context = { identity, now: pass.started, today: pass.today, asked: pass.asked, log, ...(downloads ? { downloads } : {}) };
    const outcome = await features.compute(context, { startPass: pass.start, unread: pass.unread });
    const link = await this.options.familyRoad?.linkProblem(this.options.account.login);
    if (link !== undefined) outcome.problem = { error: link, feature: 'family portal' };
    return outcome;
  }

  /** The pass's failures told, then what it found published with `last_update`, `problem` and the availability. */
  private async publishPass(pass: PassUnderWay, read: readonly Host[], outcome: CycleOutcome, now: number): Promise<void> {
    if (read.includes('register')) this.registerRead = true;
    this.parts.figures.passed(now - pass.started);
    for (const [host, error] of pass.failed) this.fail([host], error);
    await this.publish(read, outcome, now);
  }

  /** After the pass was published: what the change feed named is acknowledged once handled (engine/change-feed/child.ts, sortChanges; the others come back). */
  private acknowledge(identity: Identity, today: string): Promise<void> {
    const { access, changeFeed, features } = this.parts;
    const delivered = () => this.options.bus.delivered();
    return changeFeed.afterPublish(access.cache, features.runs.wants(identity, today), { computed: (w) => features.runs.computedFrom(w), delivered });
  }

  /** The figures the diagnostics show of the pass: the change feed's, the kindergarten plan's, the school year's. */
  private keepFigures(): void {
    const { access, changeFeed, child, features, figures } = this.parts;
    figures.changeFeed = changeFeed.changeFeedStatus();
    figures.kindergartenPlan = kindergartenPlanFacts(access.cache, features.kind());
    figures.schoolYear = schoolYearFacts(child.identity);
  }

  /** The pass's last log line; everything it found is published and its figures are up to date: a sink may act on the batch. */
  private async ended(pass: PassUnderWay, read: readonly Host[], outcome: CycleOutcome, now: number): Promise<void> {
    const { access, child, log } = this.parts;
    log.info({ read, ms: now - pass.started, entities: Object.keys(outcome.states).length }, 'pass done');
    this.options.bus.passed(child.id);
    await access.session.persist().catch((error: Error) => log.warn({ err: error.message }, 'could not save the session'));
  }

  /**
   * A copy another child of the same school read (Resource.school: the lucky number), taken as this child's own read
   * when it answers the child too and is newer (ResourceCache.take): the features that read it compute, and what they
   * found is published at once, with its events. Nothing is read, and `last_update` stays the last pass's. False when
   * the child did not take it (it is not news to the child, or not the child's to have).
   */
  async told(res: Resource, value: unknown, at: number): Promise<boolean> {
    const { access, child } = this.parts;
    if (child.identity === undefined || !access.cache.take(res, value, at)) return false;
    await this.computed();
    return true;
  }

  /**
   * The features whose copies moved outside a pass (told by another child of the school, or read because a person
   * asked: runner/account.ts, reach) compute, and what they found is published at once; `last_update` stays.
   */
  async computed(): Promise<void> {
    const { child, features, health, log } = this.parts;
    const identity = child.identity;
    if (identity === undefined) return;
    const now = this.options.clock.now();
    const outcome = await features.compute({ identity, now, today: warsawDate(now), asked: false, log }, { startPass: false, unread: new Set() });
    await this.publishFound(outcome, { now, lastGood: health.lastSucceeded(['register']) });
    this.options.bus.passed(child.id);
  }

  /** What this pass read that answers for the child's whole school is told to its other children (engine/school-reads.ts). */
  private tellSchool(identity: Identity, today: string): void {
    const { cache } = this.parts.access;
    for (const w of this.wanted(identity, today))
      if (w.res.school === true && cache.readOkThisPass(w)) this.options.school?.read(w.res, cache.peek(w.res), cache.readAt(w.res) ?? 0);
  }

  /**
   * When the next pass is due, as the planner says of what the child reads, with the hosts backing off
   * (the scheduler asks after each pass); its rows, as they are, are the diagnostics' next reads.
   */
  nextWake(now: number, retryAt: ReadonlyMap<Host, number>): number {
    const { rows, wake } = this.parts.planner.of(this.planned(now), now, { retryAt });
    const figures = this.parts.figures;
    figures.nextReads = rows.filter((r) => Number.isFinite(r.by)).map((r) => ({ row: r.row, at: r.at, by: r.by, why: whyOf(r) }));
    void figures.save();
    return wake;
  }

  /** Who the child is, and what it reads at `now`. */
  private planned(now: number): Want[] {
    const identity = this.parts.child.identity;
    return [want(IDENTITY), ...(identity === undefined ? [] : this.wanted(identity, warsawDate(now)))];
  }

  /** Tells the hooks of a read the pass makes (the bench's breakdown). */
  private onRead(w: Due, start: boolean): void {
    this.options.hooks?.onRead?.({ resource: w.res.name, why: whyOf(w.when), start });
  }

  /** What the features read, and the change feed while the child has a device. */
  private wanted(identity: Identity, today: string): readonly Want[] {
    const wants = this.parts.features.runs.wants(identity, today);
    const changeFeed = this.parts.changeFeed.want();
    return changeFeed === undefined ? wants : [...wants, changeFeed];
  }

  /** The child, read first when its copy is due (every feature reads by it); undefined before the first. */
  private async identity(pass: PassUnderWay): Promise<Identity | undefined> {
    const { access, child, health, gate } = this.parts;
    // A command may have read it since the last pass (a message to the class tutor on a new morning): taken up as read.
    const kept = access.cache.peek(IDENTITY);
    const readMeanwhile = kept !== undefined && kept.fetchedAt > (child.identity?.fetchedAt ?? -Infinity);
    if (!readMeanwhile) {
      const [w] = pass.unread.has('register') ? [] : this.due(pass, [want(IDENTITY)]);
      if (w === undefined) return child.identity;
      this.onRead(w, pass.start);
      await access.cache.read(w);
    }
    const before = child.id;
    await child.learned(access.cache.get(IDENTITY) as Identity, (error) => (health.storageError = error));
    if (before !== child.id) {
      // Its name became known: the old device goes, and the new id's event memory is loaded.
      this.options.bus.removed(before);
      await gate.load(child.id);
    }
    // A child new to the bridge is first announced once its first pass has told its kind (publish).
    if (this.announced) this.announce();
    return child.identity;
  }

  /** Announces the child's device with every entity it has now. */
  announce(): void {
    this.announced = true;
    const { child, features } = this.parts;
    this.options.bus.device(child.device(features.entities(), features.kind() === 'kindergarten'));
  }

  states(states: Record<string, EntityState>): void {
    for (const [key, state] of Object.entries(states)) this.options.bus.state(this.parts.child.id, key, state);
  }

  /** What the features kept for Assist (a pass's, or a command's), for the sinks that answer it. */
  askFacts(facts: AskFacts): void {
    if (Object.keys(facts).length > 0) this.options.bus.askFacts(this.parts.child.id, facts);
  }

  /** Calendar feeds: a pass's, or those the last run served (at a start). */
  calendarFeeds(calendarFeeds: CalendarFeedContents): void {
    publishCalendarFeeds(this.options.bus, this.parts.child.id, calendarFeeds);
  }

  /** What a pass found, then `last_update`, `problem` and the availability that follow. */
  private async publish(hosts: readonly Host[], outcome: CycleOutcome, now: number): Promise<void> {
    const { health } = this.parts;
    const lastGood = health.lastSucceeded(hosts);
    health.succeeded(hosts, outcome.problem, now);
    await this.publishFound(outcome, { now, lastGood });
    health.lastUpdate = now;
    this.publishStatus(now, now);
  }

  /** What the features found: the entities (new ones announced before their first states), the calendar feeds, the year, the events. */
  private async publishFound(outcome: CycleOutcome, time: { now: number; lastGood: number | undefined }): Promise<void> {
    // New entities are announced before their first states, so Home Assistant has them to update (a new child's first).
    if (outcome.entitiesChanged || !this.announced) this.announce();
    this.states(outcome.states);
    this.calendarFeeds(outcome.calendarFeeds);
    this.askFacts(outcome.ask);
    const identity = this.parts.child.identity;
    if (identity !== undefined && Object.keys(outcome.year).length > 0)
      this.options.bus.year(this.parts.child.id, { name: identity.firstName, series: outcome.year });
    await this.parts.gate.pass(outcome.events, time, { today: warsawDate(time.now), begin: identity?.schoolYearBegin });
  }

  /** The child could not be read at all (the figures are saved with the planner's rows, in nextWake). */
  private failedAll(error: unknown): PassOutcome {
    // A child not read at all still has its device, to say why (its kind unknown, with every entity).
    if (!this.announced) this.announce();
    this.fail([...HOSTS], error);
    return { read: [], failed: new Map(HOSTS.map((h) => [h, error])) };
  }

  /** A host the pass could not read (or the child at all): `problem` says why, and the child may go offline. */
  private fail(hosts: Host[], error: unknown): void {
    this.parts.log.warn({ err: errorText(error), hosts }, 'pass failed');
    this.parts.health.failed(hosts, error);
    this.publishStatus(this.options.clock.now());
  }

  /**
   * `problem`, whether the portal advises changing the password and the figures' entities, with `last_update` after a
   * pass (`updated`), as the status feature's declarations make them; then the availability.
   */
  private publishStatus(now: number, updated?: number): void {
    const { access, health, figures, child } = this.parts;
    const advice = access.session.advice;
    let problem = health.problem(now, advice);
    // A child on both roads: `problem` says which one it is read through.
    const road = access.roads?.road;
    if (road !== undefined) problem = { ...problem, attributes: { ...problem.attributes, road } };
    // `since` is when the problem began, which the figures keep (through a restart too), not this pass.
    const since = figures.noteProblem(now, problem.state === 'ON' ? problem.attributes : undefined);
    if (since !== undefined) problem = { ...problem, attributes: { ...problem.attributes, since: isoWarsaw(since) } };
    this.states(statesOf(STATUS_ENTITIES, { figures: figures.view(now), problem, advised: advice !== undefined, updated }));
    const online = health.updateOnline(now);
    if (online !== undefined) this.options.bus.availability(child.id, online);
  }
}

/** Publishes calendar feeds, as states are (the sinks that serve them keep them). */
export function publishCalendarFeeds(bus: Bus, childId: string, calendarFeeds: CalendarFeedContents): void {
  for (const name of CALENDAR_FEED_NAMES) {
    const content = calendarFeeds[name];
    if (content !== undefined) bus.calendarFeed(childId, name, content);
  }
}
