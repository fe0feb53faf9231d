// Attacking the built-in web server of a running bridge (test/security/): idle sockets, event-stream
// readers that read and one that does not, the bin's `check` and `token` commands against the bridge's
// own data_dir. Clients come from chosen loopback addresses (127.0.0.x), as devices of a LAN would.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { REPO, ensureBuilt } from './faults-process.js';
import { waitUntil } from './mqtt.js';
import type { SimUrls } from '../../src/simulator/index.js';

/** The access token the bridge keeps in its data_dir. */
export async function tokenIn(dataDir: string): Promise<string> {
  return (await readFile(join(dataDir, 'http-token'), 'utf8')).trim();
}

/** Sockets that connect and then send nothing, or half a request (a "slowloris"), and never more. */
export class IdleSockets {
  readonly sockets: Socket[] = [];
  private closedCount = 0;

  static async open(port: number, count: number, localAddress: string): Promise<IdleSockets> {
    const idle = new IdleSockets();
    await Promise.all(
      Array.from({ length: count }, (_, i) => {
        const socket = connect({ host: '127.0.0.1', port, localAddress });
        idle.sockets.push(socket);
        socket.on('error', () => undefined);
        socket.once('close', () => idle.closedCount++);
        return new Promise<void>((resolve) => {
          socket.once('connect', () => {
            // Every other one starts a request and stops in the middle of its headers.
            if (i % 2 === 1) socket.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
            resolve();
          });
          socket.once('close', () => resolve());
        });
      }),
    );
    return idle;
  }

  get closed(): number {
    return this.closedCount;
  }

  get open(): number {
    return this.sockets.length - this.closedCount;
  }

  destroy(): void {
    for (const socket of this.sockets) socket.destroy();
  }
}

export interface Answer {
  status: number;
  body: string;
  headers: IncomingMessage['headers'];
}

/** One GET from a chosen local address (a device of the LAN), on a connection of its own. */
export function getFrom(localAddress: string, port: number, target: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: target, localAddress, headers, agent: false, timeout: 5_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer to ${target.split('?')[0]} from ${localAddress}`)));
    req.on('error', reject);
    req.end();
  });
}

/** An event-stream reader that reads everything (a live board): its status, bytes and events. */
export class StreamReader {
  status = 0;
  bytes = 0;
  events = 0;
  ended = false;
  /** The bytes of the largest event so far (the one still arriving counted as it stands). */
  get largestEvent(): number {
    return Math.max(this.largest, this.current);
  }
  private largest = 0;
  private current = 0;
  private req: ReturnType<typeof httpRequest> | undefined;

  static async open(localAddress: string, port: number, target: string, headers: Record<string, string> = {}): Promise<StreamReader> {
    const reader = new StreamReader();
    await new Promise<void>((resolve, reject) => {
      reader.req = httpRequest({ host: '127.0.0.1', port, path: target, localAddress, headers, agent: false }, (res) => {
        reader.status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          reader.bytes += Buffer.byteLength(chunk);
          chunk.split('event: board\n').forEach((part, i) => {
            if (i > 0) {
              reader.events++;
              reader.largest = Math.max(reader.largest, reader.current);
              reader.current = Buffer.byteLength('event: board\n');
            }
            reader.current += Buffer.byteLength(part);
          });
        });
        res.on('close', () => (reader.ended = true));
        res.on('error', () => undefined);
        resolve();
      });
      reader.req.on('error', (error) => (reader.status === 0 ? reject(error) : undefined));
      reader.req.end();
    });
    return reader;
  }

  close(): void {
    this.req?.destroy();
  }
}

/**
 * An event-stream reader that never reads: a Python client, since Node cannot shrink a socket's
 * buffers. Its small receive buffer and segment size keep the kernel from taking megabytes on the
 * bridge's behalf (loopback's 64 KB segments would), so what it does not read piles up in the bridge,
 * as behind a real stalled tablet on Wi-Fi. read() makes it read what reached it, and says how the
 * stream ended.
 */
export class StalledReader {
  private readonly lines: string[] = [];

  private constructor(private readonly child: ChildProcess) {
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (text: string) => this.lines.push(...text.split('\n').filter((l) => l !== '')));
  }

  static async open(localAddress: string, port: number, target: string): Promise<StalledReader> {
    const script = [
      'import socket, sys',
      's = socket.socket(socket.AF_INET, socket.SOCK_STREAM)',
      's.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)',
      's.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)',
      `s.bind((${JSON.stringify(localAddress)}, 0))`,
      `s.connect(("127.0.0.1", ${port}))`,
      // The address a tablet opened: the bridge takes its own names only (17.1).
      `s.sendall(${JSON.stringify(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)}.encode())`,
      'print("sent", flush=True)',
      'sys.stdin.readline()',
      's.settimeout(10)',
      'total = 0',
      'try:',
      '    while True:',
      '        b = s.recv(65536)',
      '        if not b:',
      '            print("eof", total, flush=True)',
      '            break',
      '        total += len(b)',
      'except Exception as e:',
      '    print(type(e).__name__, total, flush=True)',
    ].join('\n');
    const child = spawn('python3', ['-c', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    const reader = new StalledReader(child);
    const failed = new Promise<never>((_, reject) => child.once('error', (e) => reject(new Error(`the stalled reader needs python3: ${e.message}`))));
    await Promise.race([waitUntil(() => reader.lines.includes('sent'), 'the stalled reader to send its request'), failed]);
    return reader;
  }

  /** Reads everything that reached it; resolves to how the stream ended: `eof`, a reset, or `timeout` when it is still open. */
  async read(): Promise<{ end: string; bytes: number }> {
    this.child.stdin?.write('read\n');
    await waitUntil(() => this.lines.length > 1, 'the stalled reader to read to the end', 15_000);
    const [end = '', bytes = '0'] = (this.lines[1] ?? '').split(' ');
    return { end, bytes: Number(bytes) };
  }

  close(): void {
    this.child.kill('SIGKILL');
  }
}

/** The bin (`node dist/main.js`) with a config file for the bridge's data_dir and web server. */
export class BinCommands {
  private constructor(private readonly configPath: string) {}

  static async forBridge(options: { dir: string; dataDir: string; portal: SimUrls; accounts: object[]; port: number }): Promise<BinCommands> {
    await ensureBuilt();
    const configPath = join(options.dir, 'config.yaml');
    const yaml = stringify({
      portal: options.portal,
      accounts: options.accounts,
      data_dir: options.dataDir,
      http: { port: options.port, bind: '127.0.0.1' },
    });
    await writeFile(configPath, yaml, { mode: 0o600 });
    return new BinCommands(configPath);
  }

  /** Runs `dziennik2mqtt <args> --config FILE`; its exit code and stdout. */
  async run(...args: string[]): Promise<{ code: number; out: string }> {
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [join(REPO, 'dist', 'main.js'), ...args, '--config', this.configPath], {
        cwd: REPO,
        env: { PATH: process.env.PATH },
      });
      return { code: 0, out: stdout };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string };
      return { code: failed.code ?? 1, out: failed.stdout ?? '' };
    }
  }
}
