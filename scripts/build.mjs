// `npm run build`: the files of tsconfig.build.json each made JavaScript in its outDir (esbuild, a file for a file, the
// types stripped), then the bin's bundle (scripts/bundle.mjs); last, the stamp that says a whole build finished, dated
// when it began (node_modules/.cache/d2m-dist.built). The types are checked by `npm run typecheck` and by `npm test`,
// not here: `tsc -p tsconfig.build.json` made the same files in 14 s of CPU on this project's 2-core machine, this
// build in 1.4 s of Node's (`/usr/bin/time node scripts/build.mjs`). The tests that run the bin build
// only when a file under src/ is newer than the stamp (test/helpers/faults-process.ts): a fresh clone's `npm ci`
// builds once, and `npm test` then does not build again.
// Only a finished build is stamped: the JavaScript is written before the bundle replaces main.js, and a half-made dist/
// must not count.
//
//   node scripts/build.mjs
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
/** Where the stamp is kept, beside the tests' build lock (test/helpers/faults-process.ts reads it there). */
const stamp = join(root, 'node_modules', '.cache', 'd2m-dist.built');
/** What tsc would build: the files tsconfig.build.json includes (not the board's browser code), its folders and target. */
const config = join(root, 'tsconfig.build.json');
const { fileNames, options } = ts.getParsedCommandLineOfConfigFile(
  config,
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  },
);

const began = new Date();
rmSync(stamp, { force: true });
await build({
  entryPoints: fileNames.filter((file) => !file.endsWith('.d.ts')),
  outdir: options.outDir,
  outbase: options.rootDir,
  tsconfig: config,
  format: 'esm',
  platform: 'node',
  // esbuild takes the syntax to keep from its own option, not from the tsconfig's target.
  target: ts.ScriptTarget[options.target].toLowerCase(),
  sourcemap: options.sourceMap === true,
  logLevel: 'warning',
});
execFileSync(process.execPath, [join(root, 'scripts', 'bundle.mjs')], { cwd: root, stdio: 'inherit' });
mkdirSync(dirname(stamp), { recursive: true });
writeFileSync(stamp, '');
utimesSync(stamp, began, began);
