// Test clients for a real broker: a recorder of every message on some filters, a snapshot of retained
// messages, random topic roots so test files can share one broker, and a TCP proxy whose connections a
// test can cut to make a client die without a DISCONNECT (or that holds an event's PUBLISH back).
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { connectAsync, type IClientPublishOptions, type MqttClient } from 'mqtt';
import type { Deliveries } from '../../src/outputs/mqtt/delivery.js';
import { listenOnLoopback } from './ports.js';

export const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/**
 * A marker through the bridge's client goes at QoS 2, as its events do: Mosquitto passes a QoS 2 message
 * on at its PUBREL, a round trip later than a QoS 1 one handed after it, so only a QoS 2 marker comes
 * after the events handed before it.
 */
export const MARKER = { qos: 2 } as const;

/** A base topic and discovery prefix no other test uses. */
export function uniqueRoots(): { base: string; prefix: string } {
  const id = randomBytes(4).toString('hex');
  return { base: `d2m_${id}`, prefix: `ha_${id}` };
}

export interface Received {
  topic: string;
  text: string;
  retain: boolean;
}

export class Recorder {
  readonly messages: Received[] = [];
  /** The same messages by topic: a simulated day records thousands, and a test looks up one topic often. */
  private readonly byTopic = new Map<string, Received[]>();
  /** Where markers go: outside the recorded filters, so they never show among the messages. */
  readonly markerTopic = `d2m_marker/${randomBytes(4).toString('hex')}`;
  /** Who waits for each marker still on its way (its arrival wakes them at once, without checking again). */
  private readonly awaited = new Map<string, () => void>();
  private markerCount = 0;

  private constructor(readonly client: MqttClient) {}

  static async connect(filters: string[], url = MQTT_URL): Promise<Recorder> {
    const client = await connectAsync(url, { reconnectPeriod: 200 });
    const recorder = new Recorder(client);
    client.on('message', (topic, payload, packet) => {
      if (topic === recorder.markerTopic) recorder.awaited.get(payload.toString('utf8'))?.();
      else recorder.record({ topic, text: payload.toString('utf8'), retain: packet.retain });
    });
    await client.subscribeAsync([...filters, recorder.markerTopic], { qos: 1 });
    return recorder;
  }

  /**
   * Waits until everything another client has handed to mqtt.js so far has reached this recorder:
   * publish() sends a marker through that client after its earlier messages, and the broker keeps one
   * client's QoS 1 messages in order.
   */
  async caughtUpWith(publish: (topic: string, payload: string) => Promise<unknown>): Promise<void> {
    const marker = String(++this.markerCount);
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<void>((resolve, reject) => {
      this.awaited.set(marker, resolve);
      timer = setTimeout(() => reject(new Error('timed out waiting for the recorder to catch up with the bridge')), 5_000);
    });
    try {
      await publish(this.markerTopic, marker);
      await arrived;
    } finally {
      clearTimeout(timer);
      this.awaited.delete(marker);
    }
  }

  /**
   * Waits until every message the broker had already accepted for this recorder has arrived: a marker
   * through the recorder's own connection is queued behind them. Use it after the publisher is known to
   * be done (a clean stop awaits the broker's ack of its last message); for a live client in this
   * process, caughtUpWith() through that client orders the marker after its messages.
   */
  caughtUp(): Promise<void> {
    return this.caughtUpWith((topic, payload) => this.publish(topic, payload));
  }

  on(topic: string): Received[] {
    return [...(this.byTopic.get(topic) ?? [])];
  }

  texts(topic: string): string[] {
    return this.on(topic).map((m) => m.text);
  }

  last(topic: string): Received | undefined {
    return this.byTopic.get(topic)?.at(-1);
  }

  json(topic: string): unknown {
    const last = this.last(topic);
    return last === undefined ? undefined : JSON.parse(last.text);
  }

