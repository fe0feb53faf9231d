// The bridge's MQTT session (interface 14.4, 15.3): events go at QoS 2 in a session the broker keeps (the
// installation's client id, an MQTT 5 expiry), and this is mqtt.js's `outgoingStore`, served from the
// children's event memories (memory.ts states the invariant): an event's PUBLISH is written into its outbox
// entry (its packet id and topic) before it goes, its PUBREL likewise, and its PUBCOMP removes the entry in
// one write. After a kill the next start resends what the memories hold (DUP, the same packet id), so the
// broker's QoS 2 state drops a second copy: every memory holding an event on its way is read at open, before
// the first connection, so none is left out and no new packet takes its id. Delivered means acknowledged: a
// PUBREC of 0x80 or more (the broker's ACL) returns the entry to waiting, sent again at the next pass or
// start. The rest mqtt.js stores (retained states at QoS 1) is kept in memory. mqtt-session.json keeps what
// is not about events: the base topic and discovery prefix last published under (retained.ts clears what an
// earlier one left).
import { join } from 'node:path';
import { Readable } from 'node:stream';
import * as z from 'zod';
import type { IClientOptions, IStore, MqttClient, Packet } from 'mqtt';
import { writeJson } from '../util/files.js';
import { readStored } from '../util/stored.js';
import type { Logger } from '../util/log.js';
import { errorText } from '../util/text.js';
import { memoriesHolding, SeenStore } from './memory.js';
import type { EventPacket, OutboxEntry } from './outbox.js';

/** How long the broker keeps the session while the bridge is away (MQTT 5; 3.1.1's clean: false keeps it as the broker says). */
const SESSION_EXPIRY_S = 7 * 24 * 3600;

/** What the file holds: the base topic and discovery prefix last published under. */
const fileSchema = z.object({ base_topic: z.string().optional(), discovery_prefix: z.string().optional() });
type SessionFile = z.infer<typeof fileSchema>;
type OnItsWay = OutboxEntry & { packet: EventPacket };

export class MqttSession implements IStore {
  /** The children's event memories by file: those holding an event on its way at open, and each one an event gate took since. */
  private readonly memories = new Map<string, SeenStore>();
  /** Everything else mqtt.js stores (retained states at QoS 1), in memory. */
  private readonly others = new Map<number, Packet>();
  /** Events being published, by topic and payload, until mqtt.js stores their PUBLISH. */
  private coming: Array<{ key: string; event: string }> = [];
  /** Packet ids the broker refused (PUBREC >= 0x80) until mqtt.js removes them, and who waits for an event's answer. */
  private readonly refused = new Set<number>();
  private readonly waiting = new Map<string, Array<(delivered: boolean) => void>>();
  private nextId = 1 + Math.floor(Math.random() * 0xffff);
  /** The writes begun for packets, in order: a packet stored after them is answered after them. */
  private writing: Promise<unknown> = Promise.resolve();
  private client: MqttClient | undefined;

  private constructor(
    private readonly dataDir: string,
    private readonly path: string,
    private place: Pick<SessionFile, 'base_topic' | 'discovery_prefix'>,
  ) {}

  /** The session of a data_dir: read with the memories holding events on their way, or a new one when there is none or it is broken. */
  static async open(dataDir: string, log: Logger): Promise<MqttSession> {
    const path = join(dataDir, 'mqtt-session.json');
    const file = await readStored(path, fileSchema, {
      onBroken: (error) =>
        log.warn({ err: error.message }, 'the MQTT session unreadable; a new one starts (the base topic it last published under is forgotten)'),
    });
    const session = new MqttSession(dataDir, path, { base_topic: file?.base_topic, discovery_prefix: file?.discovery_prefix });
    for (const memory of await memoriesHolding(dataDir, (entry) => entry.packet !== undefined)) session.memories.set(memory.path, memory);
    if (!file) await session.persist().catch((error: unknown) => log.warn({ err: errorText(error) }, 'cannot write the MQTT session in data_dir'));
    const onTheirWay = session.onTheirWay().size + session.others.size;
    if (onTheirWay > 0) log.info({ events: onTheirWay }, 'events on their way to the broker at the last stop: sent again (once)');
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
    const onTheirWay = this.onTheirWay().size;
    if (onTheirWay > 0) log.info({ events: onTheirWay }, 'events sent and not yet acknowledged by the broker: kept, sent again at the next start');
    return protocolVersion === 5 && onTheirWay === 0 ? { properties: { sessionExpiryInterval: 0 } } : undefined;
  }

