// The bridge's MQTT session in data_dir (mqtt-session.json): the base topic and discovery prefix it last
// published under (retained.ts clears what an earlier one left) and the events on their way, so an event reaches
// the broker's subscribers once even when the bridge is killed around its publication (interface 14.4, 15.3).
// Events go at QoS 2 in a kept session (the installation's client id, an MQTT 5 expiry), this being mqtt.js's
// `outgoingStore`: an event's PUBLISH, then its PUBREL, is on disk before it goes; the next start resends it
// (DUP, the same packet id) and the broker's QoS 2 state drops a second copy. Delivered means acknowledged: at
// its PUBCOMP; a PUBREC of 0x80 or more is a refusal (its ACL), and the event goes back to its child's memory
// (once/memory.ts) for the next pass or start. Its id stays here (handed) until that memory without it is on disk
// (settle), so a kill between the two never fires it anew. The rest mqtt.js stores is kept in memory.
import { join } from 'node:path';
import { Readable } from 'node:stream';
import * as z from 'zod';
import type { IClientOptions, IStore, MqttClient, Packet } from 'mqtt';
import { writeJson } from '../util/files.js';
import { readStored } from '../util/stored.js';
import type { Logger } from '../util/log.js';
import { errorText } from '../util/text.js';

/** How long the broker keeps the session while the bridge is away (MQTT 5; 3.1.1's clean: false keeps it as the broker says). */
const SESSION_EXPIRY_S = 7 * 24 * 3600;

const packetSchema = z.object({ id: z.int().min(1).max(0xffff), event: z.string(), topic: z.string(), payload: z.string(), released: z.boolean() });
const fileSchema = z.object({
  base_topic: z.string().optional(),
  discovery_prefix: z.string().optional(),
  packets: z.array(packetSchema).default([]),
  handed: z.array(z.string()).default([]),
});
type StoredPacket = z.infer<typeof packetSchema>;

export class MqttSession implements IStore {
  /** Events' packets by packet id (on disk before they are sent); everything else mqtt.js stores, in memory. */
  private readonly events = new Map<number, StoredPacket>();
  private readonly others = new Map<number, Packet>();
  /** Events on their way or delivered: their ids until their child's memory without them is on disk. */
  private readonly handed: Set<string>;
  /** Events being published, by topic and payload, until mqtt.js stores their PUBLISH. */
  private coming: Array<{ key: string; event: string }> = [];
  /** Packet ids the broker refused (PUBREC >= 0x80) until mqtt.js removes them, and who waits for an event's answer. */
  private readonly refused = new Set<number>();
  private readonly waiting = new Map<string, Array<(delivered: boolean) => void>>();
  private nextId = 1 + Math.floor(Math.random() * 0xffff);
  private writing: Promise<unknown> = Promise.resolve();
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
    client.on('packetreceive', (p) => p.cmd === 'pubrec' && (p.reasonCode ?? 0) >= 0x80 && this.refused.add(p.messageId ?? 0));
  }

  /** A clean stop's DISCONNECT: in MQTT 5 it ends the broker's session when no event is on its way; the log says when some are. */
  parting(protocolVersion: number | undefined, log: Logger): { properties: { sessionExpiryInterval: number } } | undefined {
    if (this.events.size > 0)
      log.info({ events: this.events.size }, 'events sent and not yet acknowledged by the broker: kept, sent again at the next start');
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

  /** For an event handed to the session already (in an earlier run): true at its PUBCOMP (or at once, if it came), false at a refusal. */
  outcome(event: string): Promise<boolean> | undefined {
    if (!this.handed.has(event)) return undefined;
    if (![...this.events.values()].some((p) => p.event === event)) return Promise.resolve(true);
    return new Promise((resolve) => this.waiting.set(event, [...(this.waiting.get(event) ?? []), resolve]));
  }

  /** The base topic was another installation's since (a handover): what this session held is left to the one that told it since. */
  forget(): void {
    if (this.events.size === 0) return;
    this.events.clear();
    this.handed.clear();
    void this.persist().catch(() => undefined);
  }

  /** An event about to be published: its PUBLISH is stored with its id. Returns how to take it back when it never was. */
  expect(topic: string, payload: string, event: string): () => void {
    const entry = { key: `${topic}\0${payload}`, event };
    this.coming.push(entry);
    return () => void (this.coming = this.coming.filter((e) => e !== entry));
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
    const coming = packet.cmd === 'publish' && packet.qos === 2 ? this.coming.find((e) => e.key === `${packet.topic}\0${payload}`) : undefined;
    this.coming = this.coming.filter((e) => e !== coming);
    const event = coming?.event;
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
    cb(found ? undefined : new Error('missing packet'), found);
    return this;
  }

  /** What is sent again after a connect: the events' packets (a PUBLISH marked DUP), then the rest but the claim (stale by then, claim.ts). */
  createStream(): ReturnType<IStore['createStream']> {
    for (const [id, p] of this.others) if (p.cmd === 'publish' && p.topic.endsWith('/bridge/claim')) this.others.delete(id);
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
