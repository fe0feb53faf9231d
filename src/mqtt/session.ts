// The bridge's MQTT session, kept in data_dir (mqtt-session.json): the base topic and discovery prefix it
// last published under (start() clears what an earlier one left, retained.ts), and the events on their
// way to the broker. This is how an event reaches the broker's subscribers once even when the bridge is
// killed at any moment around its publication (interface 14.4, 15.3):
// - Events go at QoS 2 with a kept session (the installation's client id, store/lease.ts; clean: false, an
//   MQTT 5 session expiry), and this is mqtt.js's `outgoingStore`: an event's PUBLISH, then its PUBREL, is
//   on disk before it goes on the wire, by packet id. After a kill the next start resends what it holds,
//   PUBLISH with DUP and the same packet id, and the broker's QoS 2 state for that id drops a second copy
//   (Mosquitto delivers at PUBREL: a PUBREL is resent only once it is stored, never a PUBLISH after it;
//   aedes delivers at PUBLISH and knows the id from its session). A broker that lost the session
//   (restarted without persistence) takes a resent PUBLISH as new (aedes: passed on once more) and a
//   resent PUBREL for a message it no longer has as done (Mosquitto: never passed on), as MQTT has it.
// - Delivered means acknowledged: an event is delivered at its PUBCOMP. A PUBREC with a reason code of
//   0x80 or more is the broker's refusal (its ACL): the event goes back to its child's event memory
//   (store/seen.ts), which sends it again at the next pass or start.
// - An event leaves its child's memory once delivered, by its id; the id stays here (handed) until the
//   memory without it is on disk (settle), so a kill between the two never fires it anew.
// Retained states and everything else mqtt.js stores are kept in memory only: they are sent again after
// every connect anyway (the claim never: a claim from before a lapse is stale, claim.ts).
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { IClientOptions, IStore, MqttClient, Packet } from 'mqtt';
import { writeJson } from '../store/files.js';
import { readStored } from '../store/stored.js';
import type { Logger } from '../util/log.js';
import { errorText } from '../util/text.js';

/** How long the broker keeps the session while the bridge is away (MQTT 5; 3.1.1's clean: false keeps it as the broker says). */
const SESSION_EXPIRY_S = 7 * 24 * 3600;

const packetSchema = z.object({
  id: z.number().int().min(1).max(0xffff),
  event: z.string(),
  topic: z.string(),
  payload: z.string(),
  released: z.boolean(),
});
const fileSchema = z.object({
  base_topic: z.string().optional(),
  discovery_prefix: z.string().optional(),
  packets: z.array(packetSchema).default([]),
  handed: z.array(z.string()).default([]),
});
type StoredPacket = z.infer<typeof packetSchema>;

export class MqttSession implements IStore {
  /** Events' packets by packet id: on disk before they are sent. */
  private readonly events = new Map<number, StoredPacket>();
  /** Everything else mqtt.js stores (retained states at QoS 1), in memory. */
  private readonly others = new Map<number, Packet>();
  /** Events on their way or delivered: their ids until their child's memory without them is on disk. */
  private readonly handed: Set<string>;
  /** Events being published, by topic and payload, until mqtt.js stores their PUBLISH. */
  private readonly coming = new Map<string, string[]>();
  /** Packet ids the broker refused (PUBREC >= 0x80), until mqtt.js removes them; and who waits for an event's answer. */
  private readonly refused = new Set<number>();
  private readonly waiting = new Map<string, Array<(delivered: boolean) => void>>();
  private nextId = 1 + Math.floor(Math.random() * 0xffff);
  private writing: Promise<unknown> = Promise.resolve();
  /** The client this is the store of (attach). */
  private client: MqttClient | undefined;
  private pending: Promise<void> | undefined;

  private constructor(
    private readonly path: string,
    private file: z.infer<typeof fileSchema>,
  ) {
    for (const packet of file.packets) this.events.set(packet.id, packet);
    this.handed = new Set(file.handed);
  }

