// What `poll.quiet_hours` changes, counted over a school day with the plan's own rule for the unread
// counters (the fast reads): the night reads nothing anyway, so "22:00-06:00" changes nothing, while the
// documented example "20:00-07:00" saves the evening's and the early morning's reads (about 57 a day at
// the default 3 minutes: 3 hours of 20 reads become 3 hours of 1).
import { describe, expect, it } from 'vitest';
import { next } from '../../../src/engine/plan.js';
import { planClock, type SchedulePolicy } from '../../../src/engine/plan.js';
import { UNREAD } from '../../../src/engine/resources/messaging.js';

const MINUTE = 60_000;
const DAY_START = Date.parse('2026-11-18T00:00:00+01:00');
const DAY = { date: '2026-11-18', start: '2026-11-18T08:00:00+01:00', end: '2026-11-18T14:35:00+01:00' };

/** How often the counters are read in a day, looking every minute as the scheduler would. */
function countersRead(quietHours: string | undefined): number {
  const policy: SchedulePolicy = {
    intervalMs: 20 * MINUTE,
    fastIntervalMs: 3 * MINUTE,
    schoolIntervalMs: 4 * MINUTE,
    ...(quietHours ? { quietHours } : {}),
  };
  let readAt: number | undefined;
  let reads = 0;
  for (let now = DAY_START; now < DAY_START + 24 * 60 * MINUTE; now += MINUTE) {
    if (next(UNREAD, { readAt, signal: 'same' }, planClock(now, policy, DAY)).at <= now) {
      reads++;
      readAt = now;
    }
  }
  return reads;
}

describe('poll.quiet_hours', () => {
  it('changes nothing over the night, which reads nothing anyway', () => {
    expect(countersRead('22:00-06:00')).toBe(countersRead(undefined));
  });

  it('saves about 57 reads a day as 20:00-07:00, the example the docs give', () => {
    const saved = countersRead(undefined) - countersRead('20:00-07:00');
    expect(saved).toBeGreaterThanOrEqual(55);
    expect(saved).toBeLessThanOrEqual(59);
  });
});
