// Partial grades past the first page (issue 36, item 3), through the real bridge, the simulated portal
// and the real broker: the POST answers one page with `pagination.total` above it. A grade that only
// slid off the page is no `grade_removed`, a new one on the page is a `grade`, and the log says once a
// day that only the first page was read (no other page is guessed at).
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { LogSink } from '../helpers/faults.js';
import { simulatedSchool } from '../helpers/school.js';

const JANEK = DEMO_ACCOUNTS[1]!;
// A Wednesday in the first semester, during the second lesson.
const NOW = '2026-11-18T09:10:00+01:00';
const PARTIAL = '/gateway/api/2.0/Auth/DescriptiveGradingSystem/PartialGrades';

const school = simulatedSchool(NOW);

describe('partial grades past the first page', () => {
  it('a grade that slid off the page is not removed; a new one fires; the log tells once a day', async () => {
    const account = school.sim.account(JANEK.login);
    // Janek has six partial grades; the page holds the newest four.
    account.partialPageLimit = 4;
    const sink = new LogSink();
    // Every tier every 20 minutes: the 200 minutes still hold some ten reads of the page (each a chance of a removal
    // told wrongly, or a second page asked for), where the default 3- and 5-minute passes were most of this test's CPU.
    const poll = { fast_interval: '20m', school_interval: '20m' };
    const h = await school.start({ accounts: [{ login: JANEK.login, password: JANEK.password, id: 'janek' }], log: sink.logger('info'), poll });
    await h.runUntil(() => h.state('janek', 'newest_grade') !== undefined && h.state('janek', 'last_update') !== undefined, 'the first pass');
    const own = `${PARTIAL}/Student/${account.childLid}`;
    const posts = (): number => school.sim.count({ method: 'POST', path: own });
    expect(posts()).toBe(1);

    // A teacher adds one: the page now shows it and three of the four before; the fourth slid off.
    account.addPartialGrade('5+');
    // Partial grades are read hourly: three reads after the new one, enough for a removal.
    await h.advanceMinutes(200);
    expect(posts()).toBeGreaterThanOrEqual(4);
    const events = h.rec.on(`${h.base}/janek/event/grade`).map((m) => JSON.parse(m.text) as Record<string, unknown>);
    expect(events.filter((e) => e.event_type === 'grade_removed')).toEqual([]);
    expect(events).toEqual([expect.objectContaining({ event_type: 'grade', kind: 'descriptive', grade: '5+' })]);
    expect(h.state('janek', 'newest_grade')).toBe('5+');
    // No other page was asked for, and the log said so once today.
    expect(school.sim.count({ path: new RegExp(`^${PARTIAL}`) })).toBe(posts());
    expect(sink.matching(/only the first page was read/)).toHaveLength(1);
    expect(sink.matching(/only the first page was read/)[0]).toMatch(/"read":4,"total":6/);
  });
});
