// A kindergarten child's device holds only what her account can fill (issue 65 item 1): known for one by her
// first pass (her plan found), she is announced then, without the grades, homework, lucky number and the rest
// the portal refuses a preschool child, and never with them; a school child refused a module once keeps its
// entities (a module leaves a school child only after refusals a day apart). Her device's model line says
// "Przedszkole".
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';
import type { Harness } from '../helpers/app.js';

const [ANIA, ZOSIA] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[2]!];
// A Wednesday, before the kindergarten opens.
const school = simulatedSchool('2026-11-18T07:30:00+01:00');
const account = (c: { login: string; password: string }) => ({ login: c.login, password: c.password });
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
    await h.pollUntil(() => h.state('zofia', 'timetable_today') === '5' && h.state('ania', 'average') !== undefined, 'the first pass');
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

  it('leave a school child only after refusals a day apart: one refusal keeps them', async () => {
    school.sim.account(ANIA.login).setModuleStatus('LuckyNumbers', 403);
    const h = await school.start({ accounts: [account(ANIA)] });
    await h.pollUntil(() => h.state('ania', 'average') !== undefined, 'the first pass');
    await h.advanceMinutes(60);
    const configs = announcements(h, 'ania');
    expect(configs.length).toBeGreaterThan(0);
    expect(listed(configs.at(-1)!)).toEqual(expect.arrayContaining(['lucky_number', 'lucky_today']));
  }, 60_000);
});
