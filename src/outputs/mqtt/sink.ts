// The MQTT sink: what the bus carries, on the broker, as four parts it composes and the routers of commands.
// The connection (connection.ts) holds the base topic under the lease, first waiting for it on a connection
// without a will, then one mqtt.js client with a retained last will. The retained states (states.ts): discovery
// for the bridge and every child, states sent only on change and all again after a reconnect or Home
// Assistant's birth message. The carrier (carrier.ts): events at QoS 2 through the session kept in data_dir,
// each answered once the broker acknowledged it, and whether everything handed so far was accepted. The told
// records (told.ts): each child's event memory, and what was made and deleted in Home Assistant, told on for a
// successor, and a predecessor's read (the handover). What the client hears goes to the part it is for:
// Home Assistant's status, a told record, the claim, else a command or request (inbox.ts).
// Calendar feeds are web-only: it takes none.
import type { IPublishPacket } from 'mqtt';
import type { DiscoveryContext } from './discovery.js';
import type { ChildDevice } from '../../features/kit/entities.js';
import type { EntityState } from '../../engine/state.js';
import type { BusEvent, Carrier, Sink } from '../../bus/bus.js';
import type { Handover } from '../../once/handover.js';
import type { SeenStore } from '../../once/memory.js';
import { Topics } from './topics.js';
import { systemClock, type Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { waitForConnect } from './client.js';
import { describeHolder } from '../../lease/lease.js';
import { CommandRouter, RequestRouter, type CommandOptions, type RequestHandler } from './commands.js';
import type { CommandHandler } from '../../features/kit/commands.js';
import { clearMovedBase, readRetainedDevices } from './retained.js';
import { Inbox } from './inbox.js';
import { Deliveries } from './delivery.js';
import { BrokerConnection, RETAINED, type ConnectionOptions } from './connection.js';
import { RetainedStates, type BridgeHealth, type Release } from './states.js';
import { EventCarrier } from './carrier.js';
import { ToldRecords } from './told.js';
import type { Language } from '../../config/language.js';

/** How long start() reads retained device configs by default (MQTT has no "end of retained" marker). */
export const STALE_SCAN_MS = 1_000;

export interface MqttSinkOptions extends ConnectionOptions {
  version: string;
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
  /** Whether the bridge's device has its update entity (discovery.ts); false in the app (the Supervisor's update). */
  update?: boolean;
  /** The language of entity names in discovery: the config's `language` (English when not given). */
  language?: Language;
  clock?: Clock;
  /** How long start() reads retained device configs before deciding what is stale (default 1 s). */
  staleScanMs?: number;
  /** Delay between Home Assistant's birth message and the republish (default 2 s). */
  birthDelayMs?: number;
}

export class MqttSink implements Sink, Carrier, Handover {
  private readonly topics: Topics;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly connection: BrokerConnection;
  private readonly states: RetainedStates;
  private readonly carrier: EventCarrier;
  private readonly toldRecords: ToldRecords;
  private readonly router: CommandRouter;
  private readonly requests: RequestRouter;
  private readonly inbox: Inbox;
  /** What the broker has to answer yet, and who waits for it. */
  private readonly deliveries: Deliveries;

  constructor(private readonly options: MqttSinkOptions) {
    const topics = new Topics(options.mqtt.base_topic, options.mqtt.discovery_prefix);
    const ctx: DiscoveryContext = {
      baseTopic: options.mqtt.base_topic,
      discoveryPrefix: options.mqtt.discovery_prefix,
      version: options.version,
      supportUrl: options.supportUrl,
      language: options.language,
      update: options.update,
    };
    const { log } = options;
    const clock = options.clock ?? systemClock;
    this.topics = topics;
    this.clock = clock;
    this.log = log;
    this.connection = new BrokerConnection(options, {
      topics,
      clock,
      heard: (topic, payload, packet) => this.heard(topic, payload, packet),
      reconnected: () => this.states.resendAll('reconnected to the MQTT broker'),
      closed: () => this.deliveries.away(),
      lastWords: () => this.states.lastWords(),
      send: (topic, payload, publishing, answered) => this.deliveries.send(topic, payload, publishing, answered),
    });
    const { connection } = this;
    const client = () => connection.client;
    this.deliveries = new Deliveries(client, log, (topic, code) => connection.refused(topic, code));
    this.states = new RetainedStates({
      topics,
      ctx,
      log,
      clock,
      version: options.version,
      info: options.info,
      health: options.health,
      children: () => options.children ?? [],
      birthDelayMs: options.birthDelayMs,
      live: () => connection.live,
      publish: (topic, payload) => void this.deliveries.publish(topic, payload, RETAINED),
    });
    const sync = () => this.states.sync();
    this.carrier = new EventCarrier({ topics, log, clock, deliveries: this.deliveries, connection, sync });
    const { mirror, devices } = this.states;
    this.toldRecords = new ToldRecords({
      topics,
      log,
      mirror,
      sync,
      hasChild: (child) => devices.isKnown(child),
      record: () => options.lease?.folder.record,
    });
    this.router = new CommandRouter({ log, commandsOf: (child) => devices.commandsOf(child) });
    this.requests = new RequestRouter({ log });
    const { router, requests } = this;
    const publish = this.deliveries.send.bind(this.deliveries);
    this.inbox = new Inbox({ topics, router, requests, log, publish, stopped: () => connection.stopped });
  }

  get connected(): boolean {
    return this.connection.connected;
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
    const { lease } = this.options;
    if (!lease || this.connection.claim) return;
    const session = await this.carrier.open(lease.folder.dataDir);
    const told = this.toldRecords;
    const from = await this.connection.waitForBaseTopic(told.filters, (topic, payload) => told.heardWaiting(topic, payload));
    told.settle(from);
    if (from) await session.forget();
  }

  async start(): Promise<void> {
    if (this.connection.client) throw new Error('bridge already started');
    await this.acquire();
    const { connection, topics, clock, log } = this;
    const session = this.carrier.session;
    const { client, url } = connection.open(session);
    const scanMs = this.options.staleScanMs ?? STALE_SCAN_MS;
    try {
      // However long the broker takes to appear (the add-on may start before Mosquitto): the pass runners
      // start only after this, so the portal is not asked for anything the bridge could not publish.
      await waitForConnect(client, url);
      const other = await connection.claim?.take(client);
      if (other) throw new Error(`another dziennik2mqtt (${describeHolder(other)}) took base topic ${topics.base} at the same moment`);
      const devices = await readRetainedDevices(client, topics, scanMs, clock);
      // Only the base topic's holder clears what a former base topic left.
      if (session) await clearMovedBase(client, session, topics, scanMs, clock, log);
      this.states.devices.removeStale(devices);
      await connection.subscribe(client);
      log.info({ url, base_topic: topics.base }, 'connected to the MQTT broker');
    } catch (err) {
      // A clean end: its last will would say `offline` for the bridge that holds the base topic.
      await client.endAsync().catch(() => undefined);
      connection.client = undefined;
      throw err;
    }
    this.states.online();
    connection.ready = true;
    this.deliveries.resent();
    this.states.sync();
    this.deliveries.started();
  }

  async stop(): Promise<void> {
    const client = this.connection.halt();
    if (!client) return;
    this.states.stop();
    this.deliveries.away(true);
    await this.connection.close(client, this.carrier.session);
  }

  /** What the client heard, to the part it is for. */
  private heard(topic: string, payload: Buffer, packet: IPublishPacket): void {
    if (topic === this.topics.haStatus) this.states.heardStatus(payload, packet);
    else if (!this.toldRecords.heard(topic, payload) && !this.connection.claim?.heard(topic, payload)) this.inbox.handle(topic, payload, packet);
  }

  /** Declares a child's device and entities; published when its discovery changed. */
  device(child: ChildDevice): void {
    this.states.device(child);
  }

  /** Removes a child's device from Home Assistant and empties its retained topics (its id changed). */
  removed(childId: string): void {
    this.states.removed(childId);
  }

  availability(childId: string, online: boolean): void {
    this.states.availability(childId, online);
  }

  /** Retained, sent only when the state or the attributes changed; attributes left out stay as they were. */
  state(childId: string, key: string, state: EntityState): void {
    this.states.state(childId, key, state);
  }

  /** A child's pass ended: bridge/info and bridge/health again, each only if it changed. */
  passed(): void {
    this.states.passed();
  }

  /** Sends bridge/info again if info() now says something else. */
  publishInfo(): void {
    this.states.publishInfo();
  }

  /** The bridge's own `problem` (retained, sent when it changed). */
  setProblem(problem: EntityState): void {
    this.states.setProblem(problem);
  }

  /** The newest release the project's feed names: bridge/update, which the update entity reads (retained, sent when it changed). */
  setRelease(release: Release): void {
    this.states.setRelease(release);
  }

  /** A bridge event (`<base>/bridge/event/<kind>`, QoS 2, not retained): a press answered, once; an error when not taken. */
  bridgeEvent(kind: string, payload: Record<string, unknown>): Promise<Error | undefined> {
    return this.deliveries.publish(this.topics.bridgeEvent(kind), JSON.stringify({ event_type: kind, ...payload }), { qos: 2, retain: false });
  }

  /** An event at QoS 2: true once the broker acknowledged it (carrier.ts). */
  carry(childId: string, event: BusEvent): Promise<boolean> {
    return this.carrier.carry(childId, event);
  }

  /** True once the broker accepted every state and event handed to it so far (carrier.ts). */
  delivered(): Promise<boolean> {
    return this.carrier.delivered();
  }

  /** A child's event memory as the kept session holds it; none without a lease. */
  memory(childId: string): SeenStore | undefined {
    return this.carrier.memory(childId);
  }

  /** A child's event memory as saved, told on for a successor (told.ts). */
  tell(childId: string, memory: unknown): void {
    this.toldRecords.tell(childId, memory);
  }

  /** What another installation that held the base topic told of a child's event memory, if anything. */
  told(childId: string): unknown {
    return this.toldRecords.told(childId);
  }

  /** What the bridge made in Home Assistant and the family deleted there, told on for a successor; undefined: none. */
  tellHomeAssistant(told: unknown): void {
    this.toldRecords.tellHomeAssistant(told);
  }

  /** After a handover from another installation: what it told of its entries in Home Assistant. */
  homeAssistantTold(): { told: unknown } | undefined {
    return this.toldRecords.homeAssistantTold();
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
}
