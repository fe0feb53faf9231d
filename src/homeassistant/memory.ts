// What the bridge made in Home Assistant, kept in data_dir/homeassistant.json: each entry (so that one the
// family deleted stays deleted, and one made with an old address is made again), each homework item it
// added (so that a ticked or deleted one is never added again), and the API's last fault (for
// `dziennik2mqtt diagnostics`, which runs beside the bridge).
import { join } from 'node:path';
import { z } from 'zod';
import { peekStored, readStored } from '../store/stored.js';
import { SteadyFile } from '../store/files.js';
import { isoWarsaw } from '../util/time.js';
import type { HaFault } from '../i18n/homeassistant-text.js';
import type { Known } from './plan.js';
import type { KeptItem } from './homework.js';

export const MEMORY_FILE = 'homeassistant.json';

const gone = z.literal(true).optional();
const memorySchema = z.object({
  version: z.literal(1),
  entries: z.record(
    z.string(),
    z.object({
      entry: z.string().nullable(),
      title: z.string(),
      by: z.enum(['bridge', 'family']),
      url: z.string().optional(),
      entity: z.string().optional(),
      gone,
    }),
  ),
  homework: z.record(
    z.string(),
    z.record(z.string(), z.object({ item: z.string().nullable(), summary: z.string(), description: z.string().nullable(), due: z.string(), gone })),
  ),
  problem: z.object({ fault: z.string(), since: z.number(), message: z.string() }).optional(),
});

export interface Memory {
  entries: Record<string, Known>;
  /** By child id, then by the homework's uid. */
  homework: Record<string, Record<string, KeptItem>>;
  problem?: { fault: HaFault; since: number; message: string };
}

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
