// When to poll: the tiers' intervals, quiet hours, and backoff after failures, as pure functions of
// the time and the policy, so that the schedule can be tested and simulated without waiting.
import { warsawTimeOfDay } from '../util/time.js';
import { LoginPausedError } from '../portal/errors.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export interface PollPolicy {
  intervalMs: number;
  fastIntervalMs: number;
  /** "22:00-06:00": fast polling slows to hourly inside this window (Warsaw time). */
  quietHours?: string;
}

/** True when the Warsaw wall-clock time of `now` falls inside "HH:MM-HH:MM" (which may span midnight). */
export function inQuietHours(now: number, quietHours: string | undefined): boolean {
  if (!quietHours) return false;
  const [from = '', to = ''] = quietHours.split('-');
  const time = warsawTimeOfDay(now);
  return from <= to ? time >= from && time < to : time >= from || time < to;
}

/**
 * Grades, attendance and the agenda change while teachers work; between 21:00 and 06:00 the normal
 * tier runs at most every two hours, which saves about a fifth of the day's requests and delays
 * nothing a family would act on before morning. A refresh still polls everything at once.
 */
const NIGHT = '21:00-06:00';

export function normalInterval(now: number, policy: PollPolicy): number {
  return inQuietHours(now, NIGHT) ? Math.max(2 * HOUR, policy.intervalMs) : policy.intervalMs;
}

export function fastInterval(now: number, policy: PollPolicy): number {
  return inQuietHours(now, policy.quietHours) ? Math.max(HOUR, policy.fastIntervalMs) : policy.fastIntervalMs;
}

/**
 * The delay before the next attempt after `failures` failed cycles in a row: 1, 2, 4 ... minutes, never
 * more than the tier's interval; a paused login waits until the pause ends.
 */
export function retryDelay(failures: number, intervalMs: number, error: unknown, now: number): number {
  if (error instanceof LoginPausedError) return Math.max(MINUTE, error.until - now);
  const backoff = MINUTE * 2 ** Math.max(0, failures - 1);
  return Math.min(intervalMs, backoff);
}
