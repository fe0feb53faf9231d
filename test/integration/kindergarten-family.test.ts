// A kindergarten child on the family road (issue 59 item 4): the family's e-mail account lists the preschool
// child beside her siblings; her plan is read with her bearer token where the portal serves it: the register's
// gateway path is tried (a 401 there is "not here", no token renewed for it), then the API host's, and the
// host that answered is remembered. The school children are read as before. Named by her login entry and the
// family's e-mail entry both (as in the demo), she has her plan at the first pass on either road.
// About 6 s of CPU alone (9 s with the default tiers, see POLL): three tests walk hours of passes of two children, from timer to timer.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';
import { expectOnlyWhatSheFills, changeFeedWatching } from '../helpers/kindergarten.js';

const ZOSIA = DEMO_ACCOUNTS[2]!;
// A Wednesday, before the kindergarten opens.
const school = simulatedSchool('2026-11-18T07:30:00+01:00');
// A family account linking a school child and the preschool child (the demo's own links the three).
const FAMILY = { email: 'kowalscy@example.com', password: 'demo-kowalscy' };
const linked = () => school.sim.families.add({ ...FAMILY, logins: [DEMO_ACCOUNTS[0]!.login, ZOSIA.login] });
/**
 * Every tier read every 20 minutes, for the tests that walk hours to show what is never asked again or
 * never listed: the plan's host, her lists and the family's logins do not depend on how often the
 * counters are read, and the default 3- and 5-minute passes of two children were most of the file's CPU.
 */
const INTERVALS = { fast_interval: '20m', school_interval: '20m' };
const lessons = (h: { attributes(c: string, k: string): Record<string, unknown> | undefined }, child: string) =>
  h.attributes(child, 'timetable_today')?.lessons as { subject: string; from: string; to: string }[] | undefined;

