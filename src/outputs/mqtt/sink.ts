// The MQTT sink: what the bus carries, on the broker. The base topic held by one bridge (lease/claim.ts), waited
// for first on a connection without a will; then one mqtt.js client with a retained last will; discovery for
// the bridge and every child; retained states sent only on change and all again after a reconnect or Home
// Assistant's birth message; events at QoS 2 through the session kept in data_dir (once/session.ts), each
// answered once the broker acknowledged it (it is the bus's carrier); whether everything handed so far was
// accepted (delivered); each child's event memory, and what was made and deleted in Home Assistant, told on
// for a successor, and a predecessor's read (the handover, once/handover.ts): only the installation whose
// claim this one replaced is trusted, a record anyone else wrote is logged by its writer and, while running,
// written over with this bridge's own (one this bridge has none of: emptied); commands through the router.
// Calendar feeds are web-only: it takes none.
import type { IClientPublishOptions, IPublishPacket, ISubscriptionMap, MqttClient } from 'mqtt';
import { bridgeDiscovery, type DiscoveryContext } from './discovery.js';
import type { ChildDevice } from '../../features/kit/entities.js';
import type { EntityState } from '../../engine/state.js';
import type { BusEvent, Carrier, Sink } from '../../bus/bus.js';
import { byPredecessor, describeWriter, readTold, writerGiven, writerOf, type Handover, type ToldMemory } from '../../once/handover.js';
import { Topics } from './topics.js';
import { systemClock, withDeadline, type Clock, type Timer } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { errorText } from '../../util/text.js';
import { createClient, DEFAULT_RECONNECT, redactUrl, waitForConnect, watchConnection, watchTakeovers, type ReconnectPolicy } from './client.js';
import { BaseTopicClaim } from '../../lease/claim.js';
import { describeHolder, type Lease, type LeaseRecord } from '../../lease/lease.js';
import { MAX_STATUS_BYTES } from './sizes.js';
import { CommandRouter, RequestRouter, type CommandOptions, type RequestHandler } from './commands.js';
import type { CommandHandler } from '../../features/kit/commands.js';
import { RetainedMirror } from './mirror.js';
import { clearMovedBase, readRetainedDevices } from './retained.js';
import { ChildDevices } from './devices.js';
import { Inbox } from './inbox.js';
import { Deliveries } from './delivery.js';
import { MqttSession } from '../../once/session.js';
import type { SeenStore } from '../../once/memory.js';
import type { MqttConfig } from '../../config/schema.js';
import type { BrokerOrigin } from '../../config/broker-origin.js';
import type { Language } from '../../config/language.js';

/** Home Assistant reads attributes only up to this size. */
const MAX_ATTRIBUTES_BYTES = 16 * 1024;
const RETAINED: IClientPublishOptions = { qos: 1, retain: true };
const STOP_TIMEOUT_MS = 5_000;
/** How long start() reads retained device configs by default (MQTT has no "end of retained" marker). */
export const STALE_SCAN_MS = 1_000;

/** What bridge/health holds: the bridge's start (ISO time) and its memory in MB. */
export interface BridgeHealth {
  started_at: string;
  memory_mb: number;
  heap_mb: number;
  /** Seconds this machine's clock is off the portal's (positive: ahead), only when over a minute. */
  clock_skew_s?: number;
}

