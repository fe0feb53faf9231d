// Every read of the register a pass makes is one row of the fetch plan's table: over a school day and
// a night of both demo children's passes (and a refresh), no resource is asked for with a bare age of
// its own. The lookups (names, categories, comments) were read so until this round.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
// A Wednesday in the first semester, during the second lesson.
const school = simulatedSchool('2026-11-18T09:10:00+01:00');

describe('the fetch plan is the table', () => {
  it('asks the register for nothing outside a row of it', async () => {
    const h = await school.start({ accounts: [ANIA, JANEK].map((c) => ({ login: c.login, password: c.password })) });
    await h.pollUntil(() => ['ania', 'jan'].every((c) => h.state(c, 'newest_grade') !== undefined), 'the first polls');
    await h.rec.publish(`${h.base}/ania/refresh/set`, '');
    await h.advanceMinutes(6 * 60);
    expect(school.sim.count({ path: /^\/gateway\/api\/2\.0\/(Subjects|Users|Grades\/Categories)$/ })).toBeGreaterThan(0);
    for (const poller of h.app.pollers) expect(poller.access.cache.readsOutsideTable(), poller.id).toEqual([]);
  }, 90_000);
});
