// Counts, for every entity key, the source files under src/ (outside the simulator and the benchmark)
// that spell it, comments left out: issue 12 wants at most two (its feature, and the dashboard layout).
// A key with an underscore counts as a quoted string or an object key; a one-word key (average, grade)
// only as a quoted string, since as a bare word it is also an ordinary name. Needs dist/ built.
// Usage: node scripts/entity-keys.mjs [--all]   (prints the keys over the limit, or every key)
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import { ENTITIES } from '../dist/features/index.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const skip = ['src/simulator/', 'src/bench/'];
const files = readdirSync(join(root, 'src'), { recursive: true })
  .map((f) => join('src', String(f)))
  .filter((f) => f.endsWith('.ts') && !skip.some((s) => f.startsWith(s)));
const code = new Map(
  files.map((f) => [
    f,
    readFileSync(join(root, f), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/(^|[^:])\/\/.*$/gm, '$1'),
  ]),
);

const keys = [...new Set(ENTITIES.flatMap((e) => [e.key, ...(e.eventTypes ?? [])]))];
const rows = keys.map((key) => {
  const quoted = new RegExp(`['"\`]${key}['"\`]`);
  const asKey = new RegExp(`(^|[{,\\s])${key}\\s*:`, 'm');
  const spelled = [...code].filter(([, text]) => quoted.test(text) || (key.includes('_') && asKey.test(text))).map(([f]) => relative('.', f));
  return { key, files: spelled };
});
const all = process.argv.includes('--all');
for (const { key, files: where } of rows) if (all || where.length > 2) process.stdout.write(`${where.length}  ${key}: ${where.join(', ')}\n`);
const over = rows.filter((r) => r.files.length > 2).length;
const counts = rows.map((r) => r.files.length).sort((a, b) => a - b);
process.stdout.write(`${rows.length} keys; over two files: ${over}; median ${counts[Math.floor(counts.length / 2)]}, max ${counts.at(-1)}\n`);
