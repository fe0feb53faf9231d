// The diagnostics say when the portal will be asked next, per child, and why (interface 10.1): during a
// lesson the grades within the news age for their age; a mailbox that answered 404 when its refusal
// ends, a day later; a resource whose read failed at once, for a retry. This is also how a test asks
// the scheduler.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson.
const school = simulatedSchool('2026-11-18T09:10:00+01:00');

interface Planned {
  row: string;
  at: string;
  why: string;
}

describe("the diagnostics' next reads", () => {
  it('name the row, when and why, soonest first', async () => {
    school.sim.messaging.setMissingMailboxes(ANIA.login, ['alerts']);
    const h = await school.polled(['newest_grade', 'unread_messages']);
    // Attendances fail from now on: its next read is a retry.
    school.sim.failNext(1000, 500, { path: '/gateway/api/2.0/Attendances' });
    await h.advanceMinutes(25);
    const bundle = JSON.parse(await h.app.diagnostics()) as { children: { next_reads: Planned[] }[] };
    const planned = bundle.children[0]!.next_reads;
    expect(planned.length).toBeGreaterThan(3);
    const times = planned.map((p) => Date.parse(p.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const now = school.clock.now();
    const grades = planned.find((p) => p.row === 'Grades');
    expect(grades?.why).toBe('age');
    expect(Date.parse(grades!.at) - now).toBeLessThanOrEqual(5 * 60_000);
    expect(planned.find((p) => p.row === 'Attendances')).toMatchObject({ why: 'failed' });
    const mailbox = planned.find((p) => p.row.startsWith('messaging <mailbox>'));
    expect(mailbox?.why).toBe('refused');
    expect(Date.parse(mailbox!.at) - now).toBeGreaterThan(20 * 3600_000);
  }, 60_000);
});
