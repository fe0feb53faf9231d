// What the MQTT bridge is made with (bridge.ts), and what its bridge/health topic holds.
import type { MqttConfig } from '../config/schema.js';
import type { BrokerOrigin } from '../config/broker-origin.js';
import type { Language } from '../config/language.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { ClaimOptions } from './claim.js';

/** What bridge/health holds: the bridge's start (ISO time) and its memory in MB. */
export interface BridgeHealth {
  started_at: string;
  memory_mb: number;
  heap_mb: number;
  /** Seconds this machine's clock is off the portal's (positive: ahead), only when over a minute. */
  clock_skew_s?: number;
}

export interface BridgeOptions {
  mqtt: MqttConfig;
  /** Where `mqtt.url` came from: the log's advice when the broker is away names that place. */
  brokerFrom?: BrokerOrigin;
  version: string;
  log: Logger;
  /** The bridge/info payload (no secrets); `version` is added when missing. */
  info: () => Record<string, unknown>;
  /**
   * Ids of the configured children. start() removes the retained devices of children that are neither
   * listed here nor given to setChild() before start(), so list them when names come later. `every`
   * keeps every retained device as it is (the app waiting for its refused options to be saved again).
   */
  children?: readonly string[] | 'every';
  supportUrl?: string;
  /** The language of entity names in discovery: the config's `language` (English when not given). */
  language?: Language;
  clock?: Clock;
  /** How long start() reads retained device configs before deciding what is stale (default 1 s). */
  staleScanMs?: number;
  /** Delay between Home Assistant's birth message and the republish (default 2 s). */
  birthDelayMs?: number;
  /** Delay before the first reconnect attempt, doubling per failed attempt (default 5 s). */
  reconnectPeriodMs?: number;
  /** The longest delay between reconnect attempts (default 60 s). */
  reconnectMaxMs?: number;
  /** The broker refused a topic (a subscription or a publish): the bridge's own `problem` says so. */
  onRefused?: (topic: string) => void;
  /**
   * One bridge per base topic (claim.ts): this instance, and what it hears of others. None: no claim (a test's bridge).
   * Its id is the data folder's: the MQTT session's client id (session.ts), so a restart knows its own last claim.
   */
  claim?: Pick<ClaimOptions, 'other' | 'lost'> & { me: Omit<ClaimOptions['me'], 'id'> };
  /** Where the MQTT session is kept (session.ts): events then reach the broker once across a kill. Without it a clean session. */
  dataDir?: string;
  /** MQTT 5 by default (falling back to 3.1.1 when refused); 4 for a broker that speaks only 3.1.1. */
  protocolVersion?: 4 | 5;
}
