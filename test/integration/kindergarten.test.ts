// A kindergarten child on the register road (issue 59 items 1-2, live-notes 33-36), the real bridge against
// the simulator and the real broker on the fake clock: Timetables refused, the plan's identifier searched in
// the live notes' order and remembered in data_dir, the day's blocks in timetable_today and the next school
// day's, the school-day sensors and the briefing; a search that fails (the plan service down) is tried again
// within minutes, one that finds nothing a day later; the service's 500 is `service_down`; the school child
// beside her exactly as before.
// Her device holds only what her account can fill (issue 65): known for one by her first pass (her plan found), she
// is announced then, without the grades, homework, lucky number and the rest the portal refuses a preschool child,
// never with them, and with the model line "Przedszkole"; a school child refused a module once keeps its entities
// (a module leaves a school child only after refusals a day apart).
// One test walks a simulated night of passes every 20 minutes, from timer to timer (the file about 6.5 s of CPU alone).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';
import type { Harness } from '../helpers/app.js';
import { expectOnlyWhatSheFills, changeFeedWatching } from '../helpers/kindergarten.js';

const [ANIA, ZOSIA] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[2]!];
// A Wednesday, before the kindergarten opens.
const school = simulatedSchool('2026-11-18T07:30:00+01:00');
const account = (c: { login: string; password: string }) => ({ login: c.login, password: c.password });
const KINDERGARTEN_PLAN_PATH = /^\/gateway\/ms\/kindergartens\/timetable\/kindergarteners\//;

/** What the diagnostics will say of her plan: the figures the bridge saved after its last pass. */
async function kindergartenPlanFigures(dataDir: string): Promise<Record<string, unknown> | undefined> {
  const text = await readFile(join(dataDir, 'figures', `${ZOSIA.login}.json`), 'utf8').catch(() => '{}');
  return (JSON.parse(text) as { plan?: Record<string, unknown> }).plan;
}

type Block = { no: number | null; number?: null; from: string; to: string; subject: string; room: string | null; teachers?: string[]; kind?: string };

