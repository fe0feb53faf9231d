// The running bridge's parts as the config sets them up: the MQTT bridge, and each child's poller (its
// account and road, the config's intervals, language, limits and grading); the app adds what it alone
// holds: what every child shares to reach the portal, where a poller publishes, its hooks.
import { Bridge, type BridgeOptions } from '../mqtt/bridge.js';
import { AccountPoller, type AccountPollerOptions } from '../poller/account.js';
import type { AppOptions } from './options.js';
import type { ReadChild } from './children.js';

/** What the app itself gives each poller, beside the config. */
export type PollerRun = Pick<
  AccountPollerOptions,
  'clock' | 'publisher' | 'dispatcher' | 'slots' | 'portalTime' | 'startDelayMs' | 'hooks' | 'figuresSink'
>;

/** The MQTT bridge; `children`: the configured children's ids (bridge-options.ts). */
export function mqttBridge(options: AppOptions, run: Pick<BridgeOptions, 'info' | 'children' | 'clock' | 'onRefused' | 'claim'>): Bridge {
  const { config, log, version } = options;
  return new Bridge({
    mqtt: config.mqtt,
    brokerFrom: config.brokerFrom,
    version,
    log: log.child({ part: 'mqtt' }),
    language: config.language,
    reconnectPeriodMs: options.reconnect?.firstMs,
    reconnectMaxMs: options.reconnect?.maxMs,
    protocolVersion: options.mqttVersion,
    ...run,
  });
}

/** One child's poller, on its road. */
export function childPoller(options: AppOptions, { account, family, alsoFamily }: ReadChild, run: PollerRun): AccountPoller {
  const { config, log } = options;
  return new AccountPoller({
    account,
    ...(family ? { family } : {}),
    ...(alsoFamily ? { alsoFamily } : {}),
    urls: config.portal,
    dataDir: config.data_dir,
    poll: {
      intervalMs: config.poll.interval,
      fastIntervalMs: config.poll.fast_interval,
      schoolIntervalMs: config.poll.school_interval,
      quietHours: config.poll.quiet_hours,
      ...(options.schoolAllDay ? { fixedMoment: 'lessons' as const } : {}),
    },
    log,
    ...run,
    sessionPolicy: options.sessionPolicy,
    downloadMaxBytes: config.downloads_max_mb * 1024 * 1024,
    language: config.language,
    thresholds: config.grading.thresholds,
    averaging: config.grading.average,
    messagesPerDay: config.messages_per_day,
    ...(options.features ? { features: options.features } : {}),
    ...(options.resources ? { resources: options.resources } : {}),
  });
}
