// The bench's running day (simulate's countFrom): the simulator's counts taken at the window's start are taken off
// its counts at the end, path by path and login by login, so that a start the day before (its first pass, its
// password login) is not in the day.
import { describe, expect, it } from 'vitest';
import { countsSince, type CountsAnswer } from '../../../src/bench/simulate.js';

describe("the bench's running day", () => {
  it('counts only what was asked after the window began: each path, the logins, the bytes and the total', () => {
    const before: CountsAnswer = {
      byLogin: { '9000000u': { 'GET Grades': 1, 'GET Me': 1, 'POST /api/auth': 2 }, '(none)': { 'GET /': 1 } },
      logins: { '9000000u': 1, '(none)': 0 },
      bytes: 1000,
      total: 5,
    };
    const now: CountsAnswer = {
      byLogin: { '9000000u': { 'GET Grades': 4, 'GET Me': 1, 'POST /api/auth': 2, 'GET PushChanges': 3 }, '(none)': { 'GET /': 1 } },
      logins: { '9000000u': 1, '(none)': 0 },
      bytes: 2500,
      total: 11,
    };
    expect(countsSince(now, before)).toEqual({
      // A path asked no more since is left out, as a run that never asked it has none.
      byLogin: { '9000000u': { 'GET Grades': 3, 'GET PushChanges': 3 } },
      logins: { '9000000u': 0, '(none)': 0 },
      bytes: 1500,
      total: 6,
    });
    expect(countsSince(now, undefined)).toBe(now);
  });
});
