// A refresh asked for by a user (the refresh button, `<c>/refresh/set`, `bridge/request/refresh`) polls
// every tier at once. Anyone who can publish to the broker can ask for one, so a flood of them must cost
// the portal at most one forced poll per child a minute: a refresh asked while one waits, runs or has
// just run joins it and is answered when it is done. Nothing queues up.
import type { Clock } from '../util/clock.js';

/** Forced polls of one child start at least this far apart. */
export const FORCED_POLL_GAP_MS = 60_000;

export interface RefreshGateOptions {
  clock: Clock;
  /** The forced poll itself (queued behind whatever the account is doing). */
  poll: () => Promise<void>;
  gapMs?: number;
}

interface ForcedPoll {
  startedAt: number;
  running: boolean;
  done: Promise<void>;
}

export class RefreshGate {
  private last: ForcedPoll | undefined;

  constructor(private readonly options: RefreshGateOptions) {}

  /** Resolves when a forced poll asked for now, or the one this joined, is done. */
  request(): Promise<void> {
    const now = this.options.clock.now();
    const last = this.last;
    // A start in the future means the clock was set back: not recent, or the gate would stay shut.
    const age = last === undefined ? Number.POSITIVE_INFINITY : now - last.startedAt;
    if (last && (last.running || (age >= 0 && age < (this.options.gapMs ?? FORCED_POLL_GAP_MS)))) return last.done;
    const poll: ForcedPoll = { startedAt: now, running: true, done: Promise.resolve() };
    poll.done = this.options.poll().finally(() => (poll.running = false));
    this.last = poll;
    return poll.done;
  }
}
