// The running bridge: one MQTT bridge, one poller per child the config names (on its road), and the
// commands that connect them. Built by main.ts (and by the demo and the tests) from a validated config.
import { Bridge, type BridgeOptions } from '../mqtt/bridge.js';
import { AccountPoller, type AccountPollerOptions } from '../runner/account.js';
import type { PollHooks } from '../runner/scheduler.js';
import { familyChildren, loginKey, type FamilyChild, type FamilyChildrenOptions, type UnlistedFamily } from '../runner/email-road.js';
import type { Config } from '../config/schema.js';
import { FamilyRelisting } from '../runner/relisting.js';
import type { Publisher } from '../bus/publisher.js';
import { formatDuration } from '../util/duration.js';
import { DownloadSlots } from '../portal/attachments/downloader.js';
import { PortalTime } from '../portal/portal-time.js';
import { Lease, leaseFacts } from '../lease/lease.js';
import { systemClock, type Clock } from '../util/clock.js';
import type { WebMemory } from '../web/memory.js';
import type { WebService } from '../web/service.js';
import type { Metrics } from './metrics.js';
import type { DashboardFile } from './dashboard-file.js';
import { bridgeHealth, bridgeInfo, registerBridgeRequests, registerChildCommands } from './bridge-info.js';
import { knownNames } from '../util/redact.js';
import { BridgeProblems } from './bridge-problem.js';
import type { Logger } from '../util/log.js';
import type { HomeAssistantKeeper } from '../homeassistant/keeper.js';

/**
 * What the running bridge is made with: the validated config and what main.ts, the demo, the benchmark and the
 * tests put around it; what each poller and the MQTT bridge take of it, as they declare it (the demo's own broker
 * speaks MQTT 3.1.1 only; tests shorten the reconnect delays).
 */
export interface AppOptions
  extends Pick<AccountPollerOptions, 'dispatcher' | 'features' | 'resources'>,
    Pick<BridgeOptions, 'reconnect' | 'protocolVersion'> {
  config: Config;
  version: string;
  log: Logger;
  clock?: Clock;
  /** Replaces the MQTT bridge (tests that only look at what would be published). */
  publisher?: Publisher & { start(): Promise<void>; stop(): Promise<void> };
  /** Delay between the start of one account's polling and the next (default 5 s). */
  staggerMs?: number;
  /** What an observer (the benchmark, a test) attaches to each account's polling, by account index. */
  hooks?: (childIndex: number) => PollHooks;
  /** Where the web server prints its full URLs on the first start (default stdout). */
  out?: { write(text: string): unknown };
  /**
   * The ingress proxy the web server lets in without the token: main.ts passes the Supervisor's only
   * under the Supervisor (request.ts trustedIngress); a test may put 127.0.0.1. Default: none.
   */
  ingressAddress?: string;
  /** The demo's school: in lessons at every hour, its news ages day and night (PollPolicy.fixedMoment). */
  schoolAllDay?: boolean;
  /**
   * `run --dashboard-file FILE`: the dashboard `dziennik2mqtt dashboard` prints, written to FILE at start
   * and again whenever the children it can name change; `addon`: the board is the app's panel.
   */
  dashboardFile?: { file: string; addon?: boolean };
}

export class App {
  readonly pollers: AccountPoller[] = [];
  /**
   * Every child the bridge reads, with its road: a login entry's (with the family road behind it when
   * an e-mail entry lists the child too), or an e-mail entry's (family).
   */
  private children: ReadChild[] = [];
  /** What the pollers publish through (the web memory, or the bridge). */
  private publisher: Publisher | undefined;
  /** The `email` entries whose children are listed again (not listed at start). */
  private readonly relisting: FamilyRelisting;
  /** The bridge device's own `problem`: an entry that names no child yet, a topic the broker refused. */
  private readonly problems: BridgeProblems;
  private stopped = false;
  private bridge: Bridge | undefined;
  private webService: WebService | undefined;
  private memory: WebMemory | undefined;
  /** What every child shares to reach the portal: the dispatcher, two downloads at once (spec 8), the portal's clock. */
  private readonly portal: Pick<AppOptions, 'dispatcher'> & { slots: DownloadSlots; portalTime: PortalTime };
  /** bridge/health's figures. */
  private readonly health = () => bridgeHealth(this.startedAt, this.portal.portalTime);
  /** One bridge per data folder and base topic (lease/lease.ts): taken first in start(), given up last in stop(). */
  private lease: Lease | undefined;
  /** When start() began (the bridge device's uptime). */
  private startedAt = 0;
  /** With http.metrics on: the metrics /metrics serves. */
  private metrics: Metrics | undefined;
  /** With a dashboard file (`run --dashboard-file`): kept current as the children become known. */
  private dashboardFile: DashboardFile | undefined;
  /** With `homeassistant:` (the app's `ha_entities`): each child's calendars and homework list kept in Home Assistant. */
  private keeper: HomeAssistantKeeper | undefined;
  /** The `email` entries whose children are not listed yet: until they are, no child counts as removed. */
  private readonly unlisted = new Set<UnlistedFamily>();
  /**
   * Resolves, with the log's words, when this bridge stops acting: another took its data folder or base topic
   * over while it stalled or was away (main stops it, exit 1), or its MQTT client id (`idle`: it stays up, idle).
   */
  readonly lost: Promise<{ why: string; idle: boolean }>;
  private lose: (why: string, idle?: boolean) => void = () => undefined;

