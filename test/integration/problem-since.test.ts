// `problem`'s `since` (interface 6.3): when the problem began, the first failed pass of a run of
// failures with the same reason, kept through the retries and through a restart of the bridge while the
// problem lasts. The real bridge, the simulator, a real broker and the fake clock.
import { expect, it } from 'vitest';
import { clearSimFaults } from '../helpers/faults-sim.js';
import { worldFor } from '../helpers/faults-world.js';
import type { FaultApp } from '../helpers/faults-app.js';

function since(h: FaultApp): number {
  return Date.parse(String(h.attributes('ania', 'problem')?.since));
}

it('problem says since when the outage began, through its retries and a restart, and a new problem has its own since', {
  timeout: 60_000,
}, async (ctx) => {
  const w = await worldFor(ctx);
  const h = await w.firstPass();
  expect(h.state('ania', 'problem')).toBe('OFF');

  const began = w.clock.now();
  w.sim.failNext(1_000_000, 503, { host: 'portal' });
  await h.advanceUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON', 30);
  const first = since(h);
  expect(first).toBeGreaterThanOrEqual(began);
  expect(first).toBeLessThanOrEqual(w.clock.now());

  // Two hours of retries: each failed pass republishes problem, with the same beginning.
  await h.advanceMinutes(2 * 60);
  expect(h.state('ania', 'problem')).toBe('ON');
  expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'service_down' });
  expect(since(h)).toBe(first);

  // A restart while the portal is still down: the problem did not begin again. Counted before the restart: in process,
  // the restarted bridge's first pass may publish before restart() returns.
  const restarted = h.rec.texts(`${h.base}/ania/problem/attributes`).length;
  await h.restart();
  await h.advanceMinutes(60);
  expect(h.rec.texts(`${h.base}/ania/problem/attributes`).length).toBeGreaterThan(restarted);
  expect(h.state('ania', 'problem')).toBe('ON');
  expect(since(h)).toBe(first);

  // The portal is back: OFF; a later outage is a new problem, with its own beginning.
  clearSimFaults(w.sim);
  await h.advanceMinutes(2 * 60);
  expect(h.state('ania', 'problem')).toBe('OFF');
  const again = w.clock.now();
  w.sim.failNext(1_000_000, 503, { host: 'portal' });
  await h.advanceUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON again', 30);
  expect(since(h)).toBeGreaterThanOrEqual(again);
});
