// The logger: pino with secrets redacted by key wherever they appear in a logged object, so that a
// password, cookie or token can never reach a log line even when an error object is logged whole.
import { pino, type Logger } from 'pino';

export type { Logger };

/** Object keys whose values are never logged. */
export const SECRET_KEYS = ['password', 'pass', 'cookie', 'cookies', 'set-cookie', 'oauth_token', 'token', 'authorization'];

const paths = SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `*.*.*.${k}`]).map((p) =>
  p.includes('-') ? p.replace(/([^.*]+-[^.]+)$/, '["$1"]') : p,
);

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}

/** A logger that writes nothing, for tests that do not look at logs. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
