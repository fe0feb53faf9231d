// Keeps docs/entities.md's entity table and hassio-addon/DOCS.md's derived from the features, and docs/polling.md's schedule asked of
// `next` (src/engine/plan.ts) for each declaration: `npm run build` rewrites each table between its markers
// (<!-- entities:start/end --> and the like) through writeTables (scripts/bundle.mjs, in a checkout); run alone it
// says what differs or what the hand-written table lacks and exits 1. Needs dist/ built.
// Usage: npm run build && node scripts/readme-tables.mjs
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

/** Rewrites each page's generated table (the entities' tables, the fetch plan's schedule); returns the pages it changed. */
export function writeTables() {
  const changed = [];
  for (const [path, name, withTable] of [
    [pagePath, ENTITIES_PAGE, withEntityTable],
    [addonPath, ADDON_PAGE, withAddonTable],
    [planPath, PLAN_PAGE, withPlanTable],
  ]) {
    const page = readFileSync(path, 'utf8');
    const written = withTable(page);
    if (written === page) continue;
    writeFileSync(path, written);
    changed.push(name);
  }
  return changed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // The hand-written table of states is not generated: say what it lacks.
  const problems = [
    ...readmeProblems(readFileSync(pagePath, 'utf8')),
    ...addonTableProblems(readFileSync(addonPath, 'utf8')),
    ...planTableProblems(readFileSync(planPath, 'utf8')),
  ];
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
