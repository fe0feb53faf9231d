// `npm test`'s checks before vitest, side by side: each TypeScript project's typecheck and type-aware
// lint in one process (scripts/typed-checks.mjs: the lint's type-aware rules ask the program the
// typecheck has just checked, where `tsc` and `eslint` each built and checked one of their own), and the
// formatter's check (Biome, 150 columns, biome.json; about a second). As three processes (tsc, tsc of
// the board's browser code, eslint) the checks took 129 s of CPU and 114 s wall; so, 79 s and 47 s
// (user+sys of the whole tree, measured back to back on this 2-core machine at a load of 4-6). Each
// one's output is printed whole when it ends, and any failure fails the whole.
import { spawn } from 'node:child_process';
import process from 'node:process';

const TYPED = 'scripts/typed-checks.mjs';
const CHECKS = [
  // Everything `eslint .` lints but the board's browser code, which the next one lints with its own project's types.
  ['typecheck and lint', process.execPath, [TYPED, 'tsconfig.json', '--lint', '.', '--lint-ignore', 'src/web/browser/**']],
  ['typecheck and lint (browser)', process.execPath, [TYPED, 'src/web/browser/tsconfig.json', '--lint', 'src/web/browser']],
  ['format', 'node_modules/.bin/biome', ['format', '.']],
];

/** Runs one check; resolves with its name, exit code and output. */
function run([name, bin, args]) {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ name, code: 1, output: `${error.message}\n` }));
    child.on('close', (code) => resolve({ name, code: code ?? 1, output }));
  });
}

const results = await Promise.all(CHECKS.map(run));
for (const { name, code, output } of results) {
  process.stdout.write(`${code === 0 ? 'ok' : 'FAILED'}: ${name}\n${output}`);
}
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
