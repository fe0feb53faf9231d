// `demo`: the real bridge against the built-in simulated portal and, unless a broker is given, an
// embedded MQTT broker, printing what it publishes. Needs no account and no outside server.
import { createServer, type Server } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Aedes } from 'aedes';
import { connectAsync, type MqttClient } from 'mqtt';
import { PortalSimulator, DEMO_ACCOUNTS } from './simulator/index.js';
import { buildConfig } from './config/load.js';
import { App } from './app.js';
import { createLogger } from './util/log.js';
import { VERSION } from './version.js';

export interface DemoOptions {
  port?: number;
  mqttUrl?: string;
  /** Resolves when the demo should stop (Ctrl-C). */
  untilStopped: Promise<unknown>;
  out?: { write(text: string): unknown };
  logLevel?: string;
}

export async function runDemo(options: DemoOptions): Promise<number> {
  const out = options.out ?? process.stdout;
  const simulator = new PortalSimulator();
  await simulator.start();
  const broker = options.mqttUrl ? undefined : await startBroker(options.port);
  const mqttUrl = options.mqttUrl ?? `mqtt://127.0.0.1:${broker?.port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'dziennik2mqtt-demo-'));
  const config = await buildConfig(
    {
      mqtt: { url: mqttUrl, base_topic: 'dziennik2mqtt', discovery_prefix: 'homeassistant' },
      portal: simulator.urls,
      accounts: DEMO_ACCOUNTS.map((a) => ({ login: a.login, password: a.password, messages: a.messages ?? [] })),
      data_dir: dataDir,
      log_level: options.logLevel ?? 'warn',
    },
    'demo',
    { env: {} },
  );
  // Faster than a config file may poll (its floor spares the real portal): this portal is the simulator.
  config.poll = { interval: 2 * 60_000, fast_interval: 30_000 };
  const log = createLogger(config.log_level, process.stderr);
  out.write(
    [
      `dziennik2mqtt ${VERSION} demo`,
      `  simulated portal: ${simulator.urls.base_url} (logins: ${DEMO_ACCOUNTS.map((a) => a.login).join(', ')})`,
      `  MQTT broker:      ${mqttUrl}${broker ? ' (embedded)' : ''}`,
      `  watch it:         mosquitto_sub -h 127.0.0.1 -p ${new URL(mqttUrl).port || 1883} -v -t 'dziennik2mqtt/#'`,
      `  Home Assistant:   point its MQTT integration at this broker; the children appear as devices`,
      `  press Ctrl-C to stop`,
      '',
    ].join('\n'),
  );
  const app = new App({ config, version: VERSION, log, staggerMs: 500 });
  const watcher = await watch(mqttUrl, out);
  try {
    await app.start();
    await options.untilStopped;
    out.write('\nstopping...\n');
  } finally {
    await app.stop().catch(() => undefined);
    await watcher.endAsync().catch(() => undefined);
    await simulator.stop();
    await broker?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  return 0;
}

/** Prints every state the bridge publishes, one line each, as a newcomer would want to see it. */
async function watch(url: string, out: { write(text: string): unknown }): Promise<MqttClient> {
  const client = await connectAsync(url, { clientId: `dziennik2mqtt-demo-watch-${process.pid}` });
  client.on('message', (topic, payload) => {
    const rest = topic.slice('dziennik2mqtt/'.length);
    if (rest.endsWith('/attributes') || rest.startsWith('bridge/info') || payload.length === 0) return;
    const text = payload.toString();
    out.write(`  ${rest.padEnd(40)} ${text.length > 80 ? `${text.slice(0, 77)}...` : text}\n`);
  });
  await client.subscribeAsync('dziennik2mqtt/#');
  return client;
}

interface EmbeddedBroker {
  port: number;
  close(): Promise<void>;
}

async function startBroker(requested?: number): Promise<EmbeddedBroker> {
  const aedes = await Aedes.createBroker();
  const server = createServer(aedes.handle as (socket: unknown) => void);
  let port: number;
  try {
    port = await listen(server, requested ?? 1883);
  } catch (error) {
    // 1883 is often taken by a real broker; the demo then picks a free port and says which.
    if (requested !== undefined || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    port = await listen(server, 0);
  }
  return {
    port,
    close: async () => {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}
