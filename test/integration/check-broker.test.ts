// `check` checks the broker as the bridge will use it (interface 12.3): the config's credentials, a
// publish to <base>/bridge/check (not retained) and the subscriptions to the command topics. A broker
// that is down, refuses the user or refuses a topic fails the check (exit 1) naming the broker, with advice.
import { chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connectAsync } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, PortalSimulator } from '../../src/simulator/index.js';
import { buildConfig } from '../../src/config/load.js';
import { runCheck } from '../../src/app/commands/check.js';
import { silentLogger } from '../../src/util/log.js';
import { tempDir } from '../helpers/portal.js';
import { freePort } from '../helpers/ports.js';
import { PrivateMosquitto } from '../helpers/mosquitto.js';
import { MQTT_URL, uniqueRoots, waitUntil } from '../helpers/mqtt.js';

const ANIA = DEMO_ACCOUNTS[0]!;
let sim: PortalSimulator;
let dir: string;

beforeEach(async () => {
  sim = new PortalSimulator();
  await sim.start();
  dir = await tempDir();
});
afterEach(async () => {
  await sim.stop();
  await rm(dir, { recursive: true, force: true });
});

async function check(
  mqtt: Record<string, string>,
  language: 'pl' | 'en' = 'en',
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; text: string }> {
  const config = await buildConfig(
    { mqtt, portal: sim.urls, accounts: [{ login: ANIA.login, password: ANIA.password }], data_dir: dir, http: { port: 0 }, language },
    'test',
    { env },
  );
  let text = '';
  const code = await runCheck({ config, out: { write: (t: string) => (text += t) }, log: silentLogger() });
  return { code, text };
}

describe("check's broker", () => {
  it('publishes to <base>/bridge/check, not retained, and passes with a broker that takes the user', async () => {
    const { base } = uniqueRoots();
    const seen: { topic: string; retain: boolean }[] = [];
    const watcher = await connectAsync(MQTT_URL);
    watcher.on('message', (topic, _payload, packet) => seen.push({ topic, retain: packet.retain }));
    await watcher.subscribeAsync(`${base}/#`);
    try {
      const { code, text } = await check({ url: MQTT_URL, base_topic: base });
      expect(code).toBe(0);
      expect(text).toContain(`OK   mqtt://127.0.0.1:1883: the MQTT broker takes the config's user: published to ${base}/bridge/check`);
      expect(text).toContain(`subscribed to ${base}/+/+/set, ${base}/bridge/request/+`);
      await waitUntil(() => seen.length > 0, 'the proof');
      expect(seen).toEqual([{ topic: `${base}/bridge/check`, retain: false }]);
    } finally {
      await watcher.endAsync();
    }
  });

  it('fails with the broker down, naming it, in the family’s language', async () => {
    const port = await freePort();
    const { code, text } = await check({ url: `mqtt://127.0.0.1:${port}` }, 'pl');
    expect(code).toBe(1);
    // The accounts work; the broker does not, and the last line does not say all is well.
    expect(text).toContain(`OK   ${ANIA.login}:`);
    expect(text).toContain(`FAIL mqtt://127.0.0.1:${port}: broker MQTT nieosiągalny: pod mqtt.url nie nasłuchuje żaden broker.`);
    expect(text).toContain('Wszystkie konta działają (1 dziecko na 1 koncie), ale broker MQTT nie (zob. wyżej).');
  });

  it('tells a Compose user whose broker came from the environment to fix DZIENNIK2MQTT_MQTT_URL, not mqtt.url', async () => {
    const port = await freePort();
    const { text } = await check({}, 'pl', { DZIENNIK2MQTT_MQTT_URL: `mqtt://127.0.0.1:${port}` });
    expect(text).toContain(`FAIL mqtt://127.0.0.1:${port}: broker MQTT nieosiągalny: pod DZIENNIK2MQTT_MQTT_URL nie nasłuchuje żaden broker.`);
    expect(text).not.toMatch(/mqtt\.url|core-mosquitto|dodat/);
  });

  it('fails a broker that refuses the user, without printing the password', async (ctx) => {
    const broker = new PrivateMosquitto({ anonymous: false });
    await broker.start();
    ctx.onTestFinished(() => broker.stop());
    const { code, text } = await check({ url: broker.url, username: 'rodzic', password: 'tajne-haslo-mqtt' });
    expect(code).toBe(1);
    expect(text).toContain(`FAIL mqtt://127.0.0.1:${broker.port}: MQTT broker refused the user: the broker refused mqtt.username and mqtt.password.`);
    expect(text).not.toContain('tajne-haslo-mqtt');
  });

  it('fails a broker whose ACL refuses the proof, naming the topic', async (ctx) => {
    const broker = new PrivateMosquitto({
      config: async (port, brokerDir) => {
        // Mosquitto started as root reads its files as the user it drops to.
        await chmod(brokerDir, 0o755);
        // Anonymous clients may read the bridge's topics, but publish none.
        await writeFile(join(brokerDir, 'acl'), 'topic read dziennik2mqtt/#\n');
        return `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nacl_file ${join(brokerDir, 'acl')}\n`;
      },
    });
    await broker.start();
    ctx.onTestFinished(() => broker.stop());
    const { code, text } = await check({ url: broker.url });
    expect(code).toBe(1);
    expect(text).toContain(`FAIL mqtt://127.0.0.1:${broker.port}: MQTT broker refused a topic (dziennik2mqtt/bridge/check): the broker's ACL`);
  });
});
