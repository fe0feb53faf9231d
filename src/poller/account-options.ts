// What an account runner is given: its account and portal (as the portal access takes them), its
// timing, where it publishes, and the hooks an observer (the benchmark, a test) may attach.
import type { Averaging } from '../config/schema.js';
import type { Feature } from '../features/feature.js';
import type { Publisher } from '../ha/publisher.js';
import type { Language } from '../config/language.js';
import type { SessionPolicy } from '../portal/session.js';
import type { PollPolicy } from '../feature-kit/plan.js';
import type { Host } from '../feature-kit/resource.js';
import type { FiguresSink } from '../features/status/figures.js';
import type { PortalAccessOptions } from './portal-access.js';

/** What an observer (the benchmark, a test) may attach to an account's polling. */
export interface PollHooks extends Pick<PortalAccessOptions, 'onRequest'> {
  /** A timed pass is about to start. */
  onCycleStart?: () => void;
  /** A timed pass ended: the hosts it read. */
  onCycle?: (cycle: { hosts: Host[] }) => void;
}

/** What every child shares to reach the portal (app/app.ts), beside its own account and road. */
type Shared = 'dispatcher' | 'portalTime' | 'slots';
type Portal = Shared | 'account' | 'urls' | 'clock' | 'log' | 'timeoutMs' | 'downloadMaxBytes' | 'family' | 'alsoFamily';

export interface AccountPollerOptions extends Pick<PortalAccessOptions, Portal> {
  dataDir: string;
  poll: PollPolicy;
  publisher: Publisher;
  /** The features this account runs (all of them unless a test says otherwise). */
  features?: readonly Feature[];
  /**
   * The declarations it reads by, each taking the place of the one of its name (src/resources' unless the
   * bench or a test says otherwise: the bench's naive and reference schedules are these transformed).
   */
  resources?: PortalAccessOptions['resources'];
  sessionPolicy?: SessionPolicy;
  /** Delay before the first poll (staggers accounts). */
  startDelayMs?: number;
  hooks?: PollHooks;
  /** The language of the device's model line and of problem messages: the config's `language` (English when not given). */
  language?: Language;
  /** The config's messages_per_day: what the account may send in a day, every kind together. */
  messagesPerDay?: number;
  /** Told of the figures' events too (the metrics, with http.metrics on). */
  figuresSink?: FiguresSink;
  /** The config's grading.thresholds (the statute's defaults when not given). */
  thresholds?: readonly number[];
  /** The config's grading.average: arithmetic counts every grade at weight 1. */
  averaging?: Averaging;
}
