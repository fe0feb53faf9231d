// The board's script and style sheet as the server holds them: the browser code of src/outputs/web/browser/
// and the .css files it imports, bundled by esbuild, read once into memory and served as
// `board.<hash>.js` and `board.<hash>.css`, so a browser may keep them for good (a new version has a
// new name, which the page, revalidated each time, then points to).
// The bundle is made by `npm run build` (scripts/bundle.mjs, with the options below) into
// dist/browser/board.js and board.css, which the bin, the Docker image and the add-on read. Run from
// the sources (the tests), the browser code is bundled at first use instead, so a change shows at once.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Esbuild from 'esbuild';
import { packageRoot } from '../../util/version.js';

export interface BoardAsset {
  /** The file's path under the board: `board.<hash>.js` or `board.<hash>.css`. */
  file: string;
  body: string;
}

/** The entry point and the built script, relative to the package's root; esbuild writes the CSS beside it. */
export const BOARD_ENTRY = 'src/outputs/web/browser/board.ts';
export const BOARD_BUNDLE = 'dist/browser/board.js';
const BOARD_STYLE = 'dist/browser/board.css';

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

let loaded: ReturnType<typeof boardAssets> | undefined;

/** The script and the style sheet, read (or bundled) at the first call and kept. */
export function boardAssets(): { script: BoardAsset; style: BoardAsset } {
  if (loaded === undefined) {
    const { js, css } = readBundle(fileURLToPath(import.meta.url));
    loaded = { script: named(js, 'js'), style: named(css, 'css') };
  }
  return loaded;
}

function named(body: string, ext: string): BoardAsset {
  return { file: `board.${createHash('sha256').update(body).digest('hex').slice(0, 16)}.${ext}`, body };
}

function readBundle(self: string): { js: string; css: string } {
  const root = packageRoot(dirname(self));
  if (self.endsWith('.ts')) return bundleNow(root);
  const read = (file: string): string => {
    const built = join(root, file);
    if (!existsSync(built))
      throw new Error(`The board's ${file.endsWith('.css') ? 'style sheet' : 'script'} is missing (${built}): run npm run build.`);
    return readFileSync(built, 'utf8');
  };
  return { js: read(BOARD_BUNDLE), css: read(BOARD_STYLE) };
}

/** Bundles the browser code in memory with esbuild (a development dependency, present wherever the sources run). */
function bundleNow(root: string): { js: string; css: string } {
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof Esbuild;
  // An outfile names the outputs (board.js, board.css) though nothing is written.
  const result = esbuild.buildSync({ ...BROWSER_BUILD, entryPoints: [join(root, BOARD_ENTRY)], outfile: join(root, BOARD_BUNDLE), write: false });
  const output = (ext: string): string => {
    const file = result.outputFiles.find((f) => f.path.endsWith(ext));
    if (file === undefined) throw new Error(`esbuild made no ${ext} of ${BOARD_ENTRY}`);
    return file.text;
  };
  return { js: output('.js'), css: output('.css') };
}
