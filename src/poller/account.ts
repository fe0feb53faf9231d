// One account (one child): its session, its sources in two tiers, its timers, and what it publishes.
// Every account has its own loop, so a failing or slow account never stalls another.
import { Gateway } from '../portal/gateway.js';
import { PortalSession, type SessionPolicy } from '../portal/session.js';
import { StorageError, UnexpectedResponseError } from '../portal/errors.js';
import { SessionStore } from '../store/session-store.js';
import { SeenStore } from '../store/seen.js';
import { safeName } from '../store/files.js';
import { accountEntities, commandOwners, FEATURES, runOrder } from '../features/index.js';
import { LAST_UPDATE, PROBLEM } from '../features/status.js';
import type { CommandAccount, Feature, FeatureState } from '../features/feature.js';
import type { CommandRequest } from '../mqtt/commands.js';
import type { EntityDef } from '../ha/entities.js';
import { isoWarsaw, warsawDate } from '../util/time.js';
import { fastInterval, normalInterval, retryDelay, type PollPolicy } from './schedule.js';
import { childSlug, fetchIdentity, loadIdentity, saveIdentity, type Identity } from './identity.js';
import { problemOff, problemOn } from './problem.js';
import { classModel, FALLBACK_LANGUAGE, type Language } from '../i18n/language.js';
import type { EntityState, EventPayload } from '../ha/state.js';
import type { LookupMemory, SourceContext, Tier } from './source.js';
import { ResourceCache } from './resources.js';
import { BackgroundFiles } from './files.js';
import { MessagingClient } from '../portal/messaging.js';
import { MessagesApi } from '../portal/messaging-api.js';
import { Downloader } from '../portal/downloads.js';
import type { DownloadSlots } from '../portal/download-limits.js';
import type { AccountConfig, PortalUrls } from '../config/schema.js';
import type { Clock, Timer } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { Dispatcher } from 'undici';

const DAY = 24 * 60 * 60_000;
/**
 * How long a child's entities keep their last good values on show, available, without a successful
 * poll, whatever the reason (a maintenance night, the network, a changed password, a captcha): a wall
 * tablet should not blank for a fault `problem` already explains. After that the child goes offline;
 * `problem` and `last_update` stay readable (they follow the bridge's availability only).
 */
export const OFFLINE_AFTER_MS = 3 * DAY;

/** The child as Home Assistant's device registry sees it. */
export interface ChildInfo {
  id: string;
  name: string;
  model?: string;
  school?: string;
  entities: EntityDef[];
}

interface TierHealth {
  failures: number;
  error?: unknown;
  /** A source of this tier that answered unexpectedly in its last poll. */
  source?: { error: unknown; source: string };
  succeededAt?: number;
}

export interface CycleInfo {
  tiers: Tier[];
  ok: boolean;
  /** CPU time this process spent during the cycle, in microseconds. */
  cpuMicros: number;
}

/** What an account publishes to (the MQTT bridge, or a recorder in tests). */
export interface Publisher {
  setChild(child: ChildInfo): void;
  removeChild(childId: string): void;
  setAvailability(childId: string, online: boolean): void;
  publishState(childId: string, key: string, state: EntityState): void;
  publishEvent(childId: string, kind: string, payload: EventPayload): void;
}

export interface AccountPollerOptions {
  account: AccountConfig;
  urls: PortalUrls;
  dataDir: string;
  poll: PollPolicy;
  clock: Clock;
  log: Logger;
  publisher: Publisher;
  /** The features this account runs (all of them unless a test says otherwise). */
  features?: readonly Feature[];
  dispatcher?: Dispatcher;
  sessionPolicy?: SessionPolicy;
  timeoutMs?: number;
  /** Delay before the first poll (staggers accounts). */
  startDelayMs?: number;
  /** Fetch everything on every poll (only for the benchmark's comparison). */
  naive?: boolean;
  /** Told after every poll cycle (the benchmark measures them). */
  onCycle?: (cycle: CycleInfo) => void;
  /** The process-wide download slots (needed when the account has downloads on). */
  slots?: DownloadSlots;
  /** The language of the device's model line and of problem messages: the config's `language` (English when not given). */
  language?: Language;
}