  /** The base topic and discovery prefix the bridge last published under (none before the first start). */
  get published(): { base: string; prefix: string } | undefined {
    const { base_topic: base, discovery_prefix: prefix } = this.place;
    return base === undefined || prefix === undefined ? undefined : { base, prefix };
  }

  /** Remembers the base topic and prefix published under from now on. */
  publishesUnder(base: string, prefix: string): Promise<void> {
    this.place = { base_topic: base, discovery_prefix: prefix };
    return this.persist();
  }

  /** A child's event memory, one per child while the bridge runs: the one read at open, or a new one (its event gate loads it). */
  memoryOf(childId: string): SeenStore {
    const memory = new SeenStore(this.dataDir, childId);
    const known = this.memories.get(memory.path);
    if (known) return known;
    this.memories.set(memory.path, memory);
    return memory;
  }

  /** The events on their way (at the first connection: from an earlier run, which mqtt.js sends again then), each answered as by outcome(). */
  held(): Array<Promise<boolean>> {
    return [...this.onTheirWay().values()].flatMap((entry) => this.outcome(entry.id) ?? []);
  }

  /** For an event on its way already (from an earlier run): true at its PUBCOMP, false at a refusal; undefined for any other. */
  outcome(event: string): Promise<boolean> | undefined {
    if (![...this.onTheirWay().values()].some((entry) => entry.id === event)) return undefined;
    return new Promise((resolve) => this.waiting.set(event, [...(this.waiting.get(event) ?? []), resolve]));
  }

  /** The base topic was another installation's since (a handover): the events this session held wait again, left to what that one told. */
  async forget(): Promise<void> {
    this.others.clear();
    const changed = [...this.memories.values()].filter((memory) => memory.returned());
    await Promise.all(changed.map((memory) => memory.save())).catch(() => undefined);
  }

  /** An event about to be published: its PUBLISH is stored with its id. Returns how to take it back when it never was. */
  expect(topic: string, payload: string, event: string): () => void {
    const entry = { key: `${topic}\0${payload}`, event };
    this.coming.push(entry);
    return () => void (this.coming = this.coming.filter((e) => e !== entry));
  }

  // --- IStore (mqtt.js) ---

  put(packet: Packet, cb: (error?: Error) => void): this {
    const id = packet.messageId ?? 0;
    const publish = packet.cmd === 'publish' && packet.qos === 2 ? packet : undefined;
    const event = publish && this.arriving(publish.topic, publish.payload.toString());
    // The memory holding the event gets its packet; a PUBREL marks the packet released wherever it is.
    const mark = (memory: SeenStore): boolean =>
      publish && event !== undefined
        ? memory.sent(event, { id, topic: publish.topic, released: false })
        : packet.cmd === 'pubrel' && memory.released(id);
    const holding = [...this.memories.values()].filter(mark);
    if (holding.length === 0) {
      this.others.set(id, packet);
      // In order behind the writes before it: packets leave in the order mqtt.js handed them.
      void this.writing.then(() => cb());
      return this;
    }
    this.written(holding).then(
      () => cb(),
      (error: unknown) => {
        // A PUBREL goes all the same (data_dir full or read-only: the event is not held up). A new event
        // is not sent: its publish hears no (mqtt.js alone would never answer it), and the event waits in
        // its child's memory for the next pass.
        if (event === undefined) return cb();
        for (const memory of holding) memory.returned(id);
        cb(error instanceof Error ? error : new Error(String(error)));
        queueMicrotask(() => this.client?.removeOutgoingMessage(id));
      },
    );
    return this;
  }

