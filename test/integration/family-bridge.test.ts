// The real bridge on the family road (an `email` entry), against the simulator and the real broker:
// one e-mail login brings both demo children with every entity and the same states the register road
// gives them, entity by entity; a child whose link needs action shows `problem` with its reason; the
// family portal's session and its login pause outlive a restart; a message of the second day still
// comes in, after the web session the first day's token login opened has died.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_FAMILY } from '../../src/simulator/index.js';
import type { Harness } from '../helpers/app.js';
import { firedEvents, simulatedSchool } from '../helpers/school.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
// A Wednesday in the first semester, during the second lesson.
const NOW = '2026-11-18T09:10:00+01:00';
const school = simulatedSchool(NOW);
const CHILDREN = ['ania', 'jan'];

/** The last state of every topic of a child (attributes and availability included; events left out). */
function retained(h: Harness, child: string): Record<string, string> {
  const prefix = `${h.base}/${child}/`;
  const states: Record<string, string> = {};
  for (const m of h.rec.messages) if (m.topic.startsWith(prefix) && !m.topic.includes('/event/')) states[m.topic.slice(prefix.length)] = m.text;
  return states;
}

/** What the two roads may differ in: when the pass ran, the diagnostic counters of requests, and whose event memory is told (two installations). */
const comparable = (states: Record<string, string>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(states).filter(([key]) => !/^(last_update|requests_today|logins_today|last_read|session_age|event_memory)(\/|$)/.test(key)),
  );

async function firstPasses(accounts: { login?: string; email?: string; password: string }[]): Promise<Harness> {
  const h = await school.start({ accounts: accounts as never });
  await h.runUntil(
    () => CHILDREN.every((c) => h.state(c, 'last_update') !== undefined && h.state(c, 'lucky_number') !== undefined),
    'the first passes of both children',
  );
  await h.runUntil(() => true, 'the fast pass', 3 * 60_000);
  return h;
}

describe('an e-mail entry', () => {
  it('brings both children with every entity and the states of the register road', async () => {
    const register = await firstPasses([ANIA, JANEK].map((c) => ({ login: c.login, password: c.password })));
    const viaRegister = Object.fromEntries(CHILDREN.map((c) => [c, comparable(retained(register, c))]));
    await register.stop();
    school.sim.resetCounts();

    const family = await firstPasses([{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }]);
    for (const child of CHILDREN) {
      const viaFamily = comparable(retained(family, child));
      expect(Object.keys(viaFamily).length, child).toBeGreaterThan(40);
      expect(viaFamily, child).toEqual(viaRegister[child]);
    }
    expect(family.state('ania', 'problem')).toBe('OFF');
    expect([school.sim.families.loginCount(), school.sim.logins()]).toEqual([1, 0]);
    expect(school.sim.count({ host: 'portal', path: /^\/gateway\// })).toBe(0);
  });

  it('names each child’s device by the name the family portal lists, from its first discovery on', async () => {
    const h = await school.start({ accounts: [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }] as never });
    await h.runUntil(() => CHILDREN.every((c) => h.state(c, 'last_update') !== undefined), 'the first passes');
    for (const [child, name, login] of [
      ['ania', 'Ania Kowalska', ANIA.login],
      ['jan', 'Jan Kowalski', JANEK.login],
    ] as const) {
      const configs = h.rec.messages.filter((m) => m.topic === `${h.prefix}/device/${h.base}_${child}/config` && m.text !== '');
      const names = configs.map((m) => (JSON.parse(m.text) as { dev: { name: string } }).dev.name);
      expect(names.length, child).toBeGreaterThan(0);
      // Never the register login, not even before the child's first read.
      expect(new Set(names), child).toEqual(new Set([name]));
      expect(names.join(), child).not.toContain(login);
    }
  });

  it('shows a child whose link needs action as a problem with its reason and the portal’s state', async () => {
    school.sim.families.setLinkState(JANEK.login, 'requiring_an_action');
    const h = await school.start({ accounts: [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }] as never });
    await h.runUntil(() => h.state('jan', 'problem') === 'ON' && h.state('ania', 'last_update') !== undefined, 'the first passes');
    expect(h.attributes('jan', 'problem')).toMatchObject({ reason: 'link_needs_action', portal_message: 'requiring_an_action' });
    expect(h.state('ania', 'problem')).toBe('OFF');
  });

  it('keeps the family portal’s session across a restart: no second password login, and a wrong password posts once', async () => {
    const h = await school.start({ accounts: [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }] as never });
    await h.runUntil(() => h.state('ania', 'last_update') !== undefined, 'the first passes');
    await h.restart();
    await h.runUntil(() => h.state('jan', 'last_update') !== undefined, 'the passes after the restart');
    expect(school.sim.families.loginCount()).toBe(1);
    await h.stop();

    const wrong = await school.start({ accounts: [{ email: DEMO_FAMILY.email, password: 'wrong' }] as never, dataDir: h.dataDir });
    await wrong.restart();
    await wrong.restart();
    expect(school.sim.count({ host: 'family', method: 'POST', path: '/konto-librus/login/action' })).toBe(2);
  });

  it('still reads both children’s messages on the second day: a new one fires its event and moves unread_messages', { timeout: 60_000 }, async () => {
    // Every tier every 20 minutes: the web sessions die by the clock, however often the passes come, and the
    // default 3- and 5-minute passes of two children were most of this test's CPU.
    const poll = { fast_interval: '20m', school_interval: '20m' };
    const h = await school.start({ accounts: [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }] as never, poll });
    await h.runUntil(() => CHILDREN.every((c) => h.state(c, 'unread_messages') !== undefined), 'the first passes');
    // Past the day of the register web sessions the first token logins opened (the simulator's 24 hours).
    await h.advanceMinutes(25 * 60);
    const before = CHILDREN.map((c) => Number(h.state(c, 'unread_messages')));
    for (const child of [ANIA, JANEK])
      school.sim.messaging.addMessage(child.login, { topic: 'Zebranie w czwartek', body: 'Zapraszam na zebranie o 17:00.', from: 162001 });
    // The next pass of the unread counters.
    await h.advanceMinutes(20);
    for (const [i, child] of CHILDREN.entries()) {
      expect(
        firedEvents(h, 'message', child).filter((e) => e.topic === 'Zebranie w czwartek'),
        child,
      ).toHaveLength(1);
      expect(h.state(child, 'unread_messages'), child).toBe(String(before[i]! + 1));
    }
    // The family's password was given once; the web sessions were opened again by tokens, not by it.
    expect([school.sim.families.loginCount(), school.sim.logins()]).toEqual([1, 0]);
  });
});
