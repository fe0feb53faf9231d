// A private Mosquitto for tests that stop and restart the broker: its own port, its own config in a temp
// directory (anonymous, loopback only, no persistence), killed by the test that started it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports.js';
import { CuttableProxy } from './mqtt.js';

export class PrivateMosquitto {
  private process: ChildProcess | undefined;
  private dir: string | undefined;
  port = 0;

  /**
   * anonymous: false makes a broker that refuses every client as not authorised (it knows no users).
   * config writes a mosquitto.conf of the test's own (with the files it names) into dir, listening on port.
   */
  constructor(private readonly settings: { anonymous?: boolean; config?: (port: number, dir: string) => Promise<string> } = {}) {}

  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.port === 0) this.port = await freePort();
    this.dir ??= await mkdtemp(path.join(tmpdir(), 'd2m-mosquitto-'));
    const config = path.join(this.dir, 'mosquitto.conf');
    const text = this.settings.config
      ? await this.settings.config(this.port, this.dir)
      : `listener ${this.port} 127.0.0.1\nallow_anonymous ${this.settings.anonymous === false ? 'false' : 'true'}\npersistence false\n`;
    await writeFile(config, text);
    const child = spawn('mosquitto', ['-c', config], { stdio: 'ignore' });
    this.process = child;
    await waitForPort(this.port, child);
  }

  /** Kills the broker (SIGKILL: no goodbye to clients) and waits for it to be gone. */
  async kill(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    await this.kill();
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`mosquitto exited with code ${child.exitCode}`);
    if (await canConnect(port)) return;
    if (Date.now() > deadline) throw new Error(`mosquitto did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A private broker with a proxy before it that a test can cut (CuttableProxy): each is handed to `onStop`
 * as it starts, the broker first, so that hooks run in reverse stop the proxy first.
 */
export async function brokerBehindProxy(onStop: (stop: () => Promise<void>) => void): Promise<{ broker: PrivateMosquitto; proxy: CuttableProxy }> {
  const broker = new PrivateMosquitto();
  await broker.start();
  onStop(() => broker.stop());
  const proxy = new CuttableProxy({ host: '127.0.0.1', port: broker.port });
  await proxy.start();
  onStop(() => proxy.stop());
  return { broker, proxy };
}
