// The account runner's timers: each tier polls again after its interval (or after a retry delay when
// the account could not be polled), and between polls the states that move with the clock (the
// lesson in progress) are recomputed at the next lesson start or end. All they start goes through
// the runner's queue, so it never overlaps a poll or a command.
import { retryDelay } from './schedule.js';
import type { AccountHealth } from './health.js';
import type { PollHooks } from './account-options.js';
import type { Tier } from '../feature-kit/source.js';
import type { Clock, Timer } from '../util/clock.js';
import type { Logger } from '../util/log.js';

export interface AccountTimersOptions {
  clock: Clock;
  /** How long a tier sleeps after a good poll at `now` (the fetch plan's answer). */
  interval: (tier: Tier, now: number) => number;
  hooks?: PollHooks | undefined;
  health: AccountHealth;
  log: Logger;
  enqueue: (work: () => Promise<void>) => Promise<unknown>;
  /** One timed poll of a tier; false when the account could not be polled at all. */
  cycle: (tiers: Tier[]) => Promise<boolean>;
  /** The next instant after `now` at which the states move by themselves; null when none before the next poll. */
  nextBoundary: (now: number) => number | null;
  /** Recomputes and publishes those states; false when it cannot (the child is not known yet). */
  restate: (now: number) => boolean;
}

export class AccountTimers {
  private readonly timers = new Map<Tier | 'boundary', Timer>();
  private stopped = true;
  /** When the boundary timer is set for (undefined when none is waiting). */
  private boundaryAt: number | undefined;

  constructor(private readonly options: AccountTimersOptions) {}

  start(delayMs: number): void {
    this.stopped = false;
    this.schedule('normal', delayMs);
    this.schedule('fast', delayMs);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
    this.boundaryAt = undefined;
  }

  private schedule(tier: Tier, delayMs: number): void {
    if (this.stopped) return;
    this.timers.get(tier)?.cancel();
    const { clock, hooks, health } = this.options;
    const due = async (): Promise<void> => {
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
        const interval = this.options.interval(tier, now);
        const state = health.tier(tier);
        this.schedule(tier, ok ? interval : retryDelay(state.failures, interval, state.error, now));
      }
    };
    this.timers.set(tier, clock.setTimer(() => void this.options.enqueue(due), delayMs));
  }

  /** Sets the timer of the next lesson start or end (after each poll, and after each such moment). */
  scheduleBoundary(): void {
    if (this.stopped) return;
    const { clock } = this.options;
    // A boundary due now (its timer firing beside a poll's) is left to fire: replacing it would look
    // for the next one after now, and the lesson's end would be published only by the next poll.
    if (this.boundaryAt !== undefined && this.boundaryAt <= clock.now()) return;
    this.timers.get('boundary')?.cancel();
    const at = this.options.nextBoundary(clock.now());
    this.boundaryAt = at ?? undefined;
    if (at === null) return;
    const restate = async (): Promise<void> => {
      this.boundaryAt = undefined;
      if (this.stopped || !this.options.restate(clock.now())) return;
      this.scheduleBoundary();
    };
    this.timers.set('boundary', clock.setTimer(() => void this.options.enqueue(restate), at - clock.now()));
  }
}
