// An output that carries nothing anywhere, in place of MQTT, for a test where only what the bridge learns,
// keeps or writes matters; `overrides` keeps what a test watches (the children declared).
import { App } from '../../src/app/app.js';
import { createLogger, silentLogger } from '../../src/util/log.js';
import type { Config } from '../../src/config/schema.js';
import type { Sink } from '../../src/bus/bus.js';
import type { FakeClock } from './clock.js';

export type QuietOutput = Sink & { start(): Promise<void>; stop(): Promise<void> };

export function quietOutput(overrides: Sink = {}): QuietOutput {
  return { start: async () => undefined, stop: async () => undefined, ...overrides };
}

/** The real bridge (App) on a fake clock, started, publishing nowhere; `log` gets its lines as JSON, `dashboardFile` is the file it keeps. */
export async function quietApp(config: Config, clock: FakeClock, extra: { dashboardFile?: string; log?: string[] } = {}): Promise<App> {
  const log = extra.log ? createLogger('info', { write: (line: string) => void extra.log?.push(line) }) : silentLogger();
  const app = new App({
    config,
    version: '0.0.0-test',
    log,
    clock,
    staggerMs: 0,
    output: quietOutput(),
    ...(extra.dashboardFile ? { dashboardFile: { file: extra.dashboardFile } } : {}),
  });
  await app.start();
  return app;
}
