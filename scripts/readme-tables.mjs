// Keeps docs/entities.md's entity table and hassio-addon/DOCS.md's derived from the features, and docs/polling.md's schedule asked of
// `next` (src/feature-kit/plan.ts) for each declaration: with --write it
// rewrites each table between its markers (<!-- entities:start/end --> and the like); without, it says what differs and exits 1. Needs dist/ built.
// Usage: npm run build && node scripts/readme-tables.mjs [--write]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import { ADDON_PAGE, addonTableProblems, ENTITIES_PAGE, readmeProblems, withAddonTable, withEntityTable } from '../dist/features/readme-tables.js';
import { PLAN_PAGE, planTableProblems, withPlanTable } from '../dist/features/plan-table.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const pagePath = join(root, ENTITIES_PAGE);
const planPath = join(root, PLAN_PAGE);
const addonPath = join(root, ADDON_PAGE);

/** With --write, rewrites a page's generated table (the entities' tables, the fetch plan's schedule). */
function regenerate(path, name, what, withTable) {
  if (!process.argv.includes('--write')) return;
  const page = readFileSync(path, 'utf8');
  const written = withTable(page);
  if (written !== page) writeFileSync(path, written);
  process.stdout.write(`${name}: ${what} ${written === page ? 'already up to date' : 'rewritten'}\n`);
}

regenerate(pagePath, ENTITIES_PAGE, 'entity table', withEntityTable);
regenerate(addonPath, ADDON_PAGE, 'entity table', withAddonTable);
regenerate(planPath, PLAN_PAGE, 'schedule table', withPlanTable);
// The hand-written table of states is not generated: say what it lacks, even after --write.
const problems = [
  ...readmeProblems(readFileSync(pagePath, 'utf8')),
  ...addonTableProblems(readFileSync(addonPath, 'utf8')),
  ...planTableProblems(readFileSync(planPath, 'utf8')),
];
for (const problem of problems) process.stderr.write(`${problem}\n`);
process.exitCode = problems.length > 0 ? 1 : 0;
