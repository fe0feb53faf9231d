// `npm run build`: tsc over tsconfig.build.json, then the bin's bundle (scripts/bundle.mjs); last, the stamp that says a
// whole build finished, dated when it began (node_modules/.cache/d2m-dist.built). The tests that run the bin build
// only when a file under src/ is newer than the stamp (test/helpers/faults-process.ts): a fresh clone's `npm ci`
// builds once, and `npm test` then does not build again (16 s of CPU, tsc's, on this project's 2-core machine).
// Only a finished build is stamped: tsc writes main.js before the bundle replaces it, and a half-made dist/ must not count.
//
//   node scripts/build.mjs
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
/** Where the stamp is kept, beside the tests' build lock (test/helpers/faults-process.ts reads it there). */
const stamp = join(root, 'node_modules', '.cache', 'd2m-dist.built');

const began = new Date();
rmSync(stamp, { force: true });
const node = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
node([join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json']);
node([join(root, 'scripts', 'bundle.mjs')]);
mkdirSync(dirname(stamp), { recursive: true });
writeFileSync(stamp, '');
utimesSync(stamp, began, began);
