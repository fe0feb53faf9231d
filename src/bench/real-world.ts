// The world of the benchmark's real-time measures: the simulated portal in a process of its own on
// the real clock, an embedded MQTT broker on a free port, and a data folder, all gone after close().
import { createServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Aedes } from 'aedes';
import { SimProcess } from './simulate.js';

export interface RealWorld {
  /** The simulator's portal URLs (the config's `portal`). */
  urls: Record<string, string>;
  mqttUrl: string;
  dataDir: string;
  /** The simulator's process, to change the portal or ask for its counts meanwhile. */
  sim: SimProcess;
  close(): Promise<void>;
}

export async function realWorld(children: number, label: string): Promise<RealWorld> {
  const sim = new SimProcess();
  await sim.ask({ type: 'time', now: Date.now() });
  const urls = await sim.ask<Record<string, string>>({ type: 'start', children });
  const aedes = await Aedes.createBroker();
  const broker = createServer(aedes.handle as (socket: unknown) => void);
  await new Promise<void>((resolve) => broker.listen(0, '127.0.0.1', resolve));
  const port = (broker.address() as { port: number }).port;
  const dataDir = await mkdtemp(join(tmpdir(), `d2m-${label}-`));
  return {
    urls,
    mqttUrl: `mqtt://127.0.0.1:${port}`,
    dataDir,
    sim,
    async close() {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      broker.close();
      await sim.ask({ type: 'stop' });
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
