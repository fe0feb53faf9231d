// The refresh gate on its own, on the injected clock: a press is answered only by a pass that began
// after it; inside the minute after a forced pass began, presses wait for one more pass when the
// minute is over, and a flood still costs at most one forced pass a minute.
import { describe, expect, it } from 'vitest';
import { FORCED_PASS_GAP_MS, RefreshGate } from '../../../src/runner/refresh-gate.js';
import { FakeClock } from '../../helpers/clock.js';

/** A gate whose passes begin at once and finish when the test says (finish()). */
function gate() {
  const clock = new FakeClock('2026-11-18T09:10:00+01:00');
  const began: number[] = [];
  let finish: () => void = () => undefined;
  let start: () => void = () => undefined;
  let queued = false;
  const g = new RefreshGate({
    clock,
    pass: (begin) =>
      new Promise<void>((resolve) => {
        finish = resolve;
        start = () => {
          begin();
          began.push(clock.now());
        };
        if (!queued) start();
      }),
  });
  return {
    gate: g,
    clock,
    began,
    finish: () => finish(),
    /** Passes wait in the account's queue until begin() is called. */
    queue: () => (queued = true),
    begin: () => start(),
  };
}

const answered = (promise: Promise<void>): (() => boolean) => {
  let done = false;
  void promise.then(() => (done = true));
  return () => done;
};

describe('RefreshGate', () => {
  it('a press after a pass finished, inside its minute, runs one more pass when the minute is over', async () => {
    const t = gate();
    const first = t.gate.request();
    t.finish();
    await first;
    await t.clock.advance(20_000);
    // The message arrived after that pass: this press must not be answered by it.
    const late = answered(t.gate.request());
    await t.clock.advance(10_000);
    const later = answered(t.gate.request()); // joins the same waiting pass
    await Promise.resolve();
    expect(late()).toBe(false);
    expect(t.began).toHaveLength(1);
    await t.clock.advance(FORCED_PASS_GAP_MS - 30_000 - 1);
    expect(t.began).toHaveLength(1);
    await t.clock.advance(1);
    expect(t.began).toEqual([t.began[0], t.began[0]! + FORCED_PASS_GAP_MS]);
    t.finish();
    await t.clock.advance(0);
    expect(late()).toBe(true);
    expect(later()).toBe(true);
  });

  it('a press while a pass is reading waits for the next one; a press while one waits in the queue joins it', async () => {
    const t = gate();
    t.queue();
    const first = answered(t.gate.request());
    const joined = answered(t.gate.request()); // the pass has not begun: it will read after this press
    t.begin();
    expect(t.began).toHaveLength(1);
    const during = answered(t.gate.request()); // the pass is reading: it may have read the inbox already
    t.finish();
    await t.clock.advance(0);
    expect([first(), joined(), during()]).toEqual([true, true, false]);
    await t.clock.advance(FORCED_PASS_GAP_MS);
    t.begin();
    t.finish();
    await t.clock.advance(0);
    expect(during()).toBe(true);
    expect(t.began).toHaveLength(2);
  });

  it('a flood of presses costs at most one forced pass a minute', async () => {
    const t = gate();
    const starts: number[] = [];
    for (let second = 0; second < 300; second++) {
      void t.gate.request();
      if (t.began.length > starts.length) {
        starts.push(t.began.at(-1)!);
        t.finish();
      }
      await t.clock.advance(1000);
    }
    expect(starts).toHaveLength(5);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(FORCED_PASS_GAP_MS);
  });

  it('a press a minute or more after the last pass began gets one at once', async () => {
    const t = gate();
    const first = t.gate.request();
    t.finish();
    await first;
    await t.clock.advance(FORCED_PASS_GAP_MS);
    void t.gate.request();
    expect(t.began).toHaveLength(2);
  });

  it('a clock set back after a pass does not shut the gate until it catches up', async () => {
    const t = gate();
    const first = t.gate.request();
    t.finish();
    await first;
    t.clock.set(t.clock.now() - 365 * 24 * 3_600_000);
    const again = t.gate.request();
    expect(t.began).toHaveLength(2);
    t.finish();
    await again;
  });

  it('stopping answers the presses that wait for the minute, without a pass', async () => {
    const t = gate();
    const first = t.gate.request();
    t.finish();
    await first;
    const waiting = answered(t.gate.request());
    t.gate.cancel();
    await t.clock.advance(0);
    expect(waiting()).toBe(true);
    await t.clock.advance(FORCED_PASS_GAP_MS);
    expect(t.began).toHaveLength(1);
  });
});