describe('a kindergarten child on the family road', () => {
  it('is listed beside her sister, and her plan is read at the host that serves her token', async () => {
    linked();
    const h = await school.start({ accounts: [FAMILY] as never, poll: INTERVALS });
    await h.runUntil(() => lessons(h, 'zofia')?.length === 5 && lessons(h, 'ania') !== undefined, 'both children');
    expect(h.app.runners.map((p) => p.id).sort()).toEqual(['ania', 'zofia']);
    expect(lessons(h, 'zofia')!.map((l) => `${l.from} ${l.subject}`)).toContain('08:30 rytmika');
    expect(h.state('zofia', 'problem')).toBe('OFF');
    const kept = JSON.parse(await readFile(join(h.dataDir, 'kindergarten', `${ZOSIA.login}.json`), 'utf8')) as Record<string, unknown>;
    expect(kept).toMatchObject({ state: 'found', host: 'api' });
    // The gateway path refused her token only in the search (once for each identifier tried), and is asked no more; no token renewed for it.
    const gateway = () => school.sim.count({ host: 'portal', path: /^\/gateway\/ms\//, login: ZOSIA.login });
    const api = () => school.sim.count({ host: 'auth', path: /^\/ms\/kindergartens\//, login: ZOSIA.login });
    expect(gateway()).toBe(2);
    expect(school.sim.requests.filter((r) => r.host === 'portal' && /^\/gateway\/ms\//.test(r.path)).every((r) => r.status === 401)).toBe(true);
    const renewals = school.sim.count({ host: 'family', path: /SynergiaAccounts\/fresh/ });
    const logins = school.sim.families.loginCount(FAMILY.email);
    await h.advanceMinutes(6 * 60);
    expect(gateway()).toBe(2);
    expect(api()).toBeGreaterThan(2);
    expect(school.sim.count({ host: 'family', path: /SynergiaAccounts\/fresh/ })).toBe(renewals);
    expect(school.sim.families.loginCount(FAMILY.email)).toBe(logins);
    // The school children: no kindergarten request on their behalf.
    for (const c of [DEMO_ACCOUNTS[0]!]) expect(school.sim.count({ path: /\/ms\/kindergartens\//, login: c.login })).toBe(0);
  }, 90_000);

  it('has her plan at the first pass when her login entry and the family e-mail entry both name her (the demo config)', async () => {
    linked();
    const accounts = [...[DEMO_ACCOUNTS[0]!, ZOSIA].map((c) => ({ login: c.login, password: c.password })), FAMILY];
    const h = await school.start({ accounts: accounts as never });
    await h.runUntil(() => lessons(h, 'ania') !== undefined && h.state('zofia', 'timetable_today') !== undefined, 'the first pass');
    // Read on the register road (her login works), her blocks found at its gateway path.
    expect(lessons(h, 'zofia')?.map((l) => `${l.from} ${l.subject}`)).toContain('08:30 rytmika');
    const kept = JSON.parse(await readFile(join(h.dataDir, 'kindergarten', `${ZOSIA.login}.json`), 'utf8')) as Record<string, unknown>;
    expect(kept).toMatchObject({ state: 'found', host: 'gateway', place: 'Auth/UserInfo' });
  }, 60_000);

  it('has her plan at the first pass on the family road when her register login fails (the demo with register-broken)', async () => {
    linked();
    school.sim.refuseLogin(ZOSIA.login, { message: 'Serwis chwilowo niedostępny', as: 'object' });
    const h = await school.start({ accounts: [{ login: ZOSIA.login, password: ZOSIA.password }, FAMILY] as never });
    await h.runUntil(() => h.state('zofia', 'timetable_today') !== undefined, 'the first pass');
    expect(h.attributes('zofia', 'problem')).toMatchObject({ road: 'family' });
    expect(lessons(h, 'zofia')?.map((l) => `${l.from} ${l.subject}`)).toContain('08:30 rytmika');
    const kept = JSON.parse(await readFile(join(h.dataDir, 'kindergarten', `${ZOSIA.login}.json`), 'utf8')) as Record<string, unknown>;
    expect(kept).toMatchObject({ state: 'found', host: 'api' });
  }, 60_000);

  it('lists only what her account can fill from her first discovery when no host serves her plan on the family road', async () => {
    linked();
    // live-notes 34: whether the family road reaches the plan service with her token is not shown; here it does not.
    school.sim.account(ZOSIA.login).kindergarten!.bearerAt = 'none';
    const h = await school.start({ accounts: [FAMILY] as never, poll: INTERVALS });
    await h.runUntil(() => h.state('zofia', 'problem') !== undefined && h.state('ania', 'average') !== undefined, 'the first pass');
    const configs = () =>
      h.rec
        .on(`${h.prefix}/device/${h.base}_zofia/config`)
        .flatMap((m) => (m.text === '' ? [] : [JSON.parse(m.text) as { cmps: Record<string, Record<string, unknown>> }]));
    const listed = (c: { cmps: Record<string, Record<string, unknown>> }) => Object.keys(c.cmps).filter((k) => Object.keys(c.cmps[k]!).length > 1);
    const school_lists = ['newest_grade', 'average', 'lucky_number', 'homework_due', 'homework_upcoming', 'upcoming_tests', 'attendance'];
    await h.advanceMinutes(10 * 60);
    // From her first discovery to the evening: none of the school's lists (her attendance among them, live-notes 58);
    // her messages, notices and free days stay.
    for (const config of configs()) expect(listed(config).filter((k) => school_lists.includes(k))).toEqual([]);
    expect(listed(configs()[0]!)).toEqual(expect.arrayContaining(['unread_messages', 'unread_notices', 'free_day', 'school', 'problem']));
    // Her sister keeps hers.
    expect(h.state('ania', 'homework_upcoming')).not.toBeUndefined();
  }, 60_000);

  it("declares none of the school's lists from her first discovery with the change feed watching; her sister keeps every component", async () => {
    // Her account answers as live-notes 58 says: the school's lists 403, Me without a class, her unit's grades off.
    linked();
    const h = await school.start({ accounts: [FAMILY] as never, poll: INTERVALS });
    await h.runUntil(() => h.state('zofia', 'problem') !== undefined && h.state('ania', 'average') !== undefined, 'the first pass');
    expect(await changeFeedWatching(h)).toEqual({ ania: true, zofia: true });
    await h.advanceMinutes(3 * 60);
    // From her first discovery to what the broker retains now: nothing a school list would fill; her sister, read on
    // the same road, keeps every such component.
    await expectOnlyWhatSheFills(h, ['unread_messages', 'unread_notices', 'timetable_today', 'free_day', 'school']);
  }, 60_000);

  it('lists no school list in her first discovery when her first pass fails, whole or in part (issue 80)', async () => {
    linked();
    // The portal's maintenance answers her first request for who she is, then her grades a pass later.
    school.sim.failNext(1, 503, { host: 'auth', path: '/3.0/Me', login: ZOSIA.login });
    school.sim.failNext(1, 503, { host: 'auth', path: '/3.0/Grades', login: ZOSIA.login });
    const h = await school.start({ accounts: [FAMILY] as never, poll: INTERVALS });
    await h.runUntil(() => h.state('zofia', 'problem') !== undefined && h.state('ania', 'average') !== undefined, 'the first pass');
    await h.advanceMinutes(60);
    const configs = h.rec
      .on(`${h.prefix}/device/${h.base}_zofia/config`)
      .flatMap((m) => (m.text === '' ? [] : [JSON.parse(m.text) as { cmps: Record<string, Record<string, unknown>> }]));
    const listed = (c: { cmps: Record<string, Record<string, unknown>> }) => Object.keys(c.cmps).filter((k) => Object.keys(c.cmps[k]!).length > 1);
    expect(configs.length).toBeGreaterThan(1);
    // The first discovery says she is there and why she is not read; none of them lists what her account cannot fill.
    expect(listed(configs[0]!)).toContain('problem');
    for (const config of configs) expect(listed(config).filter((k) => /grade|average|lucky|homework|tests|attendance/.test(k))).toEqual([]);
    expect(listed(configs.at(-1)!)).toEqual(expect.arrayContaining(['unread_messages', 'free_day', 'school', 'timetable_today']));
  }, 60_000);

  it('remembers the register gateway path when that is where her token is served', async () => {
    linked();
    school.sim.account(ZOSIA.login).kindergarten!.bearerAt = 'gateway';
    const h = await school.start({ accounts: [FAMILY] as never, poll: INTERVALS });
    await h.runUntil(() => lessons(h, 'zofia')?.length === 5, 'her plan');
    const kept = JSON.parse(await readFile(join(h.dataDir, 'kindergarten', `${ZOSIA.login}.json`), 'utf8')) as Record<string, unknown>;
    expect(kept).toMatchObject({ state: 'found', host: 'gateway' });
    // The API host was asked only for the parent's identifier (which no host serves), never again.
    const api = () => school.sim.count({ host: 'auth', path: /^\/ms\/kindergartens\//, login: ZOSIA.login });
    expect(api()).toBe(1);
    await h.advanceMinutes(4 * 60);
    expect(api()).toBe(1);
    expect(lessons(h, 'zofia')).toHaveLength(5);
  }, 60_000);
});
