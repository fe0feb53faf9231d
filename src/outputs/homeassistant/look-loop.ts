// One look at a time at something outside the bridge (Home Assistant's API, its WebSocket, the Supervisor),
// as the keeper, the statistics and the Supervisor's announcement each make it: a nudge (a pass published,
// a timer) queues one look behind the one under way, never two; a look that failed is tried again after a
// wait that doubles with each failure in a row (or the one its owner names), and no nudge comes before
// that; a stop aborts the signal every call of a look takes, so what is in flight is abandoned, not waited
// out (interface 16.1), and nothing is tried again. Each of the three extends it, as an extension of
// zigbee2mqtt extends its base: what a look does (`look`), what a failure means and what is logged and
// kept of it (`failed`) are its own; its start loads what it needs, then starts the loop. The App's part
// list starts and stops it (app.ts parts()).
import type { Clock, Timer } from '../../util/clock.js';
import { MINUTE } from '../../util/duration.js';
import { SerialQueue } from '../../util/serial.js';

export interface LookLoopOptions {
  clock: Clock;
  /** The wait after a first failure, doubled after each one in a row, up to the longest. */
  backoff: { first: number; longest: number };
}

export abstract class LookLoop {
  private readonly queue = new SerialQueue();
  private readonly stopping = new AbortController();
  private started = false;
  private queued = false;
  /** The try again after a failure, and its wait; and a look asked for at a later time (lookIn). */
  private retry: { timer: Timer; ms: number } | undefined;
  private later: Timer | undefined;
  /** Failed looks in a row. */
  private failures = 0;

  constructor(private readonly loop: LookLoopOptions) {}

  /** One look; every call to the outside it makes takes `signal`, which aborts at stop. */
  protected abstract look(signal: AbortSignal): Promise<void>;

  /**
   * A look failed (not by the stop): the owner's log line and record, told the wait before the next try. A
   * wait it answers instead (an answer lost, not a Home Assistant away) is the one waited, and the doubling
   * begins again after it.
   */
  protected abstract failed(error: unknown, wait: number): Promise<number | undefined> | number | undefined;

  /** Aborted at stop: a call made with it is abandoned then. */
  protected get signal(): AbortSignal {
    return this.stopping.signal;
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  /** While a failed look waits to be tried again: that wait, for the diagnostics. */
  protected retryStatus(): { retry_in_minutes?: number } {
    return this.retry === undefined ? {} : { retry_in_minutes: this.retry.ms / MINUTE };
  }

  /** The first look: nothing is looked at before (nudges only ask). */
  async start(): Promise<void> {
    this.started = true;
    this.nudge();
  }

  /** A look after whatever is under way, unless one is queued already or a failed one waits to be tried again. */
  protected nudge(): void {
    if (!this.started || this.stopped || this.queued || this.retry) return;
    this.queued = true;
    void this.queue.enqueue(async () => {
      this.queued = false;
      if (!this.stopped) await this.run();
    });
  }

  /** A look in `ms` (one such time at once: a later ask replaces it); undefined: none. */
  protected lookIn(ms: number | undefined): void {
    this.later?.cancel();
    this.later =
      ms === undefined || this.stopped
        ? undefined
        : this.loop.clock.setTimer(() => {
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

  /** Resolves when no look is under way or queued (a test waits for it as for a pass). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  private async run(): Promise<void> {
    try {
      await this.look(this.signal);
      this.failures = 0;
    } catch (error) {
      // A call the stop abandoned is no fault of the outside's: nothing is recorded of it.
      if (this.stopped) return;
      const { first, longest } = this.loop.backoff;
      const instead = await this.failed(error, Math.min(first * 2 ** this.failures, longest));
      this.failures = instead === undefined ? this.failures + 1 : 0;
      const ms = instead ?? Math.min(first * 2 ** (this.failures - 1), longest);
      if (this.stopped) return;
      const timer = this.loop.clock.setTimer(() => {
        this.retry = undefined;
        this.nudge();
      }, ms);
      this.retry = { timer, ms };
    }
  }
}
