// What the bridge device says of itself: bridge/info (what runs and how, without any secret) and bridge/health (when
// it started, its memory, how far its clock is off the portal's). Its commands and requests are MQTT's
// (outputs/mqtt/requests.ts).
import { messages } from '../features/messages/messages.js';
import { formatDuration } from '../util/duration.js';
import type { PassRunner } from '../runner/account.js';
import type { BridgeHealth } from '../outputs/mqtt/states.js';
import { isoWarsaw } from '../util/time.js';
import type { Config, AccountConfig } from '../config/schema.js';
import type { PortalTime } from '../portal/portal-time.js';

export interface BridgeInfoInput {
  config: Config;
  version: string;
  logLevel: string;
  runners: readonly PassRunner[];
  /** Every child the bridge reads, with its config (its fixed messages). */
  children: readonly { account: AccountConfig }[];
}

/** bridge/info: the version, the log level (the bridge device's select shows it), each child, the config's intervals. */
export function bridgeInfo({ config, version, logLevel, runners, children }: BridgeInfoInput): Record<string, unknown> {
  return {
    version,
    log_level: logLevel,
    children: runners.map((p) => ({
      id: p.id,
      name: p.child ? `${p.child.firstName} ${p.child.lastName}`.trim() : null,
      class: p.child?.className ?? null,
      school: p.child?.schoolName ?? null,
      fixed_messages: children.find(({ account: a }) => a.login === p.loginName)?.account.messages.map((m) => m.id) ?? [],
      messages_module: p.features.stateOf(messages)?.moduleAvailable ?? null,
    })),
    config: {
      base_topic: config.mqtt.base_topic,
      discovery_prefix: config.mqtt.discovery_prefix,
      portal: config.portal.base_url,
      poll_interval: formatDuration(config.poll.interval),
      fast_interval: formatDuration(config.poll.fast_interval),
      school_interval: formatDuration(config.poll.school_interval),
      quiet_hours: config.poll.quiet_hours ?? null,
    },
  };
}

/**
 * bridge/health: when the bridge started (ISO time), its RSS and heap in MB to a tenth, and how far this machine's
 * clock is off the portal's in seconds when it is over a minute (`clock_skew_s`, positive: ahead).
 */
export function bridgeHealth(startedAt: number, portalTime?: PortalTime): BridgeHealth {
  const mb = (bytes: number): number => Math.round(bytes / 104_857.6) / 10;
  const size = rssAndHeap();
  const skew = portalTime?.skewSeconds;
  return {
    started_at: isoWarsaw(startedAt),
    memory_mb: mb(size.rss),
    heap_mb: mb(size.heapUsed),
    ...(skew === undefined ? {} : { clock_skew_s: skew }),
  };
}

/** How old the RSS and heap figures may be, in real time: passes minutes apart read it afresh each time. */
const RSS_READ_EVERY_MS = 5_000;
let lastReading: { at: number; rss: number; heapUsed: number } | undefined;

/**
 * The process's RSS and heap, read again only when the last reading is 5 s old (real time, not the bridge's
 * clock). Each reading opens /proc/self/stat; bridge/health is made at the end of every pass, which on a
 * clock run fast (the tests' simulated days, thousands of passes) made it 1% of the test suite's CPU.
 */
function rssAndHeap(): { rss: number; heapUsed: number } {
  const at = performance.now();
  if (lastReading === undefined || at - lastReading.at >= RSS_READ_EVERY_MS) {
    const { rss, heapUsed } = process.memoryUsage();
    lastReading = { at, rss, heapUsed };
  }
  return lastReading;
}
