// The bin as a user runs it, for the security suite: a config for one simulated child under topic roots
// of its own, and the peak resident memory of its process tree (VmHWM, Linux), which shows a message
// that was held in memory even after it is gone.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processTree } from '../../src/bench/bin-rss.js';
import { PortalSimulator, DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { BridgeProcess, ensureBuilt, writeConfig } from './faults-process.js';
import { MQTT_URL, Recorder, clearRetained, uniqueRoots, waitUntil } from './mqtt.js';

const ANIA = DEMO_ACCOUNTS[0]!;

/** The highest peak RSS (MB) of any process in the tree under `root`. */
export async function peakRssMB(root: number): Promise<number> {
  let peak = 0;
  for (const { pid } of await processTree(root)) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    peak = Math.max(peak, Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024);
  }
  return peak;
}

/** One simulated child, its bridge process, a recorder of its topics; stop() removes everything. */
export class ProcessBridge {
  private constructor(
    readonly sim: PortalSimulator,
    readonly dir: string,
    readonly roots: { base: string; prefix: string },
    readonly rec: Recorder,
    readonly process: BridgeProcess,
  ) {}

  /** Further bins started on the same config (so the same data_dir); stop() ends them too. */
  private readonly others: BridgeProcess[] = [];

  /** Starts another bin on this bridge's config, and so on its data_dir (under `wrap`, as BridgeProcess has it). */
  another(wrap?: string[]): BridgeProcess {
    const other = new BridgeProcess(join(this.dir, 'config.yaml'), {}, wrap);
    this.others.push(other);
    other.start();
    return other;
  }

  /**
   * Builds dist/ if needed; `before` runs once the topics and the data_dir are chosen, before the bridge starts.
   * `recorded`: the topics the test's recorder takes (default everything under the base topic); a test that sends
   * huge messages names the few it reads, so that the recorder does not decode every one of them again.
   */
  static async start(
    before?: (roots: { base: string; prefix: string }, sim: PortalSimulator, dataDir: string) => Promise<void>,
    recorded: (roots: { base: string; prefix: string }) => string[] = ({ base }) => [`${base}/#`],
  ): Promise<ProcessBridge> {
    await ensureBuilt();
    const sim = new PortalSimulator();
    await sim.start();
    const dir = await mkdtemp(join(tmpdir(), 'd2m-security-'));
    const roots = uniqueRoots();
    await before?.(roots, sim, join(dir, 'data'));
    const rec = await Recorder.connect(recorded(roots));
    const config = join(dir, 'config.yaml');
    await writeConfig(config, {
      mqttUrl: MQTT_URL,
      ...roots,
      portal: sim.urls,
      accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania' }],
      dataDir: join(dir, 'data'),
      logLevel: 'info',
    });
    const bridge = new ProcessBridge(sim, dir, roots, rec, new BridgeProcess(config));
    bridge.process.start();
    return bridge;
  }

  /** Asks `<base>/bridge/request/<name>` with a transaction and resolves to the answer. */
  async request(name: string, transaction: string, timeoutMs = 10_000): Promise<Record<string, unknown>> {
    const topic = `${this.roots.base}/bridge/response/${name}`;
    const answer = (): Record<string, unknown> | undefined =>
      this.rec
        .texts(topic)
        .map((t) => JSON.parse(t) as Record<string, unknown>)
        .find((a) => a.transaction === transaction);
    await this.rec.publish(`${this.roots.base}/bridge/request/${name}`, JSON.stringify({ transaction }));
    await waitUntil(() => answer() !== undefined, `the answer to ${name} (${transaction})`, timeoutMs);
    return answer()!;
  }

  async stop(): Promise<void> {
    await this.process.kill();
    for (const other of this.others) await other.kill();
    await this.rec.close();
    await clearRetained([`${this.roots.base}/#`, `${this.roots.prefix}/#`]);
    await this.sim.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}
