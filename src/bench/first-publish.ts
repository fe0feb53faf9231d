// Time from start to the first full publish, in real time: the real bridge, the simulated portal in
// its own process, and an embedded broker, until every entity of the first child has a state. It gives
// up after a minute, naming what never came, rather than hang the bench.
import { connectAsync } from 'mqtt';
import { App } from '../app/app.js';
import { buildConfig } from '../config/load.js';
import { silentLogger } from '../util/log.js';
import { realWorld } from './real-world.js';
import { benchLogin } from './accounts.js';
import { FEATURES } from '../features/index.js';

export async function firstPublish(): Promise<number> {
  const world = await realWorld(1, 'first');
  const { urls, mqttUrl, dataDir } = world;
  const config = await buildConfig(
    {
      mqtt: { url: mqttUrl },
      portal: urls,
      accounts: [{ login: benchLogin(0).login, password: benchLogin(0).password, id: 'child0' }],
      data_dir: dataDir,
      http: { port: 0 },
    },
    'bench',
    { env: {} },
  );
  // Every sensor a start's first cycle publishes (those read later on purpose publish what the last run
  // kept, or unknown), but the messaging session's, which has its own bootstrap.
  const wanted = FEATURES.flatMap((f) => f.entities)
    .filter((e) => e.platform === 'sensor' || e.platform === 'binary_sensor')
    .map((e) => e.key)
    .filter((k) => k !== 'unread_messages' && k !== 'newest_message');
  const watcher = await connectAsync(mqttUrl);
  const seen = new Set<string>();
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  watcher.on('message', (topic) => {
    seen.add(topic.split('/').pop() ?? '');
    if (wanted.every((k) => seen.has(k))) done();
  });
  await watcher.subscribeAsync('dziennik2mqtt/child0/+');
  const started = performance.now();
  // The bench's broker (Aedes) speaks only MQTT 3.1.1, and is known to, as the demo's: told so, the
  // bridge does not first try MQTT 5 and wait its 5 s reconnect delay, which a broker of a home
  // (Mosquitto) never costs.
  const app = new App({ config, version: 'bench', log: silentLogger(), protocolVersion: 4 });
  await app.start();
  const waited = setTimeout(() => done(), 60_000);
  await all;
  clearTimeout(waited);
  const missing = wanted.filter((k) => !seen.has(k));
  const elapsed = performance.now() - started;
  await app.stop();
  await watcher.endAsync();
  await world.close();
  if (missing.length > 0) throw new Error(`the first cycle never published ${missing.join(', ')}`);
  return elapsed;
}
