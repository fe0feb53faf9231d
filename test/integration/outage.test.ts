// Last good data through outages (interface 6.3): the real bridge, the simulator and the fake clock.
// A child stays available with its last values for up to 3 days without a good pass, whatever the
// reason, `problem` saying why; then it goes offline while `problem` and `last_update` stay readable.
import { describe, expect, it } from 'vitest';
import { clearSimFaults } from '../helpers/faults-sim.js';
import { MIN, worldFor, type PortalWorld } from '../helpers/faults-world.js';
import type { FaultApp } from '../helpers/faults-app.js';

/** Every availability payload the child's topic carried (one entry per change). */
function availabilityHistory(h: FaultApp): string[] {
  return h.rec.texts(`${h.base}/ania/availability`);
}

/** The availability topics an entity of the child's discovery config follows. */
function availabilityOf(h: FaultApp, key: string): string[] {
  const config = h.rec.json(`${h.prefix}/device/${h.base}_ania/config`) as { cmps: Record<string, { availability?: { topic: string }[] }> };
  return (config.cmps[key]?.availability ?? []).map((a) => a.topic);
}

/** Asserts the child is offline while problem and last_update stay readable. */
function expectOfflineButReadable(h: FaultApp, reason: string): void {
  expect(h.state('ania', 'availability')).toBe('offline');
  expect(h.rec.last(`${h.base}/bridge/state`)?.text).toBe('online');
  expect(h.state('ania', 'problem')).toBe('ON');
  expect(h.attributes('ania', 'problem')).toMatchObject({ reason });
  expect(h.state('ania', 'last_update')).toMatch(/^2026-11-\d\dT\d\d:\d\d:\d\d\+01:00$/);
  // Readable in Home Assistant: these two follow the bridge's availability only, the rest the child's too.
  for (const key of ['problem', 'last_update']) expect(availabilityOf(h, key)).toEqual([`${h.base}/bridge/state`]);
  expect(availabilityOf(h, 'average')).toEqual([`${h.base}/bridge/state`, `${h.base}/ania/availability`]);
}

/** The next good pass (retries come at most an hour apart) brings the child back. */
async function backOnline(h: FaultApp): Promise<void> {
  await h.advanceMinutes(2 * 60);
  expect(h.state('ania', 'availability')).toBe('online');
  expect(h.state('ania', 'problem')).toBe('OFF');
}

/**
 * Every tier read every 20 minutes, as the normal one is: the 3 days count from the last good pass,
 * whatever the passes between, and the failed passes of the default 3-minute counters (each one a try of
 * the portal, about a thousand in 3 days) were most of this file's CPU: 26 s -> 17 s of CPU alone. A failed
 * pass still comes at least every 20 minutes by day, each one a chance to go offline too early.
 */
const INTERVALS = { fast_interval: '20m', school_interval: '20m' };

async function firstGoodPass(w: PortalWorld): Promise<FaultApp> {
  const h = await w.firstPass({ poll: INTERVALS });
  expect(h.state('ania', 'availability')).toBe('online');
  return h;
}

// Three simulated days each (every pass against the simulator): slow on a loaded machine.
describe.concurrent('availability through outages', { timeout: 120_000 }, () => {
  it('a portal outage: every entity available with its last values for 3 days, then offline with problem and last_update readable', async (ctx) => {
    const w = await worldFor(ctx);
    const h = await firstGoodPass(w);
    const before = w.snapshot();
    w.sim.failNext(1_000_000, 503, { host: 'portal' });

    await h.advanceMinutes(5 * 60);
    expect(h.state('ania', 'problem')).toBe('ON');
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'service_down' });
    expect(availabilityHistory(h)).not.toContain('offline');
    expect(w.snapshot()).toEqual(before);

    // Still on show just before the 3 days are up (the last good pass was at the start).
    await h.advanceMinutes(72 * 60 - 5 * 60 - 30);
    expect(availabilityHistory(h)).not.toContain('offline');

    // The next failed pass past 3 days takes the child offline (retries come at most an hour apart).
    await h.advanceMinutes(2 * 60);
    expectOfflineButReadable(h, 'service_down');
    expect(w.snapshot()).toEqual(before); // the values are kept, only marked unavailable

    clearSimFaults(w.sim);
    await backOnline(h);
  });

  it('a wrong password: available with problem ON (wrong_credentials) until 3 days, then offline', async (ctx) => {
    const w = await worldFor(ctx);
    const h = await firstGoodPass(w);
    const before = w.snapshot();
    w.sim.account(w.login).password = 'changed-on-the-portal';
    w.sim.expireSessions(w.login);

    await h.runUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON', 20 * MIN);
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'wrong_credentials' });
    await h.advanceMinutes(5 * 60);
    expect(h.state('ania', 'availability')).toBe('online');
    expect(h.state('ania', 'problem')).toBe('ON');
    expect(w.snapshot()).toEqual(before);

    await h.advanceMinutes(72 * 60 - 5 * 60 - 30);
    expect(availabilityHistory(h)).not.toContain('offline');
    expect(h.state('ania', 'problem')).toBe('ON');

    await h.advanceMinutes(2 * 60);
    expectOfflineButReadable(h, 'wrong_credentials');

    // The parent sets the old password back; the next try (at most an hour later) brings the child back.
    w.sim.account(w.login).password = w.password;
    await backOnline(h);
  });

  it('a restart during an outage: still available with the last values, offline 3 days after the last good pass', async (ctx) => {
    const w = await worldFor(ctx);
    const h = await firstGoodPass(w);
    const before = w.snapshot();
    w.sim.failNext(1_000_000, 503, { host: 'portal' });
    await h.advanceMinutes(60);
    await h.restart();
    const from = availabilityHistory(h).length;
    await h.advanceMinutes(60);
    expect(h.state('ania', 'problem')).toBe('ON');
    expect(availabilityHistory(h).slice(from)).not.toContain('offline');
    expect(h.state('ania', 'availability')).toBe('online');
    expect(w.snapshot()).toEqual(before);

    await h.advanceMinutes(72 * 60 - 2 * 60 + 60);
    expectOfflineButReadable(h, 'service_down');
  });
});
