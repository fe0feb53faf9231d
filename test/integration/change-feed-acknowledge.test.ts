// A change the change feed lists is acknowledged only once the family has seen it: every feature reading the
// list it names computed from the new copy, and the broker accepted what that published. Here the change feed
// names Grades, the grades are read, but the new grade's comment (a lookup, Grades/Comments) answers
// 500: the grades feature does not compute in that pass, so no DELETE goes out until newest_grade shows
// the grade; meanwhile the diagnostics say the change waits, and why. So too while the broker is away.
import { describe, expect, it } from 'vitest';
import { brokerBehindProxy } from '../helpers/mosquitto.js';
import { waitUntil } from '../helpers/mqtt.js';
import { DEMO_ACCOUNTS, DEMO_FAMILY } from '../../src/simulator/index.js';
import { simulatedSchool, firedEvents } from '../helpers/school.js';
import type { Harness, HarnessOptions } from '../helpers/app.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const FAMILY = [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }];
// A Wednesday afternoon, after the lessons: the grades are read when the change feed names them.
const school = simulatedSchool('2026-11-18T16:50:00+01:00');

interface Bundle {
  children: {
    id: string;
    change_feed: { on: boolean; last_read: string | null; pending: { type: string; why: string }[]; acknowledged: number } | null;
  }[];
}

async function started(options: Partial<HarnessOptions> = {}): Promise<Harness> {
  const h = await school.start({ ...options, accounts: FAMILY as never });
  await h.runUntil(() => ['ania', 'jan'].every((c) => h.state(c, 'newest_grade') !== undefined), 'both children published');
  // The device is registered at the pass after the start's first.
  await h.advanceMinutes(5);
  return h;
}

const changeFeedOf = async (h: Harness) => (JSON.parse(await h.app.diagnostics()) as Bundle).children.find((c) => c.id === 'ania')!.change_feed!;

/** The changes the simulated portal still lists for the child's devices (not acknowledged). */
const listed = (login: string): number => {
  const changeFeed = school.sim.account(login).changeFeed;
  return changeFeed.deviceIds().reduce((n, d) => n + changeFeed.listed(d, '9999-12-31 23:59:59').length, 0);
};

describe('the acknowledgement of a change', () => {
  it('waits while a lookup of what the change names fails (Grades/Comments 500): no DELETE until newest_grade shows the grade', async () => {
    const h = await started();
    const before = await changeFeedOf(h);
    expect(before.on).toBe(true);
    // The comments' copy older than a lookup's 10 minutes on a miss: the new grade's comment is read in the pass that reads the grade.
    await h.advanceMinutes(11);
    const comments = /^\/3\.0\/Grades\/Comments$/;
    school.sim.failNext(1, 500, { host: 'auth', path: comments, login: ANIA.login });
    const from = school.sim.requests.length;
    school.sim.account(ANIA.login).addGrade({ subject: 5012, category: 301, grade: '2', comment: 'Poprawa w piątek' });
    const ania = () => school.sim.requests.slice(from).filter((r) => r.login === ANIA.login);
    await h.advanceUntil(() => ania().some((r) => comments.test(r.path) && r.status === 500), 'the failed comments', 10);
    // The pass that met the 500: the grade is not shown, the change waits, and says why.
    expect(h.state('ania', 'newest_grade')).not.toBe('2');
    expect(listed(ANIA.login)).toBe(1);
    expect((await changeFeedOf(h)).pending).toEqual([{ type: 'Grades', why: 'not computed' }]);
    await h.advanceUntil(() => h.state('ania', 'newest_grade') === '2', 'the grade', 10);
    await h.advanceUntil(() => listed(ANIA.login) === 0, 'the acknowledgement', 10);
    // In order: the failed comments, the good ones the grade is shown from, and only then the DELETE.
    const requests = ania();
    const failed = requests.findIndex((r) => comments.test(r.path) && r.status === 500);
    const good = requests.findIndex((r, i) => i > failed && comments.test(r.path) && r.status === 200);
    const acked = requests.findIndex((r) => r.method === 'DELETE');
    expect(failed).toBeGreaterThan(-1);
    expect(good).toBeGreaterThan(failed);
    expect(acked).toBeGreaterThan(good);
    expect(firedEvents(h, 'grade').filter((e) => e.grade === '2')).toHaveLength(1);
    const after = await changeFeedOf(h);
    expect(after.pending).toEqual([]);
    expect(after.acknowledged).toBeGreaterThan(before.acknowledged);
    expect(after.last_read).not.toBeNull();
  }, 90_000);

  it('waits while the broker is away: no DELETE until the broker is back and took what the pass published', async (ctx) => {
    const { broker, proxy } = await brokerBehindProxy((stop) => ctx.onTestFinished(stop));
    const h = await started({ mqttUrl: proxy.url, recorderUrl: broker.url, reconnect: { firstMs: 50, maxMs: 100 } });
    proxy.paused = true;
    proxy.cut();
    await waitUntil(() => !h.mqtt().connected, 'the bridge to notice', 10_000);
    const from = school.sim.requests.length;
    school.sim.account(ANIA.login).addGrade({ subject: 5012, category: 301, grade: '2' });
    const gradesRead = () => school.sim.requests.slice(from).filter((r) => r.login === ANIA.login && r.path === '/3.0/Grades').length;
    await h.advanceUntil(() => gradesRead() > 0, 'the grade read', 10);
    await h.advanceMinutes(1);
    // Read and computed, but nothing of it reached the broker: the change waits.
    expect(listed(ANIA.login)).toBe(1);
    expect((await changeFeedOf(h)).pending).toEqual([{ type: 'Grades', why: 'broker away' }]);
    expect(firedEvents(h, 'grade').filter((e) => e.grade === '2')).toHaveLength(0);

    proxy.paused = false;
    await waitUntil(() => h.mqtt().connected && h.state('ania', 'newest_grade') === '2', 'the broker back, and the grade there', 10_000);
    await h.advanceUntil(() => listed(ANIA.login) === 0, 'the acknowledgement', 10);
    expect(firedEvents(h, 'grade').filter((e) => e.grade === '2')).toHaveLength(1);
    expect((await changeFeedOf(h)).pending).toEqual([]);
  }, 90_000);
});
