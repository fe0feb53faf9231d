// The reference model the worlds hold every door against (test/helpers/reference/, interface 19.1) is written apart
// from the product: nothing it imports, directly or through another file, is a feature, a rule or the engine. A
// fault there cannot pass into the truth the doors are held to.
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reachedFrom, tsFiles } from '../../helpers/import-graph.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const REFERENCE = join(ROOT, 'test', 'helpers', 'reference');
/** The product's own working of what is true: what the reference must not borrow. */
const PRODUCT = ['features', 'rules', 'engine'].map((folder) => join(ROOT, 'src', folder) + sep);

const borrowed = (files: readonly string[]): string[] =>
  reachedFrom(files)
    .filter((file) => PRODUCT.some((folder) => file.startsWith(folder)))
    .map((file) => relative(ROOT, file));

describe('the reference model', () => {
  it('imports nothing of src/features, src/rules or src/engine, however indirectly', () => {
    const files = tsFiles(REFERENCE);
    expect(files.length).toBeGreaterThan(2);
    expect(borrowed(files)).toEqual([]);
  });

  it('is read through imports as the properties are (the check above is not vacuous)', () => {
    // The worlds' properties compare with the features' values: their imports reach the product's working.
    expect(borrowed([join(ROOT, 'test', 'helpers', 'worlds', 'properties.ts')])).toEqual(
      expect.arrayContaining([join('src', 'features', 'timetable', 'day.ts')]),
    );
    expect(reachedFrom([join(REFERENCE, 'portal.ts')]).map((f) => relative(ROOT, f))).toContain(join('test', 'helpers', 'simulator.ts'));
  });
});
