// The fault suite's bookkeeping: one row per fault (survived, lost, sent twice, secret leaked), a table
// each file prints at the end, a log sink that keeps every line the bridge logs, and the scan for
// secrets in everything the bridge said.
import { readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createLogger, type Logger } from '../../src/util/log.js';

export interface FaultRow {
  fault: string;
  survived: boolean;
  lost: boolean;
  sentTwice: boolean;
  secretLeaked: boolean;
}

/** The rows of one test file; print() in an afterAll shows them as the issue's table. */
export class FaultTable {
  readonly rows: FaultRow[] = [];

  constructor(private readonly title: string) {}

  /** Records the row, then asserts it is all good (so a bad row is both shown and failed). */
  record(row: FaultRow): void {
    this.rows.push(row);
    expect(row).toEqual({ fault: row.fault, survived: true, lost: false, sentTwice: false, secretLeaked: false });
  }

  print(): void {
    console.log(formatTable(this.title, this.rows));
  }
}

export function formatTable(title: string, rows: readonly FaultRow[]): string {
  const yes = (b: boolean): string => (b ? 'yes' : 'no');
  const body = rows.map((r) => [r.fault, yes(r.survived), yes(r.lost), yes(r.sentTwice), yes(r.secretLeaked)]);
  const head = ['fault', 'survived', 'lost', 'sent twice', 'secret leaked'];
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  return [`\n${title} (${rows.length} rows)`, line(head), rule, ...body.map(line)].join('\n');
}

/** Every line a pino logger wrote, kept in memory. */
export class LogSink {
  readonly lines: string[] = [];

  write(chunk: string): void {
    for (const line of chunk.split('\n')) if (line.trim() !== '') this.lines.push(line);
  }

  /** A logger at `trace` (everything the bridge can say) writing here. */
  logger(level = 'trace'): Logger {
    return createLogger(level, { write: (s: string) => this.write(s) });
  }

  matching(re: RegExp): string[] {
    return this.lines.filter((l) => re.test(l));
  }
}

/** A named secret: the name goes into assertion messages, the value never does. */
export interface Secret {
  name: string;
  value: string;
}

/** Names of the secrets found in any of the texts (values shorter than 6 characters are not looked for). */
export function leakedSecrets(texts: Iterable<string>, secrets: Iterable<Secret>): string[] {
  const wanted = [...secrets].filter((s) => s.value.length >= 6);
  const found = new Set<string>();
  for (const text of texts) {
    for (const s of wanted) if (text.includes(s.value)) found.add(s.name);
  }
  return [...found];
}

/** A run of this many characters of a secret in an output counts as a leak, as the whole does (interface 18.4). */
export const SECRET_PART = 12;

/**
 * Names of the secrets of which any SECRET_PART characters in a row (the whole, for a shorter one) stand in any
 * of the texts, in any of the forms a secret is planted in: as written, percent-encoded, JSON-escaped.
 */
export function leakedParts(texts: Iterable<string>, secrets: Iterable<Secret>): string[] {
  const found = new Set<string>();
  const all = [...texts];
  for (const s of secrets) {
    const forms = new Set([s.value, encodeURIComponent(s.value), JSON.stringify(s.value).slice(1, -1)]);
    const parts = [...forms].flatMap((form) =>
      form.length <= SECRET_PART ? [form] : Array.from({ length: form.length - SECRET_PART + 1 }, (_, i) => form.slice(i, i + SECRET_PART)),
    );
    if (all.some((text) => parts.some((part) => text.includes(part)))) found.add(s.name);
  }
  return [...found];
}

/** Every cookie value kept in the session files of a data_dir (data_dir/sessions/*.json). */
export async function savedCookieValues(dataDir: string): Promise<Secret[]> {
  const dir = join(dataDir, 'sessions');
  const files = await readdir(dir).catch(() => [] as string[]);
  const out: Secret[] = [];
  for (const file of files.filter((f) => f.endsWith('.json'))) {
    const saved = JSON.parse(await readFile(join(dir, file), 'utf8')) as { cookies?: { cookies?: { key?: string; value?: string }[] } };
    for (const c of saved.cookies?.cookies ?? []) {
      if (c.value) out.push({ name: `saved cookie ${c.key ?? '?'} (${file})`, value: c.value });
    }
  }
  return out;
}

/** Resolves after ms of real time. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Records the target ("host:port") of every TCP connection this process opens from now on (HTTP through
 * undici or node:http, MQTT, anything built on net.Socket) until restore(). Connections made by other
 * processes, or by code that opens sockets without net.Socket, are not seen.
 */
export function recordConnections(): { targets: Set<string>; restore(): void } {
  const targets = new Set<string>();
  const proto = net.Socket.prototype as unknown as { connect: (...args: unknown[]) => unknown };
  const original = proto.connect;
  proto.connect = function (this: net.Socket, ...args: unknown[]): unknown {
    const [first, second] = args;
    if (Array.isArray(first)) {
      const options = first[0] as { host?: string; port?: number; path?: string } | undefined;
      targets.add(options?.path ?? `${options?.host ?? 'localhost'}:${String(options?.port)}`);
    } else if (first && typeof first === 'object') {
      const options = first as { host?: string; port?: number; path?: string };
      targets.add(options.path ?? `${options.host ?? 'localhost'}:${String(options.port)}`);
    } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
      targets.add(`${typeof second === 'string' ? second : 'localhost'}:${String(first)}`);
    } else if (typeof first === 'string') {
      targets.add(first);
    }
    return original.apply(this, args);
  };
  return {
    targets,
    restore: () => {
      proto.connect = original;
    },
  };
}

/** mulberry32: a small seeded generator, so that a failing case can be run again. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