/** One feature's state for this account. */
interface Running {
  feature: Feature;
  state: FeatureState;
}

export class AccountPoller implements CommandAccount {
  readonly session: PortalSession;
  readonly gateway: Gateway;
  readonly messaging: MessagingClient;
  readonly messages: MessagesApi;
  /** The account's features in the order their polls run. */
  private readonly running: Running[];
  /** Requests sent to the portal, by "METHOD endpoint" (for the benchmark and the notes). */
  readonly requestCounts = new Map<string, number>();
  private readonly options: AccountPollerOptions;
  private readonly log: Logger;
  private identity: Identity | undefined;
  private childId: string;
  private seen: SeenStore | undefined;
  private readonly timers = new Map<Tier, Timer>();
  private readonly cache: ResourceCache;
  private readonly lookups: LookupMemory = {};
  /** Each feature's last output, by feature name, for the features that name it as an input. */
  private readonly outputs = new Map<string, unknown>();
  private chain: Promise<void> = Promise.resolve();
  private stopped = true;
  private online: boolean | undefined;
  /**
   * When the last run last fetched the child's identity, which only a working login does: after a
   * restart it stands in for the last good poll (never later than it), so an outage that spans a
   * restart neither blanks the child at once nor keeps it available beyond OFFLINE_AFTER_MS.
   */
  private restoredSuccessAt: number | undefined;
  private problem: EntityState | undefined;
  private lastUpdate: number | undefined;

  constructor(options: AccountPollerOptions) {
    this.options = options;
    this.log = options.log.child({ account: options.account.id ?? options.account.login });
    this.childId = options.account.id ?? safeName(options.account.login).toLowerCase();
    this.session = new PortalSession({
      account: options.account.id ?? options.account.login,
      login: options.account.login,
      password: options.account.password ?? '',
      urls: options.urls,
      clock: options.clock,
      log: this.log,
      store: new SessionStore(options.dataDir, options.account.login),
      dispatcher: options.dispatcher,
      policy: options.sessionPolicy,
      timeoutMs: options.timeoutMs,
    });
    this.gateway = new Gateway({
      session: this.session,
      urls: options.urls,
      account: options.account.id ?? options.account.login,
      onRequest: (method, endpoint) => this.count(`${method} ${endpoint.replace(/\/[^/]*\d[^/]*$/, '/<id>')}`),
    });
    const label = options.account.id ?? options.account.login;
    this.messaging = new MessagingClient({
      session: this.session,
      urls: options.urls,
      account: label,
      clock: options.clock,
      log: this.log,
      timeoutMs: options.timeoutMs,
      onRequest: (method, path) => this.count(`${method} messages:${path.replace(/\/\d+/g, '/<id>')}`),
    });
    this.messages = new MessagesApi({ client: this.messaging, account: label });
    this.running = runOrder(options.features ?? FEATURES).map((feature) => ({
      feature,
      state: feature.create({
        account: options.account,
        gateway: this.gateway,
        messages: this.messages,
        identity: () => this.identity,
        dataDir: options.dataDir,
        clock: options.clock,
        log: this.log,
      }),
    }));
    this.cache = new ResourceCache({ gateway: this.gateway, clock: options.clock, log: this.log, alwaysFetch: options.naive });
  }

  get id(): string {
    return this.childId;
  }

  get child(): Identity | undefined {
    return this.identity;
  }

  get loginName(): string {
    return this.options.account.login;
  }

  /** Whether the child's entities are available (see OFFLINE_AFTER_MS); false before any poll. */
  get available(): boolean {
    return this.online === true;
  }

  /** The `last_update` entity's time: the last successful poll of this run, of any tier. */
  get lastUpdateAt(): number | undefined {
    return this.lastUpdate;
  }

  /** The reason `problem` gives now, null while it is OFF. */
  get problemReason(): string | null {
    return (this.problem?.attributes?.reason as string | null | undefined) ?? null;
  }

