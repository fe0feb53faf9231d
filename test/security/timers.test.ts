// Timers: the clock's own on Node's timers, the real bridge's on the fake clock. setTimeout turns a
// delay over 2^31-1 ms into 1 ms, so a pause that ends years from now (a session file written while
// the clock ran years ahead, or a clock set back since) would make the retry timer a tight loop,
// reading and logging without end. Every delay is clamped, and a restored login pause is cut to what
// its policy allows.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SESSION_POLICY } from '../../src/portal/session.js';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { MAX_TIMER_MS, systemClock } from '../../src/util/clock.js';
import { LogSink } from '../helpers/faults.js';
import { tempDir } from '../helpers/temp.js';
import { SimulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const YEAR = 365 * 24 * 3_600_000;

describe('timers', () => {
  it('a delay past the 2^31-1 ms setTimeout takes (or not a number) waits the longest, never 1 ms', () => {
    // Fake timers keep Node's rule (a delay over 2^31-1 ms becomes 1 ms), so an unclamped delay would fire here.
    vi.useFakeTimers();
    try {
      let fired = 0;
      const timers = [MAX_TIMER_MS + 1, 10 * YEAR, Number.POSITIVE_INFINITY, Number.NaN].map((ms) => systemClock.setTimer(() => fired++, ms));
      vi.advanceTimersByTime(60_000);
      expect(fired).toBe(0);
      // The longest wait is 2^31-1 ms (about 24.8 days): each fires then, once.
      vi.advanceTimersByTime(MAX_TIMER_MS);
      expect(fired).toBe(timers.length);
      const early = systemClock.setTimer(() => fired++, -5);
      vi.advanceTimersByTime(0);
      expect(fired).toBe(timers.length + 1);
      early.cancel();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a login pause restored from a file ten years ahead: the bridge waits, and the pause ends within its hour', async (ctx) => {
    const school = new SimulatedSchool();
    await school.open('2026-11-18T09:10:00+01:00');
    ctx.onTestFinished(() => school.close());
    school.sim.account(ANIA.login).password = 'changed by the parent';
    const logs = new LogSink();
    const failures = (): number => logs.matching(/"msg":"pass failed"/).length;

    // A wrong password pauses logins for an hour; the pause is saved with the session.
    const dataDir = await tempDir();
    const options = { accounts: [{ login: ANIA.login, password: ANIA.password }], log: logs.logger('info'), dataDir };
    const first = await school.start(options);
    await first.runUntil(() => failures() >= 1, 'a pass to fail on the wrong password');
    await first.stop();
    const file = join(dataDir, 'sessions', `${ANIA.login}.json`);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { pause: { reason: string; until: number } };
    expect(saved.pause.reason).toBe('wrong_credentials');
    saved.pause.until = school.clock.now() + 10 * YEAR;
    await writeFile(file, JSON.stringify(saved));

    const before = failures();
    const h = await school.start(options);
    await h.runUntil(() => failures() - before >= 1, 'a pass to meet the pause');
    // One failed pass (both hosts: the login is theirs), then it waits out the pause: nothing runs in the hour's last minutes.
    expect(logs.matching(/"msg":"pass failed"/).at(-1)).toContain('"hosts":["register","messaging"]');
    school.sim.resetCounts();
    await h.advanceMinutes(59);
    expect(failures() - before).toBe(1);
    expect(school.sim.count()).toBe(0);
    // The hour is over: the bridge tries the portal again (and meets the wrong password again).
    await h.advanceMinutes(DEFAULT_SESSION_POLICY.wrongCredentialsPauseMs / 60_000 - 59 + 2);
    expect(school.sim.count()).toBeGreaterThan(0);
    expect(failures() - before).toBeGreaterThan(1);
  }, 30_000);

  it('an identity and a last success saved ten years ahead: the identity is read again, the child not kept available for years', async (ctx) => {
    const school = new SimulatedSchool();
    await school.open('2026-11-18T09:10:00+01:00');
    ctx.onTestFinished(() => school.close());
    // Every tier every 20 minutes: the 3 days count from the last good pass, whatever the passes between,
    // and the default 3-minute counters' failed passes (about a thousand) were most of this test's CPU.
    const h = await school.firstPasses(['lucky_number', 'last_update'], { poll: { fast_interval: '20m', school_interval: '20m' } });
    await h.app.stop();
    const file = join(h.dataDir, 'identity', `${ANIA.login}.json`);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { fetchedAt: number };
    saved.fetchedAt = school.clock.now() + 10 * YEAR;
    await writeFile(file, JSON.stringify(saved));

    // The portal is down from the restart on: the child's data may be shown for 3 days, not 10 years.
    school.sim.resetCounts();
    school.sim.failNext(1_000_000, 503);
    await h.restart();
    await h.runUntil(() => school.sim.count({ path: '/gateway/api/2.0/Me' }) > 0, 'the identity to be asked for again');
    await h.advanceMinutes(3 * 24 * 60 + 60);
    expect(h.state('ania', 'availability')).toBe('offline');
  }, 60_000);
});
