// Where `check`'s own log goes: a file in data_dir, never the terminal. `check` prints for a person in
// the family's language (interface 13.3); a JSON or English log line among its lines, as the app's log
// shows a piped check, would tell a second story. What the log holds (a refused read's details) is for
// a bug report, and the file is where to find it.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { createLogger, type Logger } from '../../util/log.js';

/** The file `check` logs to, replaced at each check. */
export const CHECK_LOG_FILE = 'check.log';

/** A text logger writing to data_dir/check.log (owner-only), or a silent one when data_dir cannot take it. */
export async function checkLogger(dataDir: string): Promise<Logger> {
  try {
    await mkdir(dataDir, { recursive: true });
    const file = pino.destination({ dest: join(dataDir, CHECK_LOG_FILE), sync: true, append: false, mode: 0o600 });
    return createLogger('warn', file, { format: 'text' });
  } catch {
    return createLogger('silent', { write: () => undefined } as never);
  }
}
