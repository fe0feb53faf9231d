// The status feature: last_update, problem, password_change_advised and refresh, the diagnostics the runner publishes itself;
// problem's states as the runner renders them.
import { describe, expect, it } from 'vitest';
import { status } from '../../../../src/features/status/status.js';
import { problemOff, problemOn } from '../../../../src/features/status/problem.js';
import { WrongCredentialsError } from '../../../../src/portal/errors.js';
import { entityTable } from '../../../helpers/entities.js';

describe('status feature', () => {
  it('declares last_update, problem, password_change_advised, the account figures and refresh, all diagnostics readable while the child is offline', () => {
    expect(entityTable(status.entities)).toEqual([
      ['last_update', 'sensor', false],
      ['problem', 'binary_sensor', true],
      ['password_change_advised', 'binary_sensor', false],
      ['requests_today', 'sensor', true],
      ['logins_today', 'sensor', true],
      ['last_read', 'sensor', false],
      ['session_age', 'sensor', false],
      ['refresh', 'button', false],
    ]);
    expect(status.entities.slice(0, 7).every((e) => e.entityCategory === 'diagnostic' && e.bridgeAvailabilityOnly)).toBe(true);
  });

  it('renders problem OFF without a reason, and ON with the reason, the advice and since when', () => {
    expect(problemOff()).toEqual({ state: 'OFF', attributes: { reason: null } });
    const on = problemOn(new WrongCredentialsError('ania'), Date.parse('2026-11-23T08:30:00Z'), 'pl');
    expect(on.state).toBe('ON');
    expect(on.attributes).toMatchObject({ reason: 'wrong_credentials', since: '2026-11-23T09:30:00+01:00' });
    expect(on.attributes.message).toMatch(/hasło|login/i);
  });
});
