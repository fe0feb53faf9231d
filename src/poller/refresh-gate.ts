// A refresh asked for by a user (the refresh button, `<c>/refresh/set`, `bridge/request/refresh`) polls
// every tier. Anyone who can publish to the broker can ask for one, so a flood of them must cost the
// portal at most one forced poll per child a minute. A press is never answered by a poll that began
// before it (that poll may have read the inbox before the news the user saw elsewhere): a press while
// a forced poll waits in the queue joins it; a press after one began, inside the minute from its
// start, waits for one more poll when the minute is over, and every press until then joins that one.
import type { Clock, Timer } from '../util/clock.js';

/** Forced polls of one child start at least this far apart. */
export const FORCED_POLL_GAP_MS = 60_000;

export interface RefreshGateOptions {
  clock: Clock;
  /** The forced poll itself (queued behind whatever the account is doing); calls `began` when it starts reading. */
  poll: (began: () => void) => Promise<void>;
  gapMs?: number;
}

interface ForcedPoll {
  /** When it began reading the portal; undefined while it waits (in the queue, or for the minute to end). */
  beganAt: number | undefined;
  done: Promise<void>;
}

export class RefreshGate {
  /** The last forced poll that began. */
  private last: ForcedPoll | undefined;
  /** The next one, not begun yet: every press joins it. */
  private next: ForcedPoll | undefined;
  private timer: Timer | undefined;
  /** Answers the presses waiting for the minute to end, when the account stops first. */
  private release: (() => void) | undefined;

  constructor(private readonly options: RefreshGateOptions) {}

  /** Resolves when a forced poll that began after this press is done. */
  request(): Promise<void> {
    if (this.next) return this.next.done;
    const now = this.options.clock.now();
    const gap = this.options.gapMs ?? FORCED_POLL_GAP_MS;
    // A start in the future means the clock was set back: not recent, or the gate would stay shut.
    const age = this.last?.beganAt === undefined ? Number.POSITIVE_INFINITY : now - this.last.beganAt;
    const wait = age >= 0 && age < gap ? gap - age : 0;
    const poll: ForcedPoll = { beganAt: undefined, done: Promise.resolve() };
    this.next = poll;
    poll.done = new Promise<void>((resolve, reject) => {
      const run = (): void => {
        this.timer = undefined;
        this.release = undefined;
        this.options.poll(() => this.begin(poll)).then(resolve, reject);
      };
      if (wait === 0) return run();
      this.release = resolve;
      this.timer = this.options.clock.setTimer(run, wait);
    });
    return poll.done;
  }

  /** Drops a poll still waiting for its minute (the account stops): its presses are answered without one. */
  cancel(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.release?.();
    this.release = undefined;
    this.next = undefined;
  }

  private begin(poll: ForcedPoll): void {
    poll.beganAt = this.options.clock.now();
    this.last = poll;
    if (this.next === poll) this.next = undefined;
  }
}
