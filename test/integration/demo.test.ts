// `demo`: a newcomer runs one command and sees entities appear, with no account and no broker; a Home
// Assistant on another machine can reach it; `check` and `dashboard` can be tried against it from another
// terminal; news arrives; on one's own broker nothing stays behind.
import { stat } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectAsync } from 'mqtt';
import { parse } from 'yaml';
import { runDemo, startBroker, type DemoOptions } from '../../src/app/demo/demo.js';
import { DEMO_CONFIG_NAME } from '../../src/app/demo/config.js';
import { runCheck } from '../../src/app/commands/check.js';
import { runDashboard } from '../../src/app/commands/dashboard.js';
import { loadConfigFile } from '../../src/config/load.js';
import { DEMO_ACCOUNTS, DEMO_FAMILY } from '../../src/simulator/index.js';
import { silentLogger } from '../../src/util/log.js';
import { MQTT_URL, Recorder, clearRetained, sleep, uniqueRoots, waitUntil } from '../helpers/mqtt.js';
import { freePort } from '../helpers/ports.js';
import { tempDir } from '../helpers/temp.js';

/** Starts the demo with its output captured; stop() ends it like Ctrl-C. */
function startDemo(options: Omit<DemoOptions, 'untilStopped' | 'out'>): { output: () => string; stop: () => Promise<number> } {
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const output: string[] = [];
  // The web server stays off unless a test asks: parallel tests would all want port 8099.
  // Its config file goes to a folder of the test's, not into the checkout the tests run in.
  const configDir = tempDir('d2m-demo-config-');
  const demo = configDir.then((dir) =>
    runDemo({ logLevel: 'silent', httpPort: 0, configDir: dir, ...options, untilStopped: stopped, out: { write: (t: string) => output.push(t) } }),
  );
  return {
    output: () => output.join(''),
    stop: () => {
      stop();
      return demo;
    },
  };
}

const ownIPv4 = (): string[] =>
  Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => a.family === 'IPv4' && !a.internal)
    .map((a) => a.address);

