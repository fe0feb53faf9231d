// The logger: pino with secrets redacted by key wherever they appear in a logged object, so that a
// password, cookie or token can never reach a log line even when an error object is logged whole; and how
// its lines look: pino writes one JSON object per line into a LineFormatter, which writes it on either as
// one readable line with local time (a person at a terminal or in the add-on's log tab) or as compact JSON
// (a log collector). Either way every key appears once. No worker thread: it runs inside the write call, so
// it costs no memory of its own.
import { pino, type DestinationStream, type Logger } from 'pino';
import { redact } from './redact.js';
import { parsedJson } from './text.js';

export type { Logger };

/** Object keys whose values are never logged. */
const SECRET_KEYS = ['password', 'pass', 'cookie', 'cookies', 'set-cookie', 'oauth_token', 'token', 'authorization'];

const paths = SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `*.*.*.${k}`]).map((p) =>
  p.includes('-') ? p.replace(/([^.*]+-[^.]+)$/, '["$1"]') : p,
);

/** The levels a user may choose at run time (the bridge's `log_level` select offers these). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/**
 * Every logger made by createLogger and the children made from it since, by member: a pino child with a
 * level of its own keeps it when its parent's level changes, so a change at run time must reach each.
 */
const families = new WeakMap<Logger, Set<WeakRef<Logger>>>();

export interface LogOutputOptions {
  /** Default auto: text on a terminal or in the add-on, JSON elsewhere (see createLogger). */
  format?: LogFormat;
  env?: NodeJS.ProcessEnv;
}

/** Logs to `destination` (default stdout). */
export function createLogger(level: string, destination?: pino.DestinationStream, output: LogOutputOptions = {}): Logger {
  const target: LogTarget = destination ?? pino.destination({ fd: 1, sync: false });
  const isTTY = destination === undefined ? process.stdout.isTTY : (destination as LogTarget).isTTY;
  // `auto` is text when a person reads the output as it comes: a terminal, or the Home Assistant add-on's
  // log tab (the Supervisor sets SUPERVISOR_TOKEN in every add-on). Anything else (a pipe, Docker's log
  // driver, systemd) gets JSON, which log collectors expect.
  const auto = isTTY === true || Boolean((output.env ?? process.env).SUPERVISOR_TOKEN) ? 'text' : 'json';
  const format = output.format === undefined || output.format === 'auto' ? auto : output.format;
  const family = new Set<WeakRef<Logger>>();
  const join = (member: Logger): void => {
    family.add(new WeakRef(member));
    families.set(member, family);
  };
  const root = pino(
    {
      level,
      onChild: join,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
      hooks: { logMethod: briefErrors },
      // pino's own serializer would dress briefErrors' plain object up again (type Object, empty stack).
      serializers: { err: (e: unknown) => (e instanceof Error ? pino.stdSerializers.err(e) : e) },
    },
    new LineFormatter(target, format),
  );
  join(root);
  return root;
}

/** Sets the level of the logger and of every logger of its family (its root and all their children). */
export function setLogLevel(log: Logger, level: string): void {
  const family = families.get(log);
  if (!family) {
    log.level = level;
    return;
  }
  for (const ref of family) {
    const member = ref.deref();
    if (member) member.level = level;
    else family.delete(ref);
  }
}

/**
 * A failure the bridge expects (the portal down, the broker away) is told by its message; the stack
 * that says where in the code it surfaced is for debugging, so it is kept only at debug and trace.
 */
function briefErrors(this: Logger, args: Parameters<Logger['info']>, method: (...args: unknown[]) => void): void {
  const [first, ...rest] = args as unknown[];
  if (this.isLevelEnabled('debug')) return method.apply(this, args);
  if (first instanceof Error) return method.apply(this, [{ err: brief(first) }, ...(rest.length > 0 ? rest : [first.message])]);
  const err = first !== null && typeof first === 'object' ? (first as { err?: unknown }).err : undefined;
  method.apply(this, err instanceof Error ? [{ ...(first as object), err: brief(err) }, ...rest] : args);
}

function brief(error: Error): Record<string, unknown> {
  const code = (error as NodeJS.ErrnoException).code;
  return { type: error.name, message: error.message, ...(code === undefined ? {} : { code }) };
}

/** A logger that writes nothing, for tests that do not look at logs. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

export type LogFormat = 'auto' | 'text' | 'json';

/** The output a LineFormatter writes to: a sonic-boom, process.stderr, or a test's collector. */
export interface LogTarget extends DestinationStream {
  isTTY?: boolean;
  flush?: (cb?: (err?: Error | null) => void) => void;
}

const LEVELS: Record<string, string> = { '10': 'TRACE', '20': 'DEBUG', '30': 'INFO', '40': 'WARN', '50': 'ERROR', '60': 'FATAL' };

/** Keys that the line's head already shows. */
const HEAD_KEYS = new Set(['level', 'time', 'msg', 'account', 'part']);

export class LineFormatter implements DestinationStream {
  constructor(
    private readonly target: LogTarget,
    private readonly format: 'text' | 'json',
  ) {}

  write(raw: string): void {
    // Every line passes the one redaction (util/redact.ts): a log is pasted into public bug reports.
    const line = redact(raw);
    // A child's bindings and the call's object are joined as text by pino, so the same key may
    // come twice; parsing keeps one (the call's own value, written last).
    const entry = parsedJson(line) as Record<string, unknown> | undefined;
    if (entry === undefined) return void this.target.write(line);
    this.target.write(this.format === 'text' ? `${textLine(entry)}\n` : `${JSON.stringify(entry)}\n`);
  }

  /** pino's logger.flush() calls this: the target's buffered lines go out. */
  flush(cb?: (err?: Error | null) => void): void {
    if (typeof this.target.flush === 'function') this.target.flush(cb);
    else cb?.();
  }
}

/** `2026-11-22 14:03:05 INFO  [ania] pass done tiers=["normal"] ms=850`: local time, the account or part in brackets. */
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
