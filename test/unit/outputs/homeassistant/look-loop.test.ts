// The one loop the keeper, the statistics and the Supervisor's announcement look at the outside with: what
// the outside sees of it (how many looks, when a failed one comes again) and that a stop does not wait for
// an answer that never comes (interface 16.1).
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../src/bench/fake-clock.js';
import type { Clock } from '../../../../src/util/clock.js';
import { LookLoop } from '../../../../src/outputs/homeassistant/look-loop.js';

const MINUTE = 60_000;

/** The loop as its owners extend it: its look and its failures the test's; a nudge, a later look and the wait shown, opened to the test. */
class Loop extends LookLoop {
  constructor(
    clock: Clock,
    backoff: { first: number; longest: number },
    private readonly once: (signal: AbortSignal) => Promise<void>,
    private readonly onFailure: (error: unknown, wait: number) => number | undefined,
  ) {
    super({ clock, backoff });
  }

  protected look(signal: AbortSignal): Promise<void> {
    return this.once(signal);
  }

  protected failed(error: unknown, wait: number): number | undefined {
    return this.onFailure(error, wait);
  }

  ask(): void {
    this.nudge();
  }

  askIn(ms: number): void {
    this.lookIn(ms);
  }

  /** The wait before a failed look is tried again, as the diagnostics show it (ms). */
  get retryingIn(): number | undefined {
    const minutes = this.retryStatus().retry_in_minutes;
    return minutes === undefined ? undefined : minutes * MINUTE;
  }
}

/** A call to the outside that answers only when told, or fails with the signal's abort. */
function outside() {
  const calls: Array<{ answer: () => void; fail: (error: Error) => void }> = [];
  return {
    calls,
    call(signal: AbortSignal): Promise<void> {
      return new Promise((resolve, reject) => {
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        calls.push({ answer: resolve, fail: reject });
      });
    },
  };
}

describe('the look loop', () => {
  it('queues one look behind the one under way however many nudges come, and after failures in a row looks again only after a wait that doubles', async () => {
    const clock = new FakeClock('2026-11-18T10:00:00+01:00');
    const world = outside();
    const waits: number[] = [];
    const backoff = { first: MINUTE, longest: 30 * MINUTE };
    const loop = new Loop(
      clock,
      backoff,
      (signal) => world.call(signal),
      (_, wait) => void waits.push(wait),
    );
    loop.ask();
    expect(world.calls).toHaveLength(0);
    await loop.start();
    await Promise.resolve();
    expect(world.calls).toHaveLength(1);
    for (let i = 0; i < 5; i++) loop.ask();
    world.calls[0]!.answer();
    await new Promise((resolve) => setImmediate(resolve));
    expect(world.calls).toHaveLength(2);

    world.calls[1]!.fail(new Error('502'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(waits).toEqual([MINUTE]);
    expect(loop.retryingIn).toBe(MINUTE);
    // A pass's nudge meanwhile does not hurry it.
    loop.ask();
    await clock.advance(MINUTE - 1);
    expect(world.calls).toHaveLength(2);
    await clock.advance(1);
    expect(world.calls).toHaveLength(3);
    world.calls[2]!.fail(new Error('502'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(waits).toEqual([MINUTE, 2 * MINUTE]);
    await clock.advance(2 * MINUTE);
    expect(world.calls).toHaveLength(4);
    expect(loop.retryingIn).toBeUndefined();
    // Answered: the next failure waits the first wait again.
    world.calls[3]!.answer();
    await new Promise((resolve) => setImmediate(resolve));
    loop.ask();
    await Promise.resolve();
    world.calls[4]!.fail(new Error('502'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(waits).toEqual([MINUTE, 2 * MINUTE, MINUTE]);
    await loop.stop();
  });

  it('waits what the owner names instead (an answer lost, not an outside away), and doubles from the first wait after it', async () => {
    const clock = new FakeClock('2026-11-18T10:00:00+01:00');
    const world = outside();
    const waits: number[] = [];
    let lost = true;
    const backoff = { first: MINUTE, longest: 30 * MINUTE };
    const loop = new Loop(
      clock,
      backoff,
      (signal) => world.call(signal),
      (_, wait) => (waits.push(wait), lost ? 15_000 : undefined),
    );
    await loop.start();
    await Promise.resolve();
    world.calls[0]!.fail(new Error('no answer'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(loop.retryingIn).toBe(15_000);
    await clock.advance(15_000);
    lost = false;
    world.calls[1]!.fail(new Error('no answer'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(loop.retryingIn).toBe(MINUTE);
    await loop.stop();
  });

  it('a stop abandons the call in flight: it ends without its answer, records no failure and looks at nothing again', async () => {
    const clock = new FakeClock('2026-11-18T10:00:00+01:00');
    const world = outside();
    const failures: unknown[] = [];
    const backoff = { first: MINUTE, longest: MINUTE };
    const loop = new Loop(
      clock,
      backoff,
      (signal) => world.call(signal),
      (error) => void failures.push(error),
    );
    await loop.start();
    loop.askIn(5 * MINUTE);
    await Promise.resolve();
    expect(world.calls).toHaveLength(1);
    await loop.stop();
    expect(failures).toEqual([]);
    loop.ask();
    await clock.advance(10 * MINUTE);
    expect(world.calls).toHaveLength(1);
    expect(clock.nextDueAt()).toBeUndefined();
  });
});
