// The demo's simulated school left running for a week (issue 122): its news goes to every child in turn, the
// kindergarten child included, on the demo's own timing, without an error. It died at the third round (the
// kindergarten child's first) when a round took for granted that every child has lessons to be graded in.
import { describe, expect, it } from 'vitest';
import { demoLife, demoSchool } from '../../../src/app/demo/demo.js';
import { DEMO_ACCOUNTS, type LifeRound } from '../../../src/simulator/index.js';
import { FakeClock } from '../../helpers/clock.js';

const MINUTE = 60_000;
const WEEK = 7 * 24 * 60 * MINUTE;
// A Monday morning: the week runs through school days, nights and a weekend.
const START = '2026-11-16T08:00:00+01:00';

describe('the demo left running for a week', () => {
  it('gives every child its news every round, the kindergarten child its messages and announcements', async () => {
    const clock = new FakeClock(START);
    const school = demoSchool({ now: () => clock.now() });
    const rounds: LifeRound[] = [];
    const zosia = DEMO_ACCOUNTS.find((a) => a.profile === 'zosia')!.login;
    const before = { inbox: school.simulator.messaging.box(zosia, 'inbox').length, notices: school.simulator.account(zosia).notices.length };
    // The Warsaw day (UTC+1 in November) of each of Ania's rounds that changed her plan.
    const changedOn = new Set<string>();
    const life = demoLife(school, clock, undefined, (round) => {
      rounds.push(round);
      if (round.child === 'Ania' && round.planChange) changedOn.add(new Date(clock.now() + 3_600_000).toISOString().slice(0, 10));
    });
    life.start();
    await clock.advance(WEEK);
    life.stop();

    // The first a minute in, then one every 3 minutes: 3,360 rounds, one child in turn.
    expect(rounds).toHaveLength(3360);
    const byChild = new Map<string, LifeRound[]>();
    for (const round of rounds) byChild.set(round.child, [...(byChild.get(round.child) ?? []), round]);
    expect([...byChild.keys()]).toEqual(['Ania', 'Jan', 'Zofia']);
    expect([...byChild.values()].map((its) => its.length)).toEqual([1120, 1120, 1120]);
    // The pupils are graded every round; the kindergarten keeps no grades and no timetable to change.
    expect(['Ania', 'Jan'].map((child) => byChild.get(child)!.every((round) => round.grade !== undefined))).toEqual([true, true]);
    expect(byChild.get('Zofia')!.filter((round) => round.grade !== undefined || round.planChange !== undefined)).toEqual([]);
    // Plan changes keep coming all week: on each weekday a new school day comes within the four weeks ahead (none
    // at the weekend, when the day four weeks on is a Saturday or a Sunday).
    expect([...changedOn]).toEqual(['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-23']);
    // What the parent of the kindergarten child sees: every round's message and announcement in the portal.
    expect(school.simulator.messaging.box(zosia, 'inbox').length - before.inbox).toBe(1120);
    expect(school.simulator.account(zosia).notices.length - before.notices).toBe(1120);
  });
});
