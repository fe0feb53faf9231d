// Published once, the invariant of this folder (stated here only): an item is remembered as fired in the
// same write of seen/<child>.json that puts its event in the child's outbox, and an entry leaves the outbox
// exactly when its PUBCOMP is written. Between the two the entry carries its packet state (outbox.ts), written
// in the same file before its PUBLISH, then its PUBREL, goes (session.ts); so at every moment, on disk, an
// event fired is waiting, on its way under one packet id, or delivered, and is never fired anew. One file per
// child holds it all: no second file must agree with it.
//
// The memory of items already announced as events, per child and kind, kept in data_dir so that a
// restart or a re-login never fires the same event twice; for the tracked kinds also what each record
// last said (tracked.ts), so that an edit or a removal fires once too; and the events the broker has not
// acknowledged yet (outbox.ts), written with the ids in one atomic write: never remembered as fired
// without being kept to send. Each save also leaves a last good copy beside it (<child>.last-good.json):
// a memory deleted, emptied or garbled while the bridge was stopped is taken from it, so that what came
// meanwhile still fires once and nothing older does (a memory started afresh fires nothing at all). It also
// keeps when the bridge last read the child's lists (`read`, to READ_STEP), by which the gate tells a backlog
// that came while the bridge was briefly away (news) from one older than the flood rule's horizon (gate.ts).
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { safeName, writeJson } from '../util/files.js';
import { peekStored, readStored } from '../util/stored.js';
import { compareRecords, trackedSchema, type Happening, type Tracking } from './tracked.js';
import { FLOOD_LIMIT } from './flood.js';
import { outboxSchema, type EventPacket, type OutboxEntry } from './outbox.js';
import { yearMemorySchema, type YearMemory } from './rollover.js';
import { SerialQueue } from '../util/serial.js';
import { HOUR } from '../util/duration.js';
/** Ids kept per kind; older ones are forgotten (the portal's lists are a school year long). */
const MAX_IDS = 5000;

/**
 * How stale the kept time of the last read may be: it is written when it moved by this much (or with any other
 * change), so that a quiet day costs a write an hour, not one a pass. A time read back is at most this much early.
 */
export const READ_STEP = HOUR;

/** What the memory holds of a kind: the ids it told (or took as old news), and those a feature said were already true (NewsItem quiet). */
export interface KnownItems {
  told: ReadonlySet<string>;
  quiet: ReadonlySet<string>;
  /** Whether a bridge that keeps the two apart wrote the memory (false: an earlier version's, which kept no `quiet`). */
  apart: boolean;
}

/** What one kind's read gave: the items to tell, and those remembered without an event (a first read, old news). */
export interface Taken<I> {
  news: I[];
  quiet: I[];
}

/** Why the memory was taken from its last good copy: its file was gone, held nothing, or could not be read. */
export type LostMemory = 'missing' | 'empty' | 'unreadable';

const idsSchema = z.record(z.string(), z.array(z.string()));
/**
 * What the file holds: the ids fired by kind, the tracked kinds' records, the events not delivered yet (each
 * with its packet while on its way), the school year the lists were read in with what its rollover moved
 * (rollover.ts), and when the lists were last read (ms; none in a memory an earlier version wrote).
 */
const memorySchema = z.object({
  ids: idsSchema,
  records: trackedSchema,
  outbox: outboxSchema,
  year: yearMemorySchema.optional(),
  read: z.number().optional(),
  /** By kind, the ids remembered as already true when their kind was first read (NewsItem quiet): never told. */
  quiet: idsSchema.optional(),
});
type Memory = z.output<typeof memorySchema>;
/** A memory of nothing, new each time (its lists are filled in place). */
const empty = (): Memory => ({ ids: {}, records: {}, outbox: [], year: undefined });
/** The file, or `{}` (a hand or a tool emptied it): a memory of nothing, which its last good copy stands in for. */
const fileSchema = z.union([memorySchema, z.strictObject({}).transform(empty)]);

export class SeenStore {
  /** Where the memory is kept (one file per child): two stores of one path are one memory. */
  readonly path: string;
  private readonly copyPath: string;
  private memory: Memory = empty();
  /** Bumped by every change: a save that began before one leaves the memory dirty. */
  private changes = 0;
  private saved = 0;
  private readonly writes = new SerialQueue();
  private loading: Promise<void> | undefined;
  /** What reading it found that its loader has not been told yet: files broken, and why the last good copy was taken. */
  private readonly found: { broken: Error[]; restored?: LostMemory } = { broken: [] };
  /** Told after each write of the file, whoever asked for it (the event gate tells the memory on: handover.ts). */
  onSaved: (() => void) | undefined;

