// The portal's change feed on the family road (live-notes 28-32), against the simulator and a real
// broker: news at 17:00 within 5 minutes through the change feed; a quiet hour in lessons costs the change feed and the
// counters, and no news list before its safety age; a change the change feed never names still arrives, at the
// safety read, and is counted; a change is acknowledged only after what it caused was published, so a
// failed read or a lost acknowledgement reads it again, and a restart publishes it once.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_FAMILY } from '../../src/simulator/index.js';
import { simulatedSchool, firedEvents } from '../helpers/school.js';
import type { Harness } from '../helpers/app.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
const FAMILY = [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }];
const MINUTE = 60_000;
// A Wednesday afternoon, after the lessons (news was read every 20 minutes then, before the change feed).
const school = simulatedSchool('2026-11-18T16:50:00+01:00');

interface Bundle {
  children: {
    id: string;
    change_feed: { on: boolean; why_not: string | null } | null;
    feed_missed: Record<string, number>;
    requests_today: { requests_by_resource: Record<string, number> };
    next_reads: { row: string; why: string }[];
  }[];
}

async function started(accounts: unknown = FAMILY, poll?: Record<string, string>): Promise<Harness> {
  const h = await school.start({ accounts: accounts as never, ...(poll ? { poll } : {}) });
  await h.runUntil(
    () => ['ania', 'jan'].every((c) => h.state(c, 'newest_grade') !== undefined && h.state(c, 'plan_changes_tomorrow') !== undefined),
    'both children published',
  );
  // The device is registered in the start's first pass, before the lists it covers (watch, then list).
  await h.advanceMinutes(5);
  return h;
}

async function bundle(h: Harness): Promise<Bundle> {
  return JSON.parse(await h.app.diagnostics()) as Bundle;
}

/** The changes the simulated portal still lists for the child's devices (not acknowledged). */
const pending = (login: string): number => {
  const changeFeed = school.sim.account(login).changeFeed;
  return changeFeed.deviceIds().reduce((n, d) => n + changeFeed.listed(d, '9999-12-31 23:59:59').length, 0);
};