// Every test runs its own demo (its simulator, broker port, config folder, topics) and mostly waits on it: side by side.
describe.concurrent('demo', () => {
  // How fast the first publish comes is measured by `npm run bench`, not here.
  it('starts the simulator and an embedded broker and publishes both children’s lucky numbers', async () => {
    const port = await freePort();
    const demo = startDemo({ port });

    await waitUntil(() => demo.output().includes(`mqtt://127.0.0.1:${port}`), 'the banner', 15_000);
    const client = await connectAsync(`mqtt://127.0.0.1:${port}`);
    const lucky = new Map<string, string>();
    client.on('message', (topic, payload) => lucky.set(topic, payload.toString()));
    await client.subscribeAsync('dziennik2mqtt/+/lucky_number');
    await waitUntil(() => lucky.size === 2, 'both children’s lucky numbers', 15_000);
    expect([...lucky.values()].every((v) => /^\d+$/.test(v))).toBe(true);
    await client.endAsync();

    await expect(demo.stop()).resolves.toBe(0);
    expect(demo.output()).toContain('ania/lucky_number');
  }, 40_000);

  it('runs its embedded broker on every interface and prints each address to use', async () => {
    const broker = await startBroker(await freePort());
    try {
      expect(broker.address).toBe('0.0.0.0');
      // Through the machine's own network address, as a Home Assistant elsewhere would connect.
      for (const host of ownIPv4()) {
        const client = await connectAsync(`mqtt://${host}:${broker.port}`, { reconnectPeriod: 0, connectTimeout: 5_000 });
        await client.endAsync();
      }
    } finally {
      await broker.close();
    }

    const port = await freePort();
    const demo = startDemo({ port });
    await waitUntil(() => demo.output().includes('Ctrl-C zatrzymuje demo'), 'the banner', 15_000);
    for (const host of [...ownIPv4(), '127.0.0.1']) expect(demo.output()).toContain(`mqtt://${host}:${port}`);
    expect(demo.output()).toContain('--mqtt-url');
    await expect(demo.stop()).resolves.toBe(0);
  }, 40_000);

  it('serves the family board too, printing its address with the access token', async () => {
    const httpPort = await freePort();
    const demo = startDemo({ port: await freePort(), httpPort });
    await waitUntil(() => /\?token=[\w-]{43}/.test(demo.output()), 'the web server addresses', 15_000);
    const token = /:(\d+)\/\?token=([\w-]{43})/.exec(demo.output());
    expect(token?.[1]).toBe(String(httpPort));
    // The web server starts before the broker is reached (/health says 503 until then).
    let health = 0;
    for (const deadline = Date.now() + 10_000; health !== 200 && Date.now() < deadline; await sleep(50)) {
      health = (await fetch(`http://127.0.0.1:${httpPort}/health`)).status;
    }
    expect(health).toBe(200);
    expect((await fetch(`http://127.0.0.1:${httpPort}/`)).status).toBe(401);
    await expect(demo.stop()).resolves.toBe(0);
    await expect(fetch(`http://127.0.0.1:${httpPort}/health`)).rejects.toThrow();
  }, 40_000);

  it('prints only addresses that open something in a browser: the five portal hosts and the board at a real address', async () => {
    const httpPort = await freePort();
    const demo = startDemo({ port: await freePort(), httpPort });
    await waitUntil(() => /\?token=[\w-]{43}/.test(demo.output()), 'the board address', 15_000);
    expect(demo.output()).not.toContain('<this-machine>');
    const addresses = [...new Set(demo.output().match(/https?:\/\/[^\s)"',;]+/g) ?? [])];
    // Five hosts, and the board at this machine's address and on the loopback.
    expect(addresses.length).toBeGreaterThanOrEqual(6);
    for (const address of addresses) {
      const answer = await fetch(address, { redirect: 'manual' });
      expect([200, 302, 303], address).toContain(answer.status);
      if (answer.status === 200) expect(answer.headers.get('content-type'), address).toMatch(/^text\/html/);
    }
    await expect(demo.stop()).resolves.toBe(0);
  }, 40_000);

  it('prints every address and login and names its config file, with which `check` and `dashboard` work from outside', async () => {
    const configDir = await tempDir('d2m-demo-outside-');
    const demo = startDemo({ port: await freePort(), configDir });
    await waitUntil(() => demo.output().includes('Ctrl-C zatrzymuje demo'), 'the banner', 15_000);
    const file = join(configDir, DEMO_CONFIG_NAME);
    expect(demo.output()).toContain(`npx dziennik2mqtt check --config ${file}`);
    expect(demo.output()).toContain(`npx dziennik2mqtt dashboard --config ${file} > dashboard.yaml`);
    // As another terminal reads it: the file names the simulated school's five hosts, the banner too.
    const config = await loadConfigFile(file, { env: {} });
    for (const url of Object.values(config.portal)) expect(demo.output()).toContain(url);
    for (const a of DEMO_ACCOUNTS) expect(demo.output()).toContain(`${a.login} / ${a.password}`);
    expect(demo.output()).toContain(`${DEMO_FAMILY.email} / ${DEMO_FAMILY.password}`);
    // The dashboard names the children the demo's bridge has read.
    await waitUntil(() => ['ania', 'jan'].every((c) => demo.output().includes(`${c}/last_update`)), 'both children read', 20_000);

    let said = '';
    expect(await runCheck({ config, out: { write: (t: string) => (said += t) }, log: silentLogger() })).toBe(0);
    expect(said).toContain('OK   ro…m');
    let printed = '';
    expect(await runDashboard({ config, container: false, out: { write: (t: string) => (printed += t) }, err: { write: () => true } })).toBe(0);
    expect((parse(printed, { version: '1.1' }) as { views: { title: string }[] }).views.map((v) => v.title)).toEqual([
      'Rodzina',
      'Ania',
      'Jan',
      'Zofia',
      'Mostek',
    ]);

    await expect(demo.stop()).resolves.toBe(0);
    await expect(stat(file)).rejects.toThrow();
  }, 60_000);

  it('says that the simulated school adds news, and prints each round', async () => {
    const demo = startDemo({ port: await freePort(), life: { firstAfterMs: 200, everyMs: 60 * 60_000 } });
    await waitUntil(() => demo.output().includes('nowości (Ania):'), 'the first news', 15_000);
    // In the demo config's language (Polish, the default), as the bridge it starts speaks.
    expect(demo.output()).toMatch(/dodaje ocenę, wiadomość, zmianę w planie\s+i ogłoszenie/);
    expect(demo.output()).toMatch(
      /nowości \(Ania\): ocena \S+ z przedmiotu [^,]+, wiadomość "[^"]+", ogłoszenie "[^"]+", zmiana w planie \d{4}-\d{2}-\d{2} lekcja \d+/,
    );
    expect(demo.output()).not.toMatch(/news for|simulated portal|press Ctrl-C|adds a grade/);
    await expect(demo.stop()).resolves.toBe(0);
  }, 40_000);

  it('with --quirks register-broken, reads both children through the family’s e-mail, which the banner names', async () => {
    const port = await freePort();
    const demo = startDemo({ port, quirks: 'register-broken' });
    await waitUntil(() => demo.output().includes('Ctrl-C zatrzymuje demo'), 'the banner', 15_000);
    expect(demo.output()).toMatch(/portal dla rodzin: +http:\/\/127\.0\.0\.5:\d+ \(Konto LIBRUS; e-mail rodzic@example\.com/);
    const client = await connectAsync(`mqtt://127.0.0.1:${port}`);
    const seen = new Map<string, string>();
    client.on('message', (topic, payload) => seen.set(topic, payload.toString()));
    await client.subscribeAsync(['dziennik2mqtt/+/problem', 'dziennik2mqtt/+/problem/attributes', 'dziennik2mqtt/+/lucky_number']);
    await waitUntil(
      () => ['ania', 'jan'].every((c) => seen.has(`dziennik2mqtt/${c}/lucky_number`) && seen.get(`dziennik2mqtt/${c}/problem`) === 'OFF'),
      'both children read',
      20_000,
    );
    for (const child of ['ania', 'jan'])
      expect(JSON.parse(seen.get(`dziennik2mqtt/${child}/problem/attributes`) ?? '{}'), child).toMatchObject({ reason: null, road: 'family' });
    await client.endAsync();
    await expect(demo.stop()).resolves.toBe(0);
  }, 40_000);

  it('on a broker of one’s own, leaves no retained discovery or state behind when it stops', async () => {
    const { base, prefix } = uniqueRoots();
    const filters = [`${base}/#`, `${prefix}/#`];
    const seen = await Recorder.connect(filters);
    const demo = startDemo({ mqttUrl: MQTT_URL, topics: { base, discoveryPrefix: prefix } });
    try {
      await seen.until(
        () =>
          ['ania', 'jan'].every(
            (c) => seen.last(`${base}/${c}/lucky_number`) !== undefined && seen.last(`${prefix}/device/${base}_${c}/config`) !== undefined,
          ),
        'both children’s devices and states',
        20_000,
      );
      await expect(demo.stop()).resolves.toBe(0);

      // A client that subscribes now gets every retained message before its own later marker.
      const after = await Recorder.connect(filters);
      await after.caughtUpWith((topic, payload) => after.client.publishAsync(topic, payload, { qos: 1 }));
      expect(after.messages.filter((m) => m.retain).map((m) => m.topic)).toEqual([]);
      await after.close();
      expect(demo.output()).toMatch(/usunięto zachowane tematy demo \(urządzenia i stany: \d+\)/);
    } finally {
      await demo.stop();
      await seen.close();
      await clearRetained(filters);
    }
  }, 60_000);
});
