// Keeps README.md's entity table derived from the features: with --write it rewrites the table between
// the <!-- entities:start/end --> markers; without, it says what differs and exits 1. Needs dist/ built.
// Usage: npm run build && node scripts/readme-tables.mjs [--write]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import { readmeProblems, withEntityTable } from '../dist/features/readme-tables.js';

const readmePath = join(dirname(dirname(fileURLToPath(import.meta.url))), 'README.md');
const readme = readFileSync(readmePath, 'utf8');
if (process.argv.includes('--write')) {
  const written = withEntityTable(readme);
  if (written !== readme) writeFileSync(readmePath, written);
  process.stdout.write(written === readme ? 'README.md: entity table already up to date\n' : 'README.md: entity table rewritten\n');
}
// The hand-written table of states is not generated: say what it lacks, even after --write.
const problems = readmeProblems(readFileSync(readmePath, 'utf8'));
for (const problem of problems) process.stderr.write(`${problem}\n`);
process.exitCode = problems.length > 0 ? 1 : 0;
