// The logger: pino with secrets redacted by key wherever they appear in a logged object, so that a
// password, cookie or token can never reach a log line even when an error object is logged whole.
import { pino, type Logger } from 'pino';

export type { Logger };

/** Object keys whose values are never logged. */
export const SECRET_KEYS = ['password', 'pass', 'cookie', 'cookies', 'set-cookie', 'oauth_token', 'token', 'authorization'];

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

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
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
    },
    destination ?? pino.destination({ fd: 1, sync: false }),
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

/** A logger that writes nothing, for tests that do not look at logs. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
