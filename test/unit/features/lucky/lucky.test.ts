// The lucky feature: its entities, and lucky_number / lucky_today rendered from the school rule.
import { describe, expect, it } from 'vitest';
import { lucky, renderLucky } from '../../../../src/features/lucky/lucky.js';
import { luckyToday } from '../../../../src/school/lucky.js';
import { entityTable } from '../../../helpers/entities.js';

describe('lucky feature', () => {
  it('declares lucky_number, lucky_today and the lucky event', () => {
    expect(entityTable(lucky.entities)).toEqual([
      ['lucky_number', 'sensor', true],
      ['lucky_today', 'binary_sensor', false],
      ['lucky', 'event', false],
    ]);
  });

  it.each([
    // number, its day, the child's register number, today -> lucky_number, day, lucky_today
    // The next school day's number, shown a day early: lucky_today waits for its day.
    [12, '2026-11-19', '12', '2026-11-18', '12', '2026-11-19', 'OFF'],
    [12, '2026-11-19', '12', '2026-11-19', '12', '2026-11-19', 'ON'],
    [12, '2026-11-19', '3', '2026-11-19', '12', '2026-11-19', 'OFF'],
    [12, '2026-11-17', '12', '2026-11-18', null, null, 'OFF'],
  ] as const)('number %s of %s, register number %s, on %s: %s of %s, %s', (number, day, mine, today, state, shownDay, on) => {
    const states = renderLucky(luckyToday({ number, day }, mine, today));
    expect(states.lucky_number.state).toBe(state);
    expect(states.lucky_number.attributes.day ?? null).toBe(shownDay);
    expect(states.lucky_number.attributes.register_number).toBe(mine);
    expect(states.lucky_today.state).toBe(on);
  });
});
