// Vitest global setup for the tiers that run the built bin: dist/ rebuilt once, before any file runs, when
// src/ is newer. The files still call ensureBuilt() (a look at the times, then nothing), but two workers
// no longer each start tsc and the bundle into one dist/ at once, which a developer who had just edited
// src/ met as a failed launch or add-on test.
import { ensureBuilt } from './faults-process.js';

export default function setup(): Promise<void> {
  return ensureBuilt();
}
