// Interface 16.1: a stop ends within 5 s whatever is in flight. The bridge as the user runs it (`node
// dist/main.js run`), its Home Assistant an HTTP server that takes every request and never answers (as one
// stuck starting up, or behind a proxy that lost it): a SIGTERM while the bridge waits for it. At 3c843a3 the
// stop waited out the call (57 s), and `docker stop` SIGKILLed it at 10 s with its claim of the base topic not
// released and bridge.lock left in data_dir.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { PortalSimulator } from '../../src/simulator/index.js';
import { BridgeProcess, ensureBuilt, writeConfig } from '../helpers/faults-process.js';
import { ANIA } from '../helpers/faults-world.js';
import { MQTT_URL, Recorder, clearRetained, retained, uniqueRoots, waitUntil } from '../helpers/mqtt.js';

beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

/** An HTTP server that reads each request and never answers it; what it was asked, in order. */
async function silentHomeAssistant(): Promise<{ url: string; asked: string[]; close: () => Promise<void> }> {
  const asked: string[] = [];
  const held: IncomingMessage[] = [];
  const server: Server = createServer((request) => {
    asked.push(`${request.method} ${request.url}`);
    held.push(request);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

it('a SIGTERM while a call to Home Assistant hangs: exit 0 within 5 s, offline said, the claim released, bridge.lock gone', async (ctx) => {
  const sim = new PortalSimulator();
  await sim.start();
  const ha = await silentHomeAssistant();
  const dir = await mkdtemp(join(tmpdir(), 'd2m-stop-'));
  const roots = uniqueRoots();
  const rec = await Recorder.connect([`${roots.base}/#`]);
  const bridge = new BridgeProcess(join(dir, 'config.yaml'));
  ctx.onTestFinished(async () => {
    await bridge.kill(true);
    await rec.close();
    await clearRetained([`${roots.base}/#`, `${roots.prefix}/#`]);
    await ha.close();
    await sim.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const dataDir = join(dir, 'data');
  await writeConfig(join(dir, 'config.yaml'), {
    mqttUrl: MQTT_URL,
    base: roots.base,
    prefix: roots.prefix,
    portal: sim.urls,
    accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania' }],
    dataDir,
    homeassistant: { url: ha.url, token: 'a-token-of-home-assistant' },
  });
  bridge.start();
  // The first pass names the child: the bridge asks Home Assistant for its entries, and waits.
  await waitUntil(() => ha.asked.length > 0, 'the call to Home Assistant', 30_000);
  expect(rec.last(`${roots.base}/bridge/state`)?.text).toBe('online');

  const began = Date.now();
  const code = await bridge.stop();
  const took = Date.now() - began;
  expect(code).toBe(0);
  expect(took).toBeLessThan(5_000);
  await rec.caughtUp();
  expect(rec.last(`${roots.base}/bridge/state`)?.text).toBe('offline');
  const claim = JSON.parse((await retained([`${roots.base}/bridge/claim`])).get(`${roots.base}/bridge/claim`) ?? 'null') as {
    released?: boolean;
  } | null;
  expect(claim?.released).toBe(true);
  expect(existsSync(join(dataDir, 'bridge.lock'))).toBe(false);
  // The call abandoned is no fault of Home Assistant's: none is logged or kept for the diagnostics.
  expect(bridge.logged(/Home Assistant's API failed/)).toEqual([]);
}, 60_000);
