// The running bridge: a list of parts started in turn and stopped in the reverse order (the lease of the
// data folder, the carrier's place (the base topic), the children, the outputs subscribed to the bus, the pass
// runners, each output the config turns on (outputs.ts), the carrier, the passes), one pass runner per child the
// config names (on its road) publishing on the bus, and the commands that connect them. Built by main.ts (and by the
// demo and the tests) from a validated config.
import { Bus, type Carrier, type Sink } from '../bus/bus.js';
import { PassRunner, type PassRunnerOptions } from '../runner/account.js';
import type { PassHooks } from '../runner/scheduler.js';
import { familyChildren, loginKey, type FamilyChild, type FamilyChildrenOptions, type UnlistedFamily } from '../runner/family-road.js';
import type { Config } from '../config/schema.js';
import { FamilyRelisting } from '../runner/relisting.js';
import { formatDuration } from '../util/duration.js';
import { DownloadSlots } from '../portal/attachments/downloader.js';
import { SchoolReads } from '../engine/school-reads.js';
import { PortalTime } from '../portal/portal-time.js';
import { Lease, leaseFacts } from '../lease/lease.js';
import { systemClock, withDeadline, type Clock } from '../util/clock.js';
import type { CarrierOutput, Output, OutputKind } from '../outputs/output.js';
import { CARRIER, carrierOf, Outputs, type AppBridge, type CarrierBridge, type GivenCarrier } from './outputs.js';
import { bridgeHealth, bridgeInfo } from './bridge-info.js';
import { knownNames } from '../util/redact.js';
import { CommandError } from '../features/kit/commands.js';
import { errorText } from '../util/text.js';
import { BridgeProblems } from './bridge-problem.js';
import { refuseUnreleasedData } from './unreleased-data.js';
import { releaseCheckPart } from './release-check.js';

/**
 * What the running bridge is made with: the validated config and what main.ts, the demo, the benchmark and the
 * tests put around it; what each pass runner and the carrier take of it, as they declare it (the demo's own broker
 * speaks MQTT 3.1.1 only; tests shorten the reconnect delays).
 */
export interface AppOptions
  extends Pick<PassRunnerOptions, 'dispatcher' | 'features' | 'resources' | 'schoolAllDay'>,
    Pick<CarrierBridge, 'reconnect' | 'protocolVersion'>,
    Pick<AppBridge, 'config' | 'version' | 'log' | 'ingressAddress' | 'dashboardFile'>,
    // The system's clock and stdout by default.
    Partial<Pick<AppBridge, 'clock' | 'out'>> {
  /**
   * Replaces the carrier, MQTT (tests and the bench that only look at what would be published): subscribed to
   * the bus, and its carrier when it carries events (without one an event is delivered as it is told).
   */
  output?: GivenCarrier;
  /** Delay between the start of one account's reading and the next (default 5 s). */
  staggerMs?: number;
  /** What an observer (the benchmark, a test) attaches to each account's reading, by account index. */
  hooks?: (childIndex: number) => PassHooks;
  /** The release feed the update entity reads (default: package.json's repository's, util/home.ts); a test gives a local one. */
  releases?: string;
}

/**
 * A part of the running bridge: started in turn by App.start(), stopped in the reverse order by App.stop(); one that
 * waits on something outside (the portal, Home Assistant, a page's connection) is `abandonable`, as an output is: its
 * stop is awaited only within the stop's budget, then abandoned, so that a stop ends within 5 s whatever is in flight (16.1).
 */
type Part = Pick<OutputKind, 'name' | 'abandonable'> &
  Required<Pick<Output, 'start'>> &
  Pick<Output, 'stop'> & {
    /** How long its stop is awaited before what comes after it (the lease) goes on all the same. */
    stopMs?: number;
  };

/** How long a stop waits for the parts that wait on something outside; the carrier and the lease get the rest of the 5 s. */
const ABANDON_AFTER_MS = 1_500;

