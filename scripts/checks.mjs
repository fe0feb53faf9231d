// `npm test`'s checks, side by side, and beside the tests: the lint with its type-aware rules and the
// compiler's diagnostics of both TypeScript projects in one native process (oxlint --type-aware --type-check,
// .oxlintrc.json: typescript-go's checker, each file in the tsconfig.json that includes it), and the formatter's
// check (Biome, 150 columns, biome.json; about a second). Before, as tsc's program shared with ESLint's
// type-aware rules (two Node processes), the checks took 71 s of CPU and 46 s wall alone on this 2-core
// machine; so, 15 s and 10 s (`/usr/bin/time node scripts/checks.mjs`).
// Each one's output is printed whole when it ends, and any failure fails the whole.
//
//   node scripts/checks.mjs [--beside COMMAND ARG...]
//
// `--beside vitest run` (npm test) runs the tests at the same time, their output as it comes, and the
// checks at a lower priority, printed once the tests end: the tests leave part of the two cores idle
// while they wait on sockets, child processes and timers, and the checks take that part rather than
// some seconds of their own before the tests start.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import process from 'node:process';

/**
 * The checks' niceness beside the tests: they take the CPU the tests leave idle, and little of what the tests
 * use. Linux sets it on a check's main thread; the threads and the process it starts after inherit it.
 */
const BESIDE_PRIORITY = 10;
const CHECKS = [
  ['typecheck and lint', 'node_modules/.bin/oxlint', ['--type-aware', '--type-check']],
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
