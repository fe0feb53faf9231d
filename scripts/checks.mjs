// `npm test`'s checks, side by side, and beside the tests: each TypeScript project's typecheck and
// type-aware lint in one process (scripts/typed-checks.mjs: the lint's type-aware rules ask the program the
// typecheck has just checked, where `tsc` and `eslint` each built and checked one of their own), and the
// formatter's check (Biome, 150 columns, biome.json; about a second). As three processes (tsc, tsc of
// the board's browser code, eslint) the checks took 129 s of CPU and 114 s wall; so, 79 s and 47 s
// (user+sys of the whole tree, measured back to back on this 2-core machine at a load of 4-6). Each
// one's output is printed whole when it ends, and any failure fails the whole.
//
//   node scripts/checks.mjs [--beside COMMAND ARG...]
//
// `--beside vitest run` (npm test) runs the tests at the same time, their output as it comes, and the
// checks at a lower priority, printed once the tests end: the tests leave part of the two cores idle
// while they wait on sockets, child processes and timers, and the checks take that part rather than
// some 26 s of their own before the tests start. With 31 of the broker tier's files: the checks, then
// the tests, 142 s wall; both at once, 108 s; the same CPU (104.7 and 102.4 s; medians of three, in
// turn, on this 2-core machine shared with other runs).
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import process from 'node:process';

const TYPED = 'scripts/typed-checks.mjs';
/**
 * The checks' niceness beside the tests: they take the CPU the tests leave idle, and little of what the tests
 * use. Linux sets it on a check's main thread, where nearly all of its work is; its GC helpers keep theirs.
 */
const BESIDE_PRIORITY = 10;
const CHECKS = [
  // Everything `eslint .` lints but the board's browser code, which the next one lints with its own project's types.
  ['typecheck and lint', process.execPath, [TYPED, 'tsconfig.json', '--lint', '.', '--lint-ignore', 'src/outputs/web/browser/**']],
  ['typecheck and lint (browser)', process.execPath, [TYPED, 'src/outputs/web/browser/tsconfig.json', '--lint', 'src/outputs/web/browser']],
  ['format', 'node_modules/.bin/biome', ['format', '.']],
];

/** Runs one check, at `priority` when given; resolves with its name, exit code and output. */
function run([name, bin, args], priority) {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      if (priority !== undefined && child.pid !== undefined) setPriority(child.pid, priority);
    } catch {
      // Ended already, or not ours to change: it runs as it is.
    }
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ name, code: 1, output: `${error.message}\n` }));
    child.on('close', (code) => resolve({ name, code: code ?? 1, output }));
  });
}

/** Runs the command given after --beside with the terminal's output as it goes; resolves with its exit code. */
function runBeside([bin, ...args]) {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { stdio: 'inherit' });
    child.on('error', (error) => {
      process.stderr.write(`${bin}: ${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

const at = process.argv.indexOf('--beside');
const beside = at === -1 ? undefined : runBeside(process.argv.slice(at + 1));
const results = await Promise.all(CHECKS.map((check) => run(check, beside && BESIDE_PRIORITY)));
const besideCode = await beside;
for (const { name, code, output } of results) {
  process.stdout.write(`${code === 0 ? 'ok' : 'FAILED'}: ${name}\n${output}`);
}
process.exitCode = results.some((r) => r.code !== 0) || (besideCode ?? 0) !== 0 ? 1 : 0;
