// The last states of the features a start does not read in its first pass (their rows are kept for
// later: the school's files, the sent box, the library), so that every entity discovery declares has
// a state after the first pass: what the last run published, not an unknown until the second pass.
// One small file per login in data_dir/states/, written when those states change.
import { join } from 'node:path';
import { z } from 'zod';
import { SteadyFile, safeName } from './files.js';
import { readStored } from './stored.js';

const entityState = z.object({ state: z.string().nullable(), attributes: z.record(z.string(), z.unknown()).optional() });
const savedSchema = z.object({ version: z.literal(1), features: z.record(z.string(), z.record(z.string(), entityState)) });

export const KEPT_STATES_FOLDER = 'states';

/** By feature, by entity key: a state as published (feature-kit's EntityState). */
export type KeptStates = Record<string, Record<string, { state: string | null; attributes?: Record<string, unknown> }>>;

export class KeptStatesStore {
  private readonly path: string;
  private readonly file: SteadyFile;

  constructor(dataDir: string, login: string) {
    this.path = join(dataDir, KEPT_STATES_FOLDER, `${safeName(login)}.json`);
    this.file = new SteadyFile(this.path, { durable: false });
  }

  /** The states the last run kept, by feature; empty on a first run (a broken file is moved aside). */
  async load(onBroken?: (error: Error) => void): Promise<KeptStates> {
    const saved = await readStored(this.path, savedSchema, { onBroken });
    return (saved?.features ?? {}) as KeptStates;
  }

  /**
   * Written only when they changed (one save after another); atomic, not synced: a power cut costs at
   * most the last change, which the next read brings back.
   */
  save(features: KeptStates): Promise<void> {
    return this.file.write(`${JSON.stringify({ version: 1, features })}\n`);
  }
}
