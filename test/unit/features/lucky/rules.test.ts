import { describe, expect, it } from 'vitest';
import { luckyEvents, luckySettledUntil, luckyToday, pickLucky, readLucky, type LuckyNumber } from '../../../../src/features/lucky/rules.js';
import { luckyNumberResponse } from '../../../../src/portal/schemas/identity.js';
import { renderLucky } from '../../../../src/features/lucky/lucky.js';
import { LUCKY } from '../../../../src/features/lucky/resources.js';
import { next } from '../../../../src/engine/plan.js';
import { momentOf } from '../../../../src/engine/moments.js';

const at = (iso: string): number => Date.parse(iso);
const HOUR = 3_600_000;
const MINUTE = 60_000;

/**
 * Whether the lucky number is asked at `now` after a read at `readAt` that gave `lucky`: its declaration
 * and its own rule (luckySettledUntil) through the schedule's one decision, at the default intervals.
 */
function asks(lucky: LuckyNumber | undefined, readAt: number, now: number, inUse = true): boolean {
  const clock = { now, moment: momentOf(now, undefined), intervals: { news: 5 * MINUTE, normal: 20 * MINUTE, fast: 3 * MINUTE } };
  return next(LUCKY, { readAt, settledUntil: luckySettledUntil(lucky, readAt, inUse) }, clock).at <= now;
}

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
    expect(states.lucky_number?.state).toBe('12');
    expect(states.lucky_today?.state).toBe('ON');
  });

  it('shows the next school day’s number with its day, but is off until that day (spec 2.9)', () => {
    // Friday afternoon: Monday's number is already on the portal, and it is the child's.
    const friday = renderLucky(luckyToday({ number: 12, day: '2026-11-23' }, '12', '2026-11-20'));
    expect(friday.lucky_number).toEqual({ state: '12', attributes: { day: '2026-11-23', register_number: '12', mine: true, in_use: true } });
    expect(friday.lucky_today?.state).toBe('OFF');
    expect(renderLucky(luckyToday({ number: 12, day: '2026-11-23' }, '12', '2026-11-22')).lucky_today!.state).toBe('OFF');
    expect(renderLucky(luckyToday({ number: 12, day: '2026-11-23' }, '12', '2026-11-23')).lucky_today!.state).toBe('ON');
  });

  it('shows nothing for a past day’s number', () => {
    const states = renderLucky(luckyToday({ number: 12, day: '2026-11-17' }, '12', '2026-11-18'));
    expect(states.lucky_number?.state).toBeNull();
    expect(states.lucky_today?.state).toBe('OFF');
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

describe('the lucky number row: asked only until the day’s number is known', () => {
  const today = '2026-11-18';

  it('asks at its age by day when nothing, or only a past day’s number, is known; never at night for age alone', () => {
    const night = at('2026-11-18T03:00:00+01:00');
    expect(asks(undefined, night - 3 * HOUR, night)).toBe(false);
    expect(asks(undefined, night - 3 * HOUR, at('2026-11-18T06:00:00+01:00'))).toBe(true);
    const day = at('2026-11-18T10:00:00+01:00');
    expect(asks({ number: 3, day: '2026-11-17' }, day - 3 * MINUTE, day)).toBe(true);
    expect(asks({ number: 3, day: '2026-11-17' }, day - 2 * MINUTE, day)).toBe(false);
  });

  it('asks hourly, not every few minutes, while the number shown is over a week old (the summer holidays)', () => {
    // The portal keeps the school year's last number through July and August: no draw is near.
    const summer = at('2027-08-31T19:00:00+02:00');
    const june = { number: 29, day: '2027-06-25' };
    expect(asks(june, summer - 3 * MINUTE, summer)).toBe(false);
    expect(asks(june, summer - 59 * MINUTE, summer)).toBe(false);
    expect(asks(june, summer - HOUR, summer)).toBe(true);
    // A number of last week's last school day is a draw due any moment: asked at the fast age.
    const monday = at('2026-11-23T07:00:00+01:00');
    expect(asks({ number: 3, day: '2026-11-20' }, monday - 3 * MINUTE, monday)).toBe(true);
  });

  it('never asks again once the next school day’s number is known, until 06:00 of that day', () => {
    const read = at('2026-11-18T15:00:00+01:00');
    for (const time of ['2026-11-18T16:00', '2026-11-18T23:59', '2026-11-19T00:30', '2026-11-19T05:59']) {
      expect(asks({ number: 3, day: '2026-11-19' }, read, at(`${time}:00+01:00`)), time).toBe(false);
    }
    expect(asks({ number: 3, day: '2026-11-19' }, read, at('2026-11-19T06:00:00+01:00'))).toBe(true);
  });

  it('with today’s number known, looks hourly during the day for the next one', () => {
    const now = at('2026-11-18T14:00:00+01:00');
    expect(asks({ number: 3, day: today }, now - HOUR, now)).toBe(true);
    expect(asks({ number: 3, day: today }, now - 30 * MINUTE, now)).toBe(false);
  });

  it('with today’s number known, does not look at night', () => {
    // Read after midnight: nothing until 06:00.
    const early = at('2026-11-18T00:59:00+01:00');
    expect(asks({ number: 3, day: today }, early, at('2026-11-18T05:59:00+01:00'))).toBe(false);
    expect(asks({ number: 3, day: today }, early, at('2026-11-18T06:00:00+01:00'))).toBe(true);
    // Read after 20:00: the next hourly look would fall after 21:00, and the night reads nothing for
    // age alone: the new day's number is asked for at 06:00.
    const evening = at('2026-11-18T20:30:00+01:00');
    for (const time of ['2026-11-18T21:00', '2026-11-18T23:59', '2026-11-19T00:00', '2026-11-19T05:59'])
      expect(asks({ number: 3, day: today }, evening, at(`${time}:00+01:00`)), time).toBe(false);
    expect(asks({ number: 3, day: today }, evening, at('2026-11-19T06:00:00+01:00'))).toBe(true);
  });
});

describe('the forms live schools answer (live-notes 8)', () => {
  const parse = (body: unknown) => luckyNumberResponse.parse(body);

  it('reads the list form like the object form, picking today’s or the next day’s number', () => {
    const list = parse({
      LuckyNumbers: [
        { LuckyNumber: 3, LuckyNumberDay: '2026-11-17' },
        { LuckyNumber: 15, LuckyNumberDay: '2026-11-19' },
      ],
    });
    expect(list.inUse).toBe(true);
    expect(pickLucky(list.entries, '2026-11-18')).toEqual({ number: 15, day: '2026-11-19' });
    expect(pickLucky(parse({ LuckyNumber: { LuckyNumber: 15, LuckyNumberDay: '2026-11-19' } }).entries, '2026-11-18')).toEqual({
      number: 15,
      day: '2026-11-19',
    });
  });

  it('reads {"LuckyNumber": null} as a school that does not use it, and renders in_use false and lucky_today unknown', () => {
    const answer = parse({ LuckyNumber: null });
    expect(answer).toEqual({ inUse: false, entries: [] });
    const states = renderLucky(luckyToday(undefined, '12', '2026-11-18', false));
    expect(states.lucky_number).toEqual({ state: null, attributes: { day: null, register_number: '12', mine: false, in_use: false } });
    // A flag of a module the school does not run is unknown, never OFF (interface 12.2).
    expect(states.lucky_today?.state).toBeNull();
    // In use, a day whose number is not the child's is OFF.
    expect(renderLucky(luckyToday({ number: 5, day: '2026-11-18' }, '12', '2026-11-18')).lucky_today!.state).toBe('OFF');
  });

  it('rejects a shape nobody has seen', () => {
    expect(luckyNumberResponse.safeParse({ Lucky: 5 }).success).toBe(false);
  });

  it('asks a school without it again only after a day', () => {
    const now = at('2026-11-18T10:00:00+01:00');
    expect(asks(undefined, now - 23 * HOUR, now, false)).toBe(false);
    expect(asks(undefined, now - 23.5 * HOUR, now, false)).toBe(false);
    expect(asks(undefined, now - 24 * HOUR + 10 * 60_000, now, false)).toBe(true);
    expect(asks(undefined, now - 24 * HOUR, now, false)).toBe(true);
  });
});
