// `npm run test:quick`: a contributor's loop between edits, far short of the whole suite. The checks (lint, types,
// format) beside the whole unit tier (the generated worlds included), then the broker tier's files that the change
// reaches: a changed test file, and a file that imports a changed source file itself or is named for its folder
// (a change to src/features/lucky/ runs test-lucky-events.test.ts). Not every file that reaches it at some depth: every
// broker file starts the bridge, which imports all of src/, so vitest's `--changed` would name the whole tier.
//
//   node scripts/test-quick.mjs [--list] [BASE]
//
// --list names the broker files the change reaches and runs nothing.
// The change is what differs from BASE, a commit, committed or not; without it, from where this branch left main
// (`git merge-base HEAD main`), so that on main itself it is what is not committed yet. Before a pull request, and
// after a change to the bridge's start, the broker, the simulator or a test helper, run the whole suite: `npm test`.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';

const git = (...args) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

/** The commit the change is counted from: the argument, or where HEAD left main, or HEAD itself. */
function baseOf(argument) {
  if (argument !== undefined) return argument;
  try {
    return git('merge-base', 'HEAD', 'main');
  } catch {
    return git('rev-parse', 'HEAD'); // no branch named main here (a fork's clone)
  }
}

/** The files that differ from `base`, committed, staged, in the work tree or new. */
function changedSince(base) {
  const lines = [git('diff', '--name-only', base), git('ls-files', '--others', '--exclude-standard')];
  return new Set(lines.join('\n').split('\n').filter(Boolean));
}

/** The broker tier's test files: every test file outside test/unit/. */
function brokerFiles() {
  return readdirSync('test', { recursive: true })
    .map((file) => join('test', file))
    .filter((file) => file.endsWith('.test.ts') && !file.startsWith(join('test', 'unit')));
}

/** The repository paths a test file imports itself (`../../src/x/y.js` -> `src/x/y.ts`). */
function importsOf(file) {
  const names = readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g);
  return [...names].map(([, name]) => relative('.', resolve(dirname(file), name)).replace(/\.js$/, '.ts'));
}

/** Whether a test file's name holds a folder's name as a word of its own: `test-lucky-events` holds `lucky`. */
const namedFor = (file, folder) => new RegExp(`(^|-)${folder}[-.]`).test(basename(file));

/** The broker files the change reaches. */
function reached(changed) {
  const folders = [...changed].filter((file) => file.startsWith('src/')).map((file) => basename(dirname(file)));
  const named = new Set(folders.filter((folder) => folder !== 'src'));
  return brokerFiles().filter(
    (file) => changed.has(file) || importsOf(file).some((target) => changed.has(target)) || [...named].some((folder) => namedFor(file, folder)),
  );
}

/** Runs a step with the terminal's output; returns its exit code. */
function step(title, bin, args) {
  process.stdout.write(`\ntest:quick: ${title}\n`);
  return spawnSync(bin, args, { stdio: 'inherit' }).status ?? 1;
}

const listOnly = process.argv.includes('--list');
const base = baseOf(process.argv.slice(2).find((arg) => arg !== '--list'));
const files = reached(changedSince(base));
if (listOnly) {
  process.stdout.write(files.map((file) => `${file}\n`).join(''));
  process.exit(0);
}
const vitest = 'node_modules/.bin/vitest';
const unit = ['run', '--project', 'unit', '--project', 'unit-own-process'];
const first = step('the checks beside the unit tier', process.execPath, ['scripts/checks.mjs', '--beside', vitest, ...unit]);
const title = `${files.length} broker file(s) the change since ${base.slice(0, 8)} reaches${files.length ? `: ${files.join(' ')}` : ''}`;
const second = files.length === 0 ? (step(title, 'true', []), 0) : step(title, vitest, ['run', ...files]);
process.exitCode = first === 0 && second === 0 ? 0 : 1;
