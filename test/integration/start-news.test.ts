// News within 5 minutes in lessons from the first minute after a start, on both roads: a grade, an
// announcement and a plan change of the next school day added 30 seconds after both children were first
// published reach MQTT within 5 minutes (the first re-read of a list a start read is at its news age
// from that read, not later).
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_FAMILY } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';
import type { Harness } from '../helpers/app.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
// A Wednesday in the first semester, during the second lesson (lessons until the afternoon).
const school = simulatedSchool('2026-11-18T09:10:00+01:00');
const MINUTE = 60_000;

const ROADS = {
  register: [ANIA, JANEK].map((c) => ({ login: c.login, password: c.password })),
  family: [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }],
};

/** Minutes from `since` until check() holds, the clock moved second by second in minute steps (at most 10). */
async function minutesUntil(h: Harness, since: number, check: () => boolean): Promise<number> {
  for (let step = 0; step < 10 * 60 && !check(); step += 15) await h.advanceMinutes(0.25);
  expect(check()).toBe(true);
  return (school.clock.now() - since) / MINUTE;
}

const CASES = (Object.keys(ROADS) as (keyof typeof ROADS)[]).flatMap((road) => [0.5, 1.5, 3, 4.5].map((after) => [road, after] as const));

describe('news right after a start', () => {
  it.each(CASES)('on the %s road, added %s minutes after the first publish, reaches MQTT within 5 minutes', async (road, after) => {
    const h = await school.start({ accounts: ROADS[road] as never });
    await h.pollUntil(() => ['ania', 'jan'].every((c) => h.state(c, 'newest_grade') !== undefined && h.state(c, 'plan_changes_tomorrow') !== undefined), 'both children published');
    const notices = Number(h.state('ania', 'unread_notices'));
    const changes = Number(h.state('jan', 'plan_changes_tomorrow'));
    await h.advanceMinutes(after);
    const added = school.clock.now();
    school.sim.account(ANIA.login).addGrade({ subject: 5012, category: 301, grade: '2' });
    school.sim.account(ANIA.login).addNotice({ Subject: 'Wywiadówka', Content: 'Zapraszamy w piątek.' });
    school.sim.account(JANEK.login).addPlanChange({ kind: 'cancelled', OrgDate: '2026-11-19', OrgLessonNo: 2 });
    const grade = await minutesUntil(h, added, () => h.state('ania', 'newest_grade') === '2');
    const notice = await minutesUntil(h, added, () => Number(h.state('ania', 'unread_notices')) === notices + 1);
    const change = await minutesUntil(h, added, () => Number(h.state('jan', 'plan_changes_tomorrow')) === changes + 1);
    expect(Math.max(grade, notice, change)).toBeLessThanOrEqual(5);
  }, 90_000);
});
