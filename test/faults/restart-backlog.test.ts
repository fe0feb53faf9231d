// Nothing lost at a restart (interface 18.4), with the built bin (`node dist/main.js run`, real clock): the
// bridge stopped, 21 grades given, started again: the first read after the start tells them as a running
// bridge would, one flood event with the count (never nothing, as a first read after a start once did), and
// logs it; then the same with 40. A pass after that tells nothing more: each grade once.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FaultTable, leakedSecrets } from '../helpers/faults.js';
import { BridgeProcess, ensureBuilt, processWorld, writeConfig } from '../helpers/faults-process.js';
import { MQTT_URL, waitUntil } from '../helpers/mqtt.js';
import { ANIA, addGrade } from '../helpers/faults-world.js';

const table = new FaultTable('Fault table: a backlog at a restart');
afterAll(() => table.print());

beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

type Told = { id: string } | { count: number; entries: { id: string }[] };

it('stopped while 21, then 40 grades are given: each start tells them in one flood event with the count, and logs it', async (ctx) => {
  const { sim, password, dir, roots, rec, processes } = await processWorld(ctx, 'backlog');
  const topic = (key: string): string => `${roots.base}/ania/${key}`;
  const config = join(dir, 'config.yaml');
  await writeConfig(config, {
    mqttUrl: MQTT_URL,
    base: roots.base,
    prefix: roots.prefix,
    portal: sim.urls,
    accounts: [{ login: ANIA.login, password, id: 'ania' }],
    dataDir: join(dir, 'data'),
  });
  const told = (): Told[] => rec.on(topic('event/grade')).map((m) => JSON.parse(m.text) as Told);
  /** A bridge started, once its first pass is published. */
  const started = async (): Promise<BridgeProcess> => {
    const from = rec.messages.length;
    const bridge = new BridgeProcess(config);
    processes.push(bridge);
    bridge.start();
    await waitUntil(() => rec.messages.slice(from).some((m) => m.topic === topic('last_update')), 'the first pass after the start', 20_000);
    return bridge;
  };

  // A first run remembers what the portal holds without events.
  let bridge = await started();
  expect(await bridge.stop()).toBe(0);
  for (const backlog of [21, 40]) {
    const given = Array.from({ length: backlog }, () => `grade:${addGrade(sim)}`);
    bridge = await started();
    await waitUntil(() => told().some((e) => 'count' in e && e.count === backlog), `the flood event of ${backlog}`, 10_000);
    const flood = told().at(-1) as Extract<Told, { count: number }>;
    // The first ten as the list gives them (the newest first), each one of those given.
    expect(new Set(flood.entries.map((e) => e.id)).size).toBe(10);
    expect(flood.entries.every((e) => given.includes(e.id))).toBe(true);
    expect(bridge.logged(/"msg":"flood: told as one event with its count"/)).toEqual([expect.stringContaining(`"event":"grade","count":${backlog}`)]);
    // One more pass reads the same grades: nothing more is told.
    const results = rec.on(topic('refresh/result')).length;
    await rec.publish(topic('refresh/set'), '');
    await waitUntil(() => rec.on(topic('refresh/result')).length > results, 'one more pass', 10_000);
    expect(await bridge.stop()).toBe(0);
  }
  await rec.caughtUp();
  const events = told();
  expect(events.map((e) => ('count' in e ? e.count : e.id))).toEqual([21, 40]);
  table.record({
    fault: 'stopped while 21, then 40 grades came: one flood event each at the restart',
    survived: rec.last(topic('problem'))?.text === 'OFF',
    lost: events.length < 2,
    sentTwice: events.length > 2,
    secretLeaked:
      leakedSecrets([...rec.messages.map((m) => m.text), ...processes.flatMap((p) => p.lines)], [{ name: 'password', value: password }]).length > 0,
  });
}, 120_000);
