// The class calendar as a cheap signal: lists whose ids it vouches for are not read on every poll,
// yet a new test or a new plan change still shows within one poll.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PortalSimulator, DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { FakeClock } from '../../src/util/clock.js';
import { startHarness, type Harness } from '../helpers/app.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson.
const NOW = '2026-11-18T09:10:00+01:00';
const API = '/gateway/api/2.0/';

let sim: PortalSimulator;
let clock: FakeClock;
let h: Harness | undefined;

beforeEach(async () => {
  clock = new FakeClock(NOW);
  sim = new PortalSimulator({ now: () => clock.now() });
  await sim.start();
});

afterEach(async () => {
  await h?.stop();
  h = undefined;
  await sim.stop();
});

async function firstPoll(): Promise<Harness> {
  h = await startHarness({ sim, clock, accounts: [{ login: ANIA.login, password: ANIA.password }] });
  const harness = h;
  await harness.pollUntil(() => harness.state('ania', 'last_update') !== undefined, 'the first full poll');
  return harness;
}

/** Requests for one gateway resource so far (Timetables for every week counted together). */
const reads = (endpoint: string): number => sim.requests.filter((r) => r.host === 'portal' && r.path === `${API}${endpoint}`).length;

describe('class calendar signal', () => {
  it('skips the agenda, the timetable and the plan changes while their ids stay the same', async () => {
    const h = await firstPoll();
    const before = { homeWorks: reads('HomeWorks'), timetables: reads('Timetables'), changes: reads('Calendars/Substitutions'), grades: reads('Grades') };
    await h.advanceMinutes(20);
    expect(reads('Grades')).toBe(before.grades + 1); // a normal poll did run
    expect(reads('HomeWorks')).toBe(before.homeWorks);
    expect(reads('Timetables')).toBe(before.timetables);
    expect(reads('Calendars/Substitutions')).toBe(before.changes);
    // An edit keeps the ids, so an unchanged list is still read again within the hour.
    await h.advanceMinutes(40);
    expect(reads('HomeWorks')).toBe(before.homeWorks + 1);
  });

  it('shows a new test at the next poll', async () => {
    const h = await firstPoll();
    const tests = Number(h.state('ania', 'upcoming_tests'));
    await h.advanceMinutes(20);
    sim.account(ANIA.login).addRecord('HomeWorks', {
      Id: 3399,
      Content: 'Sprawdzian: przyroda, rozdział 4.',
      Date: '2026-11-24',
      Category: '@HomeWorks/Categories/1',
      LessonNo: '3',
      TimeFrom: '09:50:00',
      TimeTo: '10:35:00',
      CreatedBy: '@Users/162002',
      Class: '@Classes/7104',
      Subject: '@Subjects/5012',
      AddDate: '2026-11-18 09:35:00',
    });
    await h.advanceMinutes(20);
    expect(h.state('ania', 'upcoming_tests')).toBe(String(tests + 1));
  });

  it('shows a new plan change for tomorrow at the next poll', async () => {
    const h = await firstPoll();
    const changes = Number(h.state('ania', 'plan_changes_tomorrow'));
    await h.advanceMinutes(20);
    sim.account(ANIA.login).addPlanChange({ kind: 'cancelled', OrgDate: '2026-11-19', OrgLessonNo: 6 });
    const events = h.rec.on(`${h.base}/ania/event/plan_change`).length;
    await h.advanceMinutes(20);
    expect(h.state('ania', 'plan_changes_tomorrow')).toBe(String(changes + 1));
    expect(h.rec.on(`${h.base}/ania/event/plan_change`).length).toBe(events + 1);
  });

  it('reads the lists on every poll when the portal refuses the calendar', async () => {
    sim.account(ANIA.login).setModuleStatus('Calendars/*', 403);
    const h = await firstPoll();
    const before = { homeWorks: reads('HomeWorks'), timetables: reads('Timetables') };
    await h.advanceMinutes(20);
    expect(reads('HomeWorks')).toBe(before.homeWorks + 1);
    expect(reads('Timetables')).toBe(before.timetables + 1);
    expect(h.state('ania', 'problem')).toBe('OFF');
  });
});
