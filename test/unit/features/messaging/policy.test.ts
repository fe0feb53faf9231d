// The messaging session's rules as data (spec 5.4).
import { describe, expect, it } from 'vitest';
import { DEFAULT_MESSAGING_POLICY, absentRecheckAt, saysNoAccess, statusAction } from '../../../../src/portal/messaging-policy.js';

describe('messaging policy', () => {
  it('recovers 401, 403 and the other 4xx but 404 and 429; raises the rest', () => {
    expect([200, 201, 204].map(statusAction)).toEqual(['ok', 'ok', 'ok']);
    expect([401, 403, 400, 405, 409, 422].map(statusAction)).toEqual(Array(6).fill('recover'));
    expect([404, 429, 500, 502, 503, 504, 302].map(statusAction)).toEqual(Array(7).fill('raise'));
  });

  it('asks a school without the module again after 5 minutes three times, then hourly', () => {
    const at = (streak: number) => absentRecheckAt(streak, 0, DEFAULT_MESSAGING_POLICY) / 60_000;
    expect([1, 2, 3, 4, 5, 10].map(at)).toEqual([5, 5, 5, 60, 60, 60]);
  });

  it('finds the Brak dostępu marker however it is written', () => {
    expect(saysNoAccess('<h2>Brak dostępu</h2>')).toBe(true);
    expect(saysNoAccess('BRAK  DOSTĘPU')).toBe(true);
    expect(saysNoAccess('Brak dost&#281;pu')).toBe(true);
    expect(saysNoAccess('<div id="app">Wiadomości</div>')).toBe(false);
  });
});
