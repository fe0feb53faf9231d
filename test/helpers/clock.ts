// The fake clock of the tests: the benchmark's one (src/bench/fake-clock.ts), kept out of the bridge.
import type { FakeClock } from '../../src/bench/fake-clock.js';

export { FakeClock } from '../../src/bench/fake-clock.js';

/**
 * Waits for work that waits on the fake clock itself (the App's start: the MQTT bridge reads the
 * broker's retained device configs for STALE_SCAN_MS of the clock before the pass runners start), moving
 * the clock to each timer due within `withinMs` (that wait) until the work is done, as real time would.
 */
export async function settledOn<T>(clock: FakeClock, work: Promise<T>, withinMs: number): Promise<T> {
  let done = false;
  const settled = work.finally(() => (done = true));
  settled.catch(() => undefined);
  while (!done) {
    const next = clock.nextDueAt();
    if (next !== undefined && next <= clock.now() + withinMs) await clock.advance(next - clock.now());
    // Connecting to the broker is real I/O: look again shortly.
    else await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return settled;
}
