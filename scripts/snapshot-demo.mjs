// Records what the demo publishes after its first full poll: every retained state and discovery
// payload, with times and dates masked, as sorted JSON. Two runs are compared to prove a refactoring
// changed nothing a user sees. Usage: node scripts/snapshot-demo.mjs <out.json> (needs dist/ built).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { connectAsync } from 'mqtt';
import { PortalSimulator, DEMO_ACCOUNTS } from '../dist/simulator/index.js';
import { buildConfig } from '../dist/config/load.js';
import { App } from '../dist/app/app.js';
import { startBroker } from '../dist/app/demo/demo.js';
import { createLogger } from '../dist/util/log.js';

const BASE = 'dziennik2mqtt';
const DISCOVERY = 'homeassistant';

/** Dates, times and durations that depend on when the snapshot runs. */
function mask(text) {
  return text
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g, '<time>')
    .replace(/\d{4}-\d{2}-\d{2}/g, '<date>')
    .replace(/\b\d{1,2}:\d{2}(:\d{2})?\b/g, '<hh:mm>')
    .replace(/\b\d{2}\.\d{2}(\.\d{4})?\b/g, '<dd.mm>')
    .replace(/"since":\s*-?\d+/g, '"since":"<since>"')
    .replace(/\b1[6-9]\d{11}\b/g, '<epoch-ms>')
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:<port>');
}

/**
 * Object members sorted by name (arrays keep their order): a JSON object's member order means
 * nothing to Home Assistant, so a discovery payload listing its components in another order is the same.
 */
function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}

/** Resolves once every child has a last_update (the first pass of every tier is done). */
function firstPasses(client, children) {
  const seen = new Set();
  return new Promise((resolve) => {
    client.on('message', (topic) => {
      const m = topic.match(new RegExp(`^${BASE}/([^/]+)/last_update$`));
      if (!m || m[1] === 'bridge') return;
      seen.add(m[1]);
      if (seen.size >= children) resolve([...seen]);
    });
  });
}

/**
 * Every retained message under the topics, read by a fresh client: after a marker it sends itself, and
 * then until nothing more has come for half a second (aedes may deliver retained messages of a
 * wildcard subscription after a message published later).
 */
async function retained(url) {
  const client = await connectAsync(url, { clientId: `snapshot-${process.pid}` });
  const out = {};
  const marker = `${BASE}/_snapshot_marker/${process.pid}`;
  let last = Date.now();
  let markerSeen = false;
  client.on('message', (topic, payload, packet) => {
    last = Date.now();
    if (topic === marker) markerSeen = true;
    else if (packet.retain && payload.length > 0) out[topic] = payload.toString();
  });
  await client.subscribeAsync([`${BASE}/#`, `${DISCOVERY}/#`], { qos: 1 });
  await client.publishAsync(marker, 'x', { qos: 1 });
  while (!markerSeen || Date.now() - last < 500) await new Promise((resolve) => globalThis.setTimeout(resolve, 50));
  await client.endAsync();
  return out;
}

async function main() {
  const file = process.argv[2] ?? '/tmp/snapshot.json';
  const simulator = new PortalSimulator();
  await simulator.start();
  const broker = await startBroker(0);
  const url = `mqtt://127.0.0.1:${broker.port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'dziennik2mqtt-snapshot-'));
  const config = await buildConfig(
    {
      mqtt: { url, base_topic: BASE, discovery_prefix: DISCOVERY },
      portal: simulator.urls,
      accounts: DEMO_ACCOUNTS.map((a) => ({ login: a.login, password: a.password, messages: a.messages ?? [] })),
      data_dir: dataDir,
      log_level: 'error',
    },
    'snapshot',
    { env: {} },
  );
  const watcher = await connectAsync(url, { clientId: `snapshot-watch-${process.pid}` });
  await watcher.subscribeAsync(`${BASE}/+/last_update`);
  const passed = firstPasses(watcher, DEMO_ACCOUNTS.length);
  const app = new App({ config, version: 'snapshot', log: createLogger('error', process.stderr), staggerMs: 0 });
  try {
    await app.start();
    await passed;
    await Promise.all(app.runners.map((p) => p.idle()));
    // The broker keeps one client's messages in order: once it has acknowledged this one, every state
    // the bridge published before it is retained (the bridge's queue may still hold some otherwise). The
    // app keeps its MQTT sink to itself; this script reaches in for the sink's client, as nothing else needs it.
    await app.mqtt.client.publishAsync(`${BASE}/_snapshot_flush/${process.pid}`, '', { qos: 1 });
    const topics = await retained(url);
    const sorted = Object.fromEntries(
      Object.keys(topics)
        .sort()
        .map((topic) => {
          const text = mask(topics[topic]);
          let value;
          try {
            value = JSON.parse(text);
          } catch {
            value = text;
          }
          return [topic, sortKeys(value)];
        }),
    );
    await writeFile(file, `${JSON.stringify(sorted, null, 2)}\n`);
    process.stdout.write(`${Object.keys(sorted).length} retained topics -> ${file}\n`);
  } finally {
    await app.stop();
    await watcher.endAsync();
    await broker.close();
    await simulator.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