export interface MqttSinkOptions {
  mqtt: MqttConfig;
  /** Where `mqtt.url` came from: the log's advice when the broker is away names that place. */
  brokerFrom?: BrokerOrigin;
  version: string;
  log: Logger;
  /** The bridge/info payload (no secrets); `version` is added when missing. */
  info: () => Record<string, unknown>;
  /** bridge/health's figures, published again after every pass (with bridge/info, which names what a pass may have learned). */
  health?: () => BridgeHealth;
  /**
   * Ids of the configured children. start() removes the retained devices of children that are neither
   * listed here nor declared (device()) before start(), so list them when names come later. `every`
   * keeps every retained device as it is (the app waiting for its refused options to be saved again).
   */
  children?: readonly string[] | 'every';
  supportUrl?: string;
  /** The language of entity names in discovery: the config's `language` (English when not given). */
  language?: Language;
  clock?: Clock;
  /** How long start() reads retained device configs before deciding what is stale (default 1 s). */
  staleScanMs?: number;
  /** Delay between Home Assistant's birth message and the republish (default 2 s). */
  birthDelayMs?: number;
  /** Reconnect delays: the first attempt's (default 5 s), doubling per failed attempt up to the longest (default 60 s). */
  reconnect?: Partial<ReconnectPolicy>;
  /** The broker refused a topic (a subscription or a publish): the bridge's own `problem` says so. */
  onRefused?: (topic: string) => void;
  /**
   * One bridge per installation and base topic: the data folder's lease (lease/lease.ts), claimed on the
   * broker (lease/claim.ts), whose installation is the client id of the session kept there (session.ts: events reach
   * the broker once across a kill). None: a clean session and no claim (a test's bridge).
   */
  lease?: {
    folder: Lease;
    /** Another bridge this one does not act on, named (lease/claim.ts); undefined: none now. */
    other: (other: string | undefined) => void;
    /** This bridge stopped acting: another took its base topic over (`taken` undefined), or its client id (`taken` names it: it stays idle). */
    lost: (why: string, taken?: string) => void;
  };
  /** MQTT 5 by default (falling back to 3.1.1 when refused); 4 for a broker that speaks only 3.1.1. */
  protocolVersion?: 4 | 5;
}

export class MqttSink implements Sink, Carrier, Handover {
  private readonly topics: Topics;
  private readonly ctx: DiscoveryContext;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly router: CommandRouter;
  private readonly requests: RequestRouter;
  private readonly mirror = new RetainedMirror();
  private readonly devices: ChildDevices;
  private readonly inbox: Inbox;
  /** What the broker has to answer yet, and who waits for it. */
  private readonly deliveries: Deliveries;
  private client: MqttClient | undefined;
  private ready = false;
  private stopped = false;
  /** Home Assistant's birth heard: everything retained goes again when it fires. */
  private birthTimer: Timer | undefined;
  /** The base topic's claim (lease/claim.ts) and the kept session (session.ts), with a lease. */
  private claim: BaseTopicClaim | undefined;
  private session: MqttSession | undefined;
  /** What the installation whose claim this bridge replaced told, by topic (each child's event memory, Home Assistant's entries), read while waiting for the base topic. */
  private readonly predecessors = new Map<string, unknown>();
  /** That installation (its claim as this bridge found it), if another; and the writers of other records already logged, by topic. */
  private handedBy: LeaseRecord | undefined;
  private readonly strangers = new Set<string>();
  /** Ends a wait for the base topic at stop(). */
  private readonly stopping = new AbortController();

  constructor(private readonly options: MqttSinkOptions) {
    this.topics = new Topics(options.mqtt.base_topic, options.mqtt.discovery_prefix);
    this.ctx = {
      baseTopic: options.mqtt.base_topic,
      discoveryPrefix: options.mqtt.discovery_prefix,
      version: options.version,
      supportUrl: options.supportUrl,
      language: options.language,
    };
    this.clock = options.clock ?? systemClock;
    this.log = options.log;
    this.devices = new ChildDevices({
      topics: this.topics,
      ctx: this.ctx,
      mirror: this.mirror,
      // Read at start: the App names its children after the base topic is held.
      get configured() {
        return options.children ?? [];
      },
      log: options.log,
    });
    this.router = new CommandRouter({ log: options.log, commandsOf: (child) => this.devices.commandsOf(child) });
    this.requests = new RequestRouter({ log: options.log });
    const { topics, router, requests } = this;
    this.inbox = new Inbox({ topics, router, requests, log: options.log, client: () => this.client, stopped: () => this.stopped });
    this.deliveries = new Deliveries(
      () => this.client,
      options.log,
      (topic, code) => this.refused(topic, code),
    );
  }

  private get reconnect(): ReconnectPolicy {
    return { ...DEFAULT_RECONNECT, ...this.options.reconnect };
  }

  get connected(): boolean {
    return this.client?.connected === true;
  }

  /** MQTT messages handed to the broker so far (retained states, discovery, events). */
  get publishes(): number {
    return this.deliveries.sent;
  }

