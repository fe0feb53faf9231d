// The tests whose time varies most between runs: a test whose wall time swings is one that waits on something
// it does not control (the machine's load, a real timer, another stream), where a flaky failure starts.
//
//   node scripts/test-times.mjs [--top N] RUN.tsv RUN.tsv ...
//
// Each RUN.tsv is a copy of test/artifacts/test-times.tsv (one row a test) or file-times.tsv (one row a file)
// kept after a run (the reporter writes them anew each run). Prints the N (default 15) that vary most, by the
// spread of their wall time (slowest less fastest), with each run's seconds, and how often each failed.
import { readFileSync } from 'node:fs';
import process from 'node:process';

const args = process.argv.slice(2);
const at = args.indexOf('--top');
const top = at === -1 ? 15 : Number(args.splice(at, 2)[1]);
if (args.length < 2 || !(top > 0)) {
  process.stderr.write('usage: node scripts/test-times.mjs [--top N] RUN.tsv RUN.tsv ...\n');
  process.exit(2);
}

/** A table's rows by their test (file and name) or file: wall seconds and whether it failed. */
function readRun(path) {
  const [head, ...rows] = readFileSync(path, 'utf8').trimEnd().split('\n');
  const columns = head.split('\t');
  const col = (name) => columns.indexOf(name);
  const [file, test, wall, state] = [col('file'), col('test'), col('wall_s'), col('state')];
  if (file === -1 || wall === -1) throw new Error(`${path}: neither test-times.tsv nor file-times.tsv (no file and wall_s columns)`);
  const run = new Map();
  for (const row of rows) {
    const cells = row.split('\t');
    const key = test === -1 ? cells[file] : `${cells[file]} > ${cells[test]}`;
    run.set(key, { wall: Number(cells[wall]), failed: state !== -1 && cells[state] === 'failed' });
  }
  return run;
}

const runs = args.map(readRun);
const keys = new Set(runs.flatMap((run) => [...run.keys()]));
const varied = [];
for (const key of keys) {
  const seen = runs.map((run) => run.get(key));
  const walls = seen.filter((t) => t !== undefined).map((t) => t.wall);
  // In one run only: nothing to compare.
  if (walls.length < 2) continue;
  const spread = Math.max(...walls) - Math.min(...walls);
  varied.push({ key, spread, seen, failed: seen.filter((t) => t?.failed).length });
}
varied.sort((a, b) => b.spread - a.spread);

process.stdout.write(`spread_s  each run's wall seconds (- not run)  failed  test\n`);
for (const { key, spread, seen, failed } of varied.slice(0, top)) {
  const walls = seen.map((t) => (t === undefined ? '-' : t.wall.toFixed(1))).join(' ');
  process.stdout.write(`${spread.toFixed(1).padStart(8)}  ${walls.padEnd(34)}  ${String(failed).padStart(6)}  ${key}\n`);
}
