// The bridge's MQTT side and one child's event memory as built code runs them, in a process of its own
// that a test can SIGKILL: the data folder's lease, the Bridge with its kept session and claim, and the
// EventGate, in the order the App takes them (the base topic first, then the memory, then the broker).
// Grades are counted from a file the test bumps; a pass every 5 ms stands for the pass runner (with its time
// and the run's last good pass, as the coordinator hands them to the gate). It logs JSON
// lines on stdout, and `ready` once its first pass read the grades.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { REPO } from './faults-process.js';
import { waitUntil } from './mqtt.js';

/**
 * The modules the script imports, bundled from src/ with their packages into one file, as the bin is
 * (scripts/bundle.mjs): each start then loads one file instead of tsc's modules and the packages' own,
 * 0.2 s of CPU a start instead of 0.45 on this project's 2-core machine. Returns the file and its removal.
 */
export async function bundleBridge(): Promise<{ file: string; remove: () => Promise<void> }> {
  // Inside the repo: what the packages still require() at run time is found in its node_modules.
  await mkdir(join(REPO, 'node_modules', '.cache'), { recursive: true });
  const dir = await mkdtemp(join(REPO, 'node_modules', '.cache', 'd2m-bridge-script-'));
  const file = join(dir, 'bridge.mjs');
  const from = (path: string): string => JSON.stringify(join(REPO, 'src', path));
  await build({
    stdin: {
      contents: [
        `export { MqttSink } from ${from('outputs/mqtt/sink.ts')};`,
        `export { EventGate } from ${from('once/gate.ts')};`,
        `export { Lease } from ${from('lease/lease.ts')};`,
        `export { createLogger } from ${from('util/log.ts')};`,
      ].join('\n'),
      resolveDir: REPO,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: file,
    // A package that still calls require() (CommonJS inside the ESM bundle) gets Node's.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    logLevel: 'error',
  });
  return { file, remove: () => rm(dirname(file), { recursive: true, force: true }) };
}

export interface ScriptSettings {
  bundle: string;
  dataDir: string;
  /** How many grades the child has: g1..gN. */
  countFile: string;
  mqtt: { url: string; username: string; password: string; base_topic: string; discovery_prefix: string };
  /** The lease's beat and grace (a test's short ones). */
  timing?: { beatMs: number; graceMs: number };
}

function script(s: ScriptSettings): string {
  return `
    import { readFileSync } from 'node:fs';
    const { MqttSink, EventGate, Lease, createLogger } = await import(${JSON.stringify(pathToFileURL(s.bundle).href)});
    const log = createLogger(process.env.D2M_LOG ?? 'info', undefined, { format: 'json' });
    const dataDir = ${JSON.stringify(s.dataDir)};
    const lost = (why) => { log.error(why); log.flush(); process.exit(1); };
    const folder = await Lease.take(dataDir, log, { lost, ${s.timing ? `timing: ${JSON.stringify(s.timing)}` : ''} });
    const bridge = new MqttSink({ mqtt: ${JSON.stringify(s.mqtt)}, version: 't', log, info: () => ({}), children: ['ania'], staleScanMs: 20,
      lease: { folder, other: (other) => log.warn({ other }, 'another bridge'), lost } });
    await bridge.acquire();
    const gate = new EventGate({ child: () => ({ id: 'ania', name: 'Ania' }), dataDir, log, onStorage: () => {}, fire: (kind, payload, id) => bridge.carry('ania', { kind, payload, id }),
      memory: (id) => bridge.memory(id), tell: (memory) => bridge.tell('ania', memory), told: (id) => bridge.told(id) });
    await gate.load('ania');
    await bridge.start();
    process.on('SIGTERM', () => void gate.save().then(() => bridge.stop()).then(() => folder.release()).then(() => process.exit(0)));
    // Each pass with its time and the last good one of this run before it, as the coordinator gives them.
    let lastGood;
    const pass = async () => {
      const count = Number(readFileSync(${JSON.stringify(s.countFile)}, 'utf8'));
      const now = Date.now();
      await gate.pass([['grade', Array.from({ length: count }, (_, i) => ({ id: 'g' + (i + 1), payload: { id: 'g' + (i + 1) } }))]], { now, lastGood });
      lastGood = now;
    };
    // Ready once a pass has read the grades: the test's next write of the count file must not race the first
    // run's first pass (read half-written, an empty list and then g1 with g2 as news; read after it, g2 no news).
    await pass();
    console.log('ready');
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await pass();
    }`;
}

/** One run of the script: its process, what it printed (log lines as their messages), and ways to wait for it. */
export class ScriptBridge {
  readonly lines: string[] = [];
  private out = '';

  private constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => {
      this.out += chunk.toString();
      const parts = this.out.split('\n');
      this.out = parts.pop() ?? '';
      for (const line of parts) this.lines.push(messageOf(line));
    });
  }

  static start(settings: ScriptSettings): ScriptBridge {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script(settings)], {
      cwd: REPO,
      env: { PATH: process.env.PATH, ...(process.env.D2M_LOG ? { D2M_LOG: process.env.D2M_LOG } : {}) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    return new ScriptBridge(child);
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The lines whose message matches. */
  logged(pattern: RegExp): string[] {
    return this.lines.filter((line) => pattern.test(line));
  }

  /** Resolves once it printed `ready` (its first pass done); fails when it exited first or took longer than `ms`. */
  async ready(ms = 10_000): Promise<this> {
    await waitUntil(() => this.lines.includes('ready') || !this.running, 'the bridge to start', ms);
    if (!this.running) throw new Error(`the bridge exited (${this.child.exitCode ?? this.child.signalCode}): ${this.lines.join('\n')}`);
    return this;
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!this.running) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill(signal);
    await exited;
  }
}

/** A log line's message (`msg`), or the line itself (`ready`). */
function messageOf(line: string): string {
  try {
    return (JSON.parse(line) as { msg?: string }).msg ?? line;
  } catch {
    return line;
  }
}