  /**
   * With a lease: waits, on a connection without a last will, until this bridge may take the base topic
   * (lease/claim.ts), reading what another installation told of each child's event memory; a handover from one
   * leaves it what this data folder's session held, and its memories are adopted (anyone else's: logged,
   * never adopted). Call before anything is read for the children.
   */
  async acquire(): Promise<void> {
    const { lease, log, mqtt, protocolVersion } = this.options;
    if (!lease || this.claim) return;
    const session = await MqttSession.open(lease.folder.dataDir, log);
    this.session = session;
    this.deliveries.session = session;
    const claim = new BaseTopicClaim({
      lease: lease.folder,
      topics: this.topics,
      log,
      other: lease.other,
      refused: (topic, code) => this.refused(topic, code),
      lost: (other) =>
        this.lost(`another dziennik2mqtt (${describeHolder(other)}) took base topic ${this.topics.base} over while this one was away; stopping`),
    });
    this.claim = claim;
    const client = createClient({ mqtt, reconnectPeriodMs: this.reconnect.firstMs, protocolVersion });
    const url = redactUrl(mqtt.url);
    const { signal } = this.stopping;
    const settings = { url, from: this.options.brokerFrom, policy: this.reconnect, log };
    watchConnection(client, { ...settings, stopped: () => client.disconnecting, onConnect: () => undefined });
    signal.addEventListener('abort', () => client.end(true), { once: true });
    // Each record by writer, the last of each: whose to trust is known once the wait ends.
    const heard = new Map<string, Map<string | undefined, ToldMemory>>();
    client.on('message', (topic, payload) => {
      if (this.toldHere(topic) === undefined) return void claim.heard(topic, payload);
      const told = readTold(payload);
      if (told === undefined) return;
      const writers = heard.get(topic) ?? new Map<string | undefined, ToldMemory>();
      heard.set(topic, writers.set(told.by, told));
    });
    try {
      // However long the broker takes to appear (the add-on may start before Mosquitto): nothing is read meanwhile.
      await waitForConnect(client, url);
      await client.subscribeAsync([this.topics.eventMemory('+'), this.topics.homeAssistant], { qos: 0 });
      await claim.wait(client, signal);
    } finally {
      await client.endAsync().catch(() => undefined);
    }
    const from = claim.predecessor;
    this.handedBy = from;
    for (const [topic, writers] of heard)
      for (const told of writers.values()) {
        if (byPredecessor(told, from)) this.predecessors.set(topic, told.memory);
        else if (told.by !== this.me) this.stranger(topic, told, 'not adopted');
      }
    // Home Assistant's entries go on with the base topic: told on as this bridge's own until its keeper tells more (or without one).
    const entries = this.predecessors.get(this.topics.homeAssistant);
    if (entries !== undefined) this.tellHomeAssistant(entries);
    if (!from) return;
    const said = `base topic ${this.topics.base} was another installation's since this one held it: taking over from what it told`;
    log.info({ from: describeHolder(from) }, said);
    await session.forget();
  }

  async start(): Promise<void> {
    if (this.client) throw new Error('bridge already started');
    await this.acquire();
    const { client, url } = this.open();
    this.client = client;
    try {
      // However long the broker takes to appear (the add-on may start before Mosquitto): the pass runners
      // start only after this, so the portal is not asked for anything the bridge could not publish.
      await waitForConnect(client, url);
      const other = await this.claim?.take(client);
      if (other) throw new Error(`another dziennik2mqtt (${describeHolder(other)}) took base topic ${this.topics.base} at the same moment`);
      const devices = await readRetainedDevices(client, this.topics, this.options.staleScanMs ?? STALE_SCAN_MS, this.clock);
      // Only the base topic's holder clears what a former base topic left.
      if (this.session) await clearMovedBase(client, this.session, this.topics, this.options.staleScanMs ?? STALE_SCAN_MS, this.clock, this.log);
      this.devices.removeStale(devices);
      await this.subscribe(client);
      this.log.info({ url, base_topic: this.topics.base }, 'connected to the MQTT broker');
    } catch (err) {
      // A clean end: its last will would say `offline` for the bridge that holds the base topic.
      await client.endAsync().catch(() => undefined);
      this.client = undefined;
      throw err;
    }
    this.mirror.set(this.topics.bridgeState, 'online');
    const bridge = bridgeDiscovery(this.ctx);
    this.mirror.set(bridge.topic, JSON.stringify(bridge.payload));
    this.setInfo();
    this.ready = true;
    this.sync();
    this.deliveries.started();
  }

