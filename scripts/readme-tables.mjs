// Keeps docs/entities.md's entity table and docs/polling.md's schedule derived from the features: with --write it rewrites the table between
// the <!-- entities:start/end --> markers; without, it says what differs and exits 1. Needs dist/ built.
// Usage: npm run build && node scripts/readme-tables.mjs [--write]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import { ENTITIES_PAGE, readmeProblems, withEntityTable } from '../dist/features/readme-tables.js';
import { PLAN_PAGE, planTableProblems, withPlanTable } from '../dist/features/plan-table.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const pagePath = join(root, ENTITIES_PAGE);
const planPath = join(root, PLAN_PAGE);

/** With --write, rewrites a page's generated table from the features (the entities' table, the fetch plan's schedule). */
function regenerate(path, name, what, withTable) {
  if (!process.argv.includes('--write')) return;
  const page = readFileSync(path, 'utf8');
  const written = withTable(page);
  if (written !== page) writeFileSync(path, written);
  process.stdout.write(`${name}: ${what} ${written === page ? 'already up to date' : 'rewritten'}\n`);
}

regenerate(pagePath, ENTITIES_PAGE, 'entity table', withEntityTable);
regenerate(planPath, PLAN_PAGE, 'schedule table', withPlanTable);
// The hand-written table of states is not generated: say what it lacks, even after --write.
const problems = [...readmeProblems(readFileSync(pagePath, 'utf8')), ...planTableProblems(readFileSync(planPath, 'utf8'))];
for (const problem of problems) process.stderr.write(`${problem}\n`);
process.exitCode = problems.length > 0 ? 1 : 0;
