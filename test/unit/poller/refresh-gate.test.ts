// The refresh gate on its own: joins while a forced poll waits or runs and for a minute after it
// started, polls again after the minute, and a clock set back does not keep it shut.
import { describe, expect, it } from 'vitest';
import { FORCED_POLL_GAP_MS, RefreshGate } from '../../../src/poller/refresh-gate.js';
import { FakeClock } from '../../helpers/clock.js';

function gate(): { gate: RefreshGate; clock: FakeClock; polls: () => number; finish: () => void } {
  const clock = new FakeClock('2026-11-18T09:10:00+01:00');
  let polls = 0;
  let finish: () => void = () => undefined;
  const g = new RefreshGate({
    clock,
    poll: () => {
      polls++;
      return new Promise<void>((resolve) => (finish = resolve));
    },
  });
  return { gate: g, clock, polls: () => polls, finish: () => finish() };
}

describe('RefreshGate', () => {
  it('joins a running poll and, for a minute from its start, a finished one', async () => {
    const t = gate();
    const first = t.gate.request();
    const joined = t.gate.request();
    expect(t.polls()).toBe(1);
    let answered = false;
    void joined.then(() => (answered = true));
    await Promise.resolve();
    expect(answered).toBe(false); // answered only once the poll is done
    t.finish();
    await Promise.all([first, joined]);
    t.clock.set(t.clock.now() + FORCED_POLL_GAP_MS - 1);
    await t.gate.request(); // already done: answered at once
    expect(t.polls()).toBe(1);
    t.clock.set(t.clock.now() + 1);
    const next = t.gate.request();
    expect(t.polls()).toBe(2);
    t.finish();
    await next;
  });

  it('a clock set back after a poll does not shut the gate until it catches up', async () => {
    const t = gate();
    const first = t.gate.request();
    t.finish();
    await first;
    t.clock.set(t.clock.now() - 365 * 24 * 3_600_000);
    const again = t.gate.request();
    expect(t.polls()).toBe(2);
    t.finish();
    await again;
  });
});