  /** The installation and place whose event memory this bridge tells (a successor adopts only its predecessor's). */
  private get me(): string | undefined {
    const record = this.options.lease?.folder.record;
    return record && writerOf(record);
  }

  /**
   * What a retained record this bridge tells on holds, by its topic: a child's event memory (and whether this
   * bridge has the child), or what it made and the family deleted in Home Assistant; undefined for any other topic.
   */
  private toldHere(topic: string): { what: string; child?: string; known: boolean } | undefined {
    if (topic === this.topics.homeAssistant)
      return { what: "the retained record of the bridge's entries in Home Assistant", known: this.mirror.desires(topic) };
    const child = this.topics.parseEventMemory(topic);
    if (child === undefined) return undefined;
    return { what: `the retained event memory of ${child}`, child, known: this.mirror.desires(topic) || this.devices.isKnown(child) };
  }

  /** A record neither this bridge nor its predecessor wrote: logged once per topic and writer, by its writer. */
  private stranger(topic: string, told: ToldMemory, then: string): void {
    const key = `${topic}\n${told.by}`;
    const here = this.toldHere(topic);
    if (this.strangers.has(key) || here === undefined) return;
    this.strangers.add(key);
    const said = `${here.what} was written by ${describeWriter(told)}, neither this bridge nor the one whose base topic it took over: ${then}`;
    this.log.warn({ ...(here.child === undefined ? { topic } : { child: here.child }), writer: writerGiven(told) }, said);
  }

  /**
   * A retained record heard while running: another's is logged (but the predecessor's) and written over
   * with this bridge's own; one this bridge has none of (a child it does not have, no entries) is
   * emptied, whoever wrote it.
   */
  private heardTold(topic: string, payload: Buffer): void {
    // Its own, back from the broker (MQTT 3.1.1 has no "no local"): not read again.
    if (this.mirror.holds(topic, payload.toString())) return;
    const told = readTold(payload);
    const here = this.toldHere(topic);
    if (told === undefined || here === undefined) return;
    const ours = told.by === this.me;
    const { known } = here;
    if (!ours && !byPredecessor(told, this.handedBy)) this.stranger(topic, told, known ? "this bridge's own is published again" : 'emptied');
    if (this.mirror.desires(topic)) {
      if (!ours) this.mirror.again(topic);
    } else if (!known) this.mirror.clear(topic);
    this.sync();
  }

  /** This bridge stops acting: nothing more goes out; its stop says `offline` (a live holder, if another, says `online` again). */
  private lost(why: string, taken?: string): void {
    this.ready = false;
    this.options.lease?.lost(why, taken);
  }

