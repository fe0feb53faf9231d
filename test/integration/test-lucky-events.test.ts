// The `test` and `lucky` events of the real bridge against the simulated portal and the real broker:
// one event per new test and per lucky day, none again after a restart or on a later read.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import type { Harness } from '../helpers/app.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson; Ania's class register number is 12.
const NOW = '2026-11-18T09:10:00+01:00';

const school = simulatedSchool(NOW);
const firstPass = () => school.firstPasses(['last_update', 'lucky_number']);

const reads = (endpoint: string): number => school.sim.count({ path: `/gateway/api/2.0/${endpoint}` });
const payloads = (harness: Harness, kind: string): unknown[] => harness.rec.on(`${harness.base}/ania/event/${kind}`).map((m) => JSON.parse(m.text));

describe('test event', () => {
  it('fires once for a test added to the agenda, and not again after a restart', async () => {
    const h = await firstPass();
    expect(payloads(h, 'test')).toEqual([]); // the first run primes the memory with the tests already there
    await h.advanceMinutes(20);
    school.sim.account(ANIA.login).addTest({ date: '2026-11-24', content: 'Sprawdzian: ułamki, rozdział 4.' });
    await h.advanceMinutes(20);
    expect(payloads(h, 'test')).toEqual([
      {
        event_type: 'test',
        child: 'ania',
        child_name: 'Ania',
        date: '2026-11-24',
        time: '08:55',
        time_to: '09:40',
        subject: 'Matematyka',
        kind: 'test',
        category: 'Sprawdzian',
        description: 'Sprawdzian: ułamki, rozdział 4.',
        teacher: 'Piotr Wiśniewski',
      },
    ]);

    const before = reads('HomeWorks');
    await h.restart();
    // runUntil returns once that pass has finished and its messages have reached the recorder.
    await h.runUntil(() => reads('HomeWorks') > before, 'the agenda read after the restart');
    expect(payloads(h, 'test')).toHaveLength(1);
  });
});

describe('lucky event', () => {
  it('fires once for the day the number is the child’s, not after a restart nor on that day’s re-read', async () => {
    const account = school.sim.account(ANIA.login);
    account.setLuckyNumber(7, '2026-11-18');
    const h = await firstPass();
    expect(h.state('ania', 'lucky_today')).toBe('OFF');

    // Thursday's number is published on Wednesday, and it is Ania's.
    account.setLuckyNumber(12, '2026-11-19');
    await h.advanceMinutes(60); // the hourly look for the next day's number
    expect(h.state('ania', 'lucky_number')).toBe('12');
    const thursday = { event_type: 'lucky', child: 'ania', child_name: 'Ania', day: '2026-11-19', number: 12, register_number: '12' };
    expect(payloads(h, 'lucky')).toEqual([thursday]);

    let before = reads('LuckyNumbers');
    await h.restart();
    await h.runUntil(() => reads('LuckyNumbers') > before, 'the lucky number read after the restart');
    // Still Wednesday: Thursday's number is not today's luck yet (spec 2.9).
    expect(h.state('ania', 'lucky_today')).toBe('OFF');
    expect(payloads(h, 'lucky')).toEqual([thursday]);

    // Thursday morning: the number is read again on its own day (the timers fire late, as after a sleep).
    before = reads('LuckyNumbers');
    school.clock.set('2026-11-19T07:05:00+01:00');
    await h.advanceMinutes(5);
    await h.runUntil(() => reads('LuckyNumbers') > before, 'Thursday’s read of the lucky number');
    expect(h.state('ania', 'lucky_today')).toBe('ON');
    expect(payloads(h, 'lucky')).toEqual([thursday]);

    // Friday's number is Ania's too: a new day, a new event.
    account.setLuckyNumber(12, '2026-11-20');
    await h.advanceMinutes(60);
    expect(payloads(h, 'lucky')).toEqual([thursday, { ...thursday, day: '2026-11-20' }]);
  });
});

describe('lucky_today', () => {
  it('is OFF over the weekend when Monday’s number, shown from Friday afternoon, is the child’s, and ON on Monday', async () => {
    await school.reopen('2026-11-20T16:00:00+01:00');
    // After 15:00 on a school day the portal shows the next school day's number: Monday's, Ania's 12.
    school.sim.account(ANIA.login).setLuckyNumber(12);
    const h = await firstPass();
    expect(h.state('ania', 'lucky_number')).toBe('12');
    expect(h.attributes('ania', 'lucky_number')).toMatchObject({ day: '2026-11-23', register_number: '12' });
    expect(h.state('ania', 'lucky_today')).toBe('OFF');

    // Saturday noon: still not her day.
    school.clock.set('2026-11-21T12:00:00+01:00');
    await h.advanceMinutes(5);
    expect(h.state('ania', 'lucky_today')).toBe('OFF');

    // Monday, just after midnight: ON from the start of its day, before any new look at the portal.
    school.clock.set('2026-11-22T23:58:00+01:00');
    await h.advanceMinutes(3);
    expect(h.state('ania', 'lucky_today')).toBe('ON');
    expect(h.attributes('ania', 'lucky_number')).toMatchObject({ day: '2026-11-23' });
  });
});