  /** Waits until check() holds, checking again and again; fails with the message after timeoutMs. */
  async until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
    await waitUntil(check, what, timeoutMs);
  }

  private record(message: Received): void {
    this.messages.push(message);
    const same = this.byTopic.get(message.topic);
    if (same) same.push(message);
    else this.byTopic.set(message.topic, [message]);
  }

  publish(topic: string, payload: string | Buffer, retain = false): Promise<unknown> {
    return this.client.publishAsync(topic, payload, { qos: 1, retain });
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
  }
}

export async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The retained messages under some filters right now (empty retained messages do not exist). The broker
 * queues them when it takes the subscription; a marker this client publishes afterwards is queued behind
 * them, so its arrival says all have come. `settleMs` is no longer used (kept for existing callers).
 */
export async function retained(filters: string[], url = MQTT_URL, _settleMs?: number): Promise<Map<string, string>> {
  const client = await connectAsync(url, { reconnectPeriod: 0 });
  const marker = `d2m_marker/${randomBytes(4).toString('hex')}`;
  const found = new Map<string, string>();
  let done = false;
  client.on('message', (topic, payload, packet) => {
    if (topic === marker) done = true;
    else if (packet.retain) found.set(topic, payload.toString('utf8'));
  });
  try {
    await client.subscribeAsync([...filters, marker], { qos: 1 });
    await client.publishAsync(marker, 'end', { qos: 1 });
    await waitUntil(() => done, `the retained messages under ${filters.join(', ')}`);
  } finally {
    await client.endAsync(true);
  }
  return found;
}

/** The mqtt.js client inside a Bridge (its connection's, a private member reached by a cast); it must be connected. */
function bridgeClient(bridge: object): MqttClient {
  const client = (bridge as { connection?: { client?: MqttClient } }).connection?.client;
  if (!client?.connected) throw new Error('the bridge is not connected to the broker');
  return client;
}

/**
 * The bridge's own way to the broker (its sink's deliveries, a private member reached by a cast): a publish there
 * waits its turn behind everything the bridge published before (it keeps within the broker's receive maximum).
 */
function bridgeDeliveries(bridge: object): Pick<Deliveries, 'publish'> {
  bridgeClient(bridge);
  return (bridge as { deliveries: Deliveries }).deliveries;
}

/** Publishes through the bridge's deliveries; rejects with the broker's refusal, if any. */
async function publishThrough(bridge: object, topic: string, payload: string, options: IClientPublishOptions): Promise<void> {
  const err = await bridgeDeliveries(bridge).publish(topic, payload, options);
  if (err) throw err;
}

/**
 * For Recorder.caughtUpWith: publishes the marker through a Bridge's own connection, so it reaches the
 * recorder after everything the bridge published before (see MARKER).
 */
export function throughBridge(bridge: object): (topic: string, payload: string) => Promise<unknown> {
  return (topic, payload) => publishThrough(bridge, topic, payload, MARKER);
}

/**
 * Resolves once the broker has taken everything the bridge published so far (retained topics updated):
 * the broker acknowledges a QoS 1 message only after the same client's earlier ones.
 */
export async function brokerHasAllFrom(bridge: object): Promise<void> {
  await publishThrough(bridge, `d2m_marker/${randomBytes(4).toString('hex')}`, '', { qos: 1 });
}

/**
 * Empties every retained message under the filters, so tests leave the shared broker clean. Every test's
 * bridge leaves about 180: sent at QoS 0 with no wait between them, and the broker's ack of one QoS 1
 * message after them says all are done (it takes one client's messages in order). With an ack awaited for
 * each, a test's clearing took 70-106 ms on this project's machine at a load of 7; so, 30-45 ms.
 */
export async function clearRetained(filters: string[], url = MQTT_URL): Promise<void> {
  const found = await retained(filters, url);
  if (found.size === 0) return;
  const client = await connectAsync(url, { reconnectPeriod: 0 });
  for (const topic of found.keys()) client.publish(topic, '', { qos: 0, retain: true });
  await client.publishAsync(`d2m_marker/${randomBytes(4).toString('hex')}`, '', { qos: 1 });
  await client.endAsync();
}

