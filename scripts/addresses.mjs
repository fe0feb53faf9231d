// Writes the project's addresses, made from package.json's `repository` alone, into the pages, the blueprints, the
// app's files and the Dockerfile (src/release/addresses.ts); `--check` only says which differ, and exits 1 if one does.
// Usage: npm run addresses [-- --check]   (it builds dist/ first)
import { dirname } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { addressProblems, writeAddresses } from '../dist/release/addresses.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
if (process.argv.includes('--check')) {
  const problems = addressProblems(root);
  for (const problem of problems) process.stdout.write(`${problem}\n`);
  process.exitCode = problems.length > 0 ? 1 : 0;
} else {
  for (const file of writeAddresses(root)) process.stdout.write(`${file}: its addresses rewritten\n`);
}
