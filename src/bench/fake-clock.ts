// A clock that only moves when told to, for the benchmark's simulated days and for the tests (which
// import it through test/helpers/clock.ts); never part of the running bridge.
import { sleepWith, type Clock, type Timer } from '../util/clock.js';

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
}

/**
 * A clock that only moves when told to. advance() fires due timers in time order and lets promise
 * callbacks settle between them, so async code driven by timers behaves as it would in real time.
 */
export class FakeClock implements Clock {
  private current: number;
  private seq = 0;
  private pending: PendingTimer[] = [];

  constructor(start: number | Date | string) {
    this.current = new Date(start).getTime();
  }

  now(): number {
    return this.current;
  }

  setTimer(fn: () => void, ms: number): Timer {
    const entry: PendingTimer = { at: this.current + Math.max(0, ms), seq: this.seq++, fn };
    this.pending.push(entry);
    return { cancel: () => (this.pending = this.pending.filter((p) => p !== entry)) };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepWith(this, ms, signal);
  }

  /** Sets the time without firing timers (for tests that only need "now" to move). */
  set(time: number | Date | string): void {
    this.current = new Date(time).getTime();
  }

  /** Moves time forward by ms, firing every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await settle();
      const next = this.nextDue(target);
      if (!next) break;
      this.pending = this.pending.filter((p) => p !== next);
      this.current = Math.max(this.current, next.at);
      next.fn();
    }
    this.current = target;
    await settle();
  }

  /** When the next timer falls due, if any. */
  nextDueAt(): number | undefined {
    return this.nextDue(Number.POSITIVE_INFINITY)?.at;
  }

  /** When each waiting timer falls due (a test waits for the bridge to arm one, rather than sleeping). */
  dueTimes(): number[] {
    return this.pending.map((p) => p.at);
  }

  /** Number of timers waiting (for tests asserting that nothing is left scheduled). */
  get timerCount(): number {
    return this.pending.length;
  }

  private nextDue(limit: number): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const p of this.pending) {
      if (p.at > limit) continue;
      if (!best || p.at < best.at || (p.at === best.at && p.seq < best.seq)) best = p;
    }
    return best;
  }
}

/** Lets pending promise callbacks and I/O callbacks run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}
