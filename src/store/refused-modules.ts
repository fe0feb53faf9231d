// The modules the portal refuses a child (feature-kit/modules.ts): by resource name, since when its
// answers have been refusals and when the latest came. One small file per login in
// data_dir/refusals/, so that a module gone from the child's device stays gone through a restart.
import { join } from 'node:path';
import { z } from 'zod';
import { SteadyFile, safeName } from './files.js';
import { readStored } from './stored.js';

const refusal = z.object({ since: z.number(), at: z.number() });
const savedSchema = z.object({ version: z.literal(1), refused: z.record(z.string(), refusal) });

export const REFUSALS_FOLDER = 'refusals';

/** By resource name: the first refusal in a row and the latest (epoch ms). */
export type Refusals = Record<string, { since: number; at: number }>;

export class RefusedModulesStore {
  private readonly path: string;
  private readonly file: SteadyFile;

  constructor(dataDir: string, login: string) {
    this.path = join(dataDir, REFUSALS_FOLDER, `${safeName(login)}.json`);
    this.file = new SteadyFile(this.path, { durable: false });
  }

  /** What the last run knew; empty on a first run (a broken file is moved aside). */
  async load(onBroken?: (error: Error) => void): Promise<Refusals> {
    return (await readStored(this.path, savedSchema, { onBroken }))?.refused ?? {};
  }

  /** Atomic, not synced: a power cut costs at most the last change, which the next refusal brings back. */
  save(refused: Refusals): Promise<void> {
    return this.file.write(`${JSON.stringify({ version: 1, refused })}\n`);
  }
}