  constructor(dataDir: string, child: string) {
    this.path = join(dataDir, 'seen', `${safeName(child)}.json`);
    this.copyPath = join(dataDir, 'seen', `${safeName(child)}.last-good.json`);
  }

  /**
   * Reads the memory, once: a later call waits for the first and is told what it found, when the first was
   * not (the MQTT session reads a memory holding an event on its way before its event gate does). A broken
   * file is moved aside (told to onBroken). A memory missing, broken or empty is taken from the last good
   * copy when there is one (told to onRestored, and written again at the next save); without one it starts
   * empty, as on a first run: every kind is then primed by its first take(), so the items already there
   * fire nothing (no flood of old events).
   */
  async load(onBroken?: (error: Error) => void, onRestored?: (why: LostMemory) => void): Promise<void> {
    this.loading ??= this.read();
    await this.loading;
    if (onBroken === undefined && onRestored === undefined) return;
    for (const error of this.found.broken.splice(0)) onBroken?.(error);
    if (this.found.restored !== undefined) onRestored?.(this.found.restored);
    this.found.restored = undefined;
  }

  private async read(): Promise<void> {
    let broken = false;
    const onBroken = (error: Error): number => this.found.broken.push(error);
    let saved = await readStored(this.path, fileSchema, {
      onBroken: (error) => {
        broken = true;
        onBroken(error);
      },
    });
    if (saved === undefined || holdsNothing(saved)) {
      const copy = await readStored(this.copyPath, fileSchema, { onBroken });
      if (copy !== undefined && !holdsNothing(copy)) {
        this.found.restored = broken ? 'unreadable' : saved === undefined ? 'missing' : 'empty';
        saved = copy;
        this.changes++;
      }
    }
    // Spread, not Object.assign: a key such as __proto__ stays a plain key.
    if (saved) this.memory = { ...saved, ids: { ...saved.ids }, records: { ...saved.records } };
  }

  /** What load() would take, read without moving anything aside: the file, or its last good copy. */
  async peek(): Promise<Memory | undefined> {
    const saved = await peekStored(this.path, fileSchema);
    if (saved !== undefined && !holdsNothing(saved)) return saved;
    return (await peekStored(this.copyPath, fileSchema)) ?? saved;
  }

  /** Whether a kind was read before (its first read tells nothing: what it shows then is old news). */
  knows(kind: string): boolean {
    return this.memory.ids[kind] !== undefined;
  }

  /** When the lists were last read (READ_STEP early at most), as kept; undefined before a first read or in an earlier version's memory. */
  get lastRead(): number | undefined {
    return this.memory.read;
  }

  /** The lists read at `now`: kept at once, written with the next change or once it moved by READ_STEP (or went back). */
  readAt(now: number): void {
    const kept = this.memory.read;
    this.memory.read = now;
    if (kept === undefined || now - kept >= READ_STEP || now < kept) this.changes++;
  }

  /**
   * Remembers a kind's items, and returns those to fire. The first time a kind is seen everything is
   * remembered and nothing fires; so too a flood (more than FLOOD_LIMIT new at once) when it is old news
   * (`quietFloods`: the bridge was away longer than the horizon, see gate.ts): those are `quiet`.
   */
  take<I extends { id: string; quiet?: true }>(kind: string, items: readonly I[], quietFloods: boolean): Taken<I> {
    const known = this.memory.ids[kind];
    const knownSet = new Set(known ?? []);
    this.alreadyTrue(kind, items);
    const fresh = items.filter((i) => !knownSet.has(i.id));
    if (fresh.length === 0 && known !== undefined) return { news: [], quiet: [] };
    const ids = [...(known ?? []), ...fresh.map((i) => i.id)];
    this.memory.ids[kind] = ids.length > MAX_IDS ? ids.slice(ids.length - MAX_IDS) : ids;
    this.changes++;
    // What the feature says was already true is remembered, never told, nor counted as the gate's old news.
    const told = fresh.filter((i) => i.quiet !== true);
    if (known === undefined || (quietFloods && told.length > FLOOD_LIMIT)) return { news: [], quiet: told };
    return { news: told, quiet: [] };
  }

