// The bin started plainly (`node dist/main.js run --config FILE`, no V8 flags, no NODE_OPTIONS) runs
// the bridge with its memory settings, keeps what the user put in NODE_OPTIONS, stops cleanly on
// SIGTERM and passes its exit code on. Read from /proc, so Linux only.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PortalSimulator, DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { processTree } from '../../src/bench/bin-rss.js';
import { REPO, ensureBuilt, writeConfig } from '../helpers/faults-process.js';
import { MQTT_URL, Recorder, clearRetained, uniqueRoots, waitUntil } from '../helpers/mqtt.js';
import { tempDir } from '../helpers/temp.js';

const MAIN = join(REPO, 'dist', 'main.js');
const ANIA = DEMO_ACCOUNTS[0]!;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(() => ensureBuilt(), 120_000);
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Started {
  pid: number;
  exited: Promise<number | null>;
  stderr: () => string;
}

/** `node dist/main.js ...args` with nothing but PATH and `env` in its environment. */
function startBin(args: string[], env: NodeJS.ProcessEnv = {}): Started {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: REPO, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { pid: child.pid ?? 0, exited, stderr: () => stderr };
}

/** A simulated portal, a config for Ania and a recorder on the bridge's topics. */
async function world(): Promise<{ config: string; rec: Recorder; base: string; prefix: string }> {
  const sim = new PortalSimulator();
  await sim.start();
  cleanups.push(() => sim.stop());
  const dir = await mkdtemp(join(tmpdir(), 'd2m-launch-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const { base, prefix } = uniqueRoots();
  const rec = await Recorder.connect([`${base}/#`, `${prefix}/#`]);
  cleanups.push(async () => {
    await rec.close();
    await clearRetained([`${base}/#`, `${prefix}/#`]);
  });
  const config = join(dir, 'config.yaml');
  await writeConfig(config, {
    mqttUrl: MQTT_URL,
    base,
    prefix,
    portal: sim.urls,
    accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania' }],
    dataDir: join(dir, 'data'),
    logLevel: 'warn',
  });
  return { config, rec, base, prefix };
}

/** The process that runs the bridge: the last one in the tree of the started bin. */
async function bridgeProcess(pid: number): Promise<{ pid: number; args: string[]; nodeOptions: string | undefined }> {
  const leaf = (await processTree(pid)).at(-1)!;
  const args = (await readFile(`/proc/${leaf.pid}/cmdline`, 'utf8')).split('\0');
  const environ = (await readFile(`/proc/${leaf.pid}/environ`, 'utf8')).split('\0');
  const nodeOptions = environ.find((e) => e.startsWith('NODE_OPTIONS='))?.slice('NODE_OPTIONS='.length);
  return { pid: leaf.pid, args, nodeOptions };
}

/** A process that still runs (a zombie waiting for its parent to reap it does not). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe.skipIf(process.platform !== 'linux')('the bin started plainly', () => {
  it('runs the bridge with its memory flags and stops cleanly on SIGTERM, leaving no process behind', async () => {
    const { config, rec, base, prefix } = await world();
    const bin = startBin(['run', '--config', config]);
    await rec.until(() => rec.texts(`${base}/bridge/state`).includes('online'), 'the bridge online', 20_000);
    // The build says package.json's version, as --version does: discovery's sw_version, bridge/info.
    const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    expect(execFileSync(process.execPath, [MAIN, '--version'], { encoding: 'utf8' })).toBe(`${version}\n`);
    await rec.until(() => rec.last(`${prefix}/device/${base}_ania/config`) !== undefined, 'her discovery', 20_000);
    expect(JSON.parse(rec.last(`${prefix}/device/${base}_ania/config`)!.text)).toMatchObject({
      dev: { sw_version: version },
      o: { sw_version: version },
    });
    expect(rec.json(`${base}/bridge/info`)).toMatchObject({ version });
    const tree = await processTree(bin.pid);
    const bridge = await bridgeProcess(bin.pid);
    expect(bridge.args).toEqual(expect.arrayContaining(['--max-semi-space-size=1', '--max-old-space-size=64', '--v8-pool-size=1']));
    expect(bridge.args).toEqual(expect.arrayContaining([MAIN, 'run', '--config', config]));

    process.kill(bin.pid, 'SIGTERM');
    expect(await bin.exited).toBe(0);
    await rec.until(() => rec.texts(`${base}/bridge/state`).at(-1) === 'offline', 'offline published');
    expect(tree.filter((p) => alive(p.pid))).toEqual([]);
    expect(bin.stderr()).toBe('');
  }, 40_000);

  it('keeps a heap size the user set in NODE_OPTIONS and adds only the missing flags', async () => {
    const { config, rec, base } = await world();
    const bin = startBin(['run', '--config', config], { NODE_OPTIONS: '--max-old-space-size=100' });
    await rec.until(() => rec.texts(`${base}/bridge/state`).includes('online'), 'the bridge online', 20_000);
    const bridge = await bridgeProcess(bin.pid);
    expect(bridge.nodeOptions).toBe('--max-old-space-size=100');
    expect(bridge.args).toEqual(expect.arrayContaining(['--max-semi-space-size=1', '--v8-pool-size=1']));
    expect(bridge.args).not.toContain('--max-old-space-size=64');
    process.kill(bin.pid, 'SIGTERM');
    expect(await bin.exited).toBe(0);
  }, 40_000);

  it('takes the whole bridge down when killed with SIGKILL, as one process would go', async () => {
    const { config, rec, base } = await world();
    const bin = startBin(['run', '--config', config]);
    await rec.until(() => rec.texts(`${base}/bridge/state`).includes('online'), 'the bridge online', 20_000);
    const tree = await processTree(bin.pid);
    process.kill(bin.pid, 'SIGKILL');
    await bin.exited;
    await waitUntil(() => tree.every((p) => !alive(p.pid)), 'every process of the bin to end');
  }, 40_000);

  it('passes the exit code and the message of a failed start on', async () => {
    // An English terminal: with no config to name a language, the refusal speaks the terminal's (Polish without LANG).
    const bin = startBin(['run', '--config', join(tmpdir(), 'd2m-no-such-config.yaml')], { LANG: 'en_US.UTF-8' });
    expect(await bin.exited).toBe(2);
    expect(bin.stderr()).toContain('file not found');
  });

  it("still exits with a config file's error where a Supervisor token is set: only the app's form keeps it up", async () => {
    const bin = startBin(['run', '--config', join(tmpdir(), 'd2m-no-such-config.yaml')], { SUPERVISOR_TOKEN: 'token', LANG: 'en_US.UTF-8' });
    expect(await bin.exited).toBe(2);
    expect(bin.stderr()).toContain('file not found');
  });
});

describe('the built demo', () => {
  // The bin is a bundle in dist/ while the simulator's data lives in fixtures/: the demo a newcomer
  // runs must find it (the tests of src/ cannot tell).
  it('starts the simulated school from the bin and publishes its children', async () => {
    // A folder of its own: the demo writes its config file (dziennik2mqtt-demo.yaml) where it runs.
    const child = spawn(process.execPath, [MAIN, 'demo'], {
      cwd: await tempDir('d2m-demo-bin-'),
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    });
    // The first pass's states come in several chunks of the stream: wait for the line asserted on.
    await waitUntil(() => /ania\/average\s+\S/.test(output) || child.exitCode !== null, 'the demo publishing', 30_000);
    expect(output).not.toContain('ENOENT');
    expect(output).toMatch(/ania\/average\s+4\.87/);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 45_000);
});

describe('the bin as V8 holds it', () => {
  // V8 keeps every loaded file's text, at two bytes a character for the whole file once one character is not Latin-1.
  it('is ASCII in every file of the bundle, a regular expression’s ł included', async () => {
    const files = (await readdir(join(REPO, 'dist'))).filter((name) => /^main(\..+)?\.js$/.test(name));
    expect(files.length).toBeGreaterThan(10);
    const texts = await Promise.all(files.map((name) => readFile(join(REPO, 'dist', name), 'utf8')));
    expect(files.filter((_, i) => /[\u0080-\uffff]/.test(texts[i]!))).toEqual([]);
    // The words of a refusal about credentials (portal/login.ts, `/has(ł|l)/`) as the build writes them: the same letter.
    expect(texts.some((t) => t.includes('has(\\u0142|l)'))).toBe(true);
  });

  // An ES module import of node:http makes Node read its lazy WebSocket export, which loads Node's own undici (scripts/bundle.mjs).
  it('loads Node’s own modules through require, the banner’s node:module alone imported', async () => {
    const files = (await readdir(join(REPO, 'dist'))).filter((name) => /^main(\..+)?\.js$/.test(name));
    const imported = new Set<string>();
    for (const name of files) {
      const text = await readFile(join(REPO, 'dist', name), 'utf8');
      for (const match of text.matchAll(/\b(?:from|import)\s*["']((?:node:)?[a-z_/]+)["']/g)) imported.add(match[1]!);
    }
    expect([...imported].filter((specifier) => !specifier.startsWith('.') && specifier !== 'pino')).toEqual(['node:module']);
    expect(files.some((name) => readFileSync(join(REPO, 'dist', name), 'utf8').includes('require("node:http")'))).toBe(true);
  });
});