describe('the change feed', () => {
  it('brings a grade, an announcement and a plan change at 17:00 within 5 minutes, and says it is on', async () => {
    const h = await started();
    expect((await bundle(h)).children.map((c) => c.change_feed?.on)).toEqual([true, true]);
    await h.advanceMinutes(10);
    expect(await school.newsMinutes(h, '2026-11-19')).toBeLessThanOrEqual(5);
    // Handled, so acknowledged: the portal lists nothing more for either child.
    await h.advanceMinutes(1);
    expect([pending(ANIA.login), pending(JANEK.login)]).toEqual([0, 0]);
  }, 90_000);

  it('costs a quiet hour in lessons the change feed and the counters, and no news list before its safety age', async () => {
    // From before the lessons: every list read again once the change feed watches (the calendar's three hours the longest).
    await school.reopen('2026-11-18T07:40:00+01:00');
    const h = await started();
    await h.advanceMinutes(200);
    const from = school.clock.now();
    await h.advanceMinutes(60);
    const reads = (path: string): number[] =>
      school.sim.requests.filter((r) => r.host === 'auth' && r.path === `/3.0/${path}` && r.login === ANIA.login).map((r) => r.at);
    const inHour = (times: number[]): number[] => times.filter((t) => t >= from && t < from + 60 * MINUTE);
    expect(inHour(reads('PushChanges'))).toHaveLength(12);
    expect(
      inHour(
        school.sim.requests
          .filter((r) => r.host === 'messages' && r.path === '/api/inbox/unreadMessagesCount' && r.login === ANIA.login)
          .map((r) => r.at),
      ),
    ).toHaveLength(20);
    const all = (list: string): number[] =>
      school.sim.requests.filter((r) => r.host === 'auth' && new RegExp(`^/3\\.0/${list}$`).test(r.path) && r.login === ANIA.login).map((r) => r.at);
    // A news list read in that hour is its slow safety read: eight hours after the one before.
    for (const list of [
      'Grades',
      'PointGrades',
      'BaseTextGrades',
      'SchoolNotices',
      'HomeWorks',
      'Timetables',
      'Calendars/Substitutions',
      'Calendars/[0-9]+',
    ]) {
      for (const t of inHour(all(list))) {
        const before =
          all(list)
            .filter((b) => b < t)
            .at(-1) ?? -Infinity;
        expect(t - before, `${list} read at ${new Date(t).toISOString()}`).toBeGreaterThanOrEqual(8 * 60 * MINUTE);
      }
      expect(inHour(all(list)).length, list).toBeLessThanOrEqual(1);
    }
    // The diagnostics say which age holds: the change feed's safety age for a news list, the news age for the change feed.
    const rows = (await bundle(h)).children[0]!.next_reads;
    const why = (row: string) => rows.find((r) => r.row === row || r.row.startsWith(`${row} (`))?.why;
    expect([why('Grades'), why('PushChanges')]).toEqual(['age: feed safety 8 h', 'age: lessons 5 min']);
    // The presence marks a teacher enters as a lesson begins, which the change feed names: the attendance list
    // is read within 5 minutes after a lesson's start, and not otherwise.
    const schoolDays = school.sim.schoolDays(ANIA.login);
    const starts = schoolDays
      .lessonsOn('2026-11-18')
      .filter((l) => !l.cancelled)
      .map((l) => Date.parse(`2026-11-18T${schoolDays.bell(l.lessonNo).from}:00+01:00`));
    const attendance = inHour(all('Attendances'));
    expect(starts.filter((e) => e >= from && e < from + 55 * MINUTE).length).toBeGreaterThan(0);
    expect(attendance.length).toBeGreaterThan(0);
    for (const t of attendance)
      expect(
        starts.some((e) => t >= e && t - e <= 5 * MINUTE),
        `Attendances read at ${new Date(t).toISOString()}`,
      ).toBe(true);
    expect(attendance.length).toBeLessThanOrEqual(starts.filter((e) => e >= from - 5 * MINUTE && e < from + 60 * MINUTE).length);
  }, 90_000);

  it('brings a change the change feed never named at the safety read, and counts it as feed_missed', async () => {
    // The unread counters every 20 minutes: the lost grade waits for its list's safety age and the morning's first
    // pass, neither of them the counters', whose 3-minute passes of the evening were most of this test's CPU.
    const h = await started(FAMILY, { fast_interval: '20m' });
    const { change_feed } = (await bundle(h)).children[0]!;
    expect(change_feed?.on).toBe(true);
    // The grades read again once the change feed watches (what was read before it may hide what it never saw).
    await h.advanceMinutes(25);
    school.sim.account(ANIA.login).changeFeed.loseNextChange();
    const added = school.clock.now();
    school.sim.account(ANIA.login).addGrade({ subject: 5012, category: 301, grade: '2' });
    expect(school.sim.account(ANIA.login).changeFeed.lost).toHaveLength(1);
    // Lost at 17:20: its list's safety read would come after 01:00, and the night reads nothing for its
    // age alone, so it comes with the next morning's first pass (06:00), not before the safety age. The
    // night passes from timer to timer (advanceMinutes; minute by minute it was most of this file's time).
    const minutesTo = (at: number): number => (at - school.clock.now()) / MINUTE;
    await h.advanceMinutes(minutesTo(added + 8 * 60 * MINUTE) - 1);
    expect(h.state('ania', 'newest_grade')).not.toBe('2');
    await h.advanceMinutes(minutesTo(Date.parse('2026-11-19T05:50:00+01:00')));
    await h.advanceUntil(() => h.state('ania', 'newest_grade') === '2', 'the lost grade', 15);
    expect(school.clock.now()).toBeLessThanOrEqual(Date.parse('2026-11-19T06:05:00+01:00'));
    expect((await bundle(h)).children[0]!.feed_missed).toMatchObject({ Grades: 1 });
  }, 120_000);

  it('acknowledges a change only after its read was published: a failed read and a lost acknowledgement read it again, a restart publishes it once', async () => {
    const h = await started();
    // The read the change causes fails: not acknowledged, read again, published once.
    school.sim.failNext(1, 500, { host: 'auth', path: '/3.0/Grades' });
    const from = school.sim.requests.length;
    school.sim.account(ANIA.login).addGrade({ subject: 5012, category: 301, grade: '2' });
    await h.advanceUntil(() => h.state('ania', 'newest_grade') === '2', 'the grade', 30);
    // Acknowledged once the change feed lists it again after the good read (the pass of the failed read keeps it).
    await h.advanceUntil(() => pending(ANIA.login) === 0, 'the acknowledgement', 10);
    // In order: the failed read, the good one, and only then the acknowledgement.
    const ania = school.sim.requests.slice(from).filter((r) => r.login === ANIA.login);
    const failed = ania.findIndex((r) => r.path === '/3.0/Grades' && r.status === 500);
    const good = ania.findIndex((r, i) => i > failed && r.path === '/3.0/Grades' && r.status === 200);
    const acked = ania.findIndex((r) => r.method === 'DELETE');
    expect(failed).toBeGreaterThan(-1);
    expect(good).toBeGreaterThan(failed);
    expect(acked).toBeGreaterThan(good);
    // Its acknowledgement fails (as a crash right after the publish would leave it): listed still.
    school.sim.failNext(1, 500, { host: 'auth', method: 'DELETE' });
    school.sim.account(ANIA.login).addGrade({ subject: 5012, category: 301, grade: '3' });
    await h.advanceUntil(() => h.state('ania', 'newest_grade') === '3', 'the second grade', 10);
    expect(pending(ANIA.login)).toBe(1);
    await h.restart();
    await h.advanceUntil(() => pending(ANIA.login) === 0, 'the acknowledgement after the restart', 10);
    expect(firedEvents(h, 'grade').filter((e) => e.grade === '2')).toHaveLength(1);
    expect(firedEvents(h, 'grade').filter((e) => e.grade === '3')).toHaveLength(1);
  }, 120_000);

  it('reads a list a Delete names, and keeps a record it still lists', async () => {
    const h = await started();
    const grades = Number(firedEvents(h, 'grade').length);
    const account = school.sim.account(ANIA.login);
    const kept = account.addGrade({ subject: 5012, category: 301, grade: '5' });
    await h.advanceUntil(() => h.state('ania', 'newest_grade') === '5', 'the grade', 10);
    account.changeFeed.record([{ kind: 'Delete', type: 'Grades', recordId: String(kept.Id), addDate: '2026-11-18 16:00:00', extraData: null }]);
    await h.advanceMinutes(6);
    expect(h.state('ania', 'newest_grade')).toBe('5');
    const fired = firedEvents(h, 'grade');
    expect(fired.filter((e) => e.event_type === 'grade_removed')).toHaveLength(0);
    expect(fired).toHaveLength(grades + 1);
    expect(pending(ANIA.login)).toBe(0);
  }, 90_000);
});
