// `npm run build`: the sources of tsconfig.build.json each made JavaScript in dist/ (esbuild, a file for a file), then
// the bin's bundle (scripts/bundle.mjs); last, the stamp that says a whole build finished, dated when it began
// (node_modules/.cache/d2m-dist.built). The build only strips the types: the typecheck is `npm run typecheck` and part
// of `npm test`, as `tsc -p tsconfig.build.json` once made the same files in 14 s of CPU on this project's 2-core
// machine, against about a second so (`/usr/bin/time node scripts/build.mjs`). The tests that run the bin build
// only when a file under src/ is newer than the stamp (test/helpers/faults-process.ts): a fresh clone's `npm ci`
// builds once, and `npm test` then does not build again.
// Only a finished build is stamped: the JavaScript is written before the bundle replaces main.js, and a half-made dist/
// must not count.
//
//   node scripts/build.mjs
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
/** Where the stamp is kept, beside the tests' build lock (test/helpers/faults-process.ts reads it there). */
const stamp = join(root, 'node_modules', '.cache', 'd2m-dist.built');
const src = join(root, 'src');
/** The board's browser code is a project of its own (tsconfig.json's exclude), bundled for the browser by bundle.mjs. */
const browser = join(src, 'outputs', 'web', 'browser') + sep;

const began = new Date();
rmSync(stamp, { force: true });
const node = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
const sources = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .map((file) => join(src, file))
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.startsWith(browser));
await build({
  entryPoints: sources,
  outdir: join(root, 'dist'),
  outbase: src,
  tsconfig: join(root, 'tsconfig.build.json'),
  format: 'esm',
  platform: 'node',
  target: 'es2023',
  sourcemap: true,
  logLevel: 'warning',
});
node([join(root, 'scripts', 'bundle.mjs')]);
mkdirSync(dirname(stamp), { recursive: true });
writeFileSync(stamp, '');
utimesSync(stamp, began, began);