export class App {
  readonly runners: PassRunner[] = [];
  /** What every pass runner publishes on, and every output subscribes to. */
  readonly bus: Bus;
  /**
   * Every child the bridge reads, with its road: a login entry's (with the family road behind it when
   * an e-mail entry lists the child too), or an e-mail entry's (family).
   */
  private children: ReadChild[] = [];
  /** The `email` entries whose children are listed again (not listed at start). */
  private readonly relisting: FamilyRelisting;
  /** The bridge device's own `problem`: an entry that names no child yet, a topic the broker refused. */
  private readonly problems: BridgeProblems;
  private stopped = false;
  /** The parts started so far, in order (stop() ends them from the last). */
  private readonly started: Part[] = [];
  /** The output that carries the bus's events (outputs.ts CARRIER), or the one a test or the bench gave: made with the lease. */
  private carrier: CarrierOutput | undefined;
  /** The outputs beside the carrier that the config turns on (app/outputs.ts), made in order, each a part. */
  private readonly outputs: Outputs;
  /** What every child shares to reach the portal: the dispatcher, two downloads at once (spec 8), the portal's clock. */
  private readonly portal: Pick<AppOptions, 'dispatcher'> & { slots: DownloadSlots; portalTime: PortalTime };
  /** Every child by its school: what one child reads for its whole school (the lucky number), the others take. */
  private readonly schools = new SchoolReads();
  /** bridge/health's figures. */
  private readonly health = () => bridgeHealth(this.startedAt, this.portal.portalTime);
  /** One bridge per data folder and base topic (lease/lease.ts): taken first, given up last. */
  private lease: Lease | undefined;
  /** When start() began (the bridge device's uptime). */
  private startedAt = 0;
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
    this.bus = new Bus(options.log);
    this.portal = { dispatcher: options.dispatcher, slots: new DownloadSlots(), portalTime: new PortalTime(options.log) };
    this.relisting = new FamilyRelisting({
      intervalMs: options.config.poll.interval,
      clock: this.clock,
      log: options.log,
      read: (entry, listed) => this.readListed(entry, listed),
      problem: (entry, error) => this.problems.familyRoad(entry.email, error),
    });
    this.problems = new BridgeProblems({ language: options.config.language, clock: this.clock, publish: (state) => this.carrier?.problem?.(state) });
    this.outputs = new Outputs(this.outputBridge());
  }

  /** The parts, in the order they start: each may use what those before it made. */
  private parts(): Part[] {
    return [
      // Before anything is written there: a folder of a development version is refused as it is.
      { name: 'data folder', start: () => refuseUnreleasedData(this.options.config.data_dir) },
      { name: 'lease', start: () => this.takeLease(), stop: () => this.lease?.release() },
      // A second bridge on this base topic reads nothing, not even which children an e-mail entry has: it waits here.
      // Its stop ends the wait for the broker (a SIGTERM before the broker was ever reached).
      { name: CARRIER.holds, start: () => this.carrier?.hold?.(), stop: () => (this.carrier?.hold ? this.carrier.stop() : undefined) },
      { name: 'children', start: () => this.readChildren(), stop: () => this.relisting.stop() },
      { name: 'outputs', start: () => this.subscribeOutputs() },
      { name: 'pass runners', start: () => this.prepareRunners() },
      // Before the broker is reached: /health then says 503 and the board shows what was restored.
      ...this.outputs.running.map((kind) => ({
        name: kind.name,
        start: () => this.outputs.of(kind)?.start?.(),
        stop: () => this.outputs.of(kind)?.stop?.(),
        ...(kind.abandonable ? { abandonable: kind.abandonable } : {}),
      })),
      { name: CARRIER.name, start: () => this.carrier?.start(), stop: () => this.carrier?.stop(), stopMs: CARRIER.stopMs },
      releaseCheckPart(this.options, this.clock, () => this.carrier?.release),
      {
        name: 'passes',
        start: () => this.startPasses(),
        stop: () => Promise.all(this.runners.map((p) => p.stop())).then(() => undefined),
        abandonable: true,
      },
    ];
  }

  async start(): Promise<void> {
    this.startedAt = this.clock.now();
    // From here on a log line, an error and the bundle cut every login and e-mail of the config to a hint.
    knownNames.addConfig(this.options.config);
    for (const part of this.parts()) {
      // A stop that came meanwhile (while the lock or the base topic was waited for): nothing more starts.
      if (this.stopped) return;
      this.started.push(part);
      await part.start();
    }
    const { config, log } = this.options;
    log.info(
      { children: this.runners.map((p) => p.id), interval: formatDuration(config.poll.interval), fast: formatDuration(config.poll.fast_interval) },
      'dziennik2mqtt started',
    );
  }

  /**
   * Ends the parts started, the last first, within 5 s whatever is in flight (interface 16.1): a part that
   * waits on the portal, Home Assistant or a page is abandoned after its budget, not awaited; the carrier (MQTT) says
   * `offline` and gives up the claim; the lease is released last, whatever came before.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    // Real time: a stop's budget is the container's (docker stop kills at 10 s), whatever clock the passes run on.
    const began = systemClock.now();
    for (const part of this.started.splice(0).reverse()) {
      const budget = part.abandonable ? ABANDON_AFTER_MS - (systemClock.now() - began) : part.stopMs;
      const stopping = Promise.resolve(part.stop?.());
      const done =
        budget === undefined
          ? stopping
          : withDeadline(
              systemClock,
              Math.max(0, budget),
              () => new Error(`${part.name}: still busy`),
              () => stopping,
            );
      await done.catch((error: unknown) => this.options.log.warn({ err: errorText(error) }, `stop: ${part.name} left as it was`));
    }
    this.lease = undefined;
  }

  private async takeLease(): Promise<void> {
    const { config, log } = this.options;
    this.lease = await Lease.take(config.data_dir, log, { lost: (why) => this.lose(why) });
    this.carrier = carrierOf(this.carrierBridge(this.lease), this.options.output);
  }

  /** What the carrier takes of the running bridge (outputs/mqtt/output.ts). */
  private carrierBridge(lease: Lease): CarrierBridge {
    return {
      ...this.options,
      clock: this.clock,
      lease,
      info: () => this.info(),
      health: this.health,
      childIds: () => this.children.flatMap(({ account: a }) => (a.id ? [a.id] : [])),
      problems: this.problems,
      lose: this.lose,
    };
  }

  /** The login entries' children, then those the e-mail entries bring (the family road). */
  private async readChildren(): Promise<void> {
    const { config, log } = this.options;
    const { children, unlisted } = await readChildren(config, {
      clock: this.clock,
      log,
      ...this.portal,
      storage: (error) => this.problems.storage(error),
    });
    this.children = children;
    for (const entry of unlisted) this.unlisted.add(entry);
    this.problems.publish();
  }

  /** Every output subscribes to the bus: the carrier of events (MQTT, or the output a test gave), then the list's (outputs.ts). */
  private async subscribeOutputs(): Promise<void> {
    const sink = this.carrier?.sink;
    if (sink?.carry && sink.delivered) this.bus.carryWith(sink as Sink & Carrier);
    else if (sink) this.bus.subscribe(sink);
    await this.outputs.make(this.bus);
  }

  /** What the outputs are lent of the running bridge (outputs/output.ts). */
  private outputBridge(): AppBridge {
    return {
      ...this.options,
      clock: this.clock,
      out: this.options.out ?? process.stdout,
      children: () => ({ ids: this.runners.map((_, i) => this.knownId(i)), listed: this.unlisted.size === 0 }),
      known: () => this.runners.map((runner, i) => ({ id: this.knownId(i), runner })),
      command: (child, command, payload) => this.childCommand(child, command, payload),
      writes: (child) => this.writes(child),
      reach: (child, wants) => this.runner(child)?.reach(wants) ?? Promise.resolve({ read: 0, left: 0 }),
      diagnostics: () => this.diagnostics(),
      broker: { connected: () => this.carrier?.broker?.connected() ?? true, publishes: () => this.carrier?.broker?.publishes() ?? 0 },
      // The carrier is made with the lease (after this), before any output.
      handover: () => this.carrier?.handover,
    };
  }

  /** One pass runner per child, each with what it kept from the last run published (its states, its calendar feeds). */
  private async prepareRunners(): Promise<void> {
    this.children.forEach((child, index) => this.runners.push(this.runnerOf(child, index, index * (this.options.staggerMs ?? 5_000))));
    for (const runner of this.runners) await runner.prepare();
    // The dashboard as the pass runners know the children now (what the last run learned of each).
    await this.outputs.childrenChanged();
    this.carrier?.ready?.(this.runners, (child) => this.runner(child));
  }

  private startPasses(): void {
    for (const runner of this.runners) runner.start();
    for (const entry of this.unlisted) this.relisting.later(entry, 1, entry.error);
  }

  /** One child's pass runner, on its road, as the config sets it up. */
  private runnerOf({ account, familyRoad, alsoFamilyRoad }: ReadChild, index: number, startDelayMs: number): PassRunner {
    const { config, log, features, resources, schoolAllDay } = this.options;
    return new PassRunner({
      account,
      familyRoad,
      alsoFamilyRoad,
      config,
      schoolAllDay,
      log,
      clock: this.clock,
      bus: this.bus,
      handover: this.carrier?.handover,
      ...this.portal,
      schools: this.schools,
      startDelayMs,
      hooks: this.options.hooks?.(index),
      figuresSink: this.outputs.figures(),
      features,
      resources,
    });
  }

  /** Reads the children an `email` entry listed late (FamilyRelisting): each a pass runner of its own, started now. */
  private async readListed(entry: UnlistedFamily, listed: FamilyChild[]): Promise<void> {
    this.unlisted.delete(entry);
    // Its register pass runner runs already, without this road behind it: that comes with the next start.
    const fresh = listed.filter((child) => !child.alsoRegister);
    const added = fresh.map((child, i) => this.runnerOf(child, this.runners.length + i, 0));
    this.children.push(...fresh);
    this.runners.push(...added);
    for (const runner of added) await runner.prepare();
    if (this.stopped) return;
    for (const runner of added) runner.start();
    this.options.log.info(
      { account: entry.familyRoad.label, children: added.map((p) => p.id) },
      'the family portal listed its children; reading them now',
    );
    this.carrier?.infoChanged?.();
    void this.outputs.childrenChanged();
  }

  /** An output the config turned on, as its kind makes it (a test waits for one as for a pass; the demo asks the web server's address). */
  outputOf<T extends Output>(kind: OutputKind<T>): T | undefined {
    return this.outputs.of(kind);
  }

  private knownId(index: number): string | undefined {
    const runner = this.runners[index];
    return runner && (this.children[index]?.account.id !== undefined || runner.child) ? runner.id : undefined;
  }

  /** Resolves when no `email` entry's children are being listed again (a simulated day waits for it, as for a pass). */
  listed(): Promise<void> {
    return this.relisting.idle();
  }

  /** Resolves when no download runs but those waiting on the clock (a simulated day waits for it, as for a pass). */
  downloadsRested(): Promise<void> {
    return this.portal.slots.rested();
  }

  private get clock(): Clock {
    return this.options.clock ?? systemClock;
  }

  /** The diagnostics bundle of the running bridge (/diagnostics): its figures from memory. */
  async diagnostics(): Promise<string> {
    const { config } = this.options;
    const { diagnosticsBundle } = await import('./commands/diagnostics.js');
    const bridge = {
      running: true,
      pid: process.pid,
      ...this.health(),
      broker_connected: this.carrier?.broker?.connected() ?? null,
      metrics: this.outputs.figures() !== undefined,
      lease: this.lease && leaseFacts(this.lease.record),
      ...this.outputs.status(),
    };
    const accounts = this.runners.map((p) => p.figures.snapshot());
    return diagnosticsBundle({ config, now: this.clock.now(), source: 'running bridge', bridge, accounts });
  }

  /**
   * One of a child's commands as its topic would run it (the MCP server's open_message and send_message): the
   * feature's handler in the child's account queue, its refusal rejected as the CommandError it is.
   */
  private childCommand(child: string, command: string, payload: string): Promise<Record<string, unknown>> {
    const runner = this.runner(child);
    if (!runner) return Promise.reject(new CommandError(`unknown child "${child}"`));
    const text = payload.trim();
    return runner.command({ child, command, payload: Buffer.from(text, 'utf8'), text, arg: text.startsWith('{') ? '' : text });
  }

  /** Whether the config lets a child's account write to teachers (write_messages). */
  private writes(child: string): boolean {
    const runner = this.runner(child);
    return runner !== undefined && this.children.some(({ account }) => account.login === runner.loginName && account.write_messages);
  }

  runner(childId: string): PassRunner | undefined {
    return this.runners.find((p) => p.id === childId);
  }

  /** bridge/info: what runs and how, without any secret. */
  info(): Record<string, unknown> {
    return bridgeInfo({
      config: this.options.config,
      version: this.options.version,
      logLevel: this.options.log.level,
      runners: this.runners,
      children: this.children,
    });
  }
}

// Which children the bridge reads, and on which road: each `login` entry's child (with the family road
// behind it when an `email` entry lists the child too), then the children only an `email` entry brings.

/** A child the bridge reads, with its road. */
type ReadChild = Pick<FamilyChild, 'account'> & { familyRoad?: FamilyChild['familyRoad']; alsoFamilyRoad?: FamilyChild['familyRoad'] };

/** The children of the config, and the `email` entries whose children could not be listed yet. */
async function readChildren(config: Config, options: Omit<FamilyChildrenOptions, 'dataDir' | 'urls' | 'registerLogins'>) {
  const { children: listed, unlisted } = await familyChildren(config.families, {
    ...options,
    dataDir: config.data_dir,
    urls: config.portal,
    registerLogins: new Set(config.accounts.map((a) => loginKey(a.login))),
  });
  const behind = new Map(listed.filter((c) => c.alsoRegister).map((c) => [loginKey(c.account.login), c.familyRoad]));
  const children: ReadChild[] = [
    ...config.accounts.map((account) => ({ account, alsoFamilyRoad: behind.get(loginKey(account.login)) })),
    ...listed.filter((c) => !c.alsoRegister),
  ];
  return { children, unlisted };
}