describe('a kindergarten child on the register road', () => {
  it('finds her plan by her identifier, shows every block of the day, and asks Timetables no more', async () => {
    // Every tier every 20 minutes: her day's 24 passes and more are as many chances to ask Timetables again, and the
    // default 3- and 5-minute passes of the 8 hours were most of this test's CPU.
    const poll = { fast_interval: '20m', school_interval: '20m' };
    const h = await school.start({ accounts: [account(ZOSIA)], language: 'pl', poll });
    await h.runUntil(() => (h.attributes('zofia', 'timetable_today')?.lessons as unknown[] | undefined)?.length === 5, 'her plan');
    const today = h.attributes('zofia', 'timetable_today') as { date: string; lessons: Block[] };
    expect(today.date).toBe('2026-11-18');
    expect(today.lessons.map((l) => `${l.from}-${l.to} ${l.subject}`)).toEqual([
      '08:00-08:30 zajęcia poranne',
      '08:30-09:15 rytmika',
      '09:30-11:00 spacer',
      '11:00-11:45 obiad',
      '11:45-12:30 odpoczynek',
    ]);
    expect(today.lessons[1]).toMatchObject({ no: null, number: null, room: 'sala 2', teachers: ['Iwona Wrona'], kind: 'planned' });
    expect(today.lessons[4]!.teachers).toEqual(['Beata Sikora', 'Iwona Wrona']);
    expect(h.state('zofia', 'timetable_today')).toBe('5');
    expect(h.state('zofia', 'school_day_today')).toBe('ON');
    expect(h.state('zofia', 'lessons_start_today')).toBe('2026-11-18T08:00:00+01:00');
    expect(h.state('zofia', 'lessons_end_today')).toBe('2026-11-18T12:30:00+01:00');
    expect((h.attributes('zofia', 'timetable_tomorrow') as { date: string }).date).toBe('2026-11-19');
    expect(h.state('zofia', 'lessons_start_tomorrow')).toBe('2026-11-19T08:00:00+01:00');
    expect(h.state('zofia', 'briefing')).toMatch(/^Dziś 8:00–12:30 w przedszkolu: zajęcia poranne, rytmika, spacer, obiad, odpoczynek\.$/);
    // The year's plan changes are refused her (a kindergarten's plan has none to tell): her device has no such sensor, never a 0.
    const device = h.rec.json(`${h.prefix}/device/${h.base}_zofia/config`) as { cmps: Record<string, object> };
    expect([device.cmps.plan_changes_today, device.cmps.plan_changes_tomorrow]).toEqual([undefined, undefined]);
    expect([h.state('zofia', 'plan_changes_today'), h.state('zofia', 'plan_changes_tomorrow')]).toEqual([undefined, undefined]);

    // The search's answer is kept: the identifier was in Auth/UserInfo (not in Me), the gateway's host answered.
    const kept = JSON.parse(await readFile(join(h.dataDir, 'kindergarten', `${ZOSIA.login}.json`), 'utf8')) as Record<string, unknown>;
    expect(kept).toMatchObject({ state: 'found', place: 'Auth/UserInfo', host: 'gateway', lid: school.sim.account(ZOSIA.login).childLid });
    await h.advanceMinutes(1);
    expect(await kindergartenPlanFigures(h.dataDir)).toEqual({
      account_kind: 'kindergarten',
      plan_source: { identifier: 'Auth/UserInfo', host: 'gateway' },
    });
    // Timetables was refused once, and is asked no more through a day of passes.
    const timetables = () => school.sim.count({ path: /^\/gateway\/api\/2\.0\/Timetables$/, login: ZOSIA.login });
    expect(timetables()).toBe(1);
    const kindergartenPlanReads = school.sim.count({ path: KINDERGARTEN_PLAN_PATH, login: ZOSIA.login });
    // The search asked the plan service for each identifier (the parent's refused, hers with entries), and that answer
    // is the fortnight's plan shown: not asked for a third time at the start (a start at most 3 requests above a pupil's).
    expect(school.sim.requests.filter((r) => KINDERGARTEN_PLAN_PATH.test(r.path) && r.login === ZOSIA.login).map((r) => r.status)).toEqual([
      403, 200,
    ]);
    await h.advanceMinutes(8 * 60);
    expect(timetables()).toBe(1);
    // A few reads of the plan by day (a kindergarten's plan changes rarely), each answered.
    const later = school.sim.requests.filter((r) => KINDERGARTEN_PLAN_PATH.test(r.path) && r.login === ZOSIA.login).slice(kindergartenPlanReads);
    expect(later.length).toBeGreaterThan(0);
    expect(later.length).toBeLessThanOrEqual(4);
    expect(later.every((r) => r.status === 200)).toBe(true);

    // A restart neither searches nor asks Timetables: the kept answer is read once.
    const before = school.sim.count({ path: KINDERGARTEN_PLAN_PATH, login: ZOSIA.login });
    await h.restart();
    await h.advanceMinutes(2);
    expect(timetables()).toBe(1);
    expect(school.sim.count({ path: KINDERGARTEN_PLAN_PATH, login: ZOSIA.login }) - before).toBeLessThanOrEqual(1);
    expect((h.attributes('zofia', 'timetable_today')!.lessons as unknown[]).length).toBe(5);
  }, 60_000);

  it('looks in Me first when the identifier is there, and leaves the school child as she was', async () => {
    school.sim.account(ZOSIA.login).kindergarten!.identifierIn = 'me';
    const h = await school.start({ accounts: [account(ANIA), account(ZOSIA)] });
    await h.runUntil(
      () =>
        (h.attributes('zofia', 'timetable_today')?.lessons as unknown[] | undefined)?.length === 5 &&
        h.state('ania', 'timetable_today') !== undefined,
      'both plans',
    );
    const kept = JSON.parse(await readFile(join(h.dataDir, 'kindergarten', `${ZOSIA.login}.json`), 'utf8')) as Record<string, unknown>;
    expect(kept).toMatchObject({ state: 'found', place: 'Me' });
    // One plan request found her (her own identifier, the first tried), and its answer is the fortnight shown.
    expect(school.sim.count({ path: KINDERGARTEN_PLAN_PATH, login: ZOSIA.login })).toBe(1);
    // The school child: lessons with numbers, no kindergarten field, no kindergarten request.
    const ania = h.attributes('ania', 'timetable_today') as { lessons: Record<string, unknown>[] };
    expect(ania.lessons[0]!.no).toBe(1);
    expect(ania.lessons.some((l) => 'kind' in l || 'teachers' in l || 'number' in l)).toBe(false);
    expect(school.sim.count({ path: /\/ms\/kindergartens\//, login: ANIA.login })).toBe(0);
  }, 60_000);

  it('takes a plan service that is down for a failed search, tried again within minutes, not for "nothing found"', async () => {
    const kg = school.sim.account(ZOSIA.login).kindergarten!;
    kg.kindergartenPlanDown = true;
    const h = await school.start({ accounts: [account(ZOSIA)] });
    await h.runUntil(() => h.state('zofia', 'problem') !== undefined, 'the first pass');
    await h.advanceMinutes(1);
    const tries = () => school.sim.count({ path: KINDERGARTEN_PLAN_PATH, login: ZOSIA.login });
    const failed = tries();
    expect(failed).toBeGreaterThan(0);
    expect(h.state('zofia', 'problem')).toBe('OFF');
    const figures = await kindergartenPlanFigures(h.dataDir);
    // Her Me names no class: a kindergarten child, her plan not found yet (interface 12.2's plan_search).
    expect(figures).toMatchObject({ account_kind: 'kindergarten', plan_search: { state: 'failed' } });
    const next = Date.parse((figures!.plan_search as { next: string }).next) - school.clock.now();
    expect(next).toBeGreaterThan(0);
    expect(next).toBeLessThanOrEqual(5 * 60_000);
    // Nothing kept for a failed search.
    await expect(readFile(join(h.dataDir, 'kindergarten', `${ZOSIA.login}.json`), 'utf8')).rejects.toThrow();
    kg.kindergartenPlanDown = false;
    await h.advanceUntil(() => (h.attributes('zofia', 'timetable_today')?.lessons as unknown[] | undefined)?.length === 5, 'her plan', 10);
    expect(tries()).toBeGreaterThan(failed);
  }, 60_000);

  it("tells her plan service's 500 as the service down, as a school list's 500, keeping her blocks", async () => {
    const h = await school.start({ accounts: [account(ZOSIA)] });
    await h.runUntil(() => h.state('zofia', 'timetable_today') === '5', 'her plan');
    const kg = school.sim.account(ZOSIA.login).kindergarten!;
    [kg.kindergartenPlanDown, kg.downStatus] = [true, 500];
    // A restart reads her plan afresh (where the last search found it): the service answers 500.
    const kindergartenPlanReads = school.sim.count({ path: KINDERGARTEN_PLAN_PATH, login: ZOSIA.login });
    await h.restart();
    await h.advanceMinutes(1);
    expect(school.sim.count({ path: KINDERGARTEN_PLAN_PATH, login: ZOSIA.login })).toBeGreaterThan(kindergartenPlanReads);
    expect(h.state('zofia', 'problem')).toBe('ON');
    expect(h.attributes('zofia', 'problem')).toMatchObject({ reason: 'service_down' });
    expect(h.state('zofia', 'timetable_today')).toBe('5');
  }, 60_000);

  it('searches again only a day later when no identifier answers with entries', async () => {
    // No block this fortnight for anyone: every place answers, none has entries.
    const kg = school.sim.account(ZOSIA.login).kindergarten!;
    const week = kg.fixture.week;
    kg.fixture.week = {};
    // Every tier every 20 minutes: the search's next moment is its own, however often the passes come.
    const h = await school.start({ accounts: [account(ZOSIA)], poll: { fast_interval: '20m', school_interval: '20m' } });
    await h.runUntil(() => h.state('zofia', 'problem') !== undefined, 'the first pass');
    await h.advanceMinutes(1);
    const kept = JSON.parse(await readFile(join(h.dataDir, 'kindergarten', `${ZOSIA.login}.json`), 'utf8')) as Record<string, unknown>;
    expect(kept).toMatchObject({ state: 'nothing' });
    const figures = await kindergartenPlanFigures(h.dataDir);
    expect(figures).toMatchObject({
      account_kind: 'kindergarten',
      plan_search: { state: 'nothing', next: expect.stringMatching(/^2026-11-19T07:3/) as string },
    });
    const tries = school.sim.count({ path: KINDERGARTEN_PLAN_PATH, login: ZOSIA.login });
    await h.advanceMinutes(6 * 60);
    expect(school.sim.count({ path: KINDERGARTEN_PLAN_PATH, login: ZOSIA.login })).toBe(tries);
    kg.fixture.week = week;
    // Not tried again before the moment it named, the night passed pass by pass (advanceMinutes jumps from
    // timer to timer: a thousand minute steps there were most of this file's time)...
    const next = Date.parse((figures!.plan_search as { next: string }).next);
    await h.advanceMinutes((next - school.clock.now()) / 60_000 - 5);
    expect(school.sim.count({ path: KINDERGARTEN_PLAN_PATH, login: ZOSIA.login })).toBe(tries);
    // ...and that morning's search finds her.
    await h.advanceUntil(() => (h.attributes('zofia', 'timetable_today')?.lessons as unknown[] | undefined)?.length === 5, 'her plan', 60);
  }, 120_000);
});

/** What the portal refuses a preschool child: a device holding these shows them unknown for good. */
const NEVER_FILLED = ['average', 'newest_grade', 'grade_at_risk', 'lucky_number', 'upcoming_tests', 'homework_due', 'lesson_topics', 'behaviour'];

type DeviceConfig = { dev: { name: string; model?: string }; cmps: Record<string, Record<string, unknown>> };

/** Every device config published for a child, in order (an entity removed is left as its platform alone). */
function announcements(h: Harness, child: string): DeviceConfig[] {
  return h.rec.on(`${h.prefix}/device/${h.base}_${child}/config`).flatMap((m) => (m.text === '' ? [] : [JSON.parse(m.text) as DeviceConfig]));
}

/** The entities a device config lists (those removed stand as their platform alone). */
const listed = (config: DeviceConfig) => Object.keys(config.cmps).filter((key) => Object.keys(config.cmps[key]!).length > 1);

describe("a kindergarten child's entities", () => {
  it('are from her first discovery on only those her account can fill; her sister keeps hers', async () => {
    const h = await school.start({ accounts: [account(ANIA), account(ZOSIA)], language: 'pl' });
    await h.runUntil(() => h.state('zofia', 'timetable_today') === '5' && h.state('ania', 'average') !== undefined, 'the first pass');
    const [first, ...later] = announcements(h, 'zofia');
    expect(first).toBeDefined();
    for (const config of [first!, ...later]) expect(listed(config).filter((key) => NEVER_FILLED.includes(key))).toEqual([]);
    // What her account fills stays: her plan, the kindergarten's messages and notices, her attendance.
    expect(listed(first!)).toEqual(expect.arrayContaining(['timetable_today', 'next_lesson', 'unread_messages', 'unread_notices', 'problem']));
    // Her device's model line says what she attends (she has no class); her sister's, her class.
    expect(first!.dev).toMatchObject({ name: 'Zofia Kowalska', model: 'Przedszkole' });
    expect(announcements(h, 'ania')[0]!.dev).toMatchObject({ model: 'Klasa 4b' });
    // No device under her login either (announced before her name was known).
    expect(h.rec.on(`${h.prefix}/device/${h.base}_${ZOSIA.login}/config`).filter((m) => m.text !== '')).toEqual([]);
    // The school child beside her: every entity, as before.
    expect(listed(announcements(h, 'ania')[0]!)).toEqual(expect.arrayContaining(NEVER_FILLED));
    // A restart announces her as she was: none of them comes back.
    await h.restart();
    await h.advanceMinutes(2);
    for (const config of announcements(h, 'zofia')) expect(listed(config).filter((key) => NEVER_FILLED.includes(key))).toEqual([]);
  }, 60_000);

  it("declare none of the school's lists from her first discovery with the change feed watching on the register road", async () => {
    // Her school's gateway grants the change feed; her account answers as live-notes 58 says.
    for (const c of [ANIA, ZOSIA]) school.sim.account(c.login).changeFeed.gatewayGranted = true;
    const h = await school.start({ accounts: [account(ANIA), account(ZOSIA)], poll: { fast_interval: '20m', school_interval: '20m' } });
    await h.runUntil(() => h.state('zofia', 'timetable_today') === '5' && h.state('ania', 'average') !== undefined, 'the first pass');
    expect(await changeFeedWatching(h)).toEqual({ ania: true, zofia: true });
    await h.advanceMinutes(3 * 60);
    await expectOnlyWhatSheFills(h, ['timetable_today', 'unread_messages', 'unread_notices', 'free_day']);
  }, 60_000);

  it('are not listed in her first discovery when her first pass fails (the portal down at the start), under her login or her name', async () => {
    school.sim.failNext(1, 503, { path: '/gateway/api/2.0/Me' });
    const h = await school.start({ accounts: [account(ZOSIA)], language: 'pl' });
    await h.advanceUntil(() => h.state('zofia', 'timetable_today') === '5', 'her plan', 30);
    const configs = [...h.rec.on(`${h.prefix}/device/${h.base}_${ZOSIA.login}/config`), ...h.rec.on(`${h.prefix}/device/${h.base}_zofia/config`)]
      .filter((m) => m.text !== '')
      .map((m) => JSON.parse(m.text) as DeviceConfig);
    expect(configs.length).toBeGreaterThan(1);
    expect(listed(configs[0]!)).toContain('problem');
    for (const config of configs) expect(listed(config).filter((key) => NEVER_FILLED.includes(key))).toEqual([]);
  }, 60_000);

  it('leave a school child only after refusals a day apart: one refusal keeps them', async () => {
    school.sim.account(ANIA.login).setModuleStatus('LuckyNumbers', 403);
    const h = await school.start({ accounts: [account(ANIA)] });
    await h.runUntil(() => h.state('ania', 'average') !== undefined, 'the first pass');
    await h.advanceMinutes(60);
    const configs = announcements(h, 'ania');
    expect(configs.length).toBeGreaterThan(0);
    expect(listed(configs.at(-1)!)).toEqual(expect.arrayContaining(['lucky_number', 'lucky_today']));
  }, 60_000);
});
