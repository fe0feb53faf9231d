// TLS to a broker of one's own (interface 14.4): a Mosquitto of the test's own with TLS listeners and the
// self-signed CA of fixtures/tls. The bridge connects with mqtt.ca alone; without it `check` names the
// untrusted certificate rather than a closed connection, and a certificate for another host as such;
// reject_unauthorized: false takes any certificate; a broker that asks for a client certificate takes
// mqtt.cert and mqtt.key.
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { checkBroker } from '../../src/app/commands/check-broker.js';
import { buildConfig } from '../../src/config/load.js';
import { MqttSink } from '../../src/outputs/mqtt/sink.js';
import { explainConnectFailure } from '../../src/outputs/mqtt/client.js';
import { LogSink } from '../helpers/faults.js';
import { ensureBuilt, runBin } from '../helpers/faults-process.js';
import { PrivateMosquitto } from '../helpers/mosquitto.js';
import { uniqueRoots, waitUntil } from '../helpers/mqtt.js';
import { freePort } from '../helpers/ports.js';
import { tempDir } from '../helpers/temp.js';

const TLS = resolve(import.meta.dirname, '../../fixtures/tls');
/** A second listener that asks every client for a certificate its CA signed; a third at 127.0.0.2, which the certificate does not name. */
let clientCertPort = 0;
let otherHostPort = 0;
const broker = new PrivateMosquitto({
  config: async (port) => {
    [clientCertPort, otherHostPort] = [await freePort(), await freePort()];
    const files = `cafile ${join(TLS, 'ca.crt')}\ncertfile ${join(TLS, 'server.crt')}\nkeyfile ${join(TLS, 'server.key')}\n`;
    return (
      // Run as root (CI), Mosquitto reads the certificates after it has become the user `mosquitto`, who may not
      // reach a clone in a private folder (mktemp's 0700): it stays who started it.
      `user root\nper_listener_settings false\nallow_anonymous true\npersistence false\n` +
      `listener ${port} 127.0.0.1\n${files}` +
      `listener ${clientCertPort} 127.0.0.1\n${files}require_certificate true\n` +
      `listener ${otherHostPort} 127.0.0.2\n${files}`
    );
  },
});
beforeAll(() => broker.start());
afterAll(() => broker.stop());

/** The broker's address at 127.0.0.1 (as the certificate names it), with a config's TLS keys, relative to fixtures/tls. */
async function configWith(tls: Record<string, unknown>, port = broker.port, host = '127.0.0.1') {
  const { base } = uniqueRoots();
  const mqtt = { url: `mqtts://${host}:${port}`, base_topic: base, ...tls };
  return buildConfig({ mqtt, accounts: [{ login: '1234567u', password: 'x' }], language: 'en' }, 'test', { env: {}, baseDir: TLS });
}

async function check(tls: Record<string, unknown>, port?: number, host?: string): Promise<{ ok: boolean; text: string }> {
  let text = '';
  const ok = await checkBroker(await configWith(tls, port, host), { write: (t: string) => (text += t) }, 5_000);
  return { ok, text };
}

