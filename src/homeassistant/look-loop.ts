// One look at a time at something outside the bridge (Home Assistant's API, its WebSocket, the Supervisor),
// as the keeper, the statistics and the Supervisor's announcement each make it: a nudge (a pass published,
// a timer) queues one look behind the one under way, never two; a look that failed is tried again after a
// wait that doubles with each failure in a row (or the one its owner names), and no nudge comes before
// that; a stop aborts the signal every call of a look takes, so what is in flight is abandoned, not waited
// out (interface 16.1), and nothing is tried again. What a look does, what a failure means, what is logged
// and kept: the owner's.
import type { Clock, Timer } from '../util/clock.js';
import { SerialQueue } from '../util/serial.js';

export interface LookLoopOptions {
  clock: Clock;
  /** One look; every call to the outside it makes takes `signal`, which aborts at stop. */
  look(signal: AbortSignal): Promise<void>;
  /** The wait after a first failure, doubled after each one in a row, up to the longest. */
  backoff: { first: number; longest: number };
  /**
   * A look failed (not by the stop): the owner's log line and record, told the wait before the next try. A
   * wait it answers instead (an answer lost, not a Home Assistant away) is the one waited, and the doubling
   * begins again after it.
   */
  failed(error: unknown, wait: number): Promise<number | undefined> | number | undefined;
}

export class LookLoop {
  private readonly queue = new SerialQueue();
  private readonly stopping = new AbortController();
  private started = false;
  private queued = false;
  /** The try again after a failure, and its wait; and a look asked for at a later time (lookIn). */
  private retry: { timer: Timer; ms: number } | undefined;
  private later: Timer | undefined;
  /** Failed looks in a row. */
  private failures = 0;

  constructor(private readonly options: LookLoopOptions) {}

  /** Aborted at stop: a call made with it is abandoned then. */
  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  /** While a failed look waits to be tried again: that wait (the diagnostics' `retry_in_minutes`). */
  get retryingIn(): number | undefined {
    return this.retry?.ms;
  }

  /** The first look: nothing is looked at before (nudges only ask). */
  start(): void {
    this.started = true;
    this.nudge();
  }

  /** A look after whatever is under way, unless one is queued already or a failed one waits to be tried again. */
  nudge(): void {
    if (!this.started || this.stopped || this.queued || this.retry) return;
    this.queued = true;
    void this.queue.enqueue(async () => {
      this.queued = false;
      if (!this.stopped) await this.run();
    });
  }

  /** A look in `ms` (one such time at once: a later ask replaces it); undefined: none. */
  lookIn(ms: number | undefined): void {
    this.later?.cancel();
    this.later =
      ms === undefined || this.stopped
        ? undefined
        : this.options.clock.setTimer(() => {
            this.later = undefined;
            this.nudge();
          }, ms);
  }

  /** Nothing more is looked at; the call in flight is aborted, and its look ends without waiting for an answer. */
  async stop(): Promise<void> {
    this.stopping.abort(new Error('the bridge stops'));
    this.retry?.timer.cancel();
    this.retry = undefined;
    this.lookIn(undefined);
    await this.queue.idle();
  }

  /** Resolves when no look is under way or queued (a test waits for it as for a poll). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  private async run(): Promise<void> {
    try {
      await this.options.look(this.signal);
      this.failures = 0;
    } catch (error) {
      // A call the stop abandoned is no fault of the outside's: nothing is recorded of it.
      if (this.stopped) return;
      const { first, longest } = this.options.backoff;
      const instead = await this.options.failed(error, Math.min(first * 2 ** this.failures, longest));
      this.failures = instead === undefined ? this.failures + 1 : 0;
      const ms = instead ?? Math.min(first * 2 ** (this.failures - 1), longest);
      if (this.stopped) return;
      const timer = this.options.clock.setTimer(() => {
        this.retry = undefined;
        this.nudge();
      }, ms);
      this.retry = { timer, ms };
    }
  }
}