  constructor(private readonly options: AppOptions) {
    this.lost = new Promise((resolve) => (this.lose = (why, idle = false) => resolve({ why, idle })));
    this.portal = { dispatcher: options.dispatcher, slots: new DownloadSlots(), portalTime: new PortalTime(options.log) };
    this.relisting = new FamilyRelisting({
      intervalMs: options.config.poll.interval,
      clock: this.clock,
      log: options.log,
      read: (entry, listed) => this.readListed(entry, listed),
      problem: (entry, error) => this.problems.family(entry.email, error),
    });
    this.problems = new BridgeProblems({ language: options.config.language, clock: this.clock, publish: (state) => this.bridge?.setProblem(state) });
  }

  async start(): Promise<void> {
    const { config, log } = this.options;
    const clock = this.clock;
    this.startedAt = clock.now();
    // From here on a log line, an error and the bundle cut every login and e-mail of the config to a hint.
    knownNames.addConfig(config);
    this.lease = await Lease.take(config.data_dir, log, { lost: (why) => this.lose(why) });
    // A stop that came while the lock was being watched: nothing more starts.
    if (this.stopped) return this.lease.release();
    const ids = (): string[] => this.children.flatMap(({ account: a }) => (a.id ? [a.id] : []));
    const bridge =
      this.options.publisher ??
      new Bridge({
        mqtt: config.mqtt,
        brokerFrom: config.brokerFrom,
        version: this.options.version,
        log: log.child({ part: 'mqtt' }),
        language: config.language,
        reconnect: this.options.reconnect,
        protocolVersion: this.options.protocolVersion,
        info: () => this.info(),
        // Known once the base topic is held and the children are read (below); start() reads them.
        get children() {
          return ids();
        },
        clock,
        onRefused: (topic) => this.problems.broker(topic),
        lease: {
          folder: this.lease,
          other: (other) => this.problems.baseTopic(other),
          lost: (why, taken) => {
            if (taken !== undefined) this.problems.clientId(taken);
            this.lose(why, taken !== undefined);
          },
        },
      });
    if (bridge instanceof Bridge) this.bridge = bridge;
    // A second bridge on this base topic reads nothing, not even which children an e-mail entry has: it waits here.
    await this.bridge?.acquire();
    // The login entries' children, then those the e-mail entries bring (the family road).
    const { children, unlisted } = await readChildren(config, {
      clock,
      log,
      ...this.portal,
      storage: (error) => this.problems.storage(error),
    });
    this.children = children;
    this.problems.publish();
    // Loaded only when asked for: prom-client stays out of a bridge without metrics.
    if (config.http.metrics && config.http.port !== 0) {
      const { Metrics } = await import('./metrics.js');
      this.metrics = new Metrics({ mqttPublishes: () => this.bridge?.publishes ?? 0 });
    }
    // With the web server on, the pollers publish through a memory of what they published, which the
    // pages and the calendar feeds read; the broker gets the same calls (and drops the feeds). Loaded
    // only then: a bridge without the web server never loads it (nor the iCalendar library).
    if (config.http.port !== 0) {
      const { WebMemory } = await import('../web/memory.js');
      this.memory = new WebMemory({
        target: bridge,
        language: config.language,
        healthy: () => this.bridge?.connected ?? true,
        now: () => clock.now(),
      });
    }
    if (config.homeassistant) {
      // Loaded only when asked for, as the web server is.
      const { HomeAssistantKeeper } = await import('../homeassistant/keeper.js');
      this.keeper = new HomeAssistantKeeper({
        config: config.homeassistant,
        dataDir: config.data_dir,
        language: config.language,
        clock,
        log: log.child({ part: 'homeassistant' }),
        feedsServed: () => this.webService?.url !== undefined,
        children: () => this.childIds(),
      });
    }
    this.publisher = this.keeper?.watch(this.memory ?? bridge) ?? this.memory ?? bridge;
    this.children.forEach((child, index) => this.pollers.push(this.pollerOf(child, index, index * (this.options.staggerMs ?? 5_000))));
    for (const poller of this.pollers) await poller.prepare();
    if (this.options.dashboardFile) {
      // Loaded only when asked for: the dashboard's code stays out of a bridge that writes none.
      const { DashboardFile } = await import('./dashboard-file.js');
      this.dashboardFile = new DashboardFile({ ...this.options.dashboardFile, config, log });
      await this.updateDashboard();
    }
    if (this.bridge) {
      registerChildCommands(this.bridge, (child) => this.poller(child));
      registerBridgeRequests(this.bridge, { pollers: this.pollers, log, onLevelChange: () => this.bridge?.publishInfo() });
    }
    if (this.memory) {
      // Before the broker is reached: /health then says 503 and the board shows what was restored.
      const { WebService } = await import('../web/service.js');
      this.webService = new WebService({
        http: config.http,
        dataDir: config.data_dir,
        data: this.memory,
        log: log.child({ part: 'web' }),
        out: this.options.out ?? process.stdout,
        // Before the first identity an id is the login, not yet the one the feeds will have.
        childIds: () => this.pollers.map((_, i) => this.settledId(i)),
        ingressAddress: this.options.ingressAddress,
        clock,
        diagnostics: { bundle: () => this.diagnostics(), metrics: this.metrics && (() => (this.metrics as Metrics).text()) },
      });
      await this.webService.start();
    }
    await this.keeper?.start();
    await bridge.start();
    this.bridge?.publishHealth(this.health());
    for (const poller of this.pollers) poller.start();
    for (const entry of unlisted) {
      this.unlisted.add(entry);
      this.relisting.later(entry, 1, entry.error);
    }
    log.info(
      { children: this.pollers.map((p) => p.id), interval: formatDuration(config.poll.interval), fast: formatDuration(config.poll.fast_interval) },
      'dziennik2mqtt started',
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.keeper?.stop();
    await this.relisting.stop();
    await this.webService?.stop();
    await Promise.all(this.pollers.map((p) => p.stop()));
    await this.dashboardFile?.settled();
    await (this.bridge ?? this.options.publisher)?.stop();
    await this.lease?.release();
    this.lease = undefined;
  }

  /** One child's poller, on its road, as the config sets it up. */
  private pollerOf({ account, family, alsoFamily }: ReadChild, index: number, startDelayMs: number): AccountPoller {
    const { config, log } = this.options;
    return new AccountPoller({
      account,
      ...(family ? { family } : {}),
      ...(alsoFamily ? { alsoFamily } : {}),
      urls: config.portal,
      dataDir: config.data_dir,
      poll: {
        intervalMs: config.poll.interval,
        fastIntervalMs: config.poll.fast_interval,
        schoolIntervalMs: config.poll.school_interval,
        quietHours: config.poll.quiet_hours,
        ...(this.options.schoolAllDay ? { fixedMoment: 'lessons' as const } : {}),
      },
      log,
      clock: this.clock,
      publisher: this.publisher as Publisher,
      ...this.portal,
      startDelayMs,
      hooks: this.hooks(index),
      figuresSink: this.metrics,
      downloadMaxBytes: config.downloads_max_mb * 1024 * 1024,
      language: config.language,
      thresholds: config.grading.thresholds,
      averaging: config.grading.average,
      messagesPerDay: config.messages_per_day,
      ...(this.options.features ? { features: this.options.features } : {}),
      ...(this.options.resources ? { resources: this.options.resources } : {}),
    });
  }

  /** Reads the children an `email` entry listed late (FamilyRelisting): each a poller of its own, started now. */
  private async readListed(entry: UnlistedFamily, listed: FamilyChild[]): Promise<void> {
    this.unlisted.delete(entry);
    // Its register poller runs already, without this road behind it: that comes with the next start.
    const fresh = listed.filter((child) => !child.alsoRegister);
    const added = fresh.map((child, i) => this.pollerOf(child, this.pollers.length + i, 0));
    this.children.push(...fresh);
    this.pollers.push(...added);
    for (const poller of added) await poller.prepare();
    if (this.stopped) return;
    for (const poller of added) poller.start();
    this.options.log.info(
      { account: entry.family.label, children: added.map((p) => p.id) },
      'the family portal listed its children; reading them now',
    );
    this.bridge?.publishInfo();
    void this.updateDashboard();
  }

  /** The dashboard file made again if what it shows of the children changed (dashboard-file.ts): as the pollers know it now. */
  private updateDashboard(): Promise<void> {
    return this.dashboardFile?.update(this.pollers.map((poller, i) => ({ id: this.settledId(i), poller }))) ?? Promise.resolve();
  }

  /** The children's ids as far as known, and whether every child is (none waits for its first name or its family's list). */
  private childIds(): { ids: string[]; complete: boolean } {
    const ids = this.pollers.map((_, i) => this.settledId(i));
    return { ids: ids.filter((id) => id !== undefined), complete: this.unlisted.size === 0 && ids.every((id) => id !== undefined) };
  }

  /** What keeps the children's calendars and homework lists in Home Assistant (a test waits for it as for a poll). */
  get homeAssistant(): HomeAssistantKeeper | undefined {
    return this.keeper;
  }

  private settledId(index: number): string | undefined {
    const poller = this.pollers[index];
    return poller && (this.children[index]?.account.id !== undefined || poller.child) ? poller.id : undefined;
  }

  /** Resolves when no `email` entry's children are being listed again (a simulated day waits for it, as for a poll). */
  listed(): Promise<void> {
    return this.relisting.idle();
  }

  private get clock(): Clock {
    return this.options.clock ?? systemClock;
  }

  /** The observer's hooks, and bridge/info again after every poll (it names what a poll may just have learned). */
  private hooks(index: number): PollHooks {
    const observer = this.options.hooks?.(index);
    return {
      ...observer,
      onCycle: (cycle) => {
        this.bridge?.publishInfo();
        this.bridge?.publishHealth(this.health());
        // A first poll learns the child's name, and with it the id its entities take.
        void this.updateDashboard();
        observer?.onCycle?.(cycle);
      },
    };
  }

  /** The running web server, if http.port is not 0 and it could listen. */
  get web(): { url: string | undefined } | undefined {
    return this.webService;
  }

  /** What the web server's pages and feeds read (undefined with http.port 0). */
  get webData(): WebMemory | undefined {
    return this.memory;
  }

  /** The diagnostics bundle of the running bridge (/diagnostics): its figures from memory. */
  async diagnostics(): Promise<string> {
    const { config } = this.options;
    const { diagnosticsBundle } = await import('./commands/diagnostics.js');
    const bridge = {
      running: true,
      pid: process.pid,
      ...this.health(),
      broker_connected: this.bridge?.connected ?? null,
      metrics: this.metrics !== undefined,
      lease: this.lease && leaseFacts(this.lease.record),
      ...(this.keeper ? { home_assistant: this.keeper.status() } : {}),
    };
    const accounts = this.pollers.map((p) => p.figures.snapshot());
    return diagnosticsBundle({ config, now: this.clock.now(), source: 'running bridge', bridge, accounts });
  }

  poller(childId: string): AccountPoller | undefined {
    return this.pollers.find((p) => p.id === childId);
  }

  /** bridge/info: what runs and how, without any secret. */
  info(): Record<string, unknown> {
    return bridgeInfo({
      config: this.options.config,
      version: this.options.version,
      logLevel: this.options.log.level,
      pollers: this.pollers,
      children: this.children,
    });
  }
}

// Which children the bridge reads, and on which road: each `login` entry's child (with the family road
// behind it when an `email` entry lists the child too), then the children only an `email` entry brings.

/** A child the bridge reads, with its road. */
type ReadChild = Pick<FamilyChild, 'account'> & { family?: FamilyChild['family']; alsoFamily?: FamilyChild['family'] };

/** The children of the config, and the `email` entries whose children could not be listed yet. */
async function readChildren(config: Config, options: Omit<FamilyChildrenOptions, 'dataDir' | 'urls' | 'registerLogins'>) {
  const { children: family, unlisted } = await familyChildren(config.families, {
    ...options,
    dataDir: config.data_dir,
    urls: config.portal,
    registerLogins: new Set(config.accounts.map((a) => loginKey(a.login))),
  });
  const behind = new Map(family.filter((c) => c.alsoRegister).map((c) => [loginKey(c.account.login), c.family]));
  const children: ReadChild[] = [
    ...config.accounts.map((account) => ({ account, alsoFamily: behind.get(loginKey(account.login)) })),
    ...family.filter((c) => !c.alsoRegister),
  ];
  return { children, unlisted };
}