describe('a broker of its own over TLS', () => {
  it('takes the bridge with mqtt.ca alone, and check passes', async (ctx) => {
    const config = await configWith({ ca: 'ca.crt' });
    expect(config.mqtt.ca).toBe(join(TLS, 'ca.crt'));
    const bridge = new MqttSink({ mqtt: config.mqtt, version: '0.0.0-test', log: new LogSink().logger('info'), info: () => ({}) });
    ctx.onTestFinished(() => bridge.stop());
    await bridge.start();
    expect(bridge.connected).toBe(true);
    expect(await check({ ca: 'ca.crt' })).toMatchObject({
      ok: true,
      text: expect.stringMatching(/^OK {3}mqtts:\/\/127\.0\.0\.1:\d+: the MQTT broker takes/),
    });
  });

  it('without mqtt.ca: check names the untrusted certificate and mqtt.ca, and the bridge says it in its log', async (ctx) => {
    const { ok, text } = await check({});
    expect(ok).toBe(false);
    expect(text).toMatch(
      /FAIL mqtts:\/\/127\.0\.0\.1:\d+: the MQTT broker's certificate is not trusted \(self[- ]signed certificate in certificate chain\): set mqtt\.ca to the file of the CA/,
    );
    expect(text).not.toContain('closed the connection');

    const logs = new LogSink();
    const config = await configWith({});
    const bridge = new MqttSink({ mqtt: config.mqtt, version: '0.0.0-test', log: logs.logger('info'), info: () => ({}) });
    ctx.onTestFinished(() => bridge.stop());
    void bridge.start().catch(() => undefined);
    await waitUntil(() => logs.matching(/cannot connect/).length > 0, 'the failed attempt logged');
    expect(logs.matching(/cannot connect/)[0]).toMatch(
      /certificate is not trusted \(self[- ]signed certificate in certificate chain\): set mqtt\.ca/,
    );
  });

  it('names a certificate for another host: the address in mqtt.url is not one it lists', async () => {
    const { ok, text } = await check({ ca: 'ca.crt' }, otherHostPort, '127.0.0.2');
    expect(ok).toBe(false);
    expect(text).toMatch(
      /^FAIL mqtts:\/\/127\.0\.0\.2:\d+: the MQTT broker's certificate is for another host \(.*127\.0\.0\.2.*\): the certificate does not name the host in mqtt\.url/,
    );
  });

  it('takes the built bin too, whose bundle loads the transports beyond plain TCP from mqtt.js where npm put them', async () => {
    // scripts/bundle.mjs leaves mqtt.js's WebSocket and SOCKS transports out of the bundle: `check` connects through
    // mqtt.js's connect(), which loads every transport (TLS's requires the SOCKS one) from node_modules.
    await ensureBuilt();
    const dir = await tempDir('d2m-tls-bin-');
    const config = join(dir, 'config.yaml');
    const closed = `http://127.0.0.1:${await freePort()}`;
    const portal = { base_url: closed, auth_url: closed, messages_url: closed, sandbox_url: closed, family_url: closed };
    const mqtt = { url: `mqtts://127.0.0.1:${broker.port}`, ca: join(TLS, 'ca.crt'), base_topic: uniqueRoots().base };
    await writeFile(
      config,
      stringify({ mqtt, portal, accounts: [{ login: '1234567u', password: 'x' }], data_dir: join(dir, 'data'), language: 'en' }),
    );
    const run = await runBin(['check', '--config', config], { env: { PATH: process.env.PATH } });
    expect(run.stdout).toMatch(new RegExp(`^OK {3}mqtts://127\\.0\\.0\\.1:${broker.port}: the MQTT broker takes`, 'm'));
    expect(run.stderr).not.toMatch(/Cannot find module/);
  }, 60_000);

  it('with reject_unauthorized: false takes the certificate without the CA', async () => {
    expect(await check({ reject_unauthorized: false })).toMatchObject({ ok: true });
  });

  it('gives a broker that asks for a client certificate mqtt.cert and mqtt.key; without them check names it', async () => {
    expect(await check({ ca: 'ca.crt', cert: 'client.crt', key: 'client.key' }, clientCertPort)).toMatchObject({ ok: true });
    const refused = await check({ ca: 'ca.crt' }, clientCertPort);
    expect(refused.ok).toBe(false);
    expect(refused.text).toContain('the MQTT broker refused the client certificate');
    expect(refused.text).toContain('set mqtt.cert and mqtt.key');
  });
});

describe('the TLS keys of the config', () => {
  it('refuse a file that cannot be read or is no PEM, naming the key', async () => {
    await expect(configWith({ ca: 'nowhere.crt' })).rejects.toThrow(`mqtt.ca: cannot read ${join(TLS, 'nowhere.crt')} (ENOENT)`);
    await expect(configWith({ ca: 'README.md' })).rejects.toThrow(`mqtt.ca: ${join(TLS, 'README.md')} is not a PEM file (no -----BEGIN line)`);
    await expect(configWith({ cert: 'client.crt' })).rejects.toThrow('mqtt.key: needed with mqtt.cert');
    await expect(configWith({ reject_unauthorized: 'no' })).rejects.toThrow('mqtt.reject_unauthorized: true or false');
  });

  it('name an expired certificate in the log, not as a closed connection', () => {
    const expired = Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' });
    expect(explainConnectFailure('mqtts://broker.example:8883', expired)).toBe(
      "the MQTT broker's certificate has expired (or is not valid yet) (certificate has expired): renew the broker's certificate, and check this machine's clock.",
    );
  });
});
