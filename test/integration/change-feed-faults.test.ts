// Every way the change feed fails leaves the bridge reading as without it (live-notes 28-32): a refused
// registration (400, or 403 as behind the paid add-on) is tried again the next day, a device the portal
// forgot is registered again once (twice forgotten: tomorrow), the change feed in maintenance or failing is read
// again until it answers; meanwhile the lists are read at their own ages, the news still arrives, and
// the diagnostics say per child why the change feed is off.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_FAMILY } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';
import type { Harness } from '../helpers/app.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const FAMILY = [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }];
// A Wednesday in the first semester, during the second lesson: news every 5 minutes without the change feed.
const school = simulatedSchool('2026-11-18T09:10:00+01:00');

interface ChangeFeedPart {
  on: boolean;
  why_not: string | null;
}

async function started(poll?: Record<string, string>): Promise<Harness> {
  const h = await school.start({ accounts: FAMILY as never, ...(poll ? { poll } : {}) });
  await h.runUntil(() => ['ania', 'jan'].every((c) => h.state(c, 'newest_grade') !== undefined), 'both children published');
  // The device is registered in the start's first pass, before the lists it covers (watch, then list).
  await h.advanceMinutes(5);
  return h;
}

async function changeFeedOf(h: Harness, child = 'ania'): Promise<ChangeFeedPart | null> {
  const bundle = JSON.parse(await h.app.diagnostics()) as { children: { id: string; change_feed: ChangeFeedPart | null }[] };
  return bundle.children.find((c) => c.id === child)?.change_feed ?? null;
}

/** A grade added now reaches Home Assistant within the news age of lessons, by reading. */
async function gradeArrives(h: Harness, grade: string): Promise<void> {
  school.sim.account(ANIA.login).addGrade({ subject: 5012, category: 301, grade });
  await h.advanceUntil(() => h.state('ania', 'newest_grade') === grade, `grade ${grade}`, 5);
}

const registrations = (): number => school.sim.count({ host: 'auth', path: '/3.0/ChangeRegister', login: ANIA.login });

describe('the change feed failing', () => {
  // Both refusals are one ChangeFeedRefusedError, and the bridge's retry a day later (engine/change-feed/child.ts refuse(),
  // which says "tried again tomorrow") does not look at the status: the simulated day that shows the
  // retry runs once, for 400 (24 simulated hours of passes, proved it again for 403). The unread counters
  // are read every 20 minutes (the retry is a day later however often they are; every 3 minutes they were
  // most of this test's CPU); the news still comes at the lessons' 5 minutes.
  it.each([400, 403] as const)(
    'a registration refused with %i: reading as without it, tried again the next day',
    async (status) => {
      school.sim.account(ANIA.login).changeFeed.refuseRegistration(status);
      const h = await started({ fast_interval: '20m' });
      expect(await changeFeedOf(h)).toMatchObject({
        on: false,
        why_not: expect.stringMatching(/^refused on the family road \(.+\); tried again tomorrow$/) as unknown,
      });
      expect(await changeFeedOf(h, 'jan')).toMatchObject({ on: true });
      await gradeArrives(h, '2');
      expect(registrations()).toBe(1);
      if (status === 403) return;
      await h.advanceMinutes(12 * 60);
      expect(registrations()).toBe(1);
      school.sim.account(ANIA.login).changeFeed.refuseRegistration(null);
      // Refused in the first pass (09:10): tried again from 09:10 the next day and not before, though the portal
      // would take it now. Still once at 09:00 at the latest (the clock stood at 09:16 to 09:20 before the 12 hours),
      // then registered within the next half hour of the lessons' 5-minute passes: no longer walk shows more.
      await h.advanceMinutes(11 * 60 + 40);
      expect(registrations()).toBe(1);
      await h.advanceMinutes(30);
      expect(registrations()).toBe(2);
      expect(await changeFeedOf(h)).toMatchObject({ on: true });
    },
    120_000,
  );

  it('a device the portal forgot: registered again once; forgotten again, reading until the next day', async () => {
    const h = await started();
    const changeFeed = school.sim.account(ANIA.login).changeFeed;
    changeFeed.forgetDevice(changeFeed.deviceIds()[0]!);
    await h.advanceMinutes(6);
    expect(registrations()).toBe(2);
    expect(await changeFeedOf(h)).toMatchObject({ on: true });
    changeFeed.forgetDevice(changeFeed.deviceIds()[0]!);
    await h.advanceMinutes(6);
    expect(registrations()).toBe(2);
    expect(await changeFeedOf(h)).toMatchObject({ on: false, why_not: expect.stringContaining('forgotten twice') as unknown });
    await gradeArrives(h, '3');
  }, 120_000);

  it.each([
    ['in maintenance', 503],
    ['failing', 500],
  ] as const)(
    'the feed %s: reading as without it until it answers, then on again',
    async (_what, status) => {
      const h = await started();
      school.sim.failNext(1000, status, { host: 'auth', path: '/3.0/PushChanges' });
      await h.advanceMinutes(6);
      expect(await changeFeedOf(h)).toMatchObject({ on: false, why_not: expect.stringContaining('not answering') as unknown });
      expect(h.state('ania', 'problem')).toBe('OFF');
      await gradeArrives(h, '4');
      school.sim.clearFaults();
      await h.advanceMinutes(6);
      expect(await changeFeedOf(h)).toMatchObject({ on: true, why_not: null });
    },
    120_000,
  );
});
