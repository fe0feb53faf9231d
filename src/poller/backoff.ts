// Backoff after a failed pass, a pure function of the failures, the policy and the time: when each copy
// is read is the planner's (feature-kit/plan.ts), which is handed the waits this gives as data.
import { LoginPausedError } from '../portal/errors.js';
import { MINUTE } from '../util/duration.js';

/**
 * The delay before the next attempt after `failures` failed cycles in a row: 1, 2, 4 ... minutes, never
 * more than the tier's interval; a paused login waits until the pause ends.
 */
export function retryDelay(failures: number, intervalMs: number, error: unknown, now: number): number {
  if (error instanceof LoginPausedError) return Math.max(MINUTE, error.until - now);
  const backoff = MINUTE * 2 ** Math.max(0, failures - 1);
  return Math.min(intervalMs, backoff);
}
