// The download limits of spec 8 as data, the poll delay they imply, the process-wide slots that keep
// downloads to two at once, and the 150 s deadline around one download.
import { DEFAULT_DOWNLOADS_MAX_MB } from '../config/schema.js';
import { ConnectionError } from './errors.js';
import type { Clock } from '../util/clock.js';

/** Download policy as data, with the spec's defaults (spec 4.6, 8). */
export interface DownloadLimits {
  /** The whole download, keys and logins included (DOWNLOAD_TIMEOUT_SECONDS). */
  totalMs: number;
  /** Single-use keys tried per homework file before giving up. */
  maxKeys: number;
  /** Delay before the second key check; each later check waits pollStepMs more, up to pollMaxMs. */
  pollFirstMs: number;
  pollStepMs: number;
  pollMaxMs: number;
  /** Checks of one key before it is dropped for a fresh one (the web page gives up after 15). */
  checksPerKey: number;
  /** Pause before asking for a fresh key: a key that failed at once works "a moment later". */
  keyRetryDelayMs: number;
  /** Times an attachment's /get may still answer its HTML waiting page. */
  attachmentTries: number;
  /** Upper bound of one HTTP request inside a download. */
  requestTimeoutMs: number;
  /** Largest file saved (downloads_max_mb): a bigger one is refused as it streams in. */
  maxFileBytes: number;
}

/** Checks 5, 6, ... 10, 10 s apart: 15 checks take about two minutes, as the web page waits. */
export const DEFAULT_DOWNLOAD_LIMITS: DownloadLimits = {
  totalMs: 150_000,
  maxKeys: 3,
  pollFirstMs: 5_000,
  pollStepMs: 1_000,
  pollMaxMs: 10_000,
  checksPerKey: 15,
  keyRetryDelayMs: 2_000,
  attachmentTries: 15,
  requestTimeoutMs: 30_000,
  maxFileBytes: DEFAULT_DOWNLOADS_MAX_MB * 1024 * 1024,
};

/** MAX_CONCURRENT_DOWNLOADS: per process, all accounts together. */
const MAX_CONCURRENT_DOWNLOADS = 2;

/** How long to wait before check number `check` (1-based) of a key or an attachment link. */
export function pollDelay(check: number, limits: DownloadLimits): number {
  if (check <= 1) return 0;
  return Math.min(limits.pollMaxMs, limits.pollFirstMs + (check - 2) * limits.pollStepMs);
}

/**
 * A FIFO semaphore. One instance is made by the composition root and handed to every account's
 * Downloader, so the limit holds for the process, apart from the ordinary request limit.
 */
export class DownloadSlots {
  private readonly max: number;
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(max: number = MAX_CONCURRENT_DOWNLOADS) {
    this.max = max;
  }

  /** Downloads holding a slot now. */
  get active(): number {
    return this.running;
  }

  /** Downloads waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Resolves with a release function once a slot is free. */
  async acquire(): Promise<() => void> {
    if (this.running >= this.max) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      // The slot passes straight to the next waiter, so a newcomer cannot overtake the queue.
      if (next) next();
      else this.running--;
    };
  }
}

/**
 * Runs work with a deadline on the injected clock. When it passes, the signal aborts (so sleeps and
 * the next request stop) and the promise rejects with ConnectionError at once, even if an HTTP
 * request is still in flight.
 */
export async function withDeadline<T>(
  clock: Clock,
  ms: number,
  context: { account: string; what: string },
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const timeout = new ConnectionError(`${context.what}: gave up after ${Math.round(ms / 1000)} s`, { account: context.account });
  let timer: { cancel(): void } | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = clock.setTimer(() => {
      controller.abort(timeout);
      reject(timeout);
    }, ms);
  });
  // The losing promise of the race must not surface as an unhandled rejection.
  expired.catch(() => undefined);
  const running = work(controller.signal);
  running.catch(() => undefined);
  try {
    return await Promise.race([running, expired]);
  } finally {
    timer?.cancel();
  }
}
