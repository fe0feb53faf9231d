// The MQTT side of the bridge: one mqtt.js client with a retained last will; discovery for the bridge and
// every child; retained states sent only on change and all again after a reconnect or Home Assistant's
// birth message; events through mqtt.js's offline queue; commands through the router.
import type { IClientPublishOptions, IPublishPacket, MqttClient } from 'mqtt';
import type { MqttConfig } from '../config/schema.js';
import { bridgeDiscovery, childDiscovery, type ChildDevice, type DiscoveryContext } from '../ha/discovery.js';
import type { EntityDef } from '../ha/entities.js';
import type { Language } from '../i18n/language.js';
import type { EntityState, EventPayload } from '../ha/state.js';
import { BRIDGE_DEVICE, Topics } from '../ha/topics.js';
import { systemClock, type Clock, type Timer } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { createClient, DEFAULT_RECONNECT, redactUrl, waitForConnect, watchConnection, within, type ReconnectPolicy } from './client.js';
import { CommandRouter, type CommandHandler } from './commands.js';
import { RequestRouter, type RequestHandler } from './requests.js';
import { RetainedMirror } from './mirror.js';
import { readRetainedDevices, type RetainedDevice } from './retained.js';

export type { ChildDevice } from '../ha/discovery.js';

export interface BridgeOptions {
  mqtt: MqttConfig;
  version: string;
  log: Logger;
  /** The bridge/info payload (no secrets); `version` is added when missing. */
  info: () => Record<string, unknown>;
  /**
   * Ids of the configured children. start() removes the retained devices of children that are neither
   * listed here nor given to setChild() before start(), so list them when names come later.
   */
  children?: readonly string[];
  supportUrl?: string;
  /** The language of entity names in discovery: the config's `language` (English when not given). */
  language?: Language;
  clock?: Clock;
  /** How long start() reads retained device configs before deciding what is stale (default 1 s). */
  staleScanMs?: number;
  /** Delay between Home Assistant's birth message and the republish (default 2 s). */
  birthDelayMs?: number;
  /** Delay before the first reconnect attempt, doubling per failed attempt (default 5 s). */
  reconnectPeriodMs?: number;
  /** The longest delay between reconnect attempts (default 60 s). */
  reconnectMaxMs?: number;
}

/** Home Assistant reads attributes only up to this size. */
const MAX_ATTRIBUTES_BYTES = 16 * 1024;
const RETAINED: IClientPublishOptions = { qos: 1, retain: true };
const TRANSIENT: IClientPublishOptions = { qos: 1, retain: false };
const STOP_TIMEOUT_MS = 5_000;

interface ChildEntry {
  device: ChildDevice;
  /** Entities dropped while running, kept in discovery reduced to their platform so HA removes them. */
  removed: Map<string, EntityDef>;
}

export class Bridge {
  private readonly topics: Topics;
  private readonly ctx: DiscoveryContext;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly router: CommandRouter;
  private readonly requests: RequestRouter;
  private readonly mirror = new RetainedMirror();
  private readonly children = new Map<string, ChildEntry>();
  /** Retained configs of known children found at start, reconciled when setChild() brings the child. */
  private readonly previous = new Map<string, RetainedDevice>();
  private readonly earlyEvents: Array<{ topic: string; payload: string }> = [];
  private client: MqttClient | undefined;
  private ready = false;
  private stopped = false;
  private birthTimer: Timer | undefined;

  constructor(private readonly options: BridgeOptions) {
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
    this.router = new CommandRouter({ log: options.log, commandsOf: (child) => this.commandsOf(child) });
    this.requests = new RequestRouter({ log: options.log });
  }

  get connected(): boolean {
    return this.client?.connected === true;
  }

