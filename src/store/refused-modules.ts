// The modules the portal refuses a child (feature-kit/modules.ts): by resource name, since when its
// answers have been refusals and when the latest came. One small file per login in
// data_dir/refusals/ (login-records.ts), so that a module gone from the child's device stays gone
// through a restart.
import { z } from 'zod';
import { LoginRecords } from './login-records.js';

const refusal = z.object({ since: z.number(), at: z.number() });

export const REFUSALS_FOLDER = 'refusals';

/** By resource name: the first refusal in a row and the latest (epoch ms). */
export type Refusals = Record<string, { since: number; at: number }>;

export class RefusedModulesStore extends LoginRecords<Refusals[string]> {
  constructor(dataDir: string, login: string) {
    super(dataDir, login, { folder: REFUSALS_FOLDER, field: 'refused', record: refusal });
  }
}
