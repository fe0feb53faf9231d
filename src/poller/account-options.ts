// What an account runner is given: its account and portal, its timing, where it publishes, and the
// hooks an observer (the benchmark, a test) may attach.
import type { Feature } from '../features/feature.js';
import type { Publisher } from '../ha/publisher.js';
import type { Language } from '../config/language.js';
import type { SessionPolicy } from '../portal/session.js';
import type { FamilyAccount } from '../portal/family.js';
import type { DownloadSlots } from '../portal/download-limits.js';
import type { AccountConfig, PortalUrls } from '../config/schema.js';
import type { PollPolicy } from './schedule.js';
import type { Host, Resource } from '../feature-kit/resource.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { Dispatcher } from 'undici';
import type { FiguresSink } from './figures.js';

/** What an observer (the benchmark, a test) may attach to an account's polling. */
export interface PollHooks {
  /** Every request sent to the portal, as "METHOD endpoint" with ids masked. */
  onRequest?: (key: string) => void;
  /** A timed pass is about to start. */
  onCycleStart?: () => void;
  /** A timed pass ended: the hosts it read (ok: the account could be read). */
  onCycle?: (cycle: { hosts: Host[]; ok: boolean }) => void;
}

export interface AccountPollerOptions {
  account: AccountConfig;
  urls: PortalUrls;
  dataDir: string;
  poll: PollPolicy;
  clock: Clock;
  log: Logger;
  publisher: Publisher;
  /** The features this account runs (all of them unless a test says otherwise). */
  features?: readonly Feature[];
  /**
   * The declarations it reads by, each taking the place of the one of its name (src/resources' unless the
   * bench or a test says otherwise: the bench's naive and reference schedules are these transformed).
   */
  resources?: readonly Resource[];
  dispatcher?: Dispatcher;
  sessionPolicy?: SessionPolicy;
  timeoutMs?: number;
  /** Delay before the first poll (staggers accounts). */
  startDelayMs?: number;
  hooks?: PollHooks;
  /** The process-wide download slots (needed when the account has downloads on). */
  slots?: DownloadSlots;
  /** The largest file a download saves, in bytes (downloads_max_mb; 50 MB when not given). */
  downloadMaxBytes?: number;
  /** The language of the device's model line and of problem messages: the config's `language` (English when not given). */
  language?: Language;
  /** The config's messages_per_day: what the account may send in a day, every kind together. */
  messagesPerDay?: number;
  /** Told of the figures' events too (the metrics, with http.metrics on). */
  figuresSink?: FiguresSink;
  /** The config's grading.thresholds (the statute's defaults when not given). */
  thresholds?: readonly number[];
  /** The family road (an `email` entry's child): the child is read through this family account. */
  family?: FamilyAccount;
  /** A register child an `email` entry lists too: its family road while the register login fails (roads.ts). */
  alsoFamily?: FamilyAccount;
}
