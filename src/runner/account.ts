// The account runner: what it is given, its parts built in order, one child's passes when the scheduler
// says (scheduler.ts, one timer; a pass, and what it found published, in coordinator.ts), and one queue so
// that commands never run during a pass. Every account has its own runner, so a failing or slow account
// never stalls another.
import type { Config } from '../config/schema.js';
import type { Feature, CommandAccount } from '../features/feature.js';
import { FEATURES, ROLLOVER_KINDS } from '../features/index.js';
import { RESOURCES } from '../features/resources.js';
import { AccountFigures, type FiguresSink } from '../features/status/figures.js';
import type { Bus } from '../bus/bus.js';
import type { Handover } from '../once/handover.js';
import { EventGate } from '../once/gate.js';
import type { Gateway } from '../portal/gateway.js';
import type { SchedulePolicy } from '../engine/plan.js';
import type { Resource, Want } from '../engine/resource.js';
import { OnDemandReads, type OnDemandOutcome } from '../engine/on-demand.js';
import type { Identity } from '../engine/identity.js';
import type { CommandRequest } from '../features/kit/commands.js';
import type { DeclaredStates } from '../engine/state.js';
import type { AskFacts } from '../engine/source.js';
import type { ResourceCache } from '../engine/cache.js';
import { SendGuard } from '../features/messaging/guard.js';
import { ChildChangeFeed } from '../engine/change-feed/child.js';
import { SessionStore } from '../portal/session-store.js';
import { FiguresStore } from '../engine/figures-store.js';
import { KeptCopies } from '../engine/kept-copies.js';
import { ChangeFeedDeviceStore } from '../engine/change-feed/device.js';
import { SerialQueue } from '../util/serial.js';
import { hint } from '../util/text.js';
import { IDENTITY } from '../engine/resources/identity.js';
import { PortalAccess, type PortalAccessOptions } from '../engine/resources/portal-access.js';
import { AccountHealth, retryDelay } from './health.js';
import { AccountChild } from './child.js';
import type { Logger } from '../util/log.js';
import { AccountFeatures } from './account-features.js';
import { AccountPlan } from './account-plan.js';
import { AccountCoordinator, type PassParts } from './coordinator.js';
import { AccountScheduler, type PassHooks } from './scheduler.js';
import { RefreshGate } from './refresh-gate.js';
import type { SchoolChild, SchoolReads } from '../engine/school-reads.js';

/**
 * What an account runner takes of the portal's options: its account and road, what every child shares to reach the
 * portal (app/app.ts), and the declarations it reads by (src/engine/resources' unless the bench or a test says
 * otherwise: the bench's naive and reference schedules are these transformed).
 */
type Portal = 'dispatcher' | 'portalTime' | 'slots' | 'account' | 'clock' | 'log' | 'familyRoad' | 'alsoFamilyRoad' | 'resources';

/**
 * What an account runner is given: its account and portal (as the portal access takes them), the config, where it
 * publishes, and the hooks an observer (the benchmark, a test) may attach.
 */
export interface PassRunnerOptions extends Pick<PortalAccessOptions, Portal> {
  /** The config: the portal's addresses, data_dir, when to read, the largest download, the language, the grading, the day's messages. */
  config: Config;
  /** The demo's school: in lessons at every hour (SchedulePolicy.fixedMoment). */
  schoolAllDay?: boolean;
  /** Where its passes publish. */
  bus: Bus;
  /** How a child's event memory is told on to a successor on the base topic, and read from a predecessor (the MQTT sink). */
  handover?: Handover;
  /** The features this account runs (all of them unless a test says otherwise). */
  features?: readonly Feature[];
  /** Delay before the first pass (staggers accounts). */
  startDelayMs?: number;
  hooks?: PassHooks;
  /** Told of the figures' events too (the metrics, with http.metrics on). */
  figuresSink?: FiguresSink;
  /** The bridge's children by school: what one reads for its whole school, the others take (engine/school-reads.ts). */
  schools?: SchoolReads;
}

