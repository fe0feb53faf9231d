// `npm run demo` starts at once from dist/ and builds only when dist/ is missing or older than src/.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { needsBuild } from '../../../scripts/demo.mjs';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'd2m-launch-'));
  mkdirSync(join(root, 'src', 'simulator'), { recursive: true });
  for (const file of ['tsconfig.json', 'tsconfig.build.json', 'src/main.ts', 'src/simulator/life.ts']) touch(file, 1_000);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Writes the file with this modification time (seconds since the epoch). */
function touch(file: string, seconds: number): void {
  mkdirSync(join(root, file, '..'), { recursive: true });
  writeFileSync(join(root, file), '');
  utimesSync(join(root, file), seconds, seconds);
}

describe('the demo launcher', () => {
  it('builds when dist is missing', () => {
    expect(needsBuild(root)).toBe('dist/main.js is missing');
  });

  it('starts at once when dist is newer than every source', () => {
    touch('dist/main.js', 2_000);
    expect(needsBuild(root)).toBeUndefined();
  });

  it('builds when a source, however deep, changed after the last build', () => {
    touch('dist/main.js', 2_000);
    touch('src/simulator/life.ts', 3_000);
    expect(needsBuild(root)).toBe(`${join('src', 'simulator', 'life.ts')} is newer than dist/`);
  });
});