  /**
   * Another connection took this bridge's MQTT client id (client.ts watchTakeovers): a copy of its data
   * folder, or another client given its id. It stops fighting for it: nothing more on its connection;
   * `problem` and `offline` said once on a connection of its own.
   */
  private async takenOver(client: MqttClient): Promise<void> {
    const { lease, mqtt, protocolVersion } = this.options;
    if (this.stopped || !lease) return;
    this.stopped = true;
    client.end(true);
    this.claim?.release();
    const twin = this.claim?.twin;
    const taken = twin ? describeHolder(twin) : lease.folder.clientId;
    this.lost(
      `another MQTT connection took this bridge's client id ${lease.folder.clientId} (${twin ? `another dziennik2mqtt: ${taken}` : 'a copy of this data_dir running elsewhere, or a client given its id'}): this one stops using it and waits to be restarted`,
      taken,
    );
    this.mirror.set(this.topics.bridgeState, 'offline');
    const bridgeTopics = this.mirror.take().filter(({ topic }) => topic.startsWith(`${this.topics.base}/bridge/`));
    const said = createClient({ mqtt, reconnectPeriodMs: this.reconnect.firstMs, protocolVersion });
    const say = async (): Promise<void> => {
      await waitForConnect(said, redactUrl(mqtt.url));
      await Promise.all(bridgeTopics.map(({ topic, payload }) => said.publishAsync(topic, payload, RETAINED)));
    };
    await withDeadline(this.clock, STOP_TIMEOUT_MS, () => new Error('timed out'), say).catch((err: unknown) =>
      this.log.warn({ err: errorText(err) }, 'could not say offline on a connection of its own'),
    );
    await said.endAsync(true).catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.stopping.abort(new Error('the bridge stopped while another dziennik2mqtt held its base topic'));
    const client = this.client;
    if (!client || this.stopped) return;
    this.stopped = true;
    this.ready = false;
    this.birthTimer?.cancel();
    this.deliveries.away(true);
    const attempt = async (what: string, work: Promise<unknown>): Promise<void> => {
      const late = () => new Error(`timed out ${what}`);
      await withDeadline(this.clock, STOP_TIMEOUT_MS, late, () => work).catch((err: unknown) => this.log.warn({ err }, `stop: ${what} failed`));
    };
    // A clean DISCONNECT suppresses the last will, so offline is published by hand and awaited; the claim
    // given up before it lets a bridge waiting for the base topic take over at once.
    if (this.claim) await attempt('giving up the claim', this.claim.giveUp(client));
    if (client.connected) await attempt('publishing offline', client.publishAsync(this.topics.bridgeState, 'offline', RETAINED));
    await attempt('disconnecting', client.endAsync(!client.connected, this.session?.parting(client.options.protocolVersion, this.log)));
  }

  /** Declares a child's device and entities; published when its discovery changed. */
  device(child: ChildDevice): void {
    this.devices.set(child);
    this.sync();
  }

  /** Removes a child's device from Home Assistant and empties its retained topics (its id changed). */
  removed(childId: string): void {
    this.devices.remove(childId);
    this.sync();
  }

  availability(childId: string, online: boolean): void {
    this.mirror.set(this.topics.availability(childId), online ? 'online' : 'offline');
    this.sync();
  }

  /** Retained, sent only when the state or the attributes changed; attributes left out stay as they were. */
  state(childId: string, key: string, state: EntityState): void {
    const device = this.devices.get(childId);
    if (device && !device.entities.some((e) => e.key === key)) {
      this.log.debug({ child: childId, entity: key }, 'state for an entity the child does not have, ignored');
      return;
    }
    const bytes = state.attributes === undefined ? 0 : Buffer.byteLength(JSON.stringify(state.attributes));
    if (bytes > MAX_ATTRIBUTES_BYTES) this.log.warn({ child: childId, entity: key, bytes }, 'attributes over 16 KB');
    this.setState(this.topics.state(childId, key), state);
  }

  /** A state and its attributes (`<topic>/attributes`): attributes first, so an automation triggered by the state change reads the new ones. */
  private setState(topic: string, state: EntityState): void {
    if (state.attributes !== undefined) this.mirror.set(`${topic}/attributes`, JSON.stringify(state.attributes));
    this.mirror.set(topic, state.state ?? 'None');
    this.sync();
  }

  /**
   * QoS 2, not retained, once even across a kill (session.ts); while the broker is away mqtt.js keeps it.
   * Resolves true once the broker acknowledged it (PUBCOMP), false when it refused it or it was not sent
   * (a stop came first, or the lease lapsed). Its id is the event's in its memory.
   */
  carry(childId: string, { kind, payload, id }: BusEvent): Promise<boolean> {
    if (this.stopped || (this.ready && this.claim?.alive === false)) {
      this.log.debug({ child: childId, kind }, 'event not sent: this bridge is stopped, or its lease lapsed (kept for the next pass or start)');
      return Promise.resolve(false);
    }
    return this.deliveries.event(this.topics.event(childId, kind), JSON.stringify(payload), id);
  }

  /** A child's event memory as saved, told on (retained) for a bridge that takes the base topic over later. */
  tell(childId: string, memory: unknown): void {
    const fence = this.options.lease?.folder.record.fence;
    this.mirror.set(this.topics.eventMemory(childId), JSON.stringify({ by: this.me, fence, memory }));
    this.sync();
  }

