import { describe, expect, it } from 'vitest';
import { luckyEvents, luckyRecheckDue, luckyToday, pickLucky, readLucky } from '../../../src/school/lucky.js';
import { luckyNumberResponse } from '../../../src/portal/schemas/identity.js';
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
    const states = renderLucky(luckyToday({ number: 12, day: '2026-11-19' }, '12', '2026-11-19'));
    expect(states.lucky_number.state).toBe('12');
    expect(states.lucky_today.state).toBe('ON');
  });

  it('shows the next school day’s number with its day, but is off until that day (spec 2.9)', () => {
    // Friday afternoon: Monday's number is already on the portal, and it is the child's.
    const friday = renderLucky(luckyToday({ number: 12, day: '2026-11-23' }, '12', '2026-11-20'));
    expect(friday.lucky_number).toEqual({ state: '12', attributes: { day: '2026-11-23', register_number: '12', in_use: true } });
    expect(friday.lucky_today.state).toBe('OFF');
    expect(renderLucky(luckyToday({ number: 12, day: '2026-11-23' }, '12', '2026-11-22')).lucky_today.state).toBe('OFF');
    expect(renderLucky(luckyToday({ number: 12, day: '2026-11-23' }, '12', '2026-11-23')).lucky_today.state).toBe('ON');
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

describe('the forms live schools answer (live-notes 8)', () => {
  const parse = (body: unknown) => luckyNumberResponse.parse(body);

  it('reads the list form like the object form, picking today’s or the next day’s number', () => {
    const list = parse({ LuckyNumbers: [{ LuckyNumber: 3, LuckyNumberDay: '2026-11-17' }, { LuckyNumber: 15, LuckyNumberDay: '2026-11-19' }] });
    expect(list.inUse).toBe(true);
    expect(pickLucky(list.entries, '2026-11-18')).toEqual({ number: 15, day: '2026-11-19' });
    expect(pickLucky(parse({ LuckyNumber: { LuckyNumber: 15, LuckyNumberDay: '2026-11-19' } }).entries, '2026-11-18')).toEqual({ number: 15, day: '2026-11-19' });
  });

  it('reads {"LuckyNumber": null} as a school that does not use it, and renders in_use false', () => {
    const answer = parse({ LuckyNumber: null });
    expect(answer).toEqual({ inUse: false, entries: [] });
    const states = renderLucky(luckyToday(undefined, '12', '2026-11-18', false));
    expect(states.lucky_number).toEqual({ state: null, attributes: { day: null, register_number: '12', in_use: false } });
    expect(states.lucky_today.state).toBe('OFF');
  });

  it('rejects a shape nobody has seen', () => {
    expect(luckyNumberResponse.safeParse({ Lucky: 5 }).success).toBe(false);
  });

  it('asks a school without it again only after a day', () => {
    const now = at('2026-11-18T10:00:00+01:00');
    expect(luckyRecheckDue(undefined, '2026-11-18', now - 23 * HOUR, now, false)).toBe(false);
    expect(luckyRecheckDue(undefined, '2026-11-18', now - 23.5 * HOUR, now, false)).toBe(false);
    expect(luckyRecheckDue(undefined, '2026-11-18', now - 24 * HOUR + 10 * 60_000, now, false)).toBe(true);
    expect(luckyRecheckDue(undefined, '2026-11-18', now - 24 * HOUR, now, false)).toBe(true);
  });
});
