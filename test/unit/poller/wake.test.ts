// When an account's scheduler wakes (poller/wake.ts), as a table: a row's age, the floor of a minute,
// the next change of moment, six polls' worth of interval, a refusal that ends, a feature that failed,
// a failed pass's backoff (and a login pause), and the soonest of two tiers while one host backs off.
import { describe, expect, it } from 'vitest';
import { nextWake, tierDelay, type TierAfterPass } from '../../../src/poller/wake.js';
import { LoginPausedError } from '../../../src/portal/errors.js';

const MIN = 60_000;
const NOW = Date.parse('2026-11-18T10:00:00+01:00');
const base: TierAfterPass = { now: NOW, readBy: NOW + 4 * MIN, nextMoment: NOW + 6 * 60 * MIN, normalMs: 20 * MIN, intervalMs: 20 * MIN };

describe('tierDelay', () => {
  it.each([
    ['a row due in 4 minutes', {}, 4],
    ['a row due now: the floor of a minute', { readBy: NOW }, 1],
    ['a row due in 3 hours, the moment changes in 40 minutes', { readBy: NOW + 180 * MIN, nextMoment: NOW + 40 * MIN }, 40],
    ['nothing due for a day: six polls of interval', { readBy: NOW + 24 * 60 * MIN }, 120],
    ['a refusal that ends in 90 minutes (its readBy), the moment later', { readBy: NOW + 90 * MIN }, 90],
    ['a feature failed: within interval, though its rows say 2 hours', { readBy: NOW + 120 * MIN, featureFailed: true }, 20],
    ['a failed pass, the first time', { passFailed: { failures: 1, error: new Error('503') } }, 1],
    ['a failed pass, the third time in a row', { readBy: NOW + 20 * MIN, passFailed: { failures: 3, error: new Error('503') } }, 4],
    ['a failed pass, many times: at most its interval', { readBy: NOW + 20 * MIN, passFailed: { failures: 10, error: new Error('503') } }, 20],
    ['a login pause for 60 minutes', { passFailed: { failures: 1, error: new LoginPausedError('wrong_credentials', NOW + 60 * MIN) } }, 60],
  ] as [string, Partial<TierAfterPass>, number][])('%s: %i minutes', (_what, given, minutes) => {
    expect(tierDelay({ ...base, ...given })).toBe(minutes * MIN);
  });
});

describe('nextWake', () => {
  it('wakes for the soonest tier, the other host backing off on its own, or for a lesson boundary first', () => {
    // The register fails (backoff 4 minutes), the messages are read every 3.
    const register = NOW + tierDelay({ ...base, passFailed: { failures: 3, error: new Error('503') }, readBy: NOW + 20 * MIN });
    const messages = NOW + tierDelay({ ...base, readBy: NOW + 3 * MIN });
    expect(nextWake([register, messages], undefined)).toBe(NOW + 3 * MIN);
    expect(nextWake([register, messages], NOW + 2 * MIN)).toBe(NOW + 2 * MIN);
    expect(nextWake([], undefined)).toBe(Infinity);
  });
});
