// The RSS of the bin as a user starts it (`node dist/main.js run --config FILE`, no NODE_OPTIONS):
// three children against the simulator in another process, an embedded broker, a few full pass
// cycles asked for with the refresh button, then the resident memory of the whole process tree.
// With `web`, the same with the web server on and a client using it meanwhile; with `hostileTimetable`, the first child's
// portal answering a hostile standing plan.
import { spawn } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { connectAsync, type MqttClient } from 'mqtt';
import { stringify } from 'yaml';
import { freeTcpPort } from './free-port.js';
import { realWorld, type RealWorld } from './real-world.js';
import { benchLogin } from './accounts.js';
import { FORCED_PASS_GAP_MS } from '../runner/refresh-gate.js';

const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));
const CHILDREN = 3;
/** Full passes asked for after the first one; the bridge forces at most one per child a minute. */
const REFRESHES = 2;

export interface BinRss {
  /** Sum of VmRSS over the bin's process tree (MB), after the passes. */
  rssMB: number;
  processes: TreeProcess[];
  /** Exit code after SIGTERM, and whether the bridge was published offline. */
  exitCode: number | null;
  offline: boolean;
  /**
   * With the web server on: each read tool of the MCP server asked for each child as Home Assistant asks
   * (a session of its own per call: initialize, initialized, the call), after the passes; the slowest call (ms).
   */
  mcp?: { calls: number; slowestMs: number; failed: number };
  /**
   * With the hostile standing plan: the bridge's reads of it, and what it logged of the answer (the list cut at its
   * most, with the entries listed; or the answer refused for its size), so that a figure of a plan never read shows.
   */
  hostileTimetable?: { reads: number; logged: string[] };
}

export interface BinRssOptions {
  /**
   * The web server on (http.port on 127.0.0.1) with a client holding the board's event stream open, if
   * the board has one, and asking /health, the board and a calendar feed all along; off (http.port 0) otherwise.
   */
  web?: boolean;
  /** With the web server on: http.metrics on too, and the client scrapes /metrics meanwhile. */
  metrics?: boolean;
  /** The node binary to start the bin with (default: the one running the bench). */
  execPath?: string;
  /**
   * The first child's TimetableEntries a hostile portal's (interface 19.2): 28,000 entries and 5,000 repeats, the
   * simulator's serveHostileStandingTimetable. The start's first pass leaves the standing plan for the next, so the first
   * refresh reads it, before the RSS is taken.
   */
  hostileTimetable?: boolean;
}

/** nodeArgs: options put before the script (empty: the bin started plainly). */
export async function binRss(nodeArgs: string[] = [], options: BinRssOptions = {}): Promise<BinRss> {
  const world = await realWorld(CHILDREN, 'binrss');
  const { urls, mqttUrl: url, dataDir: dir } = world;
  const ids = Array.from({ length: CHILDREN }, (_, i) => `child${i}`);
  const config = join(dir, 'config.yaml');
  const webPort = options.web ? await freeTcpPort() : 0;
  await writeFile(
    config,
    stringify({
      mqtt: { url, base_topic: 'bench' },
      portal: urls,
      accounts: ids.map((id, i) => ({ login: benchLogin(i).login, password: benchLogin(i).password, id })),
      data_dir: join(dir, 'data'),
      log_level: 'warn',
      http: { port: webPort, bind: '127.0.0.1', ...(options.metrics ? { metrics: true } : {}) },
    }),
    { mode: 0o600 },
  );
  const hostile = options.hostileTimetable === true ? benchLogin(0).login : undefined;
  if (hostile) await world.sim.ask({ type: 'hostile timetable', login: hostile });
  const watcher = await connectAsync(url);
  await watcher.subscribeAsync('bench/#');
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const bin = spawn(options.execPath ?? process.execPath, [...nodeArgs, MAIN, 'run', '--config', config], {
    env,
    stdio: ['ignore', hostile ? 'pipe' : 'ignore', 'inherit'],
  });
  const logged: string[] = [];
  if (bin.stdout) createInterface({ input: bin.stdout }).on('line', (line) => line.includes('TimetableEntries') && logged.push(line));
  const exited = new Promise<number | null>((resolve) => bin.once('exit', (code) => resolve(code)));
  let client: WebClient | undefined;
  try {
    await Promise.all(ids.map((id) => nextMessage(watcher, `bench/${id}/last_update`)));
    if (options.web) client = await WebClient.start(webPort, join(dir, 'data', 'http-token'), options.metrics === true);
    for (let round = 0; round < REFRESHES; round++) {
      if (round > 0) await delay(FORCED_PASS_GAP_MS + 1_000);
      await Promise.all(
        ids.map(async (id) => {
          const done = nextMessage(watcher, `bench/${id}/refresh/result`);
          await watcher.publishAsync(`bench/${id}/refresh/set`, 'refresh');
          await done;
        }),
      );
    }
    const mcp = options.web ? await askEveryTool(webPort, join(dir, 'data', 'http-token'), ids) : undefined;
    const processes = await processTree(bin.pid ?? 0);
    const hostileTimetable = hostile ? { reads: await standingTimetableReads(world, hostile), logged } : undefined;
    client?.stop();
    if (client && client.answered === 0) throw new Error('the web server never answered');
    const offline = nextMessage(watcher, 'bench/bridge/state', 'offline');
    bin.kill('SIGTERM');
    const exitCode = await exited;
    const wentOffline = await Promise.race([offline.then(() => true), delay(2_000).then(() => false)]);
    return {
      rssMB: processes.reduce((sum, p) => sum + p.rssMB, 0),
      processes,
      exitCode,
      offline: wentOffline,
      ...(mcp ? { mcp } : {}),
      ...(hostileTimetable ? { hostileTimetable } : {}),
    };
  } finally {
    client?.stop();
    if (bin.exitCode === null && bin.signalCode === null) bin.kill('SIGKILL');
    await watcher.endAsync();
    await world.close();
  }
}

