// The scheduler fetches, the features compute: over a day of both demo children's passes, every copy the
// table says is due (the register's and the messaging host's: counters, lists, sent box) is read by the
// scheduler before the features run, and a feature's poll asks the portal itself only for what its last
// pass did not ask for (a start's first pass, the rows a start leaves for later) or what a signal moved
// in this very pass (the class calendar naming a new test, an unread counter that rose).
// A read the scheduler was given and left for a feature to make (by age, or a failure's retry) fails it.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';
import type { ReadsByOrigin } from '../../src/feature-kit/resources.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
// A Wednesday in the first semester, during the second lesson.
const school = simulatedSchool('2026-11-18T09:10:00+01:00');

/** The feature's own reads made since `before`, by `endpoint (why)`. */
function since(before: ReadsByOrigin, now: ReadsByOrigin): string[] {
  return Object.keys(now.features).filter((key) => now.features[key]! > (before.features[key] ?? 0)).sort();
}

describe('the coordinator', () => {
  it('reads what is due before the features compute; a feature reads only what is new to it', async () => {
    const h = await school.start({ accounts: [ANIA, JANEK].map((c) => ({ login: c.login, password: c.password })) });
    await h.pollUntil(() => ['ania', 'jan'].every((c) => h.state(c, 'newest_grade') !== undefined), 'the first polls');
    const first = h.app.pollers.map((p) => p.access.cache.readsByOrigin());
    const tests = Number(h.state('ania', 'upcoming_tests'));
    const unread = Number(h.state('jan', 'unread_messages'));
    await h.advanceMinutes(60);
    school.sim.account(ANIA.login).addTest({ date: '2026-11-20', content: 'Sprawdzian: ułamki.' });
    school.sim.messaging.addMessage(JANEK.login, { topic: 'Informacja od wychowawcy', body: 'Proszę o kontakt.', from: 162001 });
    await h.advanceMinutes(10);
    expect(Number(h.state('ania', 'upcoming_tests'))).toBe(tests + 1);
    expect(Number(h.state('jan', 'unread_messages'))).toBe(unread + 1);
    await h.advanceMinutes(23 * 60);
    const [ania, jan] = h.app.pollers.map((p) => p.access.cache.readsByOrigin()) as [ReadsByOrigin, ReadsByOrigin];
    for (const reads of [ania, jan]) {
      expect(reads.late).toEqual([]);
      // A day of passes: hundreds of reads, every one the scheduler's.
      expect(reads.scheduler).toBeGreaterThan(300);
    }
    // After the start, the features read only the rows a start leaves for later (once), a sent message
    // newly watched (Ania's), and what a signal moved in the pass that saw it move: Ania's tests list
    // (the class calendar's ids), Jan's inbox (its unread counter, read by the scheduler).
    const later = ['EbiblioLendings (no copy)', 'SchoolFiles (no copy)', 'messaging outbox/messages (no copy)'];
    expect(since(first[1]!, jan)).toEqual([...later, 'messaging inbox/messages (signal)'].sort());
    expect(since(first[0]!, ania)).toEqual([...later, 'HomeWorks (signal)', 'messaging outbox/messages/<id> (no copy)'].sort());
  }, 120_000);
});
