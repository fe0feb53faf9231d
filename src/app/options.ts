// What the running bridge (app/app.ts) is made with: the validated config and what main.ts, the demo, the
// benchmark and the tests put around it.
import type { Feature } from '../features/feature.js';
import type { Resource } from '../feature-kit/resource.js';
import type { Config } from '../config/schema.js';
import type { Logger } from '../util/log.js';
import type { Clock } from '../util/clock.js';
import type { Dispatcher } from 'undici';
import type { SessionPolicy } from '../portal/session.js';
import type { Publisher } from '../ha/publisher.js';
import type { PollHooks } from '../poller/scheduler.js';
import type { ReconnectPolicy } from '../mqtt/client.js';

export interface AppOptions {
  config: Config;
  version: string;
  log: Logger;
  clock?: Clock;
  dispatcher?: Dispatcher;
  sessionPolicy?: SessionPolicy;
  /** Replaces the MQTT bridge (tests that only look at what would be published). */
  publisher?: Publisher & { start(): Promise<void>; stop(): Promise<void> };
  /** Delay between the start of one account's polling and the next (default 5 s). */
  staggerMs?: number;
  /** What an observer (the benchmark, a test) attaches to each account's polling, by account index. */
  hooks?: (childIndex: number) => PollHooks;
  /** Reconnect delays to the broker (default 5 s doubling to 60 s); tests shorten them. */
  reconnect?: ReconnectPolicy;
  /** The MQTT version (default 5, falling back to 3.1.1); the demo's embedded broker speaks only 4. */
  mqttVersion?: 4 | 5;
  /** Where the web server prints its full URLs on the first start (default stdout). */
  out?: { write(text: string): unknown };
  /**
   * The ingress proxy the web server lets in without the token: main.ts passes the Supervisor's only
   * under the Supervisor (request.ts trustedIngress); a test may put 127.0.0.1. Default: none.
   */
  ingressAddress?: string;
  /** The demo's school: in lessons at every hour, its news ages day and night (PollPolicy.fixedMoment). */
  schoolAllDay?: boolean;
  /** The features every child runs (all of them unless a test or the bench says otherwise). */
  features?: readonly Feature[];
  /** The declarations every child is read by (AccountPollerOptions.resources; src/resources' unless the bench or a test says otherwise). */
  resources?: readonly Resource[];
  /**
   * `run --dashboard-file FILE`: the dashboard `dziennik2mqtt dashboard` prints, written to FILE at start
   * and again whenever the children it can name change; `addon`: the board is the app's panel.
   */
  dashboardFile?: { file: string; addon?: boolean };
}
