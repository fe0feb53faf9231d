// The clock and timers every component takes as a dependency, so that a day of polling can run in a
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

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const handle = setTimeout(fn, Math.max(0, ms));
    handle.unref?.();
    return { cancel: () => clearTimeout(handle) };
  },
  sleep: (ms, signal) => sleepWith(systemClock, ms, signal),
};

/** A sleep built on a clock's timers (the fake clock of the tests and the benchmark uses it too). */
export function sleepWith(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
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
