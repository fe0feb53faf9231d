// Builds a real portal client (session + gateway) against a running simulator, with a fake clock.
import { PortalSession, type SessionPolicy } from '../../src/portal/session.js';
import { Gateway } from '../../src/portal/gateway.js';
import { SessionStore } from '../../src/portal/session-store.js';
import { silentLogger } from '../../src/util/log.js';
import { FakeClock } from './clock.js';
import type { Clock } from '../../src/util/clock.js';
import { PortalSimulator } from '../../src/simulator/index.js';
import { afterEach, beforeEach } from 'vitest';
import type { Dispatcher } from 'undici';

// Kept here for the files that import it from this helper; the folder is removed when the file ends.
export { tempDir } from './temp.js';

export interface ClientOptions {
  sim: PortalSimulator;
  clock: Clock;
  login: string;
  password: string;
  dataDir?: string;
  policy?: SessionPolicy;
  /** Where the requests go: the simulator in process (`sim.dispatcher()`), or over HTTP when not given. */
  dispatcher?: Dispatcher;
}

export function portalClient(options: ClientOptions): { session: PortalSession; gateway: Gateway } {
  const urls = options.sim.urls;
  const session = new PortalSession({
    account: options.login,
    login: options.login,
    password: options.password,
    urls,
    clock: options.clock,
    log: silentLogger(),
    store: options.dataDir ? new SessionStore(options.dataDir, options.login) : undefined,
    policy: options.policy,
    timeoutMs: 5_000,
    ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
  });
  return { session, gateway: new Gateway({ session, urls, account: options.login }) };
}

/** A started simulator whose clock is a FakeClock (for a beforeEach; stop the simulator after). */
export async function startSimulator(start = '2026-11-20T08:00:00+01:00'): Promise<{ sim: PortalSimulator; clock: FakeClock }> {
  const clock = new FakeClock(start);
  const sim = new PortalSimulator({ now: () => clock.now() });
  await sim.start();
  return { sim, clock };
}

/**
 * A simulator started on its own fake clock (at `start`, startSimulator's default without it) before each
 * test of the file and stopped after it;
 * `started` is told each one (`simulatorPerTest((world) => ({ sim, clock } = world))`).
 */
export function simulatorPerTest(started: (world: { sim: PortalSimulator; clock: FakeClock }) => void, start?: string): void {
  let sim: PortalSimulator | undefined;
  beforeEach(async () => {
    const world = await startSimulator(start);
    sim = world.sim;
    started(world);
  });
  afterEach(() => sim?.stop());
}

/**
 * A request that changes something of the family's on the portal (marks read, sends, justifies): any
 * but a GET, leaving out the POST that reads (the partial grades) and the change feed's own device (its
 * registration and acknowledgements change nothing a family sees).
 */
export function changesPortal(r: { method: string; path: string }): boolean {
  if (r.method === 'GET') return false;
  return !r.path.includes('/PartialGrades/') && !r.path.endsWith('/ChangeRegister') && !/\/PushChanges\//.test(r.path);
}
