// The simulator reached in process (src/simulator/in-process.ts), as the generated worlds reach it: the bridge's own
// portal client logs in and reads through it exactly as over HTTP (the same requests, statuses, cookies and
// answers), and a fault that needs the socket fails the request as the network would.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { PortalSimulator } from '../../src/simulator/index.js';
import { ConnectionError } from '../../src/portal/errors.js';
import { portalClient, startSimulator } from '../helpers/portal.js';

const ANIA = { login: '1234567u', password: 'demo-ania' };
let sim: PortalSimulator;
let clock: Awaited<ReturnType<typeof startSimulator>>['clock'];

beforeEach(async () => ({ sim, clock } = await startSimulator()));
afterEach(() => sim.stop());

/** A login and two reads by the bridge's client; what the simulator logged and what the reads gave. */
async function readAs(inProcess: boolean): Promise<{ log: string[]; grades: unknown; me: unknown }> {
  sim.requests.length = 0;
  const { gateway } = portalClient({ sim, clock, ...ANIA, ...(inProcess ? { dispatcher: sim.dispatcher() } : {}) });
  const grades = await gateway.get('Grades', z.unknown());
  const me = await gateway.get('Me', z.unknown());
  return { log: sim.requests.map((r) => `${r.host} ${r.method} ${r.path} ${r.status} ${r.login ?? '-'}`), grades, me };
}

describe('the simulator in process', () => {
  it('answers the bridge as over HTTP: the same login hops, cookies, statuses and data', async () => {
    const overHttp = await readAs(false);
    const inProcess = await readAs(true);
    expect(inProcess.log.length).toBeGreaterThan(5);
    expect(inProcess).toEqual(overHttp);
  });

  it('fails a request whose connection the simulator resets, as the network fails it', async () => {
    sim.failNext(1, 0, { host: 'auth' });
    const { gateway } = portalClient({ sim, clock, ...ANIA, dispatcher: sim.dispatcher() });
    await expect(gateway.get('Me', z.unknown())).rejects.toBeInstanceOf(ConnectionError);
    expect(sim.requests.some((r) => r.status === 0)).toBe(true);
  });
});
