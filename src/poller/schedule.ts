// When to poll: the configured intervals at a moment (quiet hours), the plan's clock, and backoff after
// failures, as pure functions of the time and the policy, so that the schedule can be tested and
// simulated without waiting. When each copy is read is the one function of plan.ts (next).
import { warsawTimeOfDay } from '../util/time.js';
import { LoginPausedError } from '../portal/errors.js';
import { momentOf, type Moment, type PlanClock, type SchoolDayTimes } from '../feature-kit/plan.js';
import { MINUTE, HOUR } from '../util/duration.js';

export interface PollPolicy {
  intervalMs: number;
  fastIntervalMs: number;
  /** News while lessons are on (poll.school_interval). */
  schoolIntervalMs: number;
  /** "22:00-06:00": fast polling slows to hourly inside this window (Warsaw time). */
  quietHours?: string;
  /**
   * One kind of moment at every hour, and so no night (the demo: its simulated school is in lessons day and
   * night, so a parent trying it at 23:00 sees its news as one trying it at 10:00 does). Never set from a config.
   */
  fixedMoment?: Moment;
}

/** True when the Warsaw wall-clock time of `now` falls inside "HH:MM-HH:MM" (which may span midnight). */
export function inQuietHours(now: number, quietHours: string | undefined): boolean {
  if (!quietHours) return false;
  const [from = '', to = ''] = quietHours.split('-');
  const time = warsawTimeOfDay(now);
  return from <= to ? time >= from && time < to : time >= from || time < to;
}

/** The plan's clock at `now` for a child whose day is `day`: its moment, and what its knobs stand for (inside poll.quiet_hours `fast` slows to hourly). */
export function planClock(now: number, policy: PollPolicy, day: SchoolDayTimes | undefined): PlanClock {
  const fast = inQuietHours(now, policy.quietHours) ? Math.max(HOUR, policy.fastIntervalMs) : policy.fastIntervalMs;
  const intervals = { news: policy.schoolIntervalMs, normal: policy.intervalMs, fast };
  return policy.fixedMoment ? { now, moment: policy.fixedMoment, intervals, noNight: true } : { now, moment: momentOf(now, day), intervals };
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
