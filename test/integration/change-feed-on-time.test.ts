// The change feed read on time (issue 57, item 2): by day, while its age is poll.school_interval (5 minutes,
// 07:00 to 21:00 on a school day), no two reads of the change feed are further apart than that, whatever
// else makes a pass meanwhile (a command's read, the unread counters) and however the scheduler rounds:
// news is never older than the promise plus a read.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_FAMILY } from '../../src/simulator/index.js';
import { SENT_BOX } from '../../src/engine/resources/messaging.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const FAMILY = [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }];
const MINUTE = 60_000;
// A Wednesday morning before the lessons.
const school = simulatedSchool('2026-11-18T06:30:00+01:00');

const changeFeedReads = (): number[] =>
  school.sim.requests.filter((r) => r.path === '/3.0/PushChanges' && r.method === 'GET' && r.login === ANIA.login).map((r) => r.at);

describe('the change feed read on time', () => {
  it('by day, no two reads of the change feed more than 5 minutes apart, though a pass came half a minute before one was due', async () => {
    const h = await school.start({ accounts: FAMILY as never });
    await h.runUntil(() => ['ania', 'jan'].every((c) => h.state(c, 'newest_grade') !== undefined), 'both children published');
    const ania = h.app.runners.find((p) => p.id === 'ania')!;
    const end = Date.parse('2026-11-18T21:00:00+01:00');
    for (let n = 0; school.clock.now() < end; n++) {
      await h.advanceMinutes(n % 2 === 0 ? 31 : 17);
      if (n % 5 === 0) school.sim.account(ANIA.login).addGrade({ subject: 5012, category: 301, grade: String((n % 5) + 1) });
      // A pass half a minute before the change feed is due (a command that reads again what it moved).
      const due = changeFeedReads().at(-1)! + 5 * MINUTE;
      if (due - school.clock.now() > MINUTE) {
        await h.advanceMinutes((due - 30_000 - school.clock.now()) / MINUTE);
        ania.readAgain(SENT_BOX);
      }
    }
    const [from, to] = [Date.parse('2026-11-18T07:05:00+01:00'), end];
    const reads = changeFeedReads();
    const gaps = reads
      .slice(1)
      .map((t, i) => ({ at: t, gap: t - reads[i]! }))
      .filter((g) => g.at > from && g.at <= to);
    expect(gaps.length).toBeGreaterThan(150);
    const worst = gaps.reduce((a, b) => (b.gap > a.gap ? b : a));
    expect(worst.gap / 1000, `at ${new Date(worst.at).toISOString()}`).toBeLessThanOrEqual(300);
  }, 180_000);
});
