// The account's scheduler: one timer, set for the soonest of what is due (the next pass, as the
// coordinator answers it; a failed host's retry; the next lesson boundary); a failing host backing off
// alone, 1, 2, 4 minutes, while the other is read at its time. The passes here are stand-ins that say
// which hosts they read and how it went.
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { FakeClock } from '../../helpers/clock.js';
import { AccountScheduler } from '../../../src/runner/scheduler.js';
import { AccountHealth, retryDelay } from '../../../src/runner/health.js';
import type { Host } from '../../../src/engine/resource.js';
import type { PassOutcome } from '../../../src/runner/coordinator.js';

const MIN = 60_000;
const START = '2026-11-18T09:00:00+01:00';

interface Setup {
  /** How long after it was read each host is due again. */
  every?: Partial<Record<Host, number>>;
  /** Whether a host's reads go well (called at each pass that reads it). */
  ok?: (host: Host, at: number) => boolean;
  boundaries?: number[];
}

function scheduler(setup: Setup = {}) {
  const clock = new FakeClock(START);
  const t0 = clock.now();
  // Every timer that fires, when: one wake is one timer.
  const wakes: number[] = [];
  const setTimer = clock.setTimer.bind(clock);
  clock.setTimer = (fn, ms) => setTimer(() => (wakes.push(clock.now()), fn()), ms);
  const health = new AccountHealth('en');
  const every: Record<Host, number> = { messaging: 3 * MIN, register: 20 * MIN, ...setup.every };
  const dueAt = new Map<Host, number>([
    ['register', t0],
    ['messaging', t0],
  ]);
  const reads: { host: Host; at: number }[] = [];
  const restates: number[] = [];
  const s = new AccountScheduler({
    clock,
    log: pino({ level: 'silent' }),
    enqueue: (work) => work(),
    child: {
      retryIn: (host, error, now) => retryDelay(health.host(host).failures, 20 * MIN, error, now),
      pass: async (waiting): Promise<PassOutcome> => {
        const now = clock.now();
        const outcome: PassOutcome = { read: [], failed: new Map() };
        for (const host of ['register', 'messaging'] as const) {
          if (waiting.has(host) || (dueAt.get(host) ?? Infinity) > now) continue;
          reads.push({ host, at: now });
          if (setup.ok?.(host, (now - t0) / MIN) ?? true) {
            outcome.read.push(host);
            health.succeeded([host], undefined, now);
            dueAt.set(host, now + every[host]);
          } else {
            outcome.failed.set(host, new Error('503'));
            health.failed([host], new Error('503'));
          }
        }
        s.scheduleBoundary();
        return outcome;
      },
      nextWake: (now, retryAt) =>
        Math.min(
          ...(['register', 'messaging'] as const).map((host) => {
            const retry = retryAt.get(host);
            return retry !== undefined && retry > now ? retry : (dueAt.get(host) ?? Infinity);
          }),
        ),
      nextBoundary: (now) => setup.boundaries?.find((t) => t > now) ?? null,
      restate: (now) => {
        restates.push(now);
        return true;
      },
    },
  });
  /** Minutes since the start of each read of a host. */
  const of = (host: Host) => reads.filter((r) => r.host === host).map((r) => (r.at - t0) / MIN);
  return { clock, s, restates, of, t0, wakes };
}

describe('the account scheduler', () => {
  it('passes after the delay, then when the soonest copy is due, on one timer', async () => {
    const { clock, s, of, wakes, t0 } = scheduler();
    s.start(MIN);
    await clock.advance(45 * MIN);
    expect(of('messaging')).toEqual([1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43]);
    expect(of('register')).toEqual([1, 21, 41]);
    // One wake a pass: both hosts in one when they fall due together (at 1), each alone else.
    expect(wakes.map((w) => (w - t0) / MIN)).toEqual([1, 4, 7, 10, 13, 16, 19, 21, 22, 25, 28, 31, 34, 37, 40, 41, 43]);
  });

  it('backs off a failing host alone, 1, 2, 4 minutes, while the other is read at its time', async () => {
    const { clock, s, of } = scheduler({ ok: (host, at) => host === 'messaging' || at >= 7 });
    s.start(0);
    await clock.advance(12 * MIN);
    // Failed at 0, 1 and 3: tried again 1, 2 and 4 minutes after; read at 7, due again at 27.
    expect(of('register')).toEqual([0, 1, 3, 7]);
    expect(of('messaging')).toEqual([0, 3, 6, 9, 12]);
  });

  it('moves the states at a lesson boundary between passes, without a pass', async () => {
    const t = Date.parse(START);
    const { clock, s, of, restates } = scheduler({ every: { messaging: 60 * MIN, register: 60 * MIN }, boundaries: [t + 10 * MIN, t + 55 * MIN] });
    s.start(0);
    await clock.advance(59 * MIN);
    expect(restates.map((at) => (at - t) / MIN)).toEqual([10, 55]);
    expect(of('register')).toEqual([0]);
  });

  it('plans the next pass anew after one outside the timer (a refresh)', async () => {
    const { clock, s, of } = scheduler();
    s.start(0);
    await clock.advance(MIN);
    s.passed({ read: ['register'], failed: new Map() });
    await clock.advance(3 * MIN);
    expect(of('messaging')).toEqual([0, 3]);
  });
});
