// The contract from feature to screen is the compiler's: renaming an attribute where its feature renders
// it must fail the typecheck where a screen reads it. A scratch copy of the project (src, the tsconfigs,
// package.json and a link to node_modules) gets the timetable's `lessons` attribute (or a nested field)
// renamed, and tsc must refuse it in the dashboard and the board, and nowhere in the feature itself.
import { execFile } from 'node:child_process';
import { cp, readFile, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const FEATURE = 'src/features/timetable-day.ts';

/** tsc on the copy's src; its output and whether it passed. */
async function typecheck(dir: string): Promise<{ ok: boolean; output: string }> {
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noEmit', '--pretty', 'false'], { cwd: dir, maxBuffer: 1 << 24 });
    return { ok: true, output: stdout };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout ?? error) };
  }
}

/** A scratch copy of the project whose FEATURE is `edit`ed; the files tsc then refuses, and its output. */
async function failingAfter(edit: (source: string) => string): Promise<{ failing: Set<string | undefined>; output: string }> {
  const dir = await tempDir('d2m-contract-');
  await cp(join(ROOT, 'src'), join(dir, 'src'), { recursive: true });
  for (const file of ['tsconfig.json', 'tsconfig.build.json', 'package.json']) await cp(join(ROOT, file), join(dir, file));
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await writeFile(join(dir, FEATURE), edit(await readFile(join(dir, FEATURE), 'utf8')));
  const { ok, output } = await typecheck(dir);
  expect(ok).toBe(false);
  return { failing: new Set([...output.matchAll(/^(src\/[^(]+)\(\d+,\d+\): error/gm)].map((m) => m[1])), output };
}

describe('the typed contract from feature to screen', () => {
  it('fails the typecheck in the screens when the timetable renames its lessons attribute', async () => {
    // The attribute's declaration and the two places the feature renders it, and nothing else.
    const { failing, output } = await failingAfter((source) => {
      const renamed = source.replaceAll(/\blessons: (?=SlotOut\[\]|\[\]|slots\.map)/g, 'periods: ');
      expect(renamed.match(/\bperiods: /g)).toHaveLength(3);
      return renamed;
    });
    expect(failing).toContain('src/ha/dashboard-cards.ts');
    expect(failing).toContain('src/web/board-day.ts');
    // The feature itself renames consistently: only the screens (the dashboard, the board) that read
    // `lessons` are wrong.
    expect([...failing].filter((file) => !/^src\/(ha|web)\//.test(file ?? '')), output).toEqual([]);
    expect(output).toMatch(/"lessons"/);
  }, 240_000);

  it('fails the typecheck in the board when the timetable renames a field of a lesson\'s moved_to', async () => {
    // A nested attribute: the field's declaration and the one place the feature renders it.
    const { failing, output } = await failingAfter((source) => {
      const renamed = source.replaceAll(/\blesson_no(?=: number \| null; hours|: l\.change\.lesson_no)/g, 'period');
      expect(renamed.match(/\bperiod: /g)).toHaveLength(2);
      return renamed;
    });
    expect(failing).toContain('src/web/board-day.ts');
    expect([...failing].filter((file) => !/^src\/(ha|web)\//.test(file ?? '')), output).toEqual([]);
    expect(output).toMatch(/lesson_no/);
  }, 240_000);
});
