// No function of the product is longer than a reader can hold: a body that runs past 80 lines is split by what it
// does (style.md 16: shape, not density; never by joining lines). The App's outputs and the coordinator's pass,
// once the longest, are held shorter still: each reads as the list of its steps. The simulator and the bench
// stand aside (tools around the bridge), as in the import checks.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tsFiles } from '../../helpers/import-graph.js';

const SRC = join(import.meta.dirname, '..', '..', '..', 'src');
const ASIDE = /^(simulator|bench)\//;
const LONGEST = 80;

/** Each function with a body in the text (declarations, methods, arrows, accessors), as `name: lines` by its first line. */
function functionLengths(file: string, text: string): Map<string, number> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lengths = new Map<string, number>();
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      // An arrow is named by what holds it (`const f = () => …`, `{ make: async () => … }`).
      const named = node.name ?? (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent) ? node.parent.name : undefined);
      const name = named && ts.isIdentifier(named) ? named.text : '(anonymous)';
      lengths.set(`${file}:${first + 1} ${name}`, last - first + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lengths;
}

const product = tsFiles(SRC)
  .map((path) => ({ path, file: relative(SRC, path) }))
  .filter(({ file }) => !ASIDE.test(file));
const lengths = new Map(product.flatMap(({ path, file }) => [...functionLengths(file, readFileSync(path, 'utf8'))]));
const lengthOf = (name: RegExp): number | undefined => [...lengths].find(([where]) => name.test(where))?.[1];

describe('the functions of src/', () => {
  it(`are none longer than ${LONGEST} lines`, () => {
    expect([...lengths].filter(([, lines]) => lines > LONGEST).map(([where, lines]) => `${where}: ${lines} lines`)).toEqual([]);
  });

  it("keep the App's outputs and the coordinator's pass under 40 lines: each the list of its steps", () => {
    expect(lengthOf(/^app\/app\.ts:\d+ subscribeOutputs$/)).toBeLessThan(40);
    expect(lengthOf(/^runner\/coordinator\.ts:\d+ pass$/)).toBeLessThan(40);
  });

  it('are all seen, methods and arrows included (the checks above are not vacuous)', () => {
    expect(lengths.size).toBeGreaterThan(2_000);
    const text = ['class A {', '  m() {', ...Array.from({ length: 90 }, () => '    work();'), '  }', '}', 'const f = () => {', '  work();', '};'];
    expect([...functionLengths('a.ts', text.join('\n'))]).toEqual([
      ['a.ts:2 m', 92],
      ['a.ts:95 f', 3],
    ]);
  });
});
