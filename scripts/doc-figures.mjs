// Puts the bench's figures (docs/bench-figures.json, written by `npm run bench`) into the pages that
// quote them, between their markers (<!-- fig:NAME -->...<!-- /fig -->; src/bench/doc-figures.ts).
// Without --check it rewrites the pages; with --check it says which differ and exits 1. Needs dist/ built.
// Usage: npm run docs:figures   (npm run build && node scripts/doc-figures.mjs)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import { FIGURE_PAGES, FIGURES_FILE, treeFigures, withFigures } from '../dist/bench/doc-figures.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const file = JSON.parse(readFileSync(join(root, FIGURES_FILE), 'utf8'));
const testFiles = readdirSync(join(root, 'test'), { recursive: true }).map(String);
const figures = { ...file.figures, ...treeFigures(testFiles) };
const check = process.argv.includes('--check');
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
