// The diagnostics say when the portal will be asked next, per child, and why (interface 10.1): the
// planner's rows as they are, each read from `at` on and by `by` at the latest. During a lesson the
// grades within the news age for their age; a mailbox that answered 404 when its refusal ends, a day
// later; a resource whose read failed at once, for a retry. And the running bridge keeps to them: the
// grades are read again by their row's `by`, not before its `at`.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson.
const school = simulatedSchool('2026-11-18T09:10:00+01:00');

interface Planned {
  row: string;
  at: string;
  by: string;
  why: string;
}

describe("the diagnostics' next reads", () => {
  it('name the row, when and why, soonest first', async () => {
    school.sim.messaging.setMissingMailboxes(ANIA.login, ['alerts']);
    const h = await school.firstPasses(['newest_grade', 'unread_messages']);
    // Attendances fail from now on: its next read is a retry.
    school.sim.failNext(1000, 500, { path: '/gateway/api/2.0/Attendances' });
    await h.advanceMinutes(25);
    const bundle = JSON.parse(await h.app.diagnostics()) as { children: { next_reads: Planned[] }[] };
    const planned = bundle.children[0]!.next_reads;
    expect(planned.length).toBeGreaterThan(3);
    const times = planned.map((p) => Date.parse(p.by));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    for (const p of planned) expect(Date.parse(p.at), p.row).toBeLessThanOrEqual(Date.parse(p.by));
    const now = school.clock.now();
    const grades = planned.find((p) => p.row === 'Grades');
    // Which age, and why: the news age while lessons are on (no change feed on this road).
    expect(grades?.why).toBe('age: lessons 5 min');
    const why = (row: string) => planned.find((p) => p.row === row)?.why;
    expect([why('HomeWorkAssignments'), why('HomeWorks'), why('DescriptiveGrades')]).toEqual([
      'age: lessons 20 min',
      // The class calendar's ids the same: the age they vouch for; a kind of grade the child has none of: 6 hours.
      'age: lessons vouched 1 h',
      'age: while empty 6 h',
    ]);
    // The news age in lessons is a promise: no slack, read by the moment it falls due.
    expect(grades!.by).toBe(grades!.at);
    expect(Date.parse(grades!.at) - now).toBeLessThanOrEqual(5 * 60_000);
    expect(planned.find((p) => p.row === 'Attendances')).toMatchObject({ why: 'failed' });
    const mailbox = planned.find((p) => p.row.startsWith('messaging <mailbox>'));
    expect(mailbox?.why).toBe('refused');
    expect(Date.parse(mailbox!.at) - now).toBeGreaterThan(20 * 3600_000);
    // The bridge keeps to the row: Grades is not asked before its `at`, and is asked by its `by`.
    const gradesReads = () => school.sim.requests.filter((r) => r.path.endsWith('/Grades') && r.login === ANIA.login);
    const before = gradesReads().length;
    while (school.clock.now() < Date.parse(grades!.at) - 60_000) {
      await h.advanceMinutes(0.5);
      expect(gradesReads()).toHaveLength(before);
    }
    while (school.clock.now() <= Date.parse(grades!.by) + 5 * 60_000 && gradesReads().length === before) await h.advanceMinutes(0.25);
    const asked = gradesReads()[before]!.at;
    expect(asked).toBeGreaterThanOrEqual(Date.parse(grades!.at));
    expect(asked).toBeLessThanOrEqual(Date.parse(grades!.by));
  }, 60_000);
});
