// The RSS of the bin as a user starts it (`node dist/main.js run --config FILE`, no NODE_OPTIONS):
// three children against the simulator in another process, an embedded broker, a few full poll
// cycles asked for with the refresh button, then the resident memory of the whole process tree.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Aedes } from 'aedes';
import { connectAsync, type MqttClient } from 'mqtt';
import { stringify } from 'yaml';
import { SimProcess } from './simulate.js';
import { benchLogin } from './accounts.js';

const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));
const CHILDREN = 3;
const REFRESHES = 3;

export interface BinRss {
  /** Sum of VmRSS over the bin's process tree (MB), after the poll cycles. */
  rssMB: number;
  processes: TreeProcess[];
  /** Exit code after SIGTERM, and whether the bridge was published offline. */
  exitCode: number | null;
  offline: boolean;
}

/** nodeArgs: options put before the script (empty: the bin started plainly). */
export async function binRss(nodeArgs: string[] = []): Promise<BinRss> {
  const sim = new SimProcess();
  await sim.ask({ type: 'time', now: Date.now() });
  const urls = await sim.ask<Record<string, string>>({ type: 'start', children: CHILDREN });
  const aedes = await Aedes.createBroker();
  const server = createServer(aedes.handle as (socket: unknown) => void);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `mqtt://127.0.0.1:${(server.address() as { port: number }).port}`;
  const dir = await mkdtemp(join(tmpdir(), 'd2m-binrss-'));
  const ids = Array.from({ length: CHILDREN }, (_, i) => `child${i}`);
  const config = join(dir, 'config.yaml');
  await writeFile(
    config,
    stringify({
      mqtt: { url, base_topic: 'bench' },
      portal: urls,
      accounts: ids.map((id, i) => ({ login: benchLogin(i).login, password: benchLogin(i).password, id })),
      data_dir: join(dir, 'data'),
      log_level: 'warn',
    }),
    { mode: 0o600 },
  );
  const watcher = await connectAsync(url);
  await watcher.subscribeAsync('bench/#');
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const bin = spawn(process.execPath, [...nodeArgs, MAIN, 'run', '--config', config], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => bin.once('exit', (code) => resolve(code)));
  try {
    await Promise.all(ids.map((id) => nextMessage(watcher, `bench/${id}/last_update`)));
    for (let round = 0; round < REFRESHES; round++) {
      await Promise.all(
        ids.map(async (id) => {
          const done = nextMessage(watcher, `bench/${id}/refresh/result`);
          await watcher.publishAsync(`bench/${id}/refresh/set`, 'refresh');
          await done;
        }),
      );
    }
    const processes = await processTree(bin.pid ?? 0);
    const offline = nextMessage(watcher, 'bench/bridge/state', 'offline');
    bin.kill('SIGTERM');
    const exitCode = await exited;
    const wentOffline = await Promise.race([offline.then(() => true), delay(2_000).then(() => false)]);
    return { rssMB: processes.reduce((sum, p) => sum + p.rssMB, 0), processes, exitCode, offline: wentOffline };
  } finally {
    if (bin.exitCode === null && bin.signalCode === null) bin.kill('SIGKILL');
    await watcher.endAsync();
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    server.close();
    await sim.ask({ type: 'stop' });
    await rm(dir, { recursive: true, force: true });
  }
}

function nextMessage(client: MqttClient, topic: string, payload?: string): Promise<void> {
  return new Promise((resolve) => {
    const listener = (t: string, message: Buffer): void => {
      if (t !== topic || (payload !== undefined && message.toString() !== payload)) return;
      client.off('message', listener);
      resolve();
    };
    client.on('message', listener);
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

export interface TreeProcess {
  pid: number;
  rssMB: number;
  /** Pages this process alone holds (RSS less what it shares, e.g. the node binary with the bridge). */
  privateMB: number;
  command: string;
}

/** The process and its descendants, from /proc (Linux), with their resident memory. */
export async function processTree(root: number): Promise<TreeProcess[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // The command name in parentheses may hold spaces; the parent pid is the second field after it.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (Number.isFinite(ppid)) parents.set(Number(entry), ppid);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, ppid] of parents) if (ppid === tree[i]) tree.push(pid);
  }
  const out: TreeProcess[] = [];
  for (const pid of tree) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
    const privateKb = [...rollup.matchAll(/^Private_(?:Clean|Dirty):\s+(\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    const command = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0').filter(Boolean).join(' ');
    out.push({ pid, rssMB: kb / 1024, privateMB: privateKb / 1024, command });
  }
  return out;
}

// `node dist/bench/bin-rss.js`: the figure alone, for trying launcher variants by hand.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  binRss(process.argv.slice(2)).then(
    (r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