/** Publishes once from a short-lived client. */
export async function publishOnce(topic: string, payload: string | Buffer, retain = false, url = MQTT_URL): Promise<void> {
  const client = await connectAsync(url, { reconnectPeriod: 0 });
  await client.publishAsync(topic, payload, { qos: 1, retain });
  await client.endAsync();
}

/**
 * A TCP proxy to a broker. cut() destroys every connection through it, as a crash would; while paused it
 * drops new connections at once, so a test decides when a client behind it can reconnect. Given `holding`,
 * it keeps a QoS 2 PUBLISH from the broker (an event on its way, never answered: the moment to kill its sender).
 */
export class CuttableProxy {
  private readonly sockets = new Set<net.Socket>();
  private server: net.Server | undefined;
  paused = false;
  port = 0;
  /** The QoS 2 PUBLISHes held back so far (never passed to the broker): see `holding`. */
  held = 0;

  constructor(
    private readonly target: { host: string; port: number },
    /** A client's QoS 2 PUBLISH to a topic this says yes to is kept from the broker: the client waits for its PUBREC. */
    private readonly holding?: (topic: string) => boolean,
  ) {}

  static forUrl(url = MQTT_URL, holding?: (topic: string) => boolean): CuttableProxy {
    const parsed = new URL(url);
    return new CuttableProxy({ host: parsed.hostname, port: Number(parsed.port || 1883) }, holding);
  }

  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = net.createServer((downstream) => {
      if (this.paused) {
        downstream.destroy();
        return;
      }
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [downstream, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      upstream.pipe(downstream);
      const holding = this.holding;
      if (holding) {
        const packets = new PacketSplitter();
        downstream.on('data', (chunk: Buffer) => {
          for (const packet of packets.push(chunk)) {
            const topic = qos2Topic(packet);
            if (topic !== undefined && holding(topic)) this.held++;
            else upstream.write(packet);
          }
        });
      } else downstream.pipe(upstream);
      downstream.on('close', () => upstream.destroy());
      upstream.on('close', () => downstream.destroy());
    });
    this.server = server;
    this.port = await listenOnLoopback(server);
  }

  cut(): void {
    for (const s of this.sockets) s.destroy();
  }

  async stop(): Promise<void> {
    this.cut();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A byte stream cut into whole MQTT packets (a fixed header's type byte and remaining length, then the rest). */
class PacketSplitter {
  private pending = Buffer.alloc(0);

  push(chunk: Buffer): Buffer[] {
    this.pending = Buffer.concat([this.pending, chunk]);
    const packets: Buffer[] = [];
    for (;;) {
      const header = fixedHeader(this.pending);
      if (header === undefined || header.end > this.pending.length) return packets;
      packets.push(this.pending.subarray(0, header.end));
      this.pending = this.pending.subarray(header.end);
    }
  }
}

/** Where a packet's variable header begins and where the packet ends; undefined while its remaining length is incomplete. */
function fixedHeader(bytes: Buffer): { at: number; end: number } | undefined {
  let length = 0;
  for (let at = 1; at < bytes.length && at <= 4; at++) {
    const byte = bytes[at]!;
    length += (byte & 0x7f) << (7 * (at - 1));
    if ((byte & 0x80) === 0) return { at: at + 1, end: at + 1 + length };
  }
  return undefined;
}

/** The topic of a QoS 2 PUBLISH; undefined for any other packet. */
function qos2Topic(packet: Buffer): string | undefined {
  const first = packet[0]!;
  const header = fixedHeader(packet);
  if (first >> 4 !== 3 || ((first >> 1) & 3) !== 2 || header === undefined) return undefined;
  const { at } = header;
  return packet.subarray(at + 2, at + 2 + packet.readUInt16BE(at)).toString('utf8');
}
