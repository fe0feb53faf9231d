// The logger: pino with secrets redacted by key wherever they appear in a logged object, so that a
// password, cookie or token can never reach a log line even when an error object is logged whole.
import { pino, type Logger } from 'pino';
import { LineFormatter, resolveFormat, type LogFormat, type LogTarget } from './log-format.js';

export type { Logger, LogFormat };

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
  /** Default auto: text on a terminal or in the add-on, JSON elsewhere (see resolveFormat). */
  format?: LogFormat;
  env?: NodeJS.ProcessEnv;
}

/** Logs to `destination` (default stdout). */
export function createLogger(level: string, destination?: pino.DestinationStream, output: LogOutputOptions = {}): Logger {
  const target: LogTarget = destination ?? pino.destination({ fd: 1, sync: false });
  const isTTY = destination === undefined ? process.stdout.isTTY : (destination as LogTarget).isTTY;
  const format = resolveFormat(output.format ?? 'auto', isTTY === true, output.env ?? process.env);
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
  if (!this.isLevelEnabled('debug')) {
    const [first, ...rest] = args as unknown[];
    if (first instanceof Error) {
      method.apply(this, [{ err: brief(first) }, ...(rest.length > 0 ? rest : [first.message])]);
      return;
    }
    if (first !== null && typeof first === 'object' && (first as { err?: unknown }).err instanceof Error) {
      method.apply(this, [{ ...first, err: brief((first as { err: Error }).err) }, ...rest]);
      return;
    }
  }
  method.apply(this, args);
}

function brief(error: Error): Record<string, unknown> {
  const code = (error as NodeJS.ErrnoException).code;
  return { type: error.name, message: error.message, ...(code === undefined ? {} : { code }) };
}

/** A logger that writes nothing, for tests that do not look at logs. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
