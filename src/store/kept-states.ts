// The last states of the features a start does not read in its first pass (their rows are kept for
// later: the school's files, the sent box, the library), so that every entity discovery declares has
// a state after the first pass: what the last run published, not an unknown until the second pass.
// One small file per login in data_dir/states/ (login-records.ts), written when those states change.
import { z } from 'zod';
import { LoginRecords } from './login-records.js';

const entityState = z.object({ state: z.string().nullable(), attributes: z.record(z.string(), z.unknown()).optional() });

export const KEPT_STATES_FOLDER = 'states';

/** By feature, by entity key: a state as published (feature-kit's EntityState). */
export type KeptStates = Record<string, Record<string, { state: string | null; attributes?: Record<string, unknown> }>>;

export class KeptStatesStore extends LoginRecords<KeptStates[string]> {
  constructor(dataDir: string, login: string) {
    super(dataDir, login, { folder: KEPT_STATES_FOLDER, field: 'features', record: z.record(z.string(), entityState) });
  }
}
