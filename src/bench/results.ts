// What `npm run bench` leaves behind: bench-results.json in the checkout's root, git-ignored, so that a run is
// no change to commit. The pages' figures go from it into docs/bench-figures.json only through
// `npm run docs:figures` (scripts/doc-figures.mjs, doc-figures.ts).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RESULTS_FILE, type RunFigures } from './doc-figures.js';

/** A row of the bench's table: what was measured, its value, the target, and whether it met it (null: no target). */
export interface BenchTableRow {
  measure: string;
  value: string;
  target: string;
  ok: boolean | null;
}

export interface BenchResults {
  /** The table as printed. */
  rows: readonly unknown[];
  /** Each run's details (its requests by endpoint, its delays), by run. */
  runs: Record<string, unknown>;
  figures: RunFigures;
}

/** Writes the run's results to RESULTS_FILE under `root`, and nothing else; answers the path written. */
export async function writeResults(root: string, results: BenchResults): Promise<string> {
  const path = join(root, RESULTS_FILE);
  await writeFile(path, `${JSON.stringify({ rows: results.rows, ...results.runs, figures: results.figures }, null, 2)}\n`);
  return path;
}
