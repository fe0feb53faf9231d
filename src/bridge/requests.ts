// The bridge requests (interface 6.4): health_check, options (the log level at run time) and refresh
// (every child polls now), each answered through the request router with `data` on success.
import { CommandError } from '../feature-kit/commands.js';
import { LOG_LEVELS, setLogLevel, type Logger } from '../util/log.js';
import { isoWarsaw } from '../util/time.js';
import type { AccountPoller } from '../poller/account.js';
import type { Bridge } from '../mqtt/bridge.js';

export interface BridgeRequestsOptions {
  pollers: readonly AccountPoller[];
  /** The root logger: its level, and that of every logger made from it, is what `options` changes. */
  log: Logger;
  /** Told after the level changed (bridge/info carries it for the log level select). */
  onLevelChange: () => void;
}

const OPTIONS = ['log_level'];

export function registerBridgeRequests(bridge: Bridge, options: BridgeRequestsOptions): void {
  const { pollers, log } = options;

  // healthy: every child is available, i.e. has had a good poll within the last 3 days.
  bridge.onRequest('health_check', () => {
    const children = Object.fromEntries(
      pollers.map((p) => {
        const at = p.health.lastUpdate;
        return [p.id, { online: p.health.available, last_update: at === undefined ? null : isoWarsaw(at), problem: p.health.reason }];
      }),
    );
    return Promise.resolve({ healthy: pollers.every((p) => p.health.available), children });
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

  // Answered when every child's poll is done, so the answer means the states are fresh.
  bridge.onRequest('refresh', async () => {
    await Promise.all(pollers.map((p) => p.refresh()));
    return { children: pollers.map((p) => p.id) };
  });
}
