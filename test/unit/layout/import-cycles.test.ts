// The folders of src/ import each other in one direction, the way the data flows (portal -> rules -> engine ->
// features -> the bus -> the runner that publishes on it and the outputs that subscribe to it, side by side in
// outputs/ (mqtt, web, mcp, homeassistant) -> the app -> the root's entry points; util, config, i18n, once and lease
// below them), type imports included: a type shared by two folders ties them as much as a value does. The simulator and the bench stand aside
// (tools around the bridge). Files import each other without circles too, inside a folder as across: a
// reader can start at a leaf and read up, never meeting a file that needs the one being read.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileEdges, folderCycles, folderEdges, type FolderEdge } from '../../helpers/import-graph.js';
import { tempDir } from '../../helpers/temp.js';

const SRC = join(import.meta.dirname, '..', '..', '..', 'src');
const ASIDE = ['simulator', 'bench'];

const edge = (from: string, to: string): FolderEdge => ({ from, to, example: `${from}/a.ts -> ${to}/b.ts` });

describe('the folders of src/', () => {
  it('sit in no import cycle', () => {
    expect(folderCycles(folderEdges(SRC, ASIDE))).toEqual([]);
  });

  it('are all seen, with their imports (the check above is not vacuous)', () => {
    const pairs = folderEdges(SRC, ASIDE).map((e) => `${e.from} -> ${e.to}`);
    expect(pairs).toEqual(
      expect.arrayContaining([
        'rules -> portal',
        'engine -> rules',
        'features -> engine',
        'bus -> features',
        'runner -> bus',
        'outputs -> bus',
        '(root) -> app',
        'app -> runner',
      ]),
    );
    expect(pairs.some((p) => /simulator|bench/.test(p))).toBe(false);
  });
});

describe('the files of src/', () => {
  it('sit in no import cycle, inside a folder as across folders', () => {
    expect(folderCycles(fileEdges(SRC, ASIDE))).toEqual([]);
  });

  it('are all seen, with the imports between files of one folder (the check above is not vacuous)', () => {
    const pairs = fileEdges(SRC, ASIDE).map((e) => `${e.from} -> ${e.to}`);
    expect(pairs).toEqual(expect.arrayContaining(['engine/plan.ts -> engine/schedule.ts', 'portal/session.ts -> portal/http.ts']));
    expect(pairs.some((p) => /simulator|bench/.test(p))).toBe(false);
  });
});

describe('the App (src/app/app.ts)', () => {
  it("names no output: it takes the carrier and the list from app/outputs.ts, an output's shape from outputs/output.ts", () => {
    const edges = fileEdges(SRC, ASIDE);
    const from = (file: string): string[] => edges.filter((e) => e.from === file).map((e) => e.to);
    expect(from('app/app.ts').filter((to) => to.startsWith('outputs/'))).toEqual(['outputs/output.ts']);
    // The list does name them (the check above is not vacuous).
    expect(from('app/outputs.ts')).toEqual(expect.arrayContaining(['outputs/mqtt/output.ts', 'outputs/web/output.ts']));
  });
});

describe('folderEdges', () => {
  it('counts type-only imports, re-exports and dynamic import() as much as a value import', async () => {
    const src = await tempDir();
    const files: Record<string, string> = {
      'a/one.ts': "export const one = 1;\nexport type Two = typeof import('../b/two.js');",
      'b/two.ts': "import type { Three } from '../c/three.js';\nexport const two: Three = 2;",
      'c/three.ts': "export type Three = number;\nexport { one } from '../a/one.js';\nexport const later = () => import('../d/four.js');",
      'd/four.ts': "import { one } from '../a/one.js';\nexport const four = one;",
      'top.ts': "import { four } from './d/four.js';\nvoid four;",
    };
    for (const [path, text] of Object.entries(files)) {
      await mkdir(join(src, dirname(path)), { recursive: true });
      await writeFile(join(src, path), text);
    }
    const pairs = folderEdges(src)
      .map((e) => `${e.from} -> ${e.to}`)
      .sort();
    expect(pairs).toEqual(['(root) -> d', 'a -> b', 'b -> c', 'c -> a', 'c -> d', 'd -> a']);
    expect(folderCycles(folderEdges(src))).toEqual([
      'a -> b -> c -> a (a/one.ts -> b/two.ts; b/two.ts -> c/three.ts; c/three.ts -> a/one.ts) [the same tangle holds d]',
    ]);
  });
});

describe('fileEdges', () => {
  it('names a circle inside one folder with the statement that makes each step', async () => {
    const src = await tempDir();
    await mkdir(join(src, 'kit'));
    await writeFile(join(src, 'kit/cache.ts'), "import type { Want } from './want.js';\nexport const cache = (w: Want) => w;");
    await writeFile(join(src, 'kit/want.ts'), "import {\n  cache,\n} from './cache.js';\nexport type Want = number;\nvoid cache;");
    await writeFile(join(src, 'kit/leaf.ts'), 'export const leaf = 1;');
    expect(folderCycles(folderEdges(src))).toEqual([]);
    expect(folderCycles(fileEdges(src))).toEqual([
      "kit/cache.ts -> kit/want.ts -> kit/cache.ts (kit/cache.ts: import type { Want } from './want.js'; kit/want.ts: import { cache, } from './cache.js')",
    ]);
  });
});

describe('folderCycles', () => {
  it('names a cycle with the import behind each step', () => {
    const cycles = folderCycles([edge('features', 'runner'), edge('runner', 'features'), edge('features', 'util')]);
    expect(cycles).toEqual(['features -> runner -> features (features/a.ts -> runner/b.ts; runner/a.ts -> features/b.ts)']);
  });

  it('finds a long cycle once, and none in a diamond', () => {
    const long = [edge('a', 'b'), edge('b', 'c'), edge('c', 'd'), edge('d', 'a'), edge('c', 'a')];
    expect(folderCycles(long)).toHaveLength(1);
    expect(folderCycles(long)[0]).toMatch(/^a -> b -> c -> a /);
    expect(folderCycles([edge('a', 'b'), edge('a', 'c'), edge('b', 'd'), edge('c', 'd')])).toEqual([]);
  });
});

describe('the school rules (src/rules/)', () => {
  it("take only types from portal/: they compute from the portal's data, never parse or ask for it", () => {
    const school = join(SRC, 'rules');
    const imports = readdirSync(school).flatMap((file) =>
      [...readFileSync(join(school, file), 'utf8').matchAll(/^import (type )?[^;]*from '\.\.\/portal\/[^']+';/gm)].map((m) => ({
        file,
        type: m[1] !== undefined,
      })),
    );
    expect(imports.length).toBeGreaterThan(3);
    expect(imports.filter((i) => !i.type)).toEqual([]);
  });
});