/** When a child is read, as the config's `poll` says (and the demo's school, in lessons at every hour). */
function schedulePolicy({ config, schoolAllDay }: PassRunnerOptions): SchedulePolicy {
  return {
    intervalMs: config.poll.interval,
    fastIntervalMs: config.poll.fast_interval,
    schoolIntervalMs: config.poll.school_interval,
    quietHours: config.poll.quiet_hours,
    ...(schoolAllDay ? { fixedMoment: 'lessons' as const } : {}),
  };
}

/**
 * The runner's parts, built in order, each from those before it: the child and its health, the event gate,
 * the portal (its session, gateway and cache), the figures (which observe it), the features (given the
 * portal, the send guard every send goes through, the child as the account knows it now and the account's
 * settings), the change feed and the one planner, handed the child's facts.
 */
function accountParts(options: PassRunnerOptions): PassParts & { onDemand: OnDemandReads } {
  const { account, config, clock, resources = RESOURCES } = options;
  const { data_dir: dataDir, language } = config;
  const log = options.log.child({ account: account.id ?? account.login });
  const familyRoad = options.familyRoad ?? options.alsoFamilyRoad;
  const child = new AccountChild({ account, dataDir, log, language, listedName: () => familyRoad?.studentName(account.login) });
  const health = new AccountHealth(language);
  const gate = eventGate(options, child, health, log);
  const access = portalAccess(options, child, log);
  const road = (): 'family' | 'register' => access.roads?.road ?? (options.familyRoad ? 'family' : 'register');
  // The figures show the portal's session and road, and hear of each of its answers and logins.
  const figures = new AccountFigures({
    clock,
    urls: config.portal,
    // Before the first identity a child without a configured id is named by its login: only a hint of it here.
    child: () => (account.id !== undefined || child.identity ? child.id : hint(account.login)),
    sessionSince: () => access.session.loggedInAt,
    road,
    sink: options.figuresSink,
    store: new FiguresStore(dataDir, account.login),
    log,
  });
  access.observe(figures);
  const { messages, cache } = access;
  // What a person asks for that the bridge does not hold, read then and kept beside the other copies.
  const onDemand = new OnDemandReads(cache, clock, { dataDir, login: account.login, log });
  const features = new AccountFeatures(
    options.features ?? FEATURES,
    {
      account,
      cache,
      messages,
      sendGuard: new SendGuard({
        account: account.login,
        child: () => child.id,
        api: messages,
        dataDir,
        clock,
        log,
        messagesPerDay: config.messages_per_day,
      }),
      downloads: () => access.downloads(child.id),
      identity: () => child.identity,
      childId: () => child.id,
      language,
      dataDir,
      thresholds: config.grading.thresholds,
      averaging: config.grading.average,
      clock,
      log,
      events: { known: (kind) => gate.known(kind) },
    },
    () => onDemand.wants(),
  );
  const changeFeed = new ChildChangeFeed({
    gateway: access.gateway,
    store: new ChangeFeedDeviceStore(dataDir, account.login),
    road,
    resources,
    onMissed: (res) => figures.changeFeedMissed(res.name),
    clock,
    log,
  });
  const policy = schedulePolicy(options);
  // What the last run read that a start would not read again yet (Resource.kept), restored before the first pass.
  const kept = new KeptCopies({ dataDir, login: account.login, cache, resources, policy, clock, log });
  // A command's lookup outside a pass asks the planner too.
  const planner = new AccountPlan({
    cache,
    policy,
    lessons: (now) => features.schoolDay(now),
    watch: () => changeFeed.watch(),
  });
  cache.plannedBy((w) => planner.when(w, clock.now()));
  return { log, child, health, gate, figures, access, features, changeFeed, planner, kept, onDemand };
}

/** The child's way into the portal: its session kept in data_dir, the config's addresses and largest download. */
function portalAccess(options: PassRunnerOptions, child: AccountChild, log: Logger): PortalAccess {
  const { account, config } = options;
  return new PortalAccess({
    ...options,
    urls: config.portal,
    dataDir: config.data_dir,
    downloadMaxBytes: config.downloads_max_mb * 1024 * 1024,
    log,
    store: new SessionStore(config.data_dir, account.login),
    onRequest: options.hooks?.onRequest,
    resources: options.resources ?? RESOURCES,
    identity: () => child.identity,
  });
}

