// What the bridge made in Home Assistant, kept in data_dir/homeassistant.json: each entry (so that one the
// family deleted stays deleted, and one made with an old address is made again), each homework item it
// added (so that a ticked or deleted one is never added again), and the API's last fault (for
// `dziennik2mqtt diagnostics`, which runs beside the bridge).
import { join } from 'node:path';
import * as z from 'zod';
import { peekStored, readStored } from '../util/stored.js';
import { SteadyFile } from '../util/files.js';
import { isoWarsaw } from '../util/time.js';
import type { HaFault } from '../i18n/homeassistant-text.js';

export const MEMORY_FILE = 'homeassistant.json';

/** Set once the family deleted it: never touched again. */
const gone = z.literal(true).optional();

/**
 * What the bridge remembers of an entry: the entry's id (null when Home Assistant would not say: a
 * calendar of the feed's address the family had made under another name), who made it, the address it
 * was made with, its entity (found by its name), what a calendar's feed held when Home Assistant last
 * read it, and `gone` once the family deleted it.
 */
const knownSchema = z.object({
  entry: z.string().nullable(),
  title: z.string(),
  by: z.enum(['bridge', 'family']),
  url: z.string().optional(),
  entity: z.string().optional(),
  /** A calendar's: the hash of its feed's content when Home Assistant last read it (made, or asked to read again). */
  read: z.string().optional(),
  gone,
});
export type Known = z.output<typeof knownSchema>;

/**
 * What the bridge remembers of an item it added, by the homework's uid: the item's uid in Home Assistant
 * (null until a listing showed it: adding does not answer it), what it wrote (the summary, the whole text,
 * the due date YYYY-MM-DD), and `gone` once the family deleted the item (or the school removed a homework
 * the family had ticked).
 */
const keptItemSchema = z.object({ item: z.string().nullable(), summary: z.string(), description: z.string().nullable(), due: z.string(), gone });
export type KeptItem = z.output<typeof keptItemSchema>;

const memorySchema = z.object({
  version: z.literal(1),
  entries: z.record(z.string(), knownSchema),
  /** By child id, then by the homework's uid. */
  homework: z.record(z.string(), z.record(z.string(), keptItemSchema)),
  problem: z.object({ fault: z.string(), since: z.number(), message: z.string() }).optional(),
  /** By entry key, a flow started whose step had no answer yet: aborted at the next look if its answer was lost. */
  flows: z.record(z.string(), z.string()).optional(),
});

/** What the file holds, its problem's fault one the keeper names. */
export type Memory = Omit<z.output<typeof memorySchema>, 'version' | 'problem'> & { problem?: { fault: HaFault; since: number; message: string } };

export class MemoryFile {
  private readonly file: SteadyFile;

  constructor(dataDir: string) {
    this.file = new SteadyFile(join(dataDir, MEMORY_FILE), { durable: true });
  }

  async load(onBroken?: (error: Error) => void): Promise<Memory> {
    return ((await readStored(this.file.path, memorySchema, { onBroken })) as Memory | undefined) ?? { entries: {}, homework: {} };
  }

  save(memory: Memory): Promise<void> {
    return this.file.write(`${JSON.stringify({ version: 1, ...memory })}\n`);
  }
}

/** What a running (or the last) bridge kept, read without moving anything (`check`, `diagnostics`). */
export async function peekMemory(dataDir: string): Promise<Memory> {
  return ((await peekStored(join(dataDir, MEMORY_FILE), memorySchema)) as Memory | undefined) ?? { entries: {}, homework: {} };
}

/** The diagnostics' part of what was kept: whether the API answered (or its fault, since when), and what was made. */
export function memoryStatus({ problem, entries }: Memory): Record<string, unknown> {
  const count = (test: (k: Known) => boolean) => Object.values(entries).filter(test).length;
  return {
    api: problem === undefined ? 'ok' : problem.fault,
    ...(problem ? { since: isoWarsaw(problem.since), error: problem.message } : {}),
    made: count((k) => k.by === 'bridge' && !k.gone),
    kept: count((k) => k.by === 'family' && !k.gone),
    removed_by_the_family: count((k) => k.gone === true),
  };
}
