// What the bridge device answers on MQTT: the commands of every child (each command a feature declares goes to that
// feature of the child it names) and the bridge requests (interface 6.4): health_check, options (the log level at run
// time), summary (the weekly summary on demand) and refresh (a pass of every child now), each answered through the
// request router with `data` on success. The summary button is held as the refresh button is (runner/refresh-gate.ts):
// at most one event a minute, every press within it joining the next.
import { CommandError, type CommandRequest } from '../../features/kit/commands.js';
import { LOG_LEVELS, setLogLevel, type Logger } from '../../util/log.js';
import { commandOwners } from '../../features/index.js';
import type { PassRunner } from '../../runner/account.js';
import { isoWarsaw } from '../../util/time.js';
import type { Clock } from '../../util/clock.js';
import { RefreshGate } from '../../runner/refresh-gate.js';
import type { MqttSink } from './sink.js';

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

export interface BridgeRequestsOptions {
  runners: readonly PassRunner[];
  /** The root logger: its level, and that of every logger made from it, is what `options` changes. */
  log: Logger;
  /** Told after the level changed (bridge/info carries it for the log level select). */
  onLevelChange: () => void;
  clock: Clock;
}

const OPTIONS = ['log_level'];

/** Registers the bridge requests; what it returns drops a summary still waiting for its minute (the bridge stops). */
export function registerBridgeRequests(bridge: MqttSink, options: BridgeRequestsOptions): () => void {
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

  // The weekly summary on demand (interface 18.2, 19.2): a press fires summary_requested, naming the children, or
  // joins the one due at the end of the minute since the last (each starts an AI call in the blueprint).
  const children = (): string[] => runners.map((p) => p.id);
  const summaries = new RefreshGate({
    clock: options.clock,
    pass: async (began) => {
      began();
      const failed = await bridge.bridgeEvent('summary_requested', { children: children() });
      if (failed !== undefined) throw new CommandError('the broker did not take the event; press again');
    },
  });
  bridge.onRequest('summary', async ({ fields }) => {
    if (Object.keys(fields).length > 0) throw new CommandError('summary takes no fields');
    await summaries.request();
    return { children: children() };
  });

  // Answered when every child's pass is done, so the answer means the states are fresh.
  bridge.onRequest('refresh', async () => {
    await Promise.all(runners.map((p) => p.refresh()));
    return { children: runners.map((p) => p.id) };
  });
  return () => summaries.cancel();
}
