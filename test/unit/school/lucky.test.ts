import { describe, expect, it } from 'vitest';
import { luckyEvents, luckyRecheckDue, luckyToday, readLucky } from '../../../src/school/lucky.js';
import { renderLucky } from '../../../src/features/lucky.js';

const at = (iso: string): number => Date.parse(iso);
const HOUR = 3_600_000;

describe('readLucky', () => {
  it('reads the number and its day, also from strings', () => {
    expect(readLucky({ LuckyNumber: '7', LuckyNumberDay: '2026-11-19' })).toEqual({ number: 7, day: '2026-11-19' });
  });

  it.each([{}, { LuckyNumber: 0, LuckyNumberDay: '2026-11-19' }, { LuckyNumber: 5 }, { LuckyNumber: 'x', LuckyNumberDay: '2026-11-19' }])(
    'treats %j as no number',
    (raw) => expect(readLucky(raw)).toBeUndefined(),
  );
});

describe('luckyToday, rendered', () => {
  it('is on when the number is the child’s register number', () => {
    const states = renderLucky(luckyToday({ number: 12, day: '2026-11-19' }, '12', '2026-11-18'));
    expect(states.lucky_number.state).toBe('12');
    expect(states.lucky_today.state).toBe('ON');
  });

  it('shows nothing for a past day’s number', () => {
    const states = renderLucky(luckyToday({ number: 12, day: '2026-11-17' }, '12', '2026-11-18'));
    expect(states.lucky_number.state).toBeNull();
    expect(states.lucky_today.state).toBe('OFF');
  });
});

describe('luckyEvents', () => {
  it('offers one event named by its day when the number is the child’s, also published the day before', () => {
    const events = luckyEvents(luckyToday({ number: 12, day: '2026-11-19' }, '12', '2026-11-18'));
    expect(events).toEqual([{ id: 'lucky:2026-11-19', payload: { day: '2026-11-19', number: 12, register_number: '12' } }]);
    // Read again on its own day: the same id, so the seen memory lets it fire only once.
    expect(luckyEvents(luckyToday({ number: 12, day: '2026-11-19' }, '12', '2026-11-19')).map((e) => e.id)).toEqual(['lucky:2026-11-19']);
  });

  it.each([
    ['another child’s number', { number: 7, day: '2026-11-18' }, '12'],
    ['a past day’s number', { number: 12, day: '2026-11-17' }, '12'],
    ['no register number', { number: 12, day: '2026-11-18' }, undefined],
    ['no number', undefined, '12'],
  ])('offers none for %s', (_what, lucky, register) => {
    expect(luckyEvents(luckyToday(lucky, register, '2026-11-18'))).toEqual([]);
  });
});

describe('luckyRecheckDue', () => {
  const today = '2026-11-18';

  it('asks when nothing, or only a past day’s number, is known', () => {
    expect(luckyRecheckDue(undefined, today, 0, at('2026-11-18T03:00:00+01:00'))).toBe(true);
    expect(luckyRecheckDue({ number: 3, day: '2026-11-17' }, today, 0, at('2026-11-18T00:05:00+01:00'))).toBe(true);
  });

  it('never asks again once the next school day’s number is known', () => {
    const now = at('2026-11-18T16:00:00+01:00');
    expect(luckyRecheckDue({ number: 3, day: '2026-11-19' }, today, now - 5 * HOUR, now)).toBe(false);
  });

  it('with today’s number known, looks hourly during the day for the next one', () => {
    const now = at('2026-11-18T14:00:00+01:00');
    expect(luckyRecheckDue({ number: 3, day: today }, today, now - HOUR, now)).toBe(true);
    expect(luckyRecheckDue({ number: 3, day: today }, today, now - 30 * 60_000, now)).toBe(false);
  });

  it('with today’s number known, does not look at night', () => {
    for (const time of ['00:30', '05:59', '21:00', '23:30']) {
      const now = at(`2026-11-18T${time}:00+01:00`);
      expect(luckyRecheckDue({ number: 3, day: today }, today, now - 5 * HOUR, now), time).toBe(false);
    }
    const morning = at('2026-11-18T06:00:00+01:00');
    expect(luckyRecheckDue({ number: 3, day: today }, today, morning - 5 * HOUR, morning)).toBe(true);
  });
});
