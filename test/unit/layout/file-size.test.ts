// No source file over 300 lines (issue 57), the simulator, the bench and the translations aside: a file
// that grows past it is two ideas, to be told apart rather than scrolled through.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', '..', 'src');
const ASIDE = ['simulator', 'bench', 'i18n'].map((folder) => join(SRC, folder));
const LIMIT = 300;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ASIDE.includes(path) ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

it(`keeps every source file within ${LIMIT} lines`, () => {
  const files = sources(SRC);
  expect(files.length).toBeGreaterThan(100);
  const long = files
    .map((path) => ({ file: relative(SRC, path), lines: readFileSync(path, 'utf8').split('\n').length - 1 }))
    .filter((f) => f.lines > LIMIT);
  expect(long).toEqual([]);
});
