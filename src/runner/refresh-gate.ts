// A refresh asked for by a user (the refresh button, `<c>/refresh/set`, `bridge/request/refresh`) runs a pass of
// every tier. Anyone who can publish to the broker can ask for one, so a flood of them must cost the
// portal at most one forced pass per child a minute. A press is never answered by a pass that began
// before it (that pass may have read the inbox before the news the user saw elsewhere): a press while
// a forced pass waits in the queue joins it; a press after one began, inside the minute from its
// start, waits for one more pass when the minute is over, and every press until then joins that one. The
// summary button is held by the same gate, its "pass" the summary_requested event (outputs/mqtt/requests.ts).
import type { Clock, Timer } from '../util/clock.js';

/** Forced passes of one child start at least this far apart. */
export const FORCED_PASS_GAP_MS = 60_000;

export interface RefreshGateOptions {
  clock: Clock;
  /** The forced pass itself (queued behind whatever the account is doing); calls `began` when it starts reading. */
  pass: (began: () => void) => Promise<void>;
}

export class RefreshGate {
  /** When the last forced pass began reading the portal. */
  private lastBegan: number | undefined;
  /** The next one, not begun yet (in the queue, or waiting for the minute to end): every press joins it. */
  private next: { done: Promise<void> } | undefined;
  private timer: Timer | undefined;
  /** Answers the presses waiting for the minute to end, when the account stops first. */
  private release: (() => void) | undefined;

  constructor(private readonly options: RefreshGateOptions) {}

  /** Resolves when a forced pass that began after this press is done. */
  request(): Promise<void> {
    if (this.next) return this.next.done;
    const { clock } = this.options;
    // A start in the future means the clock was set back: not recent, or the gate would stay shut.
    const age = this.lastBegan === undefined ? Number.POSITIVE_INFINITY : clock.now() - this.lastBegan;
    const wait = age >= 0 && age < FORCED_PASS_GAP_MS ? FORCED_PASS_GAP_MS - age : 0;
    const pass = { done: Promise.resolve() };
    this.next = pass;
    const began = (): void => {
      this.lastBegan = clock.now();
      if (this.next === pass) this.next = undefined;
    };
    pass.done = new Promise<void>((resolve, reject) => {
      const run = (): void => {
        this.timer = undefined;
        this.release = undefined;
        this.options.pass(began).then(resolve, reject);
      };
      if (wait === 0) return run();
      this.release = resolve;
      this.timer = clock.setTimer(run, wait);
    });
    return pass.done;
  }

  /** Drops a pass still waiting for its minute (the account stops): its presses are answered without one. */
  cancel(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.release?.();
    this.release = undefined;
    this.next = undefined;
  }
}
