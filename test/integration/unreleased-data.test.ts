// The bin started on a data folder a development version left (its events in mqtt-session.json, an event
// memory without ids): it refuses to start as it refuses a data_dir it cannot make, with exit 1 and one
// error line that names the folder, each file and what to do, before it asks the portal or the broker
// anything, and leaves every file as it found it (no lock, no identity, nothing moved aside or rewritten).
// `check` on the same folder refuses it the same way (interface 18.4): exit 1, the folder and its files named,
// nothing asked, nothing written into it.
import { readdir, readFile, stat, mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { PortalSimulator } from '../../src/simulator/index.js';
import { ANIA } from '../helpers/faults-world.js';
import { BridgeProcess, ensureBuilt, runBin, writeConfig } from '../helpers/faults-process.js';
import { MQTT_URL, uniqueRoots } from '../helpers/mqtt.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(() => ensureBuilt(), 120_000);

/** Every file under a folder: its content and when it was last written. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    files[relative(dir, path)] = entry.isFile() ? `${(await stat(path)).mtimeMs} ${await readFile(path, 'utf8')}` : 'folder';
  }
  return files;
}

/** A data folder as a development version left it (an event on its way kept in the MQTT session, another waiting without an id), and a config of it. */
async function developmentFolder(sim: PortalSimulator): Promise<{ dataDir: string; config: string }> {
  const dir = await tempDir();
  const dataDir = join(dir, 'data');
  const { base, prefix } = uniqueRoots();
  // As the development version left it: an event on its way kept in the MQTT session, another waiting without an id.
  const payload = { event_type: 'grade', id: 'g2' };
  await mkdir(join(dataDir, 'seen'), { recursive: true, mode: 0o700 });
  await writeFile(
    join(dataDir, 'mqtt-session.json'),
    JSON.stringify({
      base_topic: base,
      discovery_prefix: prefix,
      packets: [{ id: 101, event: 'e1', topic: `${base}/ania/event/grade`, payload: '{}', released: false }],
      handed: ['e1'],
    }),
  );
  await writeFile(
    join(dataDir, 'seen', 'ania.json'),
    JSON.stringify({ ids: { grade: ['g1', 'g2'] }, records: {}, outbox: [{ kind: 'grade', payload }] }),
  );
  const config = join(dir, 'config.yaml');
  await writeConfig(config, {
    mqttUrl: MQTT_URL,
    base,
    prefix,
    portal: sim.urls,
    accounts: [{ login: ANIA.login, password: 'x-Password-1', id: 'ania' }],
    dataDir,
    // Not listened on (the bin stops first): a port, so that `check --show-token` would make the token.
    http: { port: 8787 },
  });
  return { dataDir, config };
}

it("a development version's data folder: exit 1 naming the folder and its files, nothing asked, nothing changed", async (ctx) => {
  const sim = new PortalSimulator();
  await sim.start();
  ctx.onTestFinished(() => sim.stop());
  const { dataDir, config } = await developmentFolder(sim);
  const before = await snapshot(dataDir);
  const bridge = new BridgeProcess(config);
  bridge.start();
  ctx.onTestFinished(() => bridge.kill());
  expect(await bridge.exited(15_000)).toBe(1);

  const errors = bridge.logged(/"level":"error"/);
  expect(errors).toHaveLength(1);
  const line = JSON.parse(errors[0]!) as { msg: string; err: string };
  expect(line.msg).toBe('could not start');
  expect(line.err).toContain(`data_dir ${dataDir} was written by a development version of dziennik2mqtt, before its first release`);
  expect(line.err).toContain('mqtt-session.json (the MQTT session holds events on their way or the client id)');
  expect(line.err).toContain('seen/ania.json (an event waiting without an id)');
  expect(line.err).toContain('move the folder away');
  expect(await snapshot(dataDir)).toEqual(before);
  expect(sim.requests).toEqual([]);
}, 30_000);

it("check on a development version's data folder: refused as run refuses it, exit 1, nothing asked, nothing written", async (ctx) => {
  const sim = new PortalSimulator();
  await sim.start();
  ctx.onTestFinished(() => sim.stop());
  const { dataDir, config } = await developmentFolder(sim);
  const before = await snapshot(dataDir);
  const outcome = await runBin(['check', '--config', config, '--show-token']);
  expect(outcome.code).toBe(1);
  // In the family's language (the config's default, Polish).
  expect(outcome.stdout).toContain(`FAIL data_dir ${dataDir} zapisała wersja rozwojowa dziennik2mqtt sprzed pierwszego wydania`);
  expect(outcome.stdout).toContain('(mqtt-session.json, seen/ania.json)');
  expect(outcome.stdout).toContain('przenieś folder w inne miejsce');
  expect(outcome.stdout).not.toMatch(/^OK /m);
  // No session, identity or token written into it, nothing moved aside.
  expect(await snapshot(dataDir)).toEqual(before);
  expect(sim.requests).toEqual([]);
}, 30_000);
