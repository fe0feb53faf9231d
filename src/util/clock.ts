// The clock and timers every component takes as a dependency, so that a day of reading can run in a
// test in seconds (a fake clock, src/bench/fake-clock.ts) while production uses the real one.

export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs fn once after ms; the returned timer can be cancelled. */
  setTimer(fn: () => void, ms: number): Timer;
  /** Resolves after ms (or rejects with the signal's reason when aborted). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The longest delay setTimeout takes (about 24.8 days); a longer one would fire after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    // At least 0, at most MAX_TIMER_MS: Node turns a longer delay (a date years away after a clock jump)
    // into 1 ms with a warning, and a timer that re-arms itself becomes a tight loop; a delay that is not
    // a number waits the longest too, for the same reason.
    const handle = setTimeout(fn, Number.isNaN(ms) ? MAX_TIMER_MS : Math.min(MAX_TIMER_MS, Math.max(0, ms)));
    handle.unref?.();
    return { cancel: () => clearTimeout(handle) };
  },
  sleep: (ms, signal) => sleepWith(systemClock, ms, signal),
};

/**
 * The same timers on a clock that never jumps (performance.now(): milliseconds since this process began):
 * for measuring how long something has lasted, where a wall-clock change must count for nothing (the lease).
 */
export const monotonicClock: Clock = { ...systemClock, now: () => performance.now() };

/** A sleep built on a clock's timers (the fake clock of the tests and the benchmark uses it too). */
export function sleepWith(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      timer.cancel();
      reject(signal?.reason);
    };
    const timer = clock.setTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs work with a deadline on the clock. When it passes, the work's signal aborts (so its sleeps and
 * its next request stop) and the promise rejects with `late()` at once, even if a request is still in
 * flight (a download's 150 s, a shutdown step that must not hang).
 */
export async function withDeadline<T>(clock: Clock, ms: number, late: () => unknown, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: Timer | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = clock.setTimer(() => {
      const error = late();
      controller.abort(error);
      reject(error);
    }, ms);
  });
  // The losing promise of the race must not surface as an unhandled rejection.
  expired.catch(() => undefined);
  const running = work(controller.signal);
  running.catch(() => undefined);
  try {
    return await Promise.race([running, expired]);
  } finally {
    timer?.cancel();
  }
}