  /** The session of a data_dir: read, or a new one when there is none or it is broken. */
  static async open(dataDir: string, log: Logger): Promise<MqttSession> {
    const path = join(dataDir, 'mqtt-session.json');
    const file = await readStored(path, fileSchema, {
      onBroken: (error) => log.warn({ err: error.message }, 'the MQTT session unreadable; a new one starts (events it held may be sent again)'),
    });
    const session = new MqttSession(path, file ?? { packets: [], handed: [] });
    if (!file) await session.persist().catch((error: unknown) => log.warn({ err: errorText(error) }, 'cannot write the MQTT session in data_dir'));
    if (session.events.size > 0) log.info({ events: session.events.size }, 'events on their way to the broker at the last stop: sent again (once)');
    return session;
  }

  /** The client's options with the kept session: the installation's client id, clean: false, this store, its expiry (MQTT 5). */
  kept(options: IClientOptions, clientId: string): IClientOptions {
    const properties = options.properties && { ...options.properties, sessionExpiryInterval: SESSION_EXPIRY_S };
    return { ...options, clientId, clean: false, outgoingStore: this, messageIdProvider: this, ...(properties ? { properties } : {}) };
  }

  /** The client that uses this store: told of an event it could not store, and heard for the broker's refusals. */
  attach(client: MqttClient): void {
    this.client = client;
    client.on('packetreceive', (packet) => {
      if (packet.cmd === 'pubrec' && (packet.reasonCode ?? 0) >= 0x80 && this.events.has(packet.messageId ?? 0)) this.refused.add(packet.messageId ?? 0);
    });
  }

  /** Events sent and not acknowledged yet (a stop's log says so: they go again at the next start). */
  get unacknowledged(): number {
    return this.events.size;
  }

  /** A clean stop's DISCONNECT: in MQTT 5 it ends the broker's session when no event is on its way, so a stopped bridge leaves none behind. */
  parting(protocolVersion: number | undefined): { properties: { sessionExpiryInterval: number } } | undefined {
    return protocolVersion === 5 && this.events.size === 0 ? { properties: { sessionExpiryInterval: 0 } } : undefined;
  }

  /** The base topic and discovery prefix the bridge last published under (none before the first start). */
  get published(): { base: string; prefix: string } | undefined {
    const { base_topic: base, discovery_prefix: prefix } = this.file;
    return base === undefined || prefix === undefined ? undefined : { base, prefix };
  }

  /** Remembers the base topic and prefix published under from now on. */
  publishesUnder(base: string, prefix: string): Promise<void> {
    this.file = { ...this.file, base_topic: base, discovery_prefix: prefix };
    return this.persist();
  }

  /** True for an event handed to the session already (in an earlier run): its answer is the session's (outcome). */
  holds(event: string): boolean {
    return this.handed.has(event);
  }

  /** Whether the broker acknowledged a held event: true at its PUBCOMP (or before, if it came already), false at a refusal. */
  outcome(event: string): Promise<boolean> {
    if (![...this.events.values()].some((p) => p.event === event)) return Promise.resolve(true);
    return new Promise((resolve) => this.waiting.set(event, [...(this.waiting.get(event) ?? []), resolve]));
  }

  /** The base topic was another installation's since (a handover): what this session held is left to the one that told it since. */
  forget(): void {
    this.events.clear();
    this.handed.clear();
    void this.persist().catch(() => undefined);
  }

  /** An event about to be published: its PUBLISH is stored with its id. Returns how to take it back when it never was. */
  expect(topic: string, payload: string, event: string): () => void {
    const key = `${topic}\0${payload}`;
    this.coming.set(key, [...(this.coming.get(key) ?? []), event]);
    return () => {
      const rest = (this.coming.get(key) ?? []).filter((e) => e !== event);
      if (rest.length > 0) this.coming.set(key, rest);
      else this.coming.delete(key);
    };
  }

  /** The events' memory without these is on disk: they are forgotten here. */
  settle(events: readonly string[]): void {
    if (events.filter((e) => this.handed.delete(e)).length > 0) void this.persist().catch(() => undefined);
  }

  // --- IStore (mqtt.js) ---

