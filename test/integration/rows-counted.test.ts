// Reads that used to decide on their own, now rows of the fetch plan, counted on the simulator over
// hours of passes: the recipient list (write_messages) is read once a day even when the portal refuses
// it (a 403 counts as an empty list, which was read again at every normal pass), and a mailbox that
// answered 404 is the row's refusal: not asked again before a day has passed, then asked again; the
// class tutor the recipient list names comes from the Users lookup's copy (it read Users of its own).
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson.
const school = simulatedSchool('2026-11-18T09:10:00+01:00');
/**
 * Every tier every 20 minutes, for the tests that walk hours to show a row read once a day or no more: still a pass
 * every 20 minutes by day (each one a chance to read too soon), and the default 3- and 5-minute passes
 * were most of their CPU.
 */
const INTERVALS = { fast_interval: '20m', school_interval: '20m' };

describe('rows of the fetch plan', () => {
  it('read an empty recipient list once a day, not at every pass', async () => {
    school.sim.failNext(1000, 403, { host: 'messages', path: /^\/api\/receivers\// });
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password, write_messages: true }], poll: INTERVALS });
    await h.runUntil(() => h.state('ania', 'last_update') !== undefined, 'the first pass');
    const reads = (): number => school.sim.count({ host: 'messages', path: /^\/api\/receivers\// });
    const first = reads();
    expect(first).toBeGreaterThanOrEqual(1);
    // Six hours of lessons and afternoon: a normal pass every 20 minutes.
    await h.advanceMinutes(6 * 60);
    expect(school.sim.count({ path: '/gateway/api/2.0/Grades' })).toBeGreaterThan(10);
    expect(reads()).toBe(first);
  }, 60_000);

  it("take the class tutor of the recipient list from the Users lookup's copy, not a read of its own", async () => {
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password, write_messages: true }] });
    await h.runUntil(() => h.state('ania', 'last_update') !== undefined, 'the first pass');
    expect(school.sim.count({ host: 'messages', path: /^\/api\/receivers\// })).toBeGreaterThanOrEqual(1);
    // The recipient list named the class tutor through the lookup the names of grades read as well: one read.
    expect(school.sim.count({ path: '/gateway/api/2.0/Users' })).toBe(1);
  }, 60_000);

  it('open a sent message no more once every receiver has read it', async () => {
    const teacher = school.sim.messaging.staffByUser(162001)!.accountId;
    const { id } = school.sim.messaging.recordSent({
      login: ANIA.login,
      receivers: [teacher],
      topic: 'Zebranie',
      content: '<p>Będę.</p>',
      category: null,
    });
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password }], poll: INTERVALS });
    await h.runUntil(() => h.state('ania', 'last_update') !== undefined, 'the first pass');
    const opens = () => school.sim.requests.filter((r) => r.host === 'messages' && r.path === `/api/outbox/messages/${id}`);
    // Not read yet: watched, opened again at its row's age.
    await h.advanceUntil(() => opens().length > 1, 'the sent message opened twice', 90);
    school.sim.messaging.readSent(ANIA.login, id);
    // The next open shows every receiver has read it: it is watched no more, by the feature or the scheduler.
    await h.advanceUntil(() => opens().length > 2, 'the sent message opened again', 60);
    const seen = opens().length;
    await h.advanceMinutes(3 * 60);
    expect(opens().length).toBe(seen);
  }, 60_000);

  it('leave a mailbox that answered 404 until its refusal ends, then ask it again', async () => {
    school.sim.messaging.setMissingMailboxes(ANIA.login, ['alerts']);
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password }], poll: INTERVALS });
    await h.runUntil(() => h.state('ania', 'last_update') !== undefined, 'the first pass');
    const asked = (): number => school.sim.count({ host: 'messages', path: '/api/alerts/messages' });
    expect(asked()).toBe(1);
    await h.advanceMinutes(12 * 60);
    expect(school.sim.count({ host: 'messages', path: '/api/inbox/unreadMessagesCount' })).toBeGreaterThan(20);
    expect(asked()).toBe(1);
    await h.advanceMinutes(12 * 60 + 30);
    expect(asked()).toBe(2);
  }, 90_000);
});

describe('the grades a child gets', () => {
  it('are read at the news age while lessons are on when the child has them; an empty kind waits', async () => {
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password }] });
    await h.runUntil(() => h.state('ania', 'newest_grade') !== undefined, 'the first pass');
    const reads = (endpoint: string): number => school.reads(endpoint);
    const before = { point: reads('PointGrades'), text: reads('BaseTextGrades'), descriptive: reads('DescriptiveGrades') };
    // Ania's school gives her point and text grades; her descriptive list is empty.
    await h.advanceMinutes(40);
    expect(reads('PointGrades') - before.point).toBeGreaterThanOrEqual(7);
    expect(reads('BaseTextGrades') - before.text).toBeGreaterThanOrEqual(7);
    expect(reads('DescriptiveGrades') - before.descriptive).toBeLessThanOrEqual(1);
  }, 60_000);
});

describe("a first-grader's descriptive grades", () => {
  it('come within the news age while lessons are on, as everyone else’s grades', async () => {
    const JANEK = DEMO_ACCOUNTS[1]!;
    const account = school.sim.account(JANEK.login);
    const h = await school.start({ accounts: [{ login: JANEK.login, password: JANEK.password, id: 'janek' }] });
    await h.runUntil(() => h.state('janek', 'last_update') !== undefined, 'the first pass');
    await h.advanceMinutes(10);
    const before = h.rec.on(`${h.base}/janek/event/grade`).length;
    account.addPartialGrade('5+');
    await h.advanceMinutes(5);
    const fired = h.rec
      .on(`${h.base}/janek/event/grade`)
      .slice(before)
      .map((m) => JSON.parse(m.text) as { kind?: string; grade?: string });
    expect(fired).toEqual([expect.objectContaining({ kind: 'descriptive', grade: '5+' })]);
  }, 60_000);
});