  /** Publishes states computed outside a poll (after a command). */
  publishStates(states: Record<string, EntityState>): void {
    for (const [key, state] of Object.entries(states)) this.options.publisher.publishState(this.childId, key, state);
  }

  /** Restores what the last run saved and announces the child (before the bridge connects). */
  async prepare(): Promise<void> {
    await this.session.restore();
    const cached = await loadIdentity(this.options.dataDir, this.options.account.login);
    if (cached) {
      this.adoptIdentity(cached);
      this.restoredSuccessAt = cached.fetchedAt;
    }
    this.seen = new SeenStore(this.options.dataDir, this.childId);
    await this.seen.load();
    this.announce();
    for (const { state } of this.running) await state.prepare?.();
  }

  /** Starts polling. */
  start(): void {
    this.stopped = false;
    const delay = this.options.startDelayMs ?? 0;
    this.schedule('normal', delay);
    this.schedule('fast', delay);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
    await this.chain.catch(() => undefined);
    await this.session.persist().catch((error: Error) => this.log.warn({ err: error.message }, 'could not save the session'));
    await this.seen?.save().catch((error: Error) => this.log.warn({ err: error.message }, 'could not save the event memory'));
  }

  /** Polls every tier now (the refresh command); resolves when done. */
  refresh(): Promise<void> {
    return this.enqueue(async () => {
      await this.cycle(['fast', 'normal'], true);
    });
  }

  /** Resolves when the account has nothing running (the simulated day waits for it). */
  async idle(): Promise<void> {
    let seen: Promise<void> | undefined;
    while (seen !== this.chain) {
      seen = this.chain;
      await seen;
    }
  }

