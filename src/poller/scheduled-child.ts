// The child as its scheduler sees it (scheduler.ts, ScheduledChild), one object over the parts that answer:
// the coordinator runs a pass and says when the next is due, the features say when the states move next
// and recompute them, the health counts a failing host's failures (its backoff, backoff.ts).
import type { AccountCoordinator, PassOutcome } from './coordinator.js';
import type { AccountFeatures } from './account-features.js';
import type { AccountHealth } from './health.js';
import type { ScheduledChild } from './scheduler.js';
import { retryDelay } from './backoff.js';
import type { Host } from '../feature-kit/resource.js';

export class SchedulerView implements ScheduledChild {
  constructor(
    private readonly coordinator: AccountCoordinator,
    private readonly features: AccountFeatures,
    private readonly health: AccountHealth,
    /** poll.interval: the longest a failing host waits. */
    private readonly intervalMs: number,
  ) {}

  pass(waiting: ReadonlySet<Host>): Promise<PassOutcome> {
    return this.coordinator.pass(false, waiting);
  }

  nextWake(now: number, retryAt: ReadonlyMap<Host, number>): number {
    return this.coordinator.nextWake(now, retryAt);
  }

  retryIn(host: Host, error: unknown, now: number): number {
    return retryDelay(this.health.host(host).failures, this.intervalMs, error, now);
  }

  nextBoundary(now: number): number | null {
    return this.features.nextBoundary(now);
  }

  /** The states that move with the clock, published; none before the first identity. */
  restate(now: number): boolean {
    const states = this.features.restate(now);
    if (states !== undefined) this.coordinator.states(states);
    return states !== undefined;
  }
}
