// Watch, then list (issue 57, item 1): the portal's change feed names only what changed after its device
// was registered, so the device is registered (or the kept one confirmed) before the lists it covers are
// read, and every list it covers is read once more at once after a registration that follows a lost
// device. A grade, an announcement and a plan change made a minute after a first start (fresh data_dir,
// the family road, 17:00 on a school day, when the lists' own age is 20 minutes) reach MQTT within 5
// minutes; so do those made a minute after the portal forgot the device.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_FAMILY } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';
import type { Harness } from '../helpers/app.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
const FAMILY = [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }];
// A Wednesday, 17:00: after the lessons, the lists' own age is poll.interval (20 minutes).
const school = simulatedSchool('2026-11-18T17:00:00+01:00');

async function started(): Promise<Harness> {
  const h = await school.start({ accounts: FAMILY as never });
  await h.runUntil(
    () => ['ania', 'jan'].every((c) => h.state(c, 'newest_grade') !== undefined && h.state(c, 'plan_changes_tomorrow') !== undefined),
    'both children published',
  );
  return h;
}

const registrations = (login: string): number => school.sim.count({ host: 'auth', path: '/3.0/ChangeRegister', login });

describe('watch, then list', () => {
  it('a first start registers the device before it reads the lists: news a minute later reaches MQTT within 5 minutes', async () => {
    const h = await started();
    // Registered in the start's first pass, before its lists were read.
    expect([registrations(ANIA.login), registrations(JANEK.login)]).toEqual([1, 1]);
    const ania = school.sim.requests.filter((r) => r.login === ANIA.login);
    const registered = ania.findIndex((r) => r.path === '/3.0/ChangeRegister');
    const grades = ania.findIndex((r) => r.path === '/3.0/Grades');
    expect(registered).toBeGreaterThan(-1);
    expect(grades).toBeGreaterThan(registered);
    await h.advanceMinutes(1);
    expect(await school.newsMinutes(h, '2026-11-19')).toBeLessThanOrEqual(5);
  }, 90_000);

  it('a device the portal forgot is registered again and every list it covers read at once: news a minute later within 5 minutes', async () => {
    const h = await started();
    await h.advanceMinutes(12);
    for (const login of [ANIA.login, JANEK.login])
      for (const device of school.sim.account(login).changeFeed.deviceIds()) school.sim.account(login).changeFeed.forgetDevice(device);
    await h.advanceMinutes(1);
    expect(await school.newsMinutes(h, '2026-11-19')).toBeLessThanOrEqual(5);
    expect([registrations(ANIA.login), registrations(JANEK.login)]).toEqual([2, 2]);
  }, 90_000);

  it('a device kept in data_dir needs no registration: a restart reads the change feed and the lists in one pass', async () => {
    const h = await started();
    await h.advanceMinutes(6);
    const before = school.sim.requests.length;
    await h.restart();
    await h.runUntil(
      () => school.sim.requests.slice(before).some((r) => r.login === ANIA.login && r.path === '/3.0/Grades'),
      'the first pass after the restart',
    );
    const after = school.sim.requests.slice(before).filter((r) => r.login === ANIA.login);
    expect(after.filter((r) => r.path === '/3.0/ChangeRegister')).toHaveLength(0);
    const changeFeed = after.findIndex((r) => r.path === '/3.0/PushChanges');
    expect(changeFeed).toBeGreaterThan(-1);
    expect(changeFeed).toBeLessThan(after.findIndex((r) => r.path === '/3.0/Grades'));
    await h.advanceMinutes(1);
    expect(await school.newsMinutes(h, '2026-11-19')).toBeLessThanOrEqual(5);
  }, 90_000);
});
