// The account's scheduler: one timer, set for the soonest of what is due. The child's copies of the
// portal's resources fall due by their rows of the fetch plan (the runner's `readBy` answers when, for
// the features that read the messaging host and for those that read the register's API), and the
// states that move with the clock (the lesson in progress) at the next lesson start or end. What
// falls due together is read in one wake. The two kinds of features are passed separately so that one
// host failing (and its backoff) never holds up the other. All it starts goes through the runner's
// queue, so it never overlaps a command.
import { afterFailure, nextWake } from './wake.js';
import type { AccountHealth } from './health.js';
import type { PollHooks } from './account-options.js';
import type { Tier } from '../feature-kit/source.js';
import type { Clock, Timer } from '../util/clock.js';
import type { Logger } from '../util/log.js';

/** The passes of one wake, in this order when both are due: the API's, then the messaging host's. */
const PASSES: readonly Tier[] = ['normal', 'fast'];

export interface SchedulerOptions {
  clock: Clock;
  /** How long after a good pass at `now` the tier's features must read again (the fetch plan's answer). */
  interval: (tier: Tier, now: number) => number;
  hooks?: PollHooks | undefined;
  health: AccountHealth;
  log: Logger;
  enqueue: (work: () => Promise<void>) => Promise<unknown>;
  /** One timed pass of a tier's features; false when the account could not be polled at all. */
  cycle: (tiers: Tier[]) => Promise<boolean>;
  /** The next instant after `now` at which the states move by themselves; null when none before the next poll. */
  nextBoundary: (now: number) => number | null;
  /** Recomputes and publishes those states; false when it cannot (the child is not known yet). */
  restate: (now: number) => boolean;
}

export class AccountScheduler {
  /** When each tier's features are due next. */
  private readonly due = new Map<Tier, number>();
  /** When the states move next (undefined when nothing moves before a poll). */
  private boundaryAt: number | undefined;
  private timer: Timer | undefined;
  private timerAt = Infinity;
  private stopped = true;
  /** A wake is under way: it sets the timer once it has done. */
  private waking = false;

  constructor(private readonly options: SchedulerOptions) {}

  start(delayMs: number): void {
    this.stopped = false;
    const at = this.options.clock.now() + delayMs;
    for (const tier of PASSES) this.due.set(tier, at);
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = Infinity;
    this.due.clear();
    this.boundaryAt = undefined;
  }

  /** Sets the timer for the soonest of what is due (kept when it already is). */
  private arm(): void {
    if (this.stopped || this.waking) return;
    const { clock } = this.options;
    const next = nextWake(this.due.values(), this.boundaryAt);
    if (this.timer !== undefined && next === this.timerAt) return;
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = next;
    if (next === Infinity) return;
    this.timer = clock.setTimer(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      void this.options.enqueue(() => this.wake());
    }, Math.max(0, next - clock.now()));
  }

  /** One wake: a pass of each tier that is due, then the states that moved. */
  private async wake(): Promise<void> {
    const { clock } = this.options;
    this.waking = true;
    try {
      // Until nothing is due: a pass that took long may find the other tier due by its end.
      for (let tier = this.dueTier(); tier !== undefined && !this.stopped; tier = this.dueTier()) await this.pass(tier);
      if (this.boundaryAt !== undefined && this.boundaryAt <= clock.now()) {
        this.boundaryAt = undefined;
        if (!this.stopped && this.options.restate(clock.now())) this.scheduleBoundary();
      }
    } finally {
      this.waking = false;
    }
    this.arm();
  }

  /** The first tier due now (a pass sets its tier's next time at least a minute ahead). */
  private dueTier(): Tier | undefined {
    const now = this.options.clock.now();
    return PASSES.find((tier) => (this.due.get(tier) ?? Infinity) <= now);
  }

  private async pass(tier: Tier): Promise<void> {
    const { clock, hooks, health } = this.options;
    hooks?.onCycleStart?.([tier]);
    let ok = false;
    try {
      ok = await this.options.cycle([tier]);
    } catch (error) {
      // Nothing may end the polling loop: log it and try again later.
      this.options.log.error({ tier, err: error instanceof Error ? error.message : String(error) }, 'poll cycle failed unexpectedly');
    } finally {
      hooks?.onCycle?.({ tiers: [tier], ok });
      const now = clock.now();
      // The pass's answer of when the tier is due again; a failed pass backs off within it (wake.ts).
      const interval = this.options.interval(tier, now);
      const state = health.tier(tier);
      this.due.set(tier, now + afterFailure(interval, ok ? undefined : { failures: state.failures, error: state.error }, now));
    }
  }

  /** Sets when the next lesson starts or ends (after each poll, and after each such moment). */
  scheduleBoundary(): void {
    if (this.stopped) return;
    const { clock } = this.options;
    // A boundary due now (beside a poll) is left to this wake: replacing it would look for the next one
    // after now, and the lesson's end would be published only by the next poll.
    if (this.boundaryAt !== undefined && this.boundaryAt <= clock.now()) return;
    this.boundaryAt = this.options.nextBoundary(clock.now()) ?? undefined;
    this.arm();
  }
}
