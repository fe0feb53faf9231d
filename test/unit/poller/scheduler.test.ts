// The account's scheduler: one timer, set for the soonest of what is due (each tier's features by the
// fetch plan's answer, the next lesson boundary), passes in one wake when they fall due together, a
// failing tier backing off alone. The passes here are stand-ins that only say how they went.
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { FakeClock } from '../../helpers/clock.js';
import { AccountScheduler } from '../../../src/poller/scheduler.js';
import { AccountHealth } from '../../../src/poller/health.js';
import type { Tier } from '../../../src/feature-kit/source.js';

const MIN = 60_000;
const START = '2026-11-18T09:00:00+01:00';

interface Setup {
  /** How long after a good pass each tier is due again. */
  every?: Partial<Record<Tier, number>>;
  /** Whether a tier's pass goes well (called at each pass). */
  ok?: (tier: Tier) => boolean;
  /** Minutes of the clock a pass takes (a slow portal). */
  takes?: (tier: Tier) => number;
  boundaries?: number[];
}

function scheduler(setup: Setup = {}) {
  const clock = new FakeClock(START);
  // Every timer that fires, when: one wake is one timer, however many passes it runs.
  const wakes: number[] = [];
  const setTimer = clock.setTimer.bind(clock);
  clock.setTimer = (fn, ms) => setTimer(() => (wakes.push(clock.now()), fn()), ms);
  const health = new AccountHealth('en');
  const passes: { tier: Tier; at: number }[] = [];
  const restates: number[] = [];
  const every = { fast: 3 * MIN, normal: 20 * MIN, ...setup.every };
  const s = new AccountScheduler({
    clock,
    health,
    log: pino({ level: 'silent' }),
    enqueue: (work) => work(),
    interval: (tier) => every[tier],
    cycle: async ([tier]) => {
      passes.push({ tier: tier!, at: clock.now() });
      const minutes = setup.takes?.(tier!) ?? 0;
      if (minutes > 0) await clock.sleep(minutes * MIN);
      const ok = setup.ok?.(tier!) ?? true;
      if (ok) health.succeeded([tier!], undefined, clock.now());
      else health.failed([tier!], new Error('503'));
      s.scheduleBoundary();
      return ok;
    },
    nextBoundary: (now) => setup.boundaries?.find((t) => t > now) ?? null,
    restate: (now) => {
      restates.push(now);
      return true;
    },
  });
  const t0 = clock.now();
  /** Minutes since the start of each pass of a tier. */
  const of = (tier: Tier) => passes.filter((p) => p.tier === tier).map((p) => (p.at - t0) / MIN);
  return { clock, s, passes, restates, of, t0, wakes };
}

describe('the account scheduler', () => {
  it('starts both tiers after the delay, the API first, and then each at its own time, on one timer', async () => {
    const { clock, s, passes, of } = scheduler();
    s.start(0);
    await clock.advance(0);
    expect(passes.map((p) => p.tier)).toEqual(['normal', 'fast']);
    expect(clock.timerCount).toBe(1);
    await clock.advance(40 * MIN);
    expect(of('fast')).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39]);
    expect(of('normal')).toEqual([0, 20, 40]);
    expect(clock.timerCount).toBe(1);
    s.stop();
    expect(clock.timerCount).toBe(0);
  });

  it('passes both tiers in one wake when they fall due at the same instant', async () => {
    const { clock, s, passes, wakes } = scheduler({ every: { fast: 4 * MIN, normal: 4 * MIN } });
    s.start(0);
    await clock.advance(12 * MIN);
    expect(passes).toHaveLength(8);
    // Four instants, four timers fired: two timers firing at the same instant would be eight wakes.
    expect(new Set(passes.map((p) => p.at)).size).toBe(4);
    expect(wakes.filter((at) => passes.some((p) => p.at === at))).toHaveLength(4);
  });

  it('backs off a failing tier alone, 1, 2, 4 minutes, while the other keeps its time', async () => {
    let failing = true;
    const { clock, s, of } = scheduler({ ok: (tier) => tier === 'fast' || !failing });
    s.start(0);
    await clock.advance(10 * MIN);
    expect(of('normal')).toEqual([0, 1, 3, 7]);
    expect(of('fast')).toEqual([0, 3, 6, 9]);
    failing = false;
    await clock.advance(30 * MIN);
    // 7 + 8 (the backoff) = 15 went well: from then on every 20 minutes.
    expect(of('normal')).toEqual([0, 1, 3, 7, 15, 35]);
  });

  it('a pass that runs long lets the other tier due by its end pass in the same wake', async () => {
    const { clock, s, of } = scheduler({ takes: (tier) => (tier === 'fast' ? 5 : 0) });
    s.start(0);
    await clock.advance(25 * MIN);
    // Each fast pass takes 5 minutes and is due 3 after it ends; the one from 16 ends at 21, past the
    // normal tier's 20, which passes then, in the same wake.
    expect(of('fast')).toEqual([0, 8, 16, 24]);
    expect(of('normal')).toEqual([0, 21]);
  });

  it('moves the states at a lesson boundary between passes, without a pass', async () => {
    const t = Date.parse(START);
    const { clock, s, passes, restates } = scheduler({ every: { fast: 60 * MIN, normal: 60 * MIN }, boundaries: [t + 10 * MIN, t + 55 * MIN] });
    s.start(0);
    await clock.advance(59 * MIN);
    expect(restates.map((at) => (at - t) / MIN)).toEqual([10, 55]);
    expect(passes).toHaveLength(2);
  });
});
