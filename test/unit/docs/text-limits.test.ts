// Texts within their readers' limits (interface 19.3): the README, a newcomer's first page, at most 20 KB, and the
// development guide at most 350 lines; detail goes into a page of docs/ linked from them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, ROOT), 'utf8');

describe("the texts' lengths", () => {
  it('keep the README at most 20 KB, its three steps whole', () => {
    const readme = read('README.md');
    expect(Buffer.byteLength(readme, 'utf8')).toBeLessThanOrEqual(20 * 1024);
    expect(readme).toContain('## Install in three steps');
  });

  it('keep docs/development.md at most 350 lines', () => {
    expect(read('docs/development.md').split('\n').length).toBeLessThanOrEqual(350);
  });
});