  async start(): Promise<void> {
    if (this.client) throw new Error('bridge already started');
    const url = redactUrl(this.options.mqtt.url);
    const policy: ReconnectPolicy = {
      firstMs: this.options.reconnectPeriodMs ?? DEFAULT_RECONNECT.firstMs,
      maxMs: this.options.reconnectMaxMs ?? DEFAULT_RECONNECT.maxMs,
    };
    const client = createClient({
      mqtt: this.options.mqtt,
      will: { topic: this.topics.bridgeState, payload: 'offline' },
      reconnectPeriodMs: policy.firstMs,
    });
    this.client = client;
    watchConnection(client, {
      url,
      policy,
      log: this.log,
      stopped: () => this.stopped,
      // The first connect is handled by start(); later ones follow a broker outage or restart.
      onConnect: () => {
        if (this.ready) this.resendAll('reconnected to the MQTT broker');
      },
    });
    client.on('message', (topic, payload, packet) => this.onMessage(topic, payload, packet));

    try {
      // However long the broker takes to appear (the add-on may start before Mosquitto): the pollers
      // start only after this, so the portal is not asked for anything the bridge could not publish.
      await waitForConnect(client, url);
      await this.removeStale(client);
      await client.subscribeAsync({
        [this.topics.haStatus]: { qos: 0 },
        [this.topics.commandSetFilter]: { qos: 0 },
        [this.topics.bridgeRequestFilter]: { qos: 0 },
      });
    } catch (err) {
      client.end(true);
      this.client = undefined;
      throw err;
    }
    this.mirror.set(this.topics.bridgeState, 'online');
    const bridge = bridgeDiscovery(this.ctx);
    this.mirror.set(bridge.topic, JSON.stringify(bridge.payload));
    this.setInfo();
    this.ready = true;
    this.log.info({ url, base_topic: this.topics.base }, 'connected to the MQTT broker');
    this.sync();
    for (const event of this.earlyEvents.splice(0)) this.sendEvent(event.topic, event.payload);
  }

  async stop(): Promise<void> {
    const client = this.client;
    if (!client || this.stopped) return;
    this.stopped = true;
    this.ready = false;
    this.birthTimer?.cancel();
    const attempt = (what: string, work: Promise<unknown>): Promise<void> =>
      within(work, STOP_TIMEOUT_MS, this.clock, what).catch((err: unknown) => this.log.warn({ err }, `stop: ${what} failed`));
    if (client.connected) {
      // A clean DISCONNECT suppresses the last will, so offline is published by hand and awaited.
      await attempt('publishing offline', client.publishAsync(this.topics.bridgeState, 'offline', RETAINED));
      await attempt('disconnecting', client.endAsync());
    } else {
      await attempt('disconnecting', client.endAsync(true));
    }
  }

  /** Declares a child's device and entities; published when its discovery changed. */
  setChild(child: ChildDevice): void {
    if (child.id === BRIDGE_DEVICE) throw new Error(`"${BRIDGE_DEVICE}" cannot be a child id: it is the bridge's own topic`);
    let entry = this.children.get(child.id);
    const dropped: EntityDef[] = [];
    if (entry) {
      const keys = new Set(child.entities.map((e) => e.key));
      dropped.push(...entry.device.entities.filter((e) => !keys.has(e.key)));
      entry.device = child;
    } else {
      entry = { device: child, removed: new Map() };
      this.children.set(child.id, entry);
    }
    for (const entity of dropped) entry.removed.set(entity.key, entity);
    for (const entity of child.entities) entry.removed.delete(entity.key);
    const clears = [...dropped.flatMap((e) => this.entityTopics(child.id, e)), ...this.reconcile(entry)];
    // The reduced config goes out before the states are emptied, so HA drops the entity first.
    this.setDiscovery(entry);
    for (const topic of clears) this.mirror.clear(topic);
    this.sync();
  }

  /** Removes a child's device from Home Assistant and empties its retained topics (its id changed). */
  removeChild(childId: string): void {
    const retained = this.previous.get(childId);
    this.children.delete(childId);
    this.previous.delete(childId);
    this.mirror.clear(this.topics.deviceConfig(childId));
    this.mirror.clearUnder(`${this.topics.base}/${childId}/`);
    this.mirror.clear(this.topics.availability(childId));
    for (const component of retained?.components.values() ?? []) for (const t of component.retainedTopics) this.mirror.clear(t);
    this.sync();
  }