  /** The items a feature says were already true when their kind was first read, kept apart (what a lost record of its is rebuilt from). */
  private alreadyTrue(kind: string, items: readonly { id: string; quiet?: true }[]): void {
    const kept = this.memory.quiet?.[kind] ?? [];
    const keptSet = new Set(kept);
    const added = items.filter((i) => i.quiet === true && !keptSet.has(i.id)).map((i) => i.id);
    if (added.length === 0) return;
    this.memory.quiet = { ...this.memory.quiet, [kind]: [...kept, ...added].slice(-MAX_IDS) };
    this.changes++;
  }

  /** What the memory holds of a kind (gate.ts known); undefined before its first read. */
  known(kind: string): KnownItems | undefined {
    const ids = this.memory.ids[kind];
    if (ids === undefined) return undefined;
    const quiet = new Set(this.memory.quiet?.[kind] ?? []);
    return { told: new Set(ids.filter((id) => !quiet.has(id))), quiet, apart: this.memory.read !== undefined || this.memory.quiet !== undefined };
  }

  /**
   * The edits and removals of a tracked kind's records since the last read (call after take() with
   * the same items). The first read of a kind is remembered without announcing; so is a flood of
   * them (more than FLOOD_LIMIT at once) when `quietFloods`, as for take().
   */
  track(
    kind: string,
    items: readonly { id: string; payload: Record<string, unknown> }[],
    tracking: Tracking,
    quietFloods: boolean,
  ): Taken<Happening> {
    const before = this.memory.records[kind];
    // A copy: the checkpoint keeps the kind's old records object as it was.
    const records = structuredClone(before ?? {});
    const happened = compareRecords(records, items, tracking, before === undefined);
    if (JSON.stringify(records) !== JSON.stringify(before ?? {}) || before === undefined) {
      this.memory.records[kind] = records;
      this.changes++;
    }
    if (before === undefined || (quietFloods && happened.length > FLOOD_LIMIT)) return { news: [], quiet: happened };
    return { news: happened, quiet: [] };
  }

  /**
   * A way back to the memory as it is now (when saving what take() and track() added failed). A shallow
   * copy is enough: both replace a kind's entry, never change one in place. Of the outbox only what was
   * posted since goes: an entry delivered meanwhile stays gone, one sent meanwhile keeps its packet.
   */
  checkpoint(): () => void {
    const { ids, records, outbox, year, read, quiet } = this.memory;
    const copy = { ids: { ...ids }, records: { ...records }, year, read, quiet };
    const before = new Set(outbox.map((entry) => entry.id));
    return () => {
      this.memory = { ...copy, outbox: this.memory.outbox.filter((entry) => before.has(entry.id)) };
      this.changes++;
    };
  }

  get year(): YearMemory | undefined {
    return this.memory.year;
  }

  /** A new memory of the year (rollover.ts makes a new object for each pass; the checkpoint keeps the old one). */
  set year(year: YearMemory) {
    if (JSON.stringify(year) === JSON.stringify(this.memory.year)) return;
    this.memory.year = year;
    this.changes++;
  }

  /** Events to keep until the broker accepts them (written with the ids at the next save). */
  post(entries: readonly OutboxEntry[]): void {
    if (entries.length === 0) return;
    this.memory.outbox = [...this.memory.outbox, ...entries];
    this.changes++;
  }

  /** The outbox: every event not delivered yet, waiting or on its way. */
  waiting(): readonly OutboxEntry[] {
    return this.memory.outbox;
  }

  /** The broker took them: they leave the outbox (written at the next save). */
  accepted(entries: readonly Pick<OutboxEntry, 'id'>[]): void {
    const ids = new Set(entries.map((entry) => entry.id));
    this.outboxWhere(
      (entry) => ids.has(entry.id),
      () => undefined,
    );
  }

  /** The entries on their way: each with the packet the MQTT session wrote into it. */
  onTheirWay(): Array<OutboxEntry & { packet: EventPacket }> {
    return this.memory.outbox.filter((entry) => entry.packet !== undefined) as Array<OutboxEntry & { packet: EventPacket }>;
  }

  /** An event's PUBLISH about to go under a packet id: false when no entry is that event. */
  sent(event: string, packet: EventPacket): boolean {
    return this.outboxWhere(
      (entry) => entry.id === event,
      (entry) => ({ ...entry, packet }),
    );
  }

  /** A packet's PUBREL about to go: the broker has the event, only its release is sent again. */
  released(packetId: number): boolean {
    return this.outboxWhere(
      (entry) => entry.packet?.id === packetId,
      (entry) => ({ ...entry, packet: { ...(entry.packet as EventPacket), released: true } }),
    );
  }

