// A publisher that carries nothing anywhere, for a test where only what the bridge learns, keeps or
// writes matters; `overrides` keeps what a test watches (the children announced).
import { App } from '../../src/app/app.js';
import { createLogger, silentLogger } from '../../src/util/log.js';
import type { Config } from '../../src/config/schema.js';
import type { Publisher } from '../../src/bus/publisher.js';
import type { FakeClock } from './clock.js';

export type StartablePublisher = Publisher & { start(): Promise<void>; stop(): Promise<void> };

export function quietPublisher(overrides: Partial<StartablePublisher> = {}): StartablePublisher {
  return {
    setChild: () => undefined,
    removeChild: () => undefined,
    setAvailability: () => undefined,
    publishState: () => undefined,
    publishEvent: () => undefined,
    publishFeed: () => undefined,
    start: async () => undefined,
    stop: async () => undefined,
    ...overrides,
  };
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
    publisher: quietPublisher(),
    ...(extra.dashboardFile ? { dashboardFile: { file: extra.dashboardFile } } : {}),
  });
  await app.start();
  return app;
}