  setAvailability(childId: string, online: boolean): void {
    this.mirror.set(this.topics.availability(childId), online ? 'online' : 'offline');
    this.sync();
  }

  /** Retained, sent only when the state or the attributes changed; attributes left out stay as they were. */
  publishState(childId: string, key: string, state: EntityState): void {
    const entry = this.children.get(childId);
    if (entry && !entry.device.entities.some((e) => e.key === key)) {
      this.log.debug({ child: childId, entity: key }, 'state for an entity the child does not have, ignored');
      return;
    }
    if (state.attributes !== undefined) {
      const json = JSON.stringify(state.attributes);
      const bytes = Buffer.byteLength(json);
      if (bytes > MAX_ATTRIBUTES_BYTES) this.log.warn({ child: childId, entity: key, bytes }, 'attributes over 16 KB');
      // Attributes first: an automation triggered by the state change reads the new attributes.
      this.mirror.set(this.topics.attributes(childId, key), json);
    }
    this.mirror.set(this.topics.state(childId, key), state.state ?? 'None');
    this.sync();
  }

  /** QoS 1, not retained; while the broker is away mqtt.js keeps it and sends it once on reconnect. */
  publishEvent(childId: string, kind: string, payload: EventPayload): void {
    const topic = this.topics.event(childId, kind);
    const json = JSON.stringify(payload);
    if (this.stopped) this.log.warn({ child: childId, kind }, 'event after stop, dropped');
    else if (!this.ready) this.earlyEvents.push({ topic, payload: json });
    else this.sendEvent(topic, json);
  }

  /** One handler for every command a child's buttons send (those without a handler of their own). */
  onCommand(handler: CommandHandler): void;
  /** The handler of one command, for every known child. */
  onCommand(command: string, handler: CommandHandler): void;
  onCommand(first: CommandHandler | string, handler?: CommandHandler): void {
    if (typeof first === 'function') this.router.registerFallback(first);
    else if (handler) this.router.register(first, handler);
    else throw new Error('onCommand(command, handler): handler missing');
  }

  /** The handler of one bridge request (`<base>/bridge/request/<name>`). */
  onRequest(name: string, handler: RequestHandler): void {
    this.requests.register(name, handler);
  }

  /** Sends bridge/info again if info() now says something else. */
  publishInfo(): void {
    this.setInfo();
    this.sync();
  }

  private setInfo(): void {
    this.mirror.set(this.topics.bridgeInfo, JSON.stringify({ version: this.options.version, ...this.options.info() }));
  }

  private setDiscovery(entry: ChildEntry): void {
    const message = childDiscovery(entry.device, this.ctx, [...entry.removed.values()]);
    this.mirror.set(message.topic, JSON.stringify(message.payload));
  }

  /** Sends what the broker lacks; while offline nothing, as everything goes again on reconnect. */
  private sync(): void {
    const client = this.client;
    if (!this.ready || !client?.connected) return;
    for (const { topic, payload } of this.mirror.take()) {
      client.publish(topic, payload, RETAINED, (err) => {
        if (err) this.log.debug({ err, topic }, 'publish failed (sent again after reconnecting)');
      });
    }
  }

  private resendAll(why: string): void {
    this.log.info(`${why}, republishing`);
    this.mirror.resend();
    this.sync();
  }

  private onMessage(topic: string, payload: Buffer, packet: IPublishPacket): void {
    if (topic === this.topics.haStatus) {
      // A retained "online" is an old birth, not Home Assistant starting now.
      if (!packet.retain && payload.toString('utf8').trim() === 'online') this.scheduleBirthRepublish();
      return;
    }
    // Before the command filter, which also matches `<base>/bridge/request/set`.
    const request = this.topics.parseBridgeRequest(topic);
    if (request !== undefined) {
      this.onRequestMessage(request, payload, packet);
      return;
    }
    const target = this.topics.parseCommandSet(topic);
    if (!target) return;
    if (packet.retain) {
      // Running a retained command on every connect would, for example, send a message again.
      this.log.warn({ topic }, 'ignoring a retained command');
      return;
    }
    void this.router
      .handle(target.child, target.command, payload)
      .then((result) => {
        this.log.info({ child: target.child, command: target.command, status: result.status, error: result.error }, 'command');
        if (this.stopped) return;
        const resultTopic = this.topics.commandResult(target.child, target.command);
        this.client?.publish(resultTopic, JSON.stringify(result), TRANSIENT, (err) => {
          if (err) this.log.warn({ err, topic: resultTopic }, 'command result not delivered');
        });
      })
      .catch((err: unknown) => this.log.error({ err }, 'publishing a command result failed'));
  }

