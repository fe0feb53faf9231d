// The `email` entries whose children could not be listed at start (the family portal down, a refused
// login): each is asked again as a failed pass is, after 1, 2, 4 ... minutes, at most `interval`, and
// not before a login pause ends (so one password POST per pause window at most). Its children are
// handed to the bridge once listed, which starts reading them without a restart.
import { retryDelay } from './health.js';
import { problemReason } from '../portal/errors.js';
import type { FamilyChild, UnlistedFamily } from './family-road.js';
import type { Clock, Timer } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { errorText } from '../util/text.js';

export interface FamilyRelistingOptions {
  /** poll.interval: the longest wait between two tries. */
  intervalMs: number;
  clock: Clock;
  log: Logger;
  /** Starts reading the children an entry listed (the bridge's pass runners). */
  read: (entry: UnlistedFamily, children: FamilyChild[]) => Promise<void>;
  /** Why the entry names no child yet (the bridge's own `problem`); `undefined` once it listed them. */
  problem?: (entry: UnlistedFamily, error: unknown) => void;
}

export class FamilyRelisting {
  private readonly timers = new Set<Timer>();
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly options: FamilyRelistingOptions) {}

  /** Asks the entry again after its `failures`th failure (the first: 1 minute, or when a login pause ends). */
  later(entry: UnlistedFamily, failures: number, error: unknown): void {
    const { clock, log, intervalMs } = this.options;
    this.options.problem?.(entry, error);
    const delay = retryDelay(failures, intervalMs, error, clock.now());
    const timer = clock.setTimer(() => {
      this.timers.delete(timer);
      const running = this.again(entry, failures).catch((error: unknown) =>
        log.warn({ account: entry.familyRoad.label, err: errorText(error) }, 'the family portal’s children could not be started'),
      );
      // Two entries may be listing at once: a stop waits for both.
      this.running = this.running.then(() => running);
    }, delay);
    this.timers.add(timer);
  }

  /** Resolves when no entry is being listed again (a simulated day waits for it, as for a pass). */
  idle(): Promise<void> {
    return this.running;
  }

  /** No entry is asked again; resolves when the listing under way is over. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) timer.cancel();
    this.timers.clear();
    await this.running;
  }

  private async again(entry: UnlistedFamily, failures: number): Promise<void> {
    let listed: FamilyChild[];
    try {
      listed = await entry.list();
    } catch (error) {
      if (this.stopped) return;
      this.options.log.info(
        { account: entry.familyRoad.label, reason: problemReason(error), failures: failures + 1 },
        'the family portal’s children could not be listed yet; asking again later',
      );
      this.later(entry, failures + 1, error);
      return;
    }
    if (this.stopped) return;
    this.options.problem?.(entry, undefined);
    await this.options.read(entry, listed);
  }
}
