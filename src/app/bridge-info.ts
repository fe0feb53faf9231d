// What the bridge device answers: bridge/info (what runs and how, without any secret), bridge/health, the
// commands of every child (each command a feature declares goes to that feature of the child it names)
// and the bridge requests (interface 6.4): health_check, options (the log level at run time) and refresh
// (a pass of every child now), each answered through the request router with `data` on success.
import { CommandError, type CommandRequest } from '../features/kit/commands.js';
import { LOG_LEVELS, setLogLevel, type Logger } from '../util/log.js';
import { commandOwners } from '../features/index.js';
import { messages } from '../features/messages/messages.js';
import { formatDuration } from '../util/duration.js';
import type { PassRunner } from '../runner/account.js';
import type { MqttSink } from '../outputs/mqtt/sink.js';
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

/** Every command a feature declares goes to that feature, with the named child's state of it. */
export function registerChildCommands(bridge: MqttSink, runnerOf: (child: string) => PassRunner | undefined): void {
  for (const [command, owner] of commandOwners()) {
    const handler = (req: CommandRequest): Promise<Record<string, unknown>> => {
      const runner = runnerOf(req.child);
      if (!runner) throw new CommandError(`unknown child "${req.child}"`);
      return runner.command(req);
    };
    bridge.onCommand(command, handler, { maxBytes: owner.payloadBytes?.[command], concurrent: owner.concurrent?.includes(command) });
  }
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

export interface BridgeRequestsOptions {
  runners: readonly PassRunner[];
  /** The root logger: its level, and that of every logger made from it, is what `options` changes. */
  log: Logger;
  /** Told after the level changed (bridge/info carries it for the log level select). */
  onLevelChange: () => void;
}

const OPTIONS = ['log_level'];

export function registerBridgeRequests(bridge: MqttSink, options: BridgeRequestsOptions): void {
  const { runners, log } = options;

  // healthy: every child is available, i.e. has had a good pass within the last 3 days.
  bridge.onRequest('health_check', () => {
    const children = Object.fromEntries(
      runners.map((p) => {
        const at = p.health.lastUpdate;
        return [p.id, { online: p.health.available, last_update: at === undefined ? null : isoWarsaw(at), problem: p.health.reason }];
      }),
    );
    return Promise.resolve({ healthy: runners.every((p) => p.health.available), children });
  });

  bridge.onRequest('options', ({ fields }) => {
    const unknown = Object.keys(fields).filter((k) => !OPTIONS.includes(k));
    if (unknown.length > 0) throw new CommandError(`unknown option "${unknown[0]}" (known: ${OPTIONS.join(', ')})`);
    const level = fields.log_level;
    if (level === undefined) throw new CommandError('send {"log_level": "<level>"}');
    if (typeof level !== 'string' || !(LOG_LEVELS as readonly string[]).includes(level)) {
      throw new CommandError(`log_level must be one of ${LOG_LEVELS.join(', ')}`);
    }
    const before = log.level;
    setLogLevel(log, level);
    log.info({ from: before, to: level }, 'log level changed');
    options.onLevelChange();
    return Promise.resolve({ log_level: level, restart_required: false });
  });

  // The weekly summary on demand (interface 18.2): the button's press fires summary_requested, naming the children.
  bridge.onRequest('summary', async ({ fields }) => {
    if (Object.keys(fields).length > 0) throw new CommandError('summary takes no fields');
    const children = runners.map((p) => p.id);
    const failed = await bridge.bridgeEvent('summary_requested', { children });
    if (failed !== undefined) throw new CommandError('the broker did not take the event; press again');
    return { children };
  });

  // Answered when every child's pass is done, so the answer means the states are fresh.
  bridge.onRequest('refresh', async () => {
    await Promise.all(runners.map((p) => p.refresh()));
    return { children: runners.map((p) => p.id) };
  });
}
