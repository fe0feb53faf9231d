import { describe, expect, it } from 'vitest';
import { retryDelay } from '../../../src/runner/health.js';
import { planClock } from '../../../src/engine/plan.js';
import { inHours } from '../../../src/engine/moments.js';
import { LoginPausedError } from '../../../src/portal/errors.js';
import { next } from '../../../src/engine/plan.js';
import { GRADES } from '../../../src/engine/resources/grades.js';

// 2026-11-20 is in winter time: Warsaw = UTC+1.
const at = (hhmm: string): number => Date.parse(`2026-11-20T${hhmm}:00+01:00`);

describe('quiet hours', () => {
  it.each([
    ['21:59', false],
    ['22:00', true],
    ['03:00', true],
    ['05:59', true],
    ['06:00', false],
    ['12:00', false],
  ])('22:00-06:00 at %s is %s', (time, expected) => {
    expect(inHours(at(time), '22:00-06:00')).toBe(expected);
  });

  it('handles a window inside one day', () => {
    expect(inHours(at('13:30'), '13:00-14:00')).toBe(true);
    expect(inHours(at('14:00'), '13:00-14:00')).toBe(false);
  });

  it('slows only the fast interval, to hourly', () => {
    const policy = { intervalMs: 20 * 60_000, fastIntervalMs: 3 * 60_000, schoolIntervalMs: 4 * 60_000, quietHours: '22:00-06:00' };
    expect(planClock(at('23:00'), policy, undefined).intervals).toEqual({ fast: 3_600_000, normal: 20 * 60_000, news: 4 * 60_000 });
    expect(planClock(at('09:00'), policy, undefined).intervals).toEqual({ fast: 3 * 60_000, normal: 20 * 60_000, news: 4 * 60_000 });
  });
});

describe("the demo's clock: one moment at every hour, so no night", () => {
  const policy = { intervalMs: 2 * 60_000, fastIntervalMs: 30_000, schoolIntervalMs: 60_000 };
  // Grades read two minutes before 23:00, past the demo's news age of a minute.
  const grades = (fixed: boolean) =>
    next(GRADES, { readAt: at('22:58') }, planClock(at('23:00'), { ...policy, ...(fixed ? { fixedMoment: 'lessons' as const } : {}) }, undefined));

  it('reads a grade list that falls due at 23:00 then, as at 10:00', () => {
    expect(grades(true)).toMatchObject({ at: at('23:00'), why: 'age' });
  });

  it('while a config (no fixed moment) leaves it to the morning', () => {
    expect(grades(false).at).toBeGreaterThanOrEqual(Date.parse('2026-11-21T06:00:00+01:00'));
  });
});

describe('retryDelay', () => {
  it('backs off 1, 2, 4 minutes and never beyond the interval', () => {
    expect([1, 2, 3, 4, 10].map((n) => retryDelay(n, 10 * 60_000, new Error('x'), 0))).toEqual([60_000, 120_000, 240_000, 480_000, 600_000]);
  });

  it('waits out a login pause', () => {
    const paused = new LoginPausedError('wrong_credentials', 3_600_000);
    expect(retryDelay(1, 60_000, paused, 0)).toBe(3_600_000);
  });
});
