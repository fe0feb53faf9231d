// `npm test`'s checks before vitest: both typecheck projects and the lint, side by side. Each is one
// single-threaded process (tsc main about 12 s, tsc of the board's browser code about 9 s, type-aware
// eslint about 40 s on this 2-core machine): one after another they took about 60 s, side by side
// they take as long as the lint. The formatter's check (Biome, 150 columns, biome.json) takes about a
// second. Each one's output is printed whole when it ends, and any failure fails the whole.
import { spawn } from 'node:child_process';
import process from 'node:process';

const CHECKS = [
  ['typecheck', 'tsc', ['-p', 'tsconfig.json', '--noEmit']],
  ['typecheck (browser)', 'tsc', ['-p', 'src/web/browser/tsconfig.json']],
  ['lint', 'eslint', ['.']],
  ['format', 'biome', ['format', '.']],
];

/** Runs one check from node_modules/.bin; resolves with its name, exit code and output. */
function run([name, bin, args]) {
  return new Promise((resolve) => {
    const child = spawn(`node_modules/.bin/${bin}`, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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