  /** What another installation that held the base topic told of a child's event memory, if anything. */
  told(childId: string): unknown {
    return this.predecessors.get(this.topics.eventMemory(childId));
  }

  /**
   * What the bridge made in Home Assistant and what the family deleted there, as the keeper keeps it, told
   * on (retained) for a bridge that takes the base topic over later; undefined: none (a record left there is emptied).
   */
  tellHomeAssistant(told: unknown): void {
    const topic = this.topics.homeAssistant;
    if (told === undefined) {
      if (this.mirror.desires(topic)) this.mirror.clear(topic);
    } else this.mirror.set(topic, JSON.stringify({ by: this.me, fence: this.options.lease?.folder.record.fence, memory: told }));
    this.sync();
  }

  /**
   * After a handover from another installation: what it told of its entries in Home Assistant (undefined
   * when it told nothing). Undefined when this bridge held the base topic last (or has no lease).
   */
  homeAssistantTold(): { told: unknown } | undefined {
    return this.handedBy && { told: this.predecessors.get(this.topics.homeAssistant) };
  }

  /** A child's event memory as the kept session holds it (its events' packets are written into it); none without a lease. */
  memory(childId: string): SeenStore | undefined {
    return this.session?.memoryOf(childId);
  }

  /**
   * True once the broker accepted every state and event handed to it so far; false at once while it is
   * away (or when one was refused, or no answer came within STOP_TIMEOUT_MS).
   */
  delivered(): Promise<boolean> {
    if (!this.ready || !this.connected) return Promise.resolve(false);
    this.sync();
    return this.deliveries.all((run, ms) => this.clock.setTimer(run, ms), STOP_TIMEOUT_MS);
  }

  /** One handler for every command a child's buttons send (those without a handler of their own). */
  onCommand(handler: CommandHandler): void;
  /** The handler of one command, for every known child. */
  onCommand(command: string, handler: CommandHandler, options?: CommandOptions): void;
  onCommand(first: CommandHandler | string, handler?: CommandHandler, options?: CommandOptions): void {
    if (typeof first === 'function') this.router.registerFallback(first);
    else if (handler) this.router.register(first, handler, options);
    else throw new Error('onCommand(command, handler): handler missing');
  }

  /** The handler of one bridge request (`<base>/bridge/request/<name>`). */
  onRequest(name: string, handler: RequestHandler): void {
    this.requests.register(name, handler);
  }

  /** A child's pass ended: bridge/info (what it may have learned) and bridge/health again, each only if it changed. */
  passed(): void {
    this.publishInfo();
    const health = this.options.health;
    if (health) this.publishHealth(health());
  }

  /** Sends bridge/info again if info() now says something else. */
  publishInfo(): void {
    this.setInfo();
    this.sync();
  }

  /** bridge/health (retained, sent when it changed): what the bridge device's uptime and memory show. */
  publishHealth(health: BridgeHealth): void {
    this.mirror.set(this.topics.bridgeHealth, JSON.stringify(health));
    this.sync();
  }

  /** The bridge's own `problem` (retained, sent when it changed): attributes first, as a child's. */
  setProblem(problem: EntityState): void {
    this.setState(this.topics.bridgeProblem, problem);
  }

  private setInfo(): void {
    this.mirror.set(this.topics.bridgeInfo, JSON.stringify({ version: this.options.version, ...this.options.info() }));
  }

  /** Sends what the broker lacks; while offline nothing, as everything goes again on reconnect. */
  private sync(): void {
    // A lease that lapsed acts on nothing until it is renewed (a stale holder cannot act, claim.ts).
    if (!this.ready || !this.connected || this.claim?.alive === false) return;
    for (const { topic, payload } of this.mirror.take()) void this.deliveries.publish(topic, payload, RETAINED);
  }

