// The Chromium that the bench, the tests and the scripts drive (the board's paint and screenshots, the dashboard's
// rendering): CHROMIUM_PATH, else Debian's `chromium-headless-shell` where installed, else its `chromium`. The
// headless shell is the same Chromium build without the desktop browser around it, the build Playwright itself runs
// for headless tests; it paints the board's screenshots byte for byte as `chromium` does (board.test.ts and
// board-whole-day.test.ts, compared file by file) for less than half of the browser's CPU: those two files, run twice
// each, 14.5 and 19.7 s of Chromium's CPU with `chromium`, 6.1 and 7.1 s with the shell (a /proc sampler; same 2-core
// machine, same tests passing).
import { existsSync } from 'node:fs';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** The browser's path (it may be missing: the caller says what to install). */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
}