/** The child's event gate: what its features find is told once, through the bus, remembered with the handover. */
function eventGate(options: PassRunnerOptions, child: AccountChild, health: AccountHealth, log: Logger): EventGate {
  return new EventGate({
    dataDir: options.config.data_dir,
    log,
    child: () => ({ id: child.id, name: child.firstName }),
    fire: (kind, payload, id) => options.bus.event(child.id, { kind, payload, id }),
    memory: (id) => options.handover?.memory(id),
    tell: (memory) => options.handover?.tell(child.id, memory),
    told: (id) => options.handover?.told(id),
    onStorage: (error) => (health.storageError = error),
    rollover: ROLLOVER_KINDS,
  });
}

export class PassRunner implements CommandAccount {
  readonly gateway: Gateway;
  readonly cache: ResourceCache;
  readonly health: AccountHealth;
  readonly features: AccountFeatures;
  /** The account's figures for the diagnostics and its diagnostic entities. */
  readonly figures: AccountFigures;
  /** The child, its event gate, the change feed, what a person asked for on demand (accountParts). */
  private readonly parts: PassParts & { onDemand: OnDemandReads };
  /** The pass, and what it publishes. */
  private readonly coordinator: AccountCoordinator;
  private readonly scheduler: AccountScheduler;
  private readonly queue = new SerialQueue();
  private readonly refreshes: RefreshGate;
  /** The child among its school's (engine/school-reads.ts): it hears what the others read for the school, in its queue. */
  private readonly schoolChild: SchoolChild;
  private leaveSchool: (() => void) | undefined;

  constructor(private readonly options: PassRunnerOptions) {
    this.parts = accountParts(options);
    const { access, health, features, figures, log } = this.parts;
    const schoolChild = (this.schoolChild = {
      school: () => this.parts.child.identity?.schoolId,
      // What another child of the school read for it: published at once if it is news to this child (coordinator.told).
      // The timer stays as it was: nothing was read, so nothing else falls due sooner, and the pass it wakes plans from
      // the told read (it reads the copy no sooner). Planned anew as after a pass, the next wake kept a pass's minute
      // from now, and a change feed read due at that instant came a minute late (change-feed-on-time: 6 minutes
      // between two reads).
      told: (res, value, at) => void this.queue.enqueue(() => this.coordinator.told(res, value, at)),
    } satisfies SchoolChild);
    const school = { read: (res: Resource, value: unknown, at: number) => options.schools?.read(schoolChild, res, value, at) };
    const coordinator = (this.coordinator = new AccountCoordinator({ ...options, school }, this.parts));
    this.gateway = access.gateway;
    this.cache = access.cache;
    this.health = health;
    this.features = features;
    this.figures = figures;
    this.scheduler = new AccountScheduler({
      ...options,
      log,
      enqueue: (work) => this.queue.enqueue(work),
      // The child as its scheduler sees it: the coordinator runs a pass and says when the next is due, the
      // features say when the states move next and recompute them, the health counts a failing host's failures.
      child: {
        pass: (waiting) => coordinator.pass(false, waiting),
        nextWake: (now, retryAt) => coordinator.nextWake(now, retryAt),
        retryIn: (host, error, now) => retryDelay(health.host(host).failures, options.config.poll.interval, error, now),
        nextBoundary: (now) => features.nextBoundary(now),
        restate: (now) => {
          const states = features.restate(now);
          if (states !== undefined) coordinator.states(states);
          return states !== undefined;
        },
      },
    });
    this.refreshes = new RefreshGate({ clock: options.clock, pass: (began) => this.passNow(true, began) });
  }

  get id(): string {
    return this.parts.child.id;
  }

  /** The child's identity, once known. */
  get child(): Identity | undefined {
    return this.parts.child.identity;
  }

  get loginName(): string {
    return this.options.account.login;
  }