  /** mqtt.js is done with a packet: an event's PUBCOMP (its entry leaves the outbox), or its refusal (the entry waits again). */
  del(packet: Pick<Packet, 'messageId'>, cb: (error?: Error, packet?: Packet) => void): this {
    const id = packet.messageId ?? 0;
    const found = this.packet(id);
    const event = this.onTheirWay().get(id)?.id;
    if (!found) cb(new Error('missing packet'));
    else if (this.others.delete(id) || event === undefined) cb(undefined, found);
    else {
      const delivered = !this.refused.delete(id);
      const holding = [...this.memories.values()].filter((memory) => (delivered ? memory.delivered(id) : memory.returned(id)));
      // So it is whether or not the write succeeds: the memory holds it so, and its next save writes it.
      void this.written(holding)
        .catch(() => undefined)
        .then(() => {
          for (const answer of this.waiting.get(event) ?? []) answer(delivered);
          this.waiting.delete(event);
          cb(undefined, found);
        });
    }
    return this;
  }

  get(packet: Pick<Packet, 'messageId'>, cb: (error?: Error, packet?: Packet) => void): this {
    const found = this.packet(packet.messageId ?? 0);
    cb(found ? undefined : new Error('missing packet'), found);
    return this;
  }

  /** What is sent again after a connect: the events' packets (a PUBLISH marked DUP, or its PUBREL), then the rest but the claim (stale by then, claim.ts). */
  createStream(): ReturnType<IStore['createStream']> {
    for (const [id, p] of this.others) if (p.cmd === 'publish' && p.topic.endsWith('/bridge/claim')) this.others.delete(id);
    const packets = [...[...this.onTheirWay().keys()].flatMap((id) => this.packet(id) ?? []), ...this.others.values()];
    // node's Readable: what mqtt.js reads of it (read, 'readable', 'end', destroy) is the same as readable-stream's.
    return Readable.from(packets) as unknown as ReturnType<IStore['createStream']>;
  }

  close(cb: (error?: Error) => void): void {
    void this.writing.then(() => cb());
  }

  // --- IMessageIdProvider (mqtt.js): a new packet never takes the id of an event on its way ---

  allocate(): number | null {
    const held = this.onTheirWay();
    for (let tries = 0; tries < 0xffff; tries++) {
      const id = this.nextId;
      this.nextId = (this.nextId % 0xffff) + 1;
      if (!held.has(id) && !this.others.has(id)) return id;
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

  /** The events on their way, by packet id (one entry each, though two memories hold it: a child's old name and new one). */
  private onTheirWay(): Map<number, OnItsWay> {
    const found = new Map<number, OnItsWay>();
    for (const memory of this.memories.values())
      for (const entry of memory.onTheirWay()) if (!found.has(entry.packet.id)) found.set(entry.packet.id, entry);
    return found;
  }

  /** The event a PUBLISH being stored is, when it is one being published. */
  private arriving(topic: string, payload: string): string | undefined {
    const coming = this.coming.find((e) => e.key === `${topic}\0${payload}`);
    this.coming = this.coming.filter((e) => e !== coming);
    return coming?.event;
  }

  private packet(id: number): Packet | undefined {
    const entry = this.onTheirWay().get(id);
    if (!entry) return this.others.get(id);
    if (entry.packet.released) return { cmd: 'pubrel', messageId: id };
    return { cmd: 'publish', topic: entry.packet.topic, payload: JSON.stringify(entry.payload), qos: 2, retain: false, dup: true, messageId: id };
  }

  /** Writes the memories a packet changed; a packet stored after them is answered after these writes. */
  private written(memories: readonly SeenStore[]): Promise<unknown> {
    const writes = this.writing.then(() => Promise.all(memories.map((memory) => memory.save())));
    this.writing = writes.catch(() => undefined);
    return writes;
  }

  /** Writes the file: the base topic and discovery prefix. */
  private persist(): Promise<void> {
    const write = this.writing.then(() => writeJson(this.path, this.place));
    this.writing = write.catch(() => undefined);
    return write;
  }
}