  private onRequestMessage(name: string, payload: Buffer, packet: IPublishPacket): void {
    if (packet.retain) {
      // A retained request would be carried out again on every connect.
      this.log.warn({ request: name }, 'ignoring a retained bridge request');
      return;
    }
    void this.requests.handle(name, payload).then((response) => {
      this.log.info({ request: name, status: response.status, error: response.error }, 'bridge request');
      if (this.stopped) return;
      const topic = this.topics.bridgeResponse(name);
      this.client?.publish(topic, JSON.stringify(response), TRANSIENT, (err) => {
        if (err) this.log.warn({ err: err.message, topic }, 'bridge response not delivered');
      });
    });
  }

  private scheduleBirthRepublish(): void {
    this.birthTimer?.cancel();
    this.birthTimer = this.clock.setTimer(() => {
      this.birthTimer = undefined;
      this.resendAll('Home Assistant started');
    }, this.options.birthDelayMs ?? 2_000);
  }

  private sendEvent(topic: string, json: string): void {
    this.client?.publish(topic, json, TRANSIENT, (err) => {
      if (err) this.log.warn({ err, topic }, 'event not delivered');
    });
  }

  /** An entity's retained topics: state and attributes for sensors, none for buttons and events. */
  private entityTopics(child: string, entity: Pick<EntityDef, 'key' | 'platform'>): string[] {
    if (entity.platform !== 'sensor' && entity.platform !== 'binary_sensor') return [];
    return [this.topics.state(child, entity.key), this.topics.attributes(child, entity.key)];
  }

  /**
   * Components the retained config of an earlier run had and the child no longer has: kept as removed
   * components (HA deletes them) and their retained topics returned for clearing.
   */
  private reconcile(entry: ChildEntry): string[] {
    const retained = this.previous.get(entry.device.id);
    if (!retained) return [];
    this.previous.delete(entry.device.id);
    const keys = new Set(entry.device.entities.map((e) => e.key));
    const clears: string[] = [];
    for (const [key, component] of retained.components) {
      if (keys.has(key)) continue;
      entry.removed.set(key, { key, platform: component.platform, name: { en: key, pl: key } });
      clears.push(...component.retainedTopics);
    }
    return clears;
  }

  private isKnown(child: string): boolean {
    return this.children.has(child) || (this.options.children ?? []).includes(child);
  }

  private commandsOf(child: string): ReadonlySet<string> | undefined {
    const entry = this.children.get(child);
    if (entry) return new Set(entry.device.entities.flatMap((e) => (e.command ? [e.command.key] : [])));
    return this.isKnown(child) ? new Set() : undefined;
  }

  /**
   * Children no longer configured lose their device, retained states and availability; known ones are
   * reconciled against their current entities. Sent with the first sync.
   */
  private async removeStale(client: MqttClient): Promise<void> {
    const devices = await readRetainedDevices(client, this.topics, this.options.staleScanMs ?? 1_000, this.clock);
    for (const device of devices) {
      if (this.isKnown(device.child)) {
        this.previous.set(device.child, device);
        const entry = this.children.get(device.child);
        if (!entry) continue;
        const clears = this.reconcile(entry);
        this.setDiscovery(entry);
        for (const topic of clears) this.mirror.clear(topic);
        continue;
      }
      this.log.info({ child: device.child }, 'removing a child no longer configured');
      this.mirror.clear(this.topics.deviceConfig(device.child));
      for (const component of device.components.values()) for (const t of component.retainedTopics) this.mirror.clear(t);
      this.mirror.clear(this.topics.availability(device.child));
    }
  }
}
