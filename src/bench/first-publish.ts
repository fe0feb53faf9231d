// Time from start to the first full publish, in real time: the real bridge, the simulated portal in
// its own process, and an embedded broker, until every entity of the first child has a state.
import { createServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Aedes } from 'aedes';
import { connectAsync } from 'mqtt';
import { App } from '../app.js';
import { buildConfig } from '../config/load.js';
import { silentLogger } from '../util/log.js';
import { SimProcess } from './simulate.js';
import { benchLogin } from './accounts.js';
import { ENTITIES } from '../features/index.js';

export async function firstPublish(): Promise<number> {
  const sim = new SimProcess();
  await sim.ask({ type: 'time', now: Date.now() });
  const urls = await sim.ask<Record<string, string>>({ type: 'start', children: 1 });
  const aedes = await Aedes.createBroker();
  const server = createServer(aedes.handle as (socket: unknown) => void);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const dataDir = await mkdtemp(join(tmpdir(), 'd2m-first-'));
  const config = await buildConfig(
    {
      mqtt: { url: `mqtt://127.0.0.1:${port}` },
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
  const watcher = await connectAsync(`mqtt://127.0.0.1:${port}`);
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
  await new Promise<void>((resolve) => aedes.close(() => resolve()));
  server.close();
  await sim.ask({ type: 'stop' });
  await rm(dataDir, { recursive: true, force: true });
  return elapsed;
}
