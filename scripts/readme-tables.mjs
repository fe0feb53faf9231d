// Keeps docs/entities.md's entity table and docs/polling.md's schedule derived from the features: with --write it rewrites the table between
// the <!-- entities:start/end --> markers; without, it says what differs and exits 1. Needs dist/ built.
// Usage: npm run build && node scripts/readme-tables.mjs [--write]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import { ENTITIES_PAGE, readmeProblems, withEntityTable } from '../dist/features/readme-tables.js';
import { PLAN_PAGE, planTableProblems, withPlanTable } from '../dist/features/plan-table.js';

const pagePath = join(dirname(dirname(fileURLToPath(import.meta.url))), ENTITIES_PAGE);
const page = readFileSync(pagePath, 'utf8');
if (process.argv.includes('--write')) {
  const written = withEntityTable(page);
  if (written !== page) writeFileSync(pagePath, written);
  process.stdout.write(written === page ? `${ENTITIES_PAGE}: entity table already up to date\n` : `${ENTITIES_PAGE}: entity table rewritten\n`);
}
// docs/polling.md's schedule table, from the fetch plan's rows.
const planPath = join(dirname(dirname(fileURLToPath(import.meta.url))), PLAN_PAGE);
const plan = readFileSync(planPath, 'utf8');
if (process.argv.includes('--write')) {
  const written = withPlanTable(plan);
  if (written !== plan) writeFileSync(planPath, written);
  process.stdout.write(written === plan ? `${PLAN_PAGE}: schedule table already up to date\n` : `${PLAN_PAGE}: schedule table rewritten\n`);
}
// The hand-written table of states is not generated: say what it lacks, even after --write.
const problems = [...readmeProblems(readFileSync(pagePath, 'utf8')), ...planTableProblems(readFileSync(planPath, 'utf8'))];
for (const problem of problems) process.stderr.write(`${problem}\n`);
process.exitCode = problems.length > 0 ? 1 : 0;
