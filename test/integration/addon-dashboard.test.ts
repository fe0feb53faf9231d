// The app's start script on a first install of a family on the family road (issue 52, item 4): run.sh as
// the container runs it, with the built bin behind `dziennik2mqtt` (reading a config file in place of the
// Supervisor's options) and the config folder moved to a temporary one. The start-time `dashboard` knows
// nobody yet; the bridge writes dashboard.yaml once the family portal has listed the children, without a
// restart, and says where in its log. Real processes on the real clock (about 3 s: the bin's start).
import { spawn } from 'node:child_process';
import { chmod, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEMO_FAMILY, PortalSimulator } from '../../src/simulator/index.js';
import { ensureBuilt, REPO, writeConfig } from '../helpers/faults-process.js';
import { MQTT_URL, clearRetained, uniqueRoots, waitUntil } from '../helpers/mqtt.js';
import { tempDir } from '../helpers/temp.js';

let sim: PortalSimulator;
let dir: string;

beforeEach(async () => {
  sim = new PortalSimulator();
  await sim.start();
  dir = await tempDir('d2m-addon-start-');
});

afterEach(async () => {
  await sim.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("the app's start on a first install with an e-mail entry", () => {
  it('writes the dashboard once the bridge knows the children, and logs where', { timeout: 60_000 }, async () => {
    await ensureBuilt();
    const roots = uniqueRoots();
    const config = join(dir, 'config.yaml');
    await writeConfig(config, {
      mqttUrl: MQTT_URL,
      ...roots,
      portal: sim.urls,
      accounts: [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }] as never,
      dataDir: join(dir, 'data'),
      logLevel: 'info',
    });
    // The add-on's bin reads /data/options.json and asks the Supervisor; here it reads the config file.
    const bin = [
      '#!/bin/sh',
      'command="$1"; shift',
      '[ "$1" = --addon ] && shift',
      `exec "${process.execPath}" "${join(REPO, 'dist', 'main.js')}" "$command" --config "${config}" "$@"`,
    ];
    await writeFile(join(dir, 'dziennik2mqtt'), `${bin.join('\n')}\n`);
    await chmod(join(dir, 'dziennik2mqtt'), 0o755);
    const script = (await readFile(join(REPO, 'hassio-addon', 'run.sh'), 'utf8')).replaceAll('/config/', `${dir}/`);
    await writeFile(join(dir, 'run.sh'), script);

    const lines: string[] = [];
    const app = spawn('sh', [join(dir, 'run.sh')], {
      cwd: dir,
      env: { PATH: `${dir}:${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => app.once('exit', (code) => resolve(code)));
    for (const stream of [app.stdout, app.stderr]) stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    try {
      const file = join(dir, 'dashboard.yaml');
      await waitUntil(() => lines.some((l) => l.includes(`was written to ${file}`)), 'the bridge to write the dashboard', 30_000);
      // The start-time dashboard had no child to name: the first install's file is the bridge's.
      expect(lines.join('\n')).toContain('the children of the e-mail entry family1 are not known yet');
      const views = (parse(await readFile(file, 'utf8'), { version: '1.1' }) as { views: { title: string }[] }).views;
      expect(views.map((v) => v.title)).toEqual(['Rodzina', 'Ania', 'Jan', 'Mostek']);
      expect((await readdir(dir)).filter((f) => f.startsWith('dashboard.yaml'))).toEqual(['dashboard.yaml']);
      expect(lines.join('\n')).not.toContain(DEMO_FAMILY.password);
    } finally {
      app.kill('SIGTERM');
      expect(await exited).toBe(0);
      await clearRetained([`${roots.base}/#`, `${roots.prefix}/#`]);
    }
  });
});
