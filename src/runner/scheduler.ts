// The account's scheduler: one timer, set for the soonest of what is due: the next pass (the soonest
// copy the features read must be read by: AccountCoordinator.nextWake), a failed host's retry, and
// the next lesson start or end (states that move with the clock). A host whose pass failed backs off
// 1, 2, 4 ... minutes, at most poll.interval, or until a login pause ends; the other host is read
// meanwhile. All it starts goes through the runner's queue, so it never overlaps a command.
import type { Host } from '../engine/resource.js';
import type { PassOutcome, ReadHook } from './coordinator.js';
import type { PortalAccessOptions } from '../engine/resources/portal-access.js';
import type { Clock, Timer } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { errorText } from '../util/text.js';

/** What an observer (the benchmark, a test) may attach to an account's reading. */
export interface PassHooks extends Pick<PortalAccessOptions, 'onRequest'> {
  onRead?: ReadHook;
  /** A timed pass is about to start. */
  onCycleStart?: () => void;
  /** A timed pass ended: the hosts it read. */
  onCycle?: (cycle: { hosts: Host[] }) => void;
}

/**
 * The child as its scheduler sees it: what it runs (a pass, the states that move with the clock) and what it
 * asks (when the next pass is due, a failed host's wait, the next lesson start or end). The runner
 * (account.ts) gives it from the coordinator, the features and the health.
 */
export interface ScheduledChild {
  /** One pass; `waiting`: the hosts whose backoff has not ended. */
  pass(waiting: ReadonlySet<Host>): Promise<PassOutcome>;
  /** When the next pass is due after one at `now`, with the failed hosts' retries. */
  nextWake(now: number, retryAt: ReadonlyMap<Host, number>): number;
  /** How long a host whose pass failed with `error` at `now` waits before it is tried again (health.ts, retryDelay). */
  retryIn(host: Host, error: unknown, now: number): number;
  /** The next instant after `now` at which the states move by themselves; null when none before the next pass. */
  nextBoundary(now: number): number | null;
  /** Recomputes and publishes those states; false when it cannot (the child is not known yet). */
  restate(now: number): boolean;
}

export interface SchedulerOptions {
  clock: Clock;
  hooks?: PassHooks | undefined;
  log: Logger;
  /** The account's queue: every pass and restate the timer starts waits there for the command under way. */
  enqueue: (work: () => Promise<void>) => Promise<unknown>;
  child: ScheduledChild;
}

export class AccountScheduler {
  private passAt = Infinity;
  private readonly retryAt = new Map<Host, number>();
  /** When the states move next (Infinity when nothing moves before a pass). */
  private boundaryAt = Infinity;
  private timer: Timer | undefined;
  private timerAt = Infinity;
  private stopped = true;
  /** A wake is under way: it sets the timer once it has done. */
  private waking = false;

  constructor(private readonly options: SchedulerOptions) {}

  start(delayMs: number): void {
    this.stopped = false;
    this.passAt = this.options.clock.now() + delayMs;
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** A pass outside the timer (a refresh, a command's read again) ended: the next one is planned anew. */
  passed(outcome: PassOutcome): void {
    if (this.stopped) return;
    this.scheduleAfter(outcome);
    this.arm();
  }

  /** Sets the timer for the soonest of what is due (kept when it already is). */
  private arm(): void {
    if (this.stopped || this.waking) return;
    const { clock } = this.options;
    const next = Math.min(this.passAt, this.boundaryAt);
    if (this.timer !== undefined && next === this.timerAt) return;
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = next;
    if (next === Infinity) return;
    this.timer = clock.setTimer(
      () => {
        this.timer = undefined;
        void this.options.enqueue(() => this.wake());
      },
      Math.max(0, next - clock.now()),
    );
  }

  /**
   * One wake: a pass when one is due, and another at once when the clock went past the next one while
   * it ran (a slow portal; a waiting host's retry); then the states that moved.
   */
  private async wake(): Promise<void> {
    const { clock } = this.options;
    this.waking = true;
    try {
      for (let passes = 0; passes < 3 && this.passAt <= clock.now() && !this.stopped; passes++) await this.pass();
      if (this.boundaryAt <= clock.now()) {
        this.boundaryAt = Infinity;
        if (!this.stopped && this.options.child.restate(clock.now())) this.scheduleBoundary();
      }
    } finally {
      this.waking = false;
    }
    this.arm();
  }

  private async pass(): Promise<void> {
    const { clock, hooks } = this.options;
    const now = clock.now();
    const waiting = new Set([...this.retryAt].filter(([, at]) => at > now).map(([host]) => host));
    hooks?.onCycleStart?.();
    let outcome: PassOutcome = { read: [], failed: new Map() };
    try {
      outcome = await this.options.child.pass(waiting);
    } catch (error) {
      // Nothing may end the reading loop: log it and try again later.
      this.options.log.error({ err: errorText(error) }, 'pass failed unexpectedly');
    } finally {
      hooks?.onCycle?.({ hosts: outcome.read });
      this.scheduleAfter(outcome);
      // A host that waited out its backoff while this pass ran (a slow portal) is read at once.
      const after = clock.now();
      if ([...waiting].some((host) => (this.retryAt.get(host) ?? Infinity) <= after)) this.passAt = after;
    }
  }

  /** When the next pass is: the failed hosts' backoffs, else what the copies say; and the next lesson start or end. */
  private scheduleAfter(outcome: PassOutcome): void {
    this.scheduleBoundary();
    const now = this.options.clock.now();
    for (const host of outcome.read) this.retryAt.delete(host);
    for (const [host, error] of outcome.failed) this.retryAt.set(host, now + this.options.child.retryIn(host, error, now));
    this.passAt = this.options.child.nextWake(now, this.retryAt);
  }

  /** Sets when the next lesson starts or ends (after each pass, and after each such moment). */
  scheduleBoundary(): void {
    if (this.stopped) return;
    const { clock } = this.options;
    // A boundary due now (beside a pass) is left to this wake: replacing it would look for the next one
    // after now, and the lesson's end would be published only by the next pass.
    if (this.boundaryAt <= clock.now()) return;
    this.boundaryAt = this.options.child.nextBoundary(clock.now()) ?? Infinity;
    this.arm();
  }
}