  /** A packet's PUBCOMP: its entry leaves the outbox. */
  delivered(packetId: number): boolean {
    return this.outboxWhere(
      (entry) => entry.packet?.id === packetId,
      () => undefined,
    );
  }

  /** A packet refused (or never sent): its entry waits again, without one. True for any entry changed; every one when no id is given. */
  returned(packetId?: number): boolean {
    return this.outboxWhere(
      (entry) => entry.packet !== undefined && (packetId === undefined || entry.packet.id === packetId),
      ({ packet: _, ...entry }) => entry,
    );
  }

  /** The memory as it is (a successor adopts it): without packets, which are this installation's session's alone. */
  get told(): unknown {
    return { ...this.memory, outbox: this.memory.outbox.map(({ packet: _, ...entry }) => entry) };
  }

  /**
   * What the base topic's holder before this bridge (another installation) told of this child's memory: what
   * it announced is known here too, its records and year stand, and its outbox is what waits (this folder's
   * own waiting events were its to send), under no packet of this session.
   */
  adopt(told: unknown): boolean {
    const other = told === undefined ? undefined : memorySchema.safeParse(told).data;
    if (other === undefined) return false;
    const ids = { ...this.memory.ids };
    for (const [kind, list] of Object.entries(other.ids)) ids[kind] = [...new Set([...(ids[kind] ?? []), ...list])].slice(-MAX_IDS);
    const outbox = other.outbox.map(({ packet: _, ...entry }) => entry);
    const read = Math.max(this.memory.read ?? -Infinity, other.read ?? -Infinity);
    const quiet = { ...this.memory.quiet };
    for (const [kind, list] of Object.entries(other.quiet ?? {})) quiet[kind] = [...new Set([...(quiet[kind] ?? []), ...list])].slice(-MAX_IDS);
    this.memory = {
      ids,
      quiet,
      records: { ...this.memory.records, ...other.records },
      outbox,
      year: other.year ?? this.memory.year,
      ...(Number.isFinite(read) ? { read } : {}),
    };
    this.changes++;
    return true;
  }

  /** Replaces (or, `to` undefined, removes) the outbox entries `pick` says yes to; true when there was one. */
  private outboxWhere(pick: (entry: OutboxEntry) => boolean, to: (entry: OutboxEntry) => OutboxEntry | undefined): boolean {
    if (!this.memory.outbox.some(pick)) return false;
    this.memory.outbox = this.memory.outbox.flatMap((entry) => (pick(entry) ? (to(entry) ?? []) : [entry]));
    this.changes++;
    return true;
  }

  /** Writes the memory if it changed; resolves true when it wrote. Saves run one after another, the last one's memory last. */
  save(): Promise<boolean> {
    return this.writes.enqueue(async () => {
      if (this.changes === this.saved) return false;
      const changes = this.changes;
      // A shallow copy: the last good copy gets what the file got, though an outbox or a year is replaced meanwhile.
      const memory = { ...this.memory };
      await writeJson(this.path, memory);
      this.saved = changes;
      this.onSaved?.();
      // Not synced: after a power cut the memory itself is there (it was), the copy is for a hand or a disk.
      await writeJson(this.copyPath, memory, { durable: false });
      return true;
    });
  }
}

/** A memory of no kind at all (`{}`): what a first run has, never what a bridge that ran saves. */
function holdsNothing(saved: Memory): boolean {
  return Object.keys(saved.ids).length === 0 && Object.keys(saved.records).length === 0 && saved.outbox.length === 0 && saved.year === undefined;
}

/**
 * The memories in data_dir whose outbox holds an entry `wanted` says yes to, each loaded (from its last good
 * copy when the file itself is missing, broken or empty: its event gate is told so when it loads it).
 */
export async function memoriesHolding(dataDir: string, wanted: (entry: OutboxEntry) => boolean): Promise<SeenStore[]> {
  const names = await readdir(join(dataDir, 'seen')).catch(() => []);
  const children = new Set(names.flatMap((name) => /^(.+?)(\.last-good)?\.json$/.exec(name)?.[1] ?? []));
  const found: SeenStore[] = [];
  for (const child of children) {
    const memory = new SeenStore(dataDir, child);
    const saved = await memory.peek();
    if (!saved?.outbox.some(wanted)) continue;
    await memory.load();
    found.push(memory);
  }
  return found;
}
