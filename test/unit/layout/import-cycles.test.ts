// The folders of src/ import each other in one direction (portal -> school -> feature-kit -> features ->
// ha / web / mqtt -> poller -> the root), type imports included: a type shared by two folders ties them
// as much as a value does. The simulator and the bench stand aside (tools around the bridge).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderCycles, folderEdges, type FolderEdge } from '../../helpers/import-graph.js';

const SRC = join(import.meta.dirname, '..', '..', '..', 'src');
const ASIDE = ['simulator', 'bench'];

const edge = (from: string, to: string): FolderEdge => ({ from, to, example: `${from}/a.ts -> ${to}/b.ts` });

describe('the folders of src/', () => {
  it('sit in no import cycle', () => {
    expect(folderCycles(folderEdges(SRC, ASIDE))).toEqual([]);
  });

  it('are all seen, with their imports (the check above is not vacuous)', () => {
    const edges = folderEdges(SRC, ASIDE);
    const pairs = edges.map((e) => `${e.from} -> ${e.to}`);
    // A value import, a type-only import and a dynamic import() the graph must hold.
    expect(pairs).toEqual(expect.arrayContaining(['school -> portal', 'web -> feature-kit', '(root) -> web']));
    expect(pairs.some((p) => p.startsWith('simulator') || p.startsWith('bench') || p.endsWith('simulator'))).toBe(false);
  });
});

describe('folderCycles', () => {
  it('names a cycle with the import behind each step', () => {
    const cycles = folderCycles([edge('features', 'poller'), edge('poller', 'features'), edge('features', 'util')]);
    expect(cycles).toEqual(['features -> poller -> features (features/a.ts -> poller/b.ts; poller/a.ts -> features/b.ts)']);
  });

  it('finds a long cycle once, and none in a diamond', () => {
    const long = [edge('a', 'b'), edge('b', 'c'), edge('c', 'd'), edge('d', 'a'), edge('c', 'a')];
    expect(folderCycles(long)).toHaveLength(1);
    expect(folderCycles(long)[0]).toMatch(/^a -> b -> c -> a /);
    expect(folderCycles([edge('a', 'b'), edge('a', 'c'), edge('b', 'd'), edge('c', 'd')])).toEqual([]);
  });
});
