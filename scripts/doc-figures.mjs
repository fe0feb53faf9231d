// Takes the figures of the last `npm run bench` (bench-results.json, git-ignored) into docs/bench-figures.json,
// and puts that file's figures into the pages that quote them, between their markers
// (<!-- fig:NAME -->...<!-- /fig -->; src/bench/doc-figures.ts). With --check it writes nothing: it says which pages
// differ from docs/bench-figures.json and exits 1. Needs dist/ built.
// Usage: npm run docs:figures   (npm run build && node scripts/doc-figures.mjs)
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import { FIGURE_PAGES, FIGURES_FILE, figuresWithRun, RESULTS_FILE, treeFigures, withFigures } from '../dist/bench/doc-figures.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const check = process.argv.includes('--check');
const figuresPath = join(root, FIGURES_FILE);
const previous = JSON.parse(readFileSync(figuresPath, 'utf8'));
let file = previous;
const resultsPath = join(root, RESULTS_FILE);
if (!check && existsSync(resultsPath)) {
  const run = JSON.parse(readFileSync(resultsPath, 'utf8')).figures;
  file = figuresWithRun(previous, run);
  if (file === previous) process.stdout.write(`${RESULTS_FILE}: no figures newer than ${FIGURES_FILE}'s, left out\n`);
  else if (JSON.stringify(file) !== JSON.stringify(previous)) {
    writeFileSync(figuresPath, `${JSON.stringify(file, null, 2)}\n`);
    process.stdout.write(`${FIGURES_FILE}: the figures of the run of ${run.measured_at} taken in\n`);
  }
}
const testFiles = readdirSync(join(root, 'test'), { recursive: true }).map(String);
const figures = { ...file.figures, ...treeFigures(testFiles) };
let problems = 0;
for (const page of FIGURE_PAGES) {
  const path = join(root, page);
  const text = readFileSync(path, 'utf8');
  const { text: written, unknown } = withFigures(text, figures);
  for (const name of unknown) {
    process.stderr.write(`${page}: no figure "${name}" in ${FIGURES_FILE}\n`);
    problems++;
  }
  if (written === text) continue;
  if (check) {
    process.stderr.write(`${page}: its figures differ from ${FIGURES_FILE}\n`);
    problems++;
  } else {
    writeFileSync(path, written);
    process.stdout.write(`${page}: figures rewritten\n`);
  }
}
process.exitCode = problems > 0 ? 1 : 0;
