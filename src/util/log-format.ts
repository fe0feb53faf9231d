// How log lines look: pino writes one JSON object per line into a LineFormatter, which writes it on
// either as one readable line with local time (a person at a terminal or in the add-on's log tab) or
// as compact JSON (a log collector). Either way every key appears once. No worker thread: it runs
// inside the write call, so it costs no memory of its own.
import type { DestinationStream } from 'pino';
import { redact } from './redact.js';

export type LogFormat = 'auto' | 'text' | 'json';

/** The output a LineFormatter writes to: a sonic-boom, process.stderr, or a test's collector. */
export interface LogTarget extends DestinationStream {
  isTTY?: boolean;
  flush?: (cb?: (err?: Error | null) => void) => void;
}

/**
 * `auto` is text when a person reads the output as it comes: a terminal, or the Home Assistant
 * add-on's log tab (the Supervisor sets SUPERVISOR_TOKEN in every add-on). Anything else (a pipe,
 * Docker's log driver, systemd) gets JSON, which log collectors expect.
 */
export function resolveFormat(format: LogFormat, isTTY: boolean, env: NodeJS.ProcessEnv): 'text' | 'json' {
  if (format !== 'auto') return format;
  return isTTY || Boolean(env.SUPERVISOR_TOKEN) ? 'text' : 'json';
}

const LEVELS: Record<string, string> = { '10': 'TRACE', '20': 'DEBUG', '30': 'INFO', '40': 'WARN', '50': 'ERROR', '60': 'FATAL' };

/** Keys that the line's head already shows. */
const HEAD_KEYS = new Set(['level', 'time', 'msg', 'account', 'part']);

export class LineFormatter implements DestinationStream {
  private readonly target: LogTarget;
  private readonly format: 'text' | 'json';

  constructor(target: LogTarget, format: 'text' | 'json') {
    this.target = target;
    this.format = format;
  }

  write(raw: string): void {
    // Every line passes the one redaction (util/redact.ts): a log is pasted into public bug reports.
    const line = redact(raw);
    let entry: Record<string, unknown>;
    try {
      // A child's bindings and the call's object are joined as text by pino, so the same key may
      // come twice; parsing keeps one (the call's own value, written last).
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      this.target.write(line);
      return;
    }
    this.target.write(this.format === 'text' ? `${textLine(entry)}\n` : `${JSON.stringify(entry)}\n`);
  }

  /** pino's logger.flush() calls this: the target's buffered lines go out. */
  flush(cb?: (err?: Error | null) => void): void {
    if (typeof this.target.flush === 'function') this.target.flush(cb);
    else cb?.();
  }
}

/** `2026-11-22 14:03:05 INFO  [ania] poll done tiers=["normal"] ms=850`: local time, the account or part in brackets. */
function textLine(entry: Record<string, unknown>): string {
  const level = LEVELS[String(entry.level)] ?? String(entry.level ?? '').toUpperCase();
  const who = entry.account ?? entry.part;
  const head = [localTime(entry.time), level.padEnd(5), ...(who === undefined ? [] : [`[${String(who)}]`])];
  const rest = Object.entries(entry)
    .filter(([key]) => !HEAD_KEYS.has(key))
    .map(([key, value]) => `${key}=${valueText(key, value)}`);
  const msg = typeof entry.msg === 'string' && entry.msg !== '' ? [entry.msg] : [];
  return [...head, ...msg, ...rest].join(' ');
}

const two = (n: number): string => String(n).padStart(2, '0');

/** The time in the machine's own zone (TZ), as a person reads a clock. */
function localTime(time: unknown): string {
  const d = new Date(typeof time === 'number' || typeof time === 'string' ? time : Date.now());
  if (Number.isNaN(d.getTime())) return String(time);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

function valueText(key: string, value: unknown): string {
  // An error shows its message (and code); its stack, if the level let one through, goes on below.
  if (key === 'err' && value !== null && typeof value === 'object') {
    const e = value as { message?: unknown; code?: unknown; stack?: unknown };
    const text = quoted(String(e.message ?? JSON.stringify(value)));
    const code = e.code === undefined ? '' : ` code=${String(e.code)}`;
    return typeof e.stack === 'string' ? `${text}${code}\n${e.stack}` : `${text}${code}`;
  }
  if (typeof value === 'string') return quoted(value);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Quotes a value only when it would not read as one word. */
function quoted(text: string): string {
  return /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text);
}
