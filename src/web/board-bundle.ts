// The board's script as the server holds it: the browser code of src/web/browser/ bundled by esbuild,
// read once into memory and served as `board.<hash>.js`, so a browser may keep it for good (a new
// version has a new name, which the page, revalidated each time, then points to).
// The bundle is made by `npm run build` (scripts/bundle.mjs, with the options below) into
// dist/browser/board.js, which the bin, the Docker image and the add-on read. Run from the sources
// (the tests), the browser code is bundled at first use instead, so a change to it shows at once.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Esbuild from 'esbuild';

export interface BoardScript {
  /** The script's path under the board: `board.<hash>.js`. */
  file: string;
  body: string;
}

/** The entry point and the built file, relative to the package's root. */
export const BOARD_ENTRY = 'src/web/browser/board.ts';
export const BOARD_BUNDLE = 'dist/browser/board.js';

/**
 * How esbuild bundles it: one script (the CSP allows files of the bridge's own only, no modules
 * needed), the syntax of the old wall tablets' browsers, and ASCII only (escaped), as the bin's bundle.
 */
export const BROWSER_BUILD = {
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2017',
  minify: true,
  charset: 'ascii',
  legalComments: 'none',
  logLevel: 'warning',
} as const;

let loaded: BoardScript | undefined;

/** The script, read (or bundled) at the first call and kept. */
export function boardScript(): BoardScript {
  if (loaded === undefined) {
    const body = readBundle(fileURLToPath(import.meta.url));
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
    loaded = { file: `board.${hash}.js`, body };
  }
  return loaded;
}

function readBundle(self: string): string {
  const root = packageRoot(dirname(self));
  if (self.endsWith('.ts')) return bundleNow(root);
  const built = join(root, BOARD_BUNDLE);
  if (!existsSync(built)) throw new Error(`The board's script is missing (${built}): run npm run build.`);
  return readFileSync(built, 'utf8');
}

/** The folder of package.json above this file: the sources' root, or the built package's (dist/ sits in it). */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** Bundles the browser code in memory with esbuild (a development dependency, present wherever the sources run). */
function bundleNow(root: string): string {
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof Esbuild;
  const result = esbuild.buildSync({ ...BROWSER_BUILD, entryPoints: [join(root, BOARD_ENTRY)], write: false });
  return result.outputFiles[0]!.text;
}