  /** Runs work after whatever this account is doing, never at the same time. */
  enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work);
    this.chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** A feature's state for this account (undefined when the account does not run it). */
  stateOf<S extends FeatureState>(feature: Feature<S>): S | undefined {
    return this.running.find((r) => r.feature === feature)?.state as S | undefined;
  }

  /** Runs a command with the state of the feature that declares it. */
  command(request: CommandRequest): Promise<Record<string, unknown>> {
    const owner = commandOwners(this.running.map((r) => r.feature)).get(request.command);
    const state = owner && this.stateOf(owner);
    if (!owner?.commands || !state) throw new Error(`no feature handles ${request.command}`);
    return (owner.commands[request.command] as NonNullable<Feature['commands']>[string])(request, this, state);
  }

  private schedule(tier: Tier, delayMs: number): void {
    if (this.stopped) return;
    this.timers.get(tier)?.cancel();
    this.timers.set(
      tier,
      this.options.clock.setTimer(() => {
        void this.enqueue(async () => {
          const cpu = process.cpuUsage();
          let ok = false;
          try {
            ok = await this.cycle([tier], false);
          } catch (error) {
            // Nothing may end the polling loop: log it and try again later.
            this.log.error({ tier, err: error instanceof Error ? error.message : String(error) }, 'poll cycle failed unexpectedly');
          } finally {
            const used = process.cpuUsage(cpu);
            this.options.onCycle?.({ tiers: [tier], ok, cpuMicros: used.user + used.system });
            const now = this.options.clock.now();
            const interval = tier === 'fast' ? fastInterval(now, this.options.poll) : normalInterval(now, this.options.poll);
            const health = this.health(tier);
            this.schedule(tier, ok ? interval : retryDelay(health.failures, interval, health.error, now));
          }
        });
      }, delayMs),
    );
  }

  /** How each tier's last poll went: the problem entity and the backoff are read from here. */
  private readonly tiers = new Map<Tier, TierHealth>();
  /** Set while data_dir cannot be written (the event memory could not be saved). */
  private storageError: unknown;

  private health(tier: Tier): TierHealth {
    let health = this.tiers.get(tier);
    if (!health) {
      health = { failures: 0 };
      this.tiers.set(tier, health);
    }
    return health;
  }

  /** One poll of the given tiers. Returns false when the account could not be polled at all. */
  private async cycle(tiers: Tier[], forced: boolean): Promise<boolean> {
    const { clock, publisher } = this.options;
    const started = clock.now();
    try {
      await this.ensureIdentity(started);
    } catch (error) {
      this.fail(tiers, error);
      return false;
    }
    const ctx: SourceContext = {
      downloads: this.downloads(),
      gateway: this.gateway,
      cache: this.cache,
      lookups: this.lookups,
      inputs: {},
      identity: this.identity as Identity,
      now: started,
      today: warsawDate(started),
      forced: forced || this.options.naive === true,
      log: this.log,
    };
    const polled = this.running.filter((r) => r.feature.tier !== undefined && tiers.includes(r.feature.tier));
    const states: Record<string, EntityState> = {};
    const events: [string, { id: string; payload: EventPayload }[]][] = [];
    let sourceProblem: { error: unknown; source: string } | undefined;
    let sessionError: unknown;
    // Polls run one after another, each after the features it reads (runOrder); each fetches its own
    // resources concurrently.
    for (const { feature, state: source } of polled) {
      if (sessionError !== undefined) break;
      if (!source.poll) continue;
      const featureCtx = { ...ctx, inputs: Object.fromEntries((feature.inputs ?? []).map((name) => [name, this.outputs.get(name)])) };
      if (source.due?.(featureCtx) === false) {
        Object.assign(states, source.restate?.(featureCtx));
        continue;
      }
      try {
        const result = await source.poll(featureCtx);
        if ('output' in result) this.outputs.set(feature.name, result.output);
        Object.assign(states, result.states);
        if (result.suspicious !== undefined) {
          sourceProblem = { error: new UnexpectedResponseError(200, result.suspicious), source: feature.name };
          this.log.warn({ source: feature.name, err: result.suspicious }, 'source answered in an unexpected way');
        }
        for (const [kind, items] of Object.entries(result.events ?? {})) events.push([kind, items]);
      } catch (error) {
        if (error instanceof UnexpectedResponseError) {
          if (!error.refused) sourceProblem = { error, source: feature.name };
          this.log.warn({ source: feature.name, status: error.status, err: error.message }, 'source failed; keeping its last values');
        } else {
          sessionError = error;
        }
      }
    }
    if (sessionError !== undefined) {
      this.fail(tiers, sessionError);
      return false;
    }
    const now = clock.now();
    for (const tier of tiers) Object.assign(this.health(tier), { failures: 0, error: undefined, source: sourceProblem, succeededAt: now });
    for (const [key, state] of Object.entries(states)) publisher.publishState(this.childId, key, state);
    await this.fireEvents(events);
    this.lastUpdate = now;
    publisher.publishState(this.childId, LAST_UPDATE, { state: isoWarsaw(now) });
    this.publishProblem(now);
    this.updateAvailability(now);
    this.log.info({ tiers, ms: now - started, entities: Object.keys(states).length }, 'poll done');
    await this.session.persist().catch((error: Error) => this.log.warn({ err: error.message }, 'could not save the session'));
    return true;
  }

  private async fireEvents(batches: [string, { id: string; payload: EventPayload }[]][]): Promise<void> {
    const seen = this.seen;
    if (!seen || batches.length === 0) return;
    const undo = seen.checkpoint();
    const toFire = batches.map(([kind, items]) => [kind, seen.take(kind, items)] as const);
    // The memory is saved before publishing: after a crash an event may be missed, never repeated.
    // When it cannot be saved, nothing fires and the memory goes back, so the items fire later.
    try {
      // Only a real write proves data_dir is writable again.
      if (await seen.save()) this.storageError = undefined;
    } catch (error) {
      undo();
      this.storageError = error;
      this.log.error({ err: error instanceof Error ? error.message : String(error) }, 'cannot write the event memory in data_dir; events wait');
      return;
    }
    for (const [kind, items] of toFire) {
      for (const item of items) this.options.publisher.publishEvent(this.childId, kind, item.payload);
    }
  }

  private fail(tiers: Tier[], error: unknown): void {
    const now = this.options.clock.now();
    for (const tier of tiers) {
      const health = this.health(tier);
      health.failures++;
      health.error = error;
    }
    const message = error instanceof Error ? error.message : String(error);
    this.log.warn({ err: message, tiers }, 'poll failed');
    this.publishProblem(now);
    this.updateAvailability(now);
  }

  /**
   * problem is ON while any tier's last poll failed (a gateway outage must not flap OFF because the
   * fast tier still reaches the messages), while data_dir cannot be written, or while a source
   * answered in an unexpected way.
   */
  private publishProblem(now: number): void {
    const failing = [...this.tiers.values()].find((h) => h.error !== undefined);
    const source = [...this.tiers.values()].find((h) => h.source !== undefined)?.source;
    const language = this.options.language ?? FALLBACK_LANGUAGE;
    let state = problemOff();
    if (failing) state = problemOn(failing.error, now, language);
    else if (this.storageError !== undefined) state = problemOn(new StorageError(this.storageError), now, language);
    else if (source) state = problemOn(source.error, now, language, `source ${source.source}`);
    this.problem = state;
    this.options.publisher.publishState(this.childId, PROBLEM, state);
  }

  /**
   * Online while the normal tier (the bulk of the data) succeeded within OFFLINE_AFTER_MS; a fast tier
   * that still reaches the messages host does not make stale grades and timetables fresh again.
   */
  private updateAvailability(now: number): void {
    const lastGood = this.tiers.get('normal')?.succeededAt ?? this.restoredSuccessAt;
    this.setOnline(lastGood !== undefined && now - lastGood < OFFLINE_AFTER_MS);
  }

  private setOnline(online: boolean): void {
    if (this.online === online) return;
    this.online = online;
    this.options.publisher.setAvailability(this.childId, online);
  }

  private async ensureIdentity(now: number): Promise<void> {
    if (this.identity && now - this.identity.fetchedAt < DAY) return;
    const identity = await fetchIdentity(this.gateway, now, this.log);
    const before = this.childId;
    this.adoptIdentity(identity);
    await saveIdentity(this.options.dataDir, this.options.account.login, identity).catch((error: unknown) => {
      this.storageError = error;
      this.log.error({ err: error instanceof Error ? error.message : String(error) }, 'cannot write the child identity in data_dir');
    });
    if (before !== this.childId) {
      this.options.publisher.removeChild(before);
      this.seen = new SeenStore(this.options.dataDir, this.childId);
      await this.seen.load();
    }
    this.announce();
  }

  private adoptIdentity(identity: Identity): void {
    this.identity = identity;
    if (this.options.account.id === undefined && identity.firstName) this.childId = childSlug(identity.firstName);
  }

  private announce(): void {
    const entities = accountEntities(this.options.account, this.running.map((r) => r.feature));
    const id = this.identity;
    this.options.publisher.setChild({
      id: this.childId,
      name: id ? `${id.firstName} ${id.lastName}`.trim() : this.options.account.login,
      model: id?.className ? classModel(id.className, this.options.language ?? FALLBACK_LANGUAGE) : undefined,
      school: id?.schoolName,
      entities,
    });
  }

  private downloadState: { child: string; downloader: Downloader; files: BackgroundFiles } | undefined;

  /** The account's downloader (downloads on only), made for the current child id. */
  private downloads(): SourceContext['downloads'] {
    const { account, slots } = this.options;
    if (!account.downloads || !slots) return undefined;
    if (this.downloadState?.child !== this.childId) {
      this.downloadState = {
        child: this.childId,
        files: this.downloadState?.files ?? new BackgroundFiles(this.log),
        downloader: new Downloader({
          session: this.session,
          urls: this.options.urls,
          account: account.id ?? account.login,
          child: this.childId,
          dataDir: this.options.dataDir,
          clock: this.options.clock,
          log: this.log,
          slots,
        }),
      };
    }
    return this.downloadState;
  }


  private count(key: string): void {
    this.requestCounts.set(key, (this.requestCounts.get(key) ?? 0) + 1);
  }
}