  publishStates(states: DeclaredStates, ask?: AskFacts): void {
    this.coordinator.states(states);
    if (ask !== undefined) this.coordinator.askFacts(ask);
  }

  /** Restores what the last run saved and announces a child it has read before (before the bridge connects). */
  async prepare(): Promise<void> {
    const { log, changeFeed, child, gate } = this.parts;
    await this.parts.access.session.restore();
    await this.figures.restore((error) => log.warn({ err: error.message }, "diagnostics figures unreadable; the day's counts start afresh"));
    await changeFeed.load();
    // A last success "in the future" (saved under a clock that ran ahead) counts as now: the child stays
    // available at most OFFLINE_AFTER_MS without a good pass, not until the clock catches up.
    const restored = await child.restore();
    this.health.restoredSuccessAt = restored === undefined ? undefined : Math.min(restored, this.options.clock.now());
    // The identity the last run read is the copy, as old as it is.
    if (child.identity !== undefined && restored !== undefined) this.cache.seed(IDENTITY, child.identity, restored);
    await this.parts.kept.restore();
    await gate.load(child.id);
    // The features first: what they restore includes entities that follow the data (per subject).
    await this.features.prepare();
    // A child an earlier run has read is announced as it was then (a kindergarten child without what the
    // portal refuses her); one new to the bridge once its first pass has told what its account can fill.
    if (child.identity !== undefined) this.coordinator.announce();
    // The calendar feeds the last run served stand until the first read replaces them: never an empty calendar.
    this.coordinator.calendarFeeds(this.features.restoredCalendarFeeds());
  }

  start(): void {
    this.leaveSchool = this.options.schools?.join(this.schoolChild);
    this.scheduler.start(this.options.startDelayMs ?? 0);
  }

  async stop(): Promise<void> {
    this.leaveSchool?.();
    this.scheduler.stop();
    this.refreshes.cancel();
    await this.queue.idle();
    const { log, gate } = this.parts;
    await this.parts.access.session.persist().catch((error: Error) => log.warn({ err: error.message }, 'could not save the session'));
    await gate.save();
    await this.figures.save();
    await Promise.all([this.features.saved(), this.parts.kept.written]);
  }

  /** A pass a person asked for now (the refresh command), or when a minute has passed since the last one began; resolves when done. */
  refresh(): Promise<void> {
    return this.refreshes.request();
  }

  /** A pass after the command running now (in the queue: it runs once the command is done): it reads what the command moved. */
  readAgain(moved: Resource): void {
    this.cache.moved(moved);
    void this.passNow(false);
  }

  /** A pass outside the timer, in the queue (a refresh, a command's read again): the scheduler plans the next one anew. */
  private passNow(asked: boolean, began?: () => void): Promise<void> {
    return this.queue.enqueue(async () => {
      began?.();
      this.scheduler.passed(await this.coordinator.pass(asked, new Set()));
    });
  }

  /** Resolves when the account has nothing running (the simulated day waits for it). */
  async idle(): Promise<void> {
    await this.queue.idle();
    // The figures' and the kept states' last writes too: they run beside the queue, not in it.
    await Promise.all([this.figures.written, this.features.saved(), this.parts.kept.written]);
  }

  /**
   * Reads what a person asked for that the bridge does not hold (Assist: a week of the school year, a past year's
   * mailbox; engine/on-demand.ts), in the account's queue; the features that name it compute and publish at once.
   */
  reach(wants: readonly Want[]): Promise<OnDemandOutcome> {
    return this.queue.enqueue(async () => {
      const { onDemand } = this.parts;
      const kept = onDemand.wants();
      const outcome = await onDemand.read(wants);
      if (outcome.read > 0 || onDemand.wants() !== kept) await this.coordinator.computed();
      return outcome;
    });
  }

  /** Runs a command of the child's features: in the account's queue, never during a pass (a refresh only waits for one). */
  command(request: CommandRequest): Promise<Record<string, unknown>> {
    return this.features.command(request, this, (work) => this.queue.enqueue(work));
  }
}