/** The login's TimetableEntries requests the simulator answered. */
async function standingTimetableReads(world: RealWorld, login: string): Promise<number> {
  const counts = await world.sim.ask<{ byLogin: Record<string, Record<string, number>> }>({ type: 'counts' });
  return Object.entries(counts.byLogin[login] ?? {})
    .filter(([path]) => path.startsWith('GET TimetableEntries'))
    .reduce((sum, [, n]) => sum + n, 0);
}

/**
 * The MCP server's read tools, every one for every child and for all of them at once (`child` left out, the widest
 * answer: every child's, a week of days, four months of messages), each call timed from its session's start to its answer.
 */
async function askEveryTool(port: number, tokenFile: string, children: readonly string[]): Promise<NonNullable<BinRss['mcp']>> {
  const token = (await readFile(tokenFile, 'utf8')).trim();
  const { TOOLS } = await import('../outputs/mcp/tools.js');
  const read = TOOLS.filter((tool) => tool.readOnly);
  const post = async (body: unknown, session?: string): Promise<Response> =>
    fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(session ? { 'mcp-session-id': session } : {}),
      },
      body: JSON.stringify(body),
    });
  const result = { calls: 0, slowestMs: 0, failed: 0 };
  // Each child alone, then every child at once with the most days the tool takes.
  const widest = (tool: (typeof read)[number]) => {
    const days = (tool.inputSchema.properties as { days?: { maximum?: number } }).days?.maximum;
    return days === undefined ? {} : { days };
  };
  for (const child of [...children, undefined]) {
    for (const tool of read) {
      const name = tool.name;
      const args = child === undefined ? widest(tool) : { child };
      const started = performance.now();
      const init = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
      });
      const session = init.headers.get('mcp-session-id') ?? undefined;
      await init.text();
      await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
      const answer = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } }, session);
      const text = await answer.text();
      result.slowestMs = Math.max(result.slowestMs, performance.now() - started);
      result.calls++;
      if (!answer.ok || text.includes('"isError":true')) result.failed++;
    }
  }
  return result;
}

/**
 * What a wall tablet and a calendar app do: the event stream held open (when the board has one), the
 * page, a calendar feed and /health asked often.
 */
class WebClient {
  answered = 0;
  /** Asks sent and not yet answered. */
  private waiting = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly held: Array<{ destroy(): void }> = [];

  private constructor(
    private readonly port: number,
    private readonly token: string,
  ) {}

  static async start(port: number, tokenFile: string, metrics = false): Promise<WebClient> {
    const client = new WebClient(port, (await readFile(tokenFile, 'utf8')).trim());
    client.hold(`/api/events?token=${client.token}`);
    client.timer = setInterval(() => {
      // A round only once the last is answered: on a loaded machine a slow bridge would otherwise hold more of this
      // address's connections than the server lets one address have, and it resets the newest (an MCP call's among them).
      if (client.waiting > 0) return;
      client.ask('/health');
      client.ask(`/?token=${client.token}`);
      client.ask(`/calendar/child0/lessons.ics?token=${client.token}`);
      if (metrics) client.ask(`/metrics?token=${client.token}`);
    }, 250);
    return client;
  }

  private ask(path: string): void {
    this.waiting++;
    let open = true;
    // Once, whichever of the answer's end and an error comes (an error may follow a started answer).
    const done = (): void => {
      if (open) this.waiting--;
      open = false;
    };
    httpGet({ host: '127.0.0.1', port: this.port, path }, (res) => {
      this.answered++;
      res.on('close', done).resume();
    }).once('error', done);
  }

  private hold(path: string): void {
    const req = httpGet({ host: '127.0.0.1', port: this.port, path }, (res) => {
      this.answered++;
      // A 404 means the board has no stream (yet): nothing to hold.
      if (res.statusCode === 200) res.on('data', () => undefined);
      else res.resume();
    });
    req.on('error', () => undefined);
    this.held.push(req);
  }

  stop(): void {
    clearInterval(this.timer);
    for (const req of this.held.splice(0)) req.destroy();
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

// `node dist/bench/bin-rss.js [--web] [--hostile-timetable] [--node PATH] [node options]`: the figure alone, for trying
// launcher variants, other Nodes (and the web server's or a hostile plan's cost) by hand.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const nodeAt = args.indexOf('--node');
  const execPath = nodeAt === -1 ? undefined : args[nodeAt + 1];
  const ours = ['--web', '--hostile-timetable'];
  const nodeArgs = args.filter((a, i) => !ours.includes(a) && (nodeAt === -1 || (i !== nodeAt && i !== nodeAt + 1)));
  binRss(nodeArgs, { web: args.includes('--web'), hostileTimetable: args.includes('--hostile-timetable'), execPath }).then(
    (r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