  put(packet: Packet, cb: (error?: Error) => void): this {
    const id = packet.messageId ?? 0;
    const before = this.events.get(id);
    const payload = packet.cmd === 'publish' ? packet.payload.toString() : '';
    const event = packet.cmd === 'publish' && packet.qos === 2 ? this.take(packet.topic, payload) : undefined;
    if (event !== undefined && packet.cmd === 'publish') {
      this.events.set(id, { id, event, topic: packet.topic, payload, released: false });
      this.handed.add(event);
    } else if (before && packet.cmd === 'pubrel') this.events.set(id, { ...before, released: true });
    else {
      this.others.set(id, packet);
      // In order behind the writes before it: packets leave in the order mqtt.js handed them.
      void this.writing.then(() => cb());
      return this;
    }
    this.persist().then(
      () => cb(),
      (error: unknown) => {
        // A PUBREL goes all the same (data_dir full or read-only: the event is not held up). A new event
        // is not sent: its publish hears no (mqtt.js alone would never answer it), and the event stays in
        // its child's memory for the next pass.
        if (event === undefined) return cb();
        this.events.delete(id);
        this.handed.delete(event);
        cb(error instanceof Error ? error : new Error(String(error)));
        queueMicrotask(() => this.client?.removeOutgoingMessage(id));
      },
    );
    return this;
  }

  /** mqtt.js is done with a packet: an event's PUBCOMP (delivered), or its refusal (back to its memory). */
  del(packet: Pick<Packet, 'messageId'>, cb: (error?: Error, packet?: Packet) => void): this {
    const id = packet.messageId ?? 0;
    const found = this.packet(id);
    const event = this.events.get(id)?.event;
    if (!found) cb(new Error('missing packet'));
    else if (!this.others.delete(id) && event !== undefined) {
      this.events.delete(id);
      const delivered = !this.refused.delete(id);
      if (!delivered) this.handed.delete(event);
      for (const answer of this.waiting.get(event) ?? []) answer(delivered);
      this.waiting.delete(event);
      void this.persist().then(() => cb(undefined, found), cb);
    } else cb(undefined, found);
    return this;
  }

  get(packet: Pick<Packet, 'messageId'>, cb: (error?: Error, packet?: Packet) => void): this {
    const found = this.packet(packet.messageId ?? 0);
    if (found) cb(undefined, found);
    else cb(new Error('missing packet'));
    return this;
  }

  /** What is sent again after a connect: the events' packets (a PUBLISH marked DUP), then the rest but the claim. */
  createStream(): ReturnType<IStore['createStream']> {
    const claims = [...this.others].filter(([, p]) => p.cmd === 'publish' && p.topic.endsWith('/bridge/claim'));
    for (const [id] of claims) this.others.delete(id);
    const packets = [...[...this.events.keys()].flatMap((id) => this.packet(id) ?? []), ...this.others.values()];
    // node's Readable: what mqtt.js reads of it (read, 'readable', 'end', destroy) is the same as readable-stream's.
    return Readable.from(packets) as unknown as ReturnType<IStore['createStream']>;
  }

  close(cb: (error?: Error) => void): void {
    void this.writing.then(() => cb());
  }

  // --- IMessageIdProvider (mqtt.js): a new packet never takes the id of an event kept from an earlier run ---

  allocate(): number | null {
    for (let tries = 0; tries < 0xffff; tries++) {
      const id = this.nextId;
      this.nextId = (this.nextId % 0xffff) + 1;
      if (!this.events.has(id) && !this.others.has(id)) return id;
    }
    return null;
  }

  getLastAllocated(): number | null {
    return this.nextId === 1 ? 0xffff : this.nextId - 1;
  }

  register(): boolean {
    return true;
  }

  deallocate(): void {}

  clear(): void {}

  private take(topic: string, payload: string): string | undefined {
    const key = `${topic}\0${payload}`;
    const [first, ...rest] = this.coming.get(key) ?? [];
    if (rest.length > 0) this.coming.set(key, rest);
    else this.coming.delete(key);
    return first;
  }

  private packet(id: number): Packet | undefined {
    const event = this.events.get(id);
    if (!event) return this.others.get(id);
    if (event.released) return { cmd: 'pubrel', messageId: id };
    return { cmd: 'publish', topic: event.topic, payload: event.payload, qos: 2, retain: false, dup: true, messageId: id };
  }

  /** Writes the session; writes asked for while one runs are one write after it. */
  private persist(): Promise<void> {
    this.pending ??= this.writing.then(() => {
      this.pending = undefined;
      const file = { ...this.file, packets: [...this.events.values()], handed: [...this.handed] };
      return writeJson(this.path, file);
    });
    this.writing = this.pending.catch(() => undefined);
    return this.pending;
  }
}
