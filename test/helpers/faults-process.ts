// The bridge as the user runs it, for faults only a real process can show: `node dist/main.js run
// --config FILE` as a child process (real clock), killed with SIGKILL or stopped with SIGTERM, its
// stdout and stderr kept line by line.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TestContext } from 'vitest';
import { stringify } from 'yaml';
import { PortalSimulator, type SimUrls } from '../../src/simulator/index.js';
import { Recorder, clearRetained, sleep, uniqueRoots, waitUntil } from './mqtt.js';
import { ANIA, strongPassword } from './faults-world.js';

export const REPO = resolve(import.meta.dirname, '../..');
const MAIN = join(REPO, 'dist', 'main.js');

/** The build this process has under way: tests running side by side wait for one build, never start a second. */
let building: Promise<void> | undefined;

/**
 * Builds dist/ as `npm run build` does (each file's JavaScript, then the bin's bundle) when any file under src/ is newer than the
 * last build that finished (or dist/main.js is missing).
 */
export function ensureBuilt(): Promise<void> {
  building ??= underBuildLock(buildIfStale).finally(() => (building = undefined));
  return building;
}

/** How `node dist/main.js ARGS` ended: its exit code and both streams whole. */
export interface BinOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built bin as a user does, `node dist/main.js ARGS`, to its end; a failing exit is an outcome, not an error. */
export function runBin(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<BinOutcome> {
  return promisify(execFile)(process.execPath, [MAIN, ...args], options).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: unknown; stdout?: string; stderr?: string }) => ({
      code: typeof error.code === 'number' ? error.code : 1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
}

// The build is many steps over one dist/: an unbundled main.js is written first, the bundle then removes the
// chunks and writes main.js and its chunks again. Another vitest run in this checkout (two files run at once
// by hand, a full suite beside) that looked meanwhile saw a fresh main.js and ran a half-made bin (a missing
// chunk, or the unbundled main.js, whose stack trace names no bundle). So one process builds at a time, every look is
// made under the same lock, and only a finished build counts: its stamp, written last by scripts/build.mjs (`npm run
// build`, a fresh clone's `npm ci` too), dated when it began.
const CACHE = join(REPO, 'node_modules', '.cache');
const LOCK = join(CACHE, 'd2m-dist.lock');
const STAMP = join(CACHE, 'd2m-dist.built');

async function buildIfStale(): Promise<void> {
  const built = await Promise.all([stat(MAIN), stat(STAMP)]).then(
    ([, stamp]) => stamp.mtimeMs,
    () => 0,
  );
  if (built > 0 && (await newestUnder(join(REPO, 'src'))) <= built) return;
  // `npm run build`, which stamps what it finished.
  await promisify(execFile)(process.execPath, [join(REPO, 'scripts', 'build.mjs')], { cwd: REPO });
}

/** Runs `work` holding the checkout's build lock; a lock whose process is gone (killed mid-build) is taken over. */
async function underBuildLock(work: () => Promise<void>): Promise<void> {
  await mkdir(CACHE, { recursive: true });
  for (;;) {
    try {
      await writeFile(LOCK, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(await readFile(LOCK, 'utf8').catch(() => ''));
    // Empty when read between its creation and its write: its holder is alive. Two that find a dead holder at
    // the same moment could both take over; only a run killed mid-build leaves one, so that is left to chance.
    if (holder > 0 && !runs(holder)) await rm(LOCK, { force: true });
    // Another process builds: look again shortly (a build takes tens of seconds).
    else await sleep(200);
  }
  try {
    await work();
  } finally {
    await rm(LOCK, { force: true });
  }
}

function runs(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function newestUnder(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? await newestUnder(path) : (await stat(path)).mtimeMs);
  }
  return newest;
}

export interface ProcessConfig {
  mqttUrl: string;
  base: string;
  prefix: string;
  portal: SimUrls;
  accounts: { login: string; password: string; id?: string; messages?: unknown[]; write_messages?: boolean }[];
  dataDir: string;
  logLevel?: string;
  /** The config's `homeassistant:` (Home Assistant's API; `public_url` where it reaches the web server). */
  homeassistant?: { url: string; token: string; public_url?: string; statistics?: boolean; assist?: boolean };
  /** The web server (default off: tests in parallel would all want its port); take a port from freePort(). */
  http?: { port: number; bind?: string };
}

export async function writeConfig(path: string, config: ProcessConfig): Promise<void> {
  const yaml = stringify({
    mqtt: { url: config.mqttUrl, base_topic: config.base, discovery_prefix: config.prefix },
    portal: config.portal,
    accounts: config.accounts,
    data_dir: config.dataDir,
    log_level: config.logLevel ?? 'debug',
    // The web server stays off unless a test gives it a port: tests in parallel would all want the default one.
    http: config.http ?? { port: 0 },
    ...(config.homeassistant ? { homeassistant: config.homeassistant } : {}),
  });
  await writeFile(path, yaml, { mode: 0o600 });
}

/**
 * One process test's world: a simulator started (Ania's password one no fixture holds), a temporary folder, the
 * test's topics and a recorder of them, and the list of bridge processes it starts; all gone when the test ends.
 */
export async function processWorld(ctx: TestContext, name: string) {
  const sim = new PortalSimulator();
  await sim.start();
  const password = strongPassword();
  sim.account(ANIA.login).password = password;
  const dir = await mkdtemp(join(tmpdir(), `d2m-${name}-`));
  const roots = uniqueRoots();
  const rec = await Recorder.connect([`${roots.base}/#`, `${roots.prefix}/#`]);
  const processes: BridgeProcess[] = [];
  ctx.onTestFinished(async () => {
    for (const p of processes) await p.kill();
    await rec.close();
    await clearRetained([`${roots.base}/#`, `${roots.prefix}/#`]);
    await sim.stop();
    await rm(dir, { recursive: true, force: true });
  });
  return { sim, password, dir, roots, rec, processes };
}

export class BridgeProcess {
  readonly lines: string[] = [];
  private child: ChildProcess | undefined;
  private exit: Promise<number | null> | undefined;

  /** `wrap`: a command the bin runs under (`unshare --pid --fork --mount-proc`: another pid namespace). */
  constructor(
    private readonly configPath: string,
    private readonly env: NodeJS.ProcessEnv = {},
    private readonly wrap: string[] = [],
  ) {}

  start(): void {
    const [command, ...args] = [...this.wrap, process.execPath, MAIN, 'run', '--config', this.configPath];
    const child = spawn(command!, args, {
      cwd: REPO,
      env: { PATH: process.env.PATH, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exit = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop() ?? '';
        for (const line of parts) if (line.trim() !== '') this.lines.push(line);
      });
      stream.on('end', () => {
        if (rest.trim() !== '') this.lines.push(rest);
      });
    }
  }

  /** The process id of the bin (the bridge itself is its child, relaunched with the memory flags). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * SIGKILL: no chance to save anything or say goodbye. `group`: the relaunched bridge is killed too, at
   * the same moment (as a supervisor's SIGKILL takes the group), not when it notices its launcher gone.
   */
  async kill(group = false): Promise<void> {
    if (!this.running) return;
    const bridges = await childPids(this.child?.pid);
    if (group) for (const pid of bridges) process.kill(pid, 'SIGKILL');
    this.child?.kill('SIGKILL');
    await this.exit;
    // The relaunched bridge (Node 20: a child of the bin) follows its launcher by itself, but only once
    // its event loop notices the closed channel, which in the middle of a pass took over a second. A
    // supervisor's SIGKILL takes the whole group at once; the restart a test starts next must not race
    // a bridge still holding the data_dir's lock.
    await waitUntil(() => bridges.every((pid) => !alive(pid)), 'the relaunched bridge to follow its launcher', 10_000);
  }

  /** SIGTERM (a clean stop), SIGKILL after 10 s; resolves to the exit code. */
  async stop(): Promise<number | null> {
    if (this.running) {
      this.child?.kill('SIGTERM');
      const timer = setTimeout(() => this.child?.kill('SIGKILL'), 10_000);
      await this.exit;
      clearTimeout(timer);
    }
    return (await this.exit) ?? null;
  }

  /** Waits for the process to end by itself; resolves to its exit code. */
  async exited(timeoutMs = 10_000): Promise<number | null> {
    await waitUntil(() => !this.running, 'the bridge process to exit', timeoutMs);
    return (await this.exit) ?? null;
  }

  logged(re: RegExp): string[] {
    return this.lines.filter((l) => re.test(l));
  }
}

/** The process ids of a process's children (Linux; none elsewhere). */
async function childPids(pid: number | undefined): Promise<number[]> {
  if (pid === undefined) return [];
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return text.split(/\s+/).filter(Boolean).map(Number);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
