// The real bridge with an `email` entry whose family login fails at start, against the simulator and
// the real broker on the fake clock: with the family portal down (503s) the children are listed again
// after 1, 2, 4 ... minutes, as a failed pass is retried, and read once the portal answers, without a
// restart; with a wrong password the login is posted once per pause window, never in between.
import { describe, expect, it } from 'vitest';
import { DEMO_FAMILY } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';

// A Wednesday in the first semester, during the second lesson.
const NOW = '2026-11-18T09:10:00+01:00';
const school = simulatedSchool(NOW);
const POSTS = { host: 'family', method: 'POST', path: '/konto-librus/login/action' } as const;

describe('an e-mail entry whose login fails at start', () => {
  it('brings its children once the family portal answers again, asking after 1, 2, 4 and 8 minutes', async () => {
    school.sim.failNext(4, 503, { host: 'family' });
    const started = school.clock.now();
    const h = await school.start({ accounts: [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }] as never });
    expect(h.app.runners).toHaveLength(0);
    await h.advanceMinutes(20);
    expect(h.app.runners.map((p) => p.id).sort()).toEqual(['ania', 'jan']);
    await h.runUntil(
      () => ['ania', 'jan'].every((c) => h.state(c, 'lucky_number') !== undefined && h.state(c, 'problem') === 'OFF'),
      'the first passes of both children',
    );
    // Each try met the maintenance page at the login form: no password went out until the portal was back.
    const forms = school.sim.requests.filter((r) => r.host === 'family' && r.path === '/konto-librus/login').map((r) => (r.at - started) / 60_000);
    expect(forms.map((m) => Math.round(m - forms[0]!))).toEqual([0, 1, 3, 7, 15]);
    expect([school.sim.count(POSTS), school.sim.families.loginCount()]).toEqual([1, 1]);
  });

  it('posts a wrong password once per pause window, and lists nobody meanwhile', async () => {
    const h = await school.start({ accounts: [{ email: DEMO_FAMILY.email, password: 'wrong' }] as never });
    await h.advanceMinutes(59);
    expect(school.sim.count(POSTS)).toBe(1);
    await h.advanceMinutes(2);
    expect(school.sim.count(POSTS)).toBe(2);
    await h.advanceMinutes(60);
    expect(school.sim.count(POSTS)).toBe(3);
    expect(h.app.runners).toHaveLength(0);
  });
});