  /** The bridge's client, connecting (or retrying) from now on, with its retained last will; `url` is the broker's without its password. */
  private open(): { client: MqttClient; url: string } {
    const { options, topics } = this;
    const url = redactUrl(options.mqtt.url);
    const policy = this.reconnect;
    const will = { topic: topics.bridgeState, payload: 'offline' };
    const session = this.session && options.lease && { store: this.session, clientId: options.lease.folder.clientId };
    const client = createClient({ mqtt: options.mqtt, will, reconnectPeriodMs: policy.firstMs, protocolVersion: options.protocolVersion, session });
    this.session?.attach(client);
    watchTakeovers(client, () => void this.takenOver(client));
    watchConnection(client, {
      url,
      from: options.brokerFrom,
      policy,
      log: options.log,
      stopped: () => this.stopped,
      // Connected (again, after an outage or a broker's restart: the first connect start() awaits);
      // `sessionKept`: the broker kept the session, so mqtt.js subscribes to nothing again.
      onConnect: (sessionKept) => {
        // The kept session's subscriptions stand, but a retained command left meanwhile comes only with a
        // subscription made now (and is refused, inbox.ts): the bridge subscribes again, as mqtt.js does not.
        if (sessionKept && this.ready) {
          this.subscribe(client, true).catch((err: unknown) => this.log.warn({ err: errorText(err) }, 'cannot subscribe again after reconnecting'));
        }
        // A lease that lapsed meanwhile is claimed again first (lease/claim.ts): only then does anything go.
        void Promise.resolve(this.claim?.renew()).then(() => this.ready && this.resendAll('reconnected to the MQTT broker'));
      },
    });
    // The connection closed: whoever waits for the broker's answers hears it at once (mqtt.js keeps the
    // messages handed to it while the broker is away).
    client.on('close', () => this.deliveries.away());
    client.on('message', (topic, payload, packet) => {
      if (topic === topics.haStatus) this.heardStatus(payload, packet);
      else if (this.toldHere(topic) !== undefined) this.heardTold(topic, payload);
      else if (!this.claim?.heard(topic, payload)) this.inbox.handle(topic, payload, packet);
    });
    return { client, url };
  }

  /**
   * Subscribes to Home Assistant's status, the children's commands and the bridge's requests. Retain as
   * published (MQTT 5; mqtt.js leaves it out under 3.1.1): a command published retained keeps its flag
   * when delivered live, so the inbox can refuse it. Not for Home Assistant's status, whose birth counts
   * when it is live, whether or not Home Assistant retains it.
   */
  private async subscribe(client: MqttClient, again = false): Promise<void> {
    const { topics } = this;
    const filters: ISubscriptionMap = {
      [topics.haStatus]: { qos: 0 },
      [topics.commandSetFilter]: { qos: 0, rap: true },
      [topics.bridgeRequestFilter]: { qos: 0, rap: true },
      // Every child's event memory and Home Assistant's entries: another's written over, one this bridge has none of emptied (heardTold).
      [topics.eventMemory('+')]: { qos: 0, nl: true },
      [topics.homeAssistant]: { qos: 0, nl: true },
    };
    // Again (a kept session's subscriptions stand): mqtt.js sends a SUBSCRIBE only when told it is meant.
    if (again) filters.resubscribe = true;
    const granted = await client.subscribeAsync(filters);
    // A grant of 128 or more is the broker's refusal (its ACL): the buttons of that topic would do nothing.
    for (const grant of granted) if (grant.qos >= 0x80) this.refused(grant.topic, grant.qos);
  }

  /** The broker refused a topic: logged, and the bridge's `problem` says so (onRefused). */
  private refused(topic: string, code: number): void {
    this.log.warn({ topic, code }, 'the MQTT broker refused this topic (its ACL?)');
    this.options.onRefused?.(topic);
  }

  /**
   * Home Assistant's birth: a live "online" on its status topic means it started again and lost what it
   * was told, so everything retained is sent again after a short delay (a second birth restarts it). A
   * retained "online" is an old birth; anything longer than a status is not decoded at all (any client
   * of the broker may publish here).
   */
  private heardStatus(payload: Buffer, packet: IPublishPacket): void {
    if (packet.retain || payload.length > MAX_STATUS_BYTES || payload.toString('utf8').trim() !== 'online') return;
    this.birthTimer?.cancel();
    this.birthTimer = this.clock.setTimer(() => {
      this.birthTimer = undefined;
      this.resendAll('Home Assistant started');
    }, this.options.birthDelayMs ?? 2_000);
  }

  private resendAll(why: string): void {
    this.log.info(`${why}, republishing`);
    this.mirror.resend();
    this.sync();
  }
}
