// A broker that is not there yet (the add-on starting before Mosquitto): the bridge keeps trying with a
// short injected backoff, asks the portal nothing meanwhile, and comes online and reads once it appears.
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/app/app.js';
import { buildConfig } from '../../src/config/load.js';
import { STALE_SCAN_MS } from '../../src/outputs/mqtt/sink.js';
import { DEMO_ACCOUNTS, PortalSimulator } from '../../src/simulator/index.js';
import { FakeClock, settledOn } from '../helpers/clock.js';
import { LogSink } from '../helpers/faults.js';
import { PrivateMosquitto } from '../helpers/mosquitto.js';
import { Recorder, uniqueRoots, waitUntil } from '../helpers/mqtt.js';
import { tempDir } from '../helpers/portal.js';
import { freePort } from '../helpers/ports.js';
import { BridgeProcess, ensureBuilt, writeConfig } from '../helpers/faults-process.js';
import { join } from 'node:path';

const ANIA = DEMO_ACCOUNTS[0]!;
const cleanups: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a broker that is not there yet', () => {
  it('keeps retrying without giving up or reading the portal, then comes online and reads when the broker starts', async () => {
    const clock = new FakeClock('2026-11-18T09:10:00+01:00');
    const sim = new PortalSimulator({ now: () => clock.now() });
    await sim.start();
    cleanups.push(() => sim.stop());
    const broker = new PrivateMosquitto();
    broker.port = await freePort(); // nothing listens there until broker.start()
    cleanups.push(() => broker.stop());
    const dataDir = await tempDir();
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const { base, prefix } = uniqueRoots();
    const config = await buildConfig(
      {
        mqtt: { url: broker.url, base_topic: base, discovery_prefix: prefix },
        portal: sim.urls,
        accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania' }],
        data_dir: dataDir,
        http: { port: 0 },
        // No release feed from a test (update-entity.test.ts reads a local one).
        updates: false,
      },
      'test',
      { env: {} },
    );
    const logs = new LogSink();
    const app = new App({ config, version: '0.0.0-test', log: logs.logger('info'), clock, staggerMs: 0, reconnect: { firstMs: 50, maxMs: 100 } });
    cleanups.push(() => app.stop());

    let outcome: string | undefined;
    const started = app.start().then(
      () => (outcome = 'started'),
      (err: unknown) => (outcome = `failed: ${String(err)}`),
    );
    const attempts = (): string[] => logs.matching(/cannot connect to the MQTT broker/);
    await waitUntil(() => attempts().length >= 4, 'four connection attempts');
    await clock.advance(60 * 60_000); // an hour of reading time passes: no pass runner may have started
    expect(outcome).toBeUndefined();
    expect(sim.requests).toEqual([]);
    expect(attempts()[0]).toContain(broker.url);
    expect(attempts()[0]).toContain('127.0.0.1 is the container itself');
    expect(logs.lines.join('\n')).not.toMatch(/"stack"|\n\s+at /);

    await broker.start();
    await settledOn(clock, started, STALE_SCAN_MS);
    expect(outcome).toBe('started');
    const rec = await Recorder.connect([`${base}/#`], broker.url);
    cleanups.push(() => rec.close());
    await clock.advance(0); // the first pass's timer
    await waitUntil(() => rec.last(`${base}/ania/availability`)?.text === 'online', 'the child online');
    expect(rec.last(`${base}/bridge/state`)?.text).toBe('online');
    expect(rec.last(`${base}/ania/average`)?.text).toBe('4.87'); // the first normal pass's values
    expect(sim.requests.length).toBeGreaterThan(0);
  });

  it('the process waits for the broker without exiting, and a SIGTERM meanwhile stops it cleanly (exit 0)', async () => {
    await ensureBuilt();
    const sim = new PortalSimulator();
    await sim.start();
    cleanups.push(() => sim.stop());
    const dir = await tempDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const { base, prefix } = uniqueRoots();
    const configPath = join(dir, 'config.yaml');
    await writeConfig(configPath, {
      mqttUrl: `mqtt://someone:s3cret@127.0.0.1:${await freePort()}`,
      base,
      prefix,
      portal: sim.urls,
      accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania' }],
      dataDir: join(dir, 'data'),
      logLevel: 'info',
    });
    const p = new BridgeProcess(configPath);
    cleanups.push(() => p.kill());
    p.start();
    await waitUntil(() => p.logged(/cannot connect to the MQTT broker/).length >= 1, 'the first attempt logged', 10_000);
    expect(p.running).toBe(true);
    expect(await p.stop()).toBe(0);
    expect(sim.requests).toEqual([]);
    const all = p.lines.join('\n');
    expect(all).toContain('127.0.0.1 is the container itself');
    expect(all).not.toContain('s3cret');
    expect(all).not.toMatch(/"stack"|\n\s+at /);
  });
});
