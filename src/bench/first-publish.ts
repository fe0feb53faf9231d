// Time from start to the first full publish, in real time: the real bridge, the simulated portal in
// its own process, and an embedded broker, until every entity of the first child has a state.
import { connectAsync } from 'mqtt';
import { App } from '../app.js';
import { buildConfig } from '../config/load.js';
import { silentLogger } from '../util/log.js';
import { realWorld } from './real-world.js';
import { benchLogin } from './accounts.js';
import { ENTITIES } from '../features/index.js';

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
  const wanted = ENTITIES.filter((e) => e.platform === 'sensor' || e.platform === 'binary_sensor')
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
  const app = new App({ config, version: 'bench', log: silentLogger() });
  await app.start();
  await all;
  const elapsed = performance.now() - started;
  await app.stop();
  await watcher.endAsync();
  await world.close();
  return elapsed;
}
