// undici is used through its package's public API alone: `import { request, Agent } from 'undici'`, never one
// of its files by a path (`undici/lib/...`, imported, required or named in a string). Its files move between
// releases; a bridge that loaded them had to pin undici to one exact version, so that a security fix of the
// HTTP client waited for a change here. With the package's name alone, package.json takes its releases.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tsFiles } from '../../helpers/import-graph.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** Each string in a file that names one of undici's files (`undici/...`), as `file:line`; and whether it names the package. */
function undiciNames(file: string, text: string): { paths: string[]; byName: boolean } {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const paths: string[] = [];
  let byName = false;
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (node.text === 'undici') byName = true;
      if (node.text.startsWith('undici/')) paths.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { paths, byName };
}

describe('undici in src/', () => {
  const files = tsFiles(join(ROOT, 'src'))
    .map((path) => ({ file: relative(ROOT, path), text: readFileSync(path, 'utf8') }))
    .filter(({ text }) => text.includes('undici'));

  it('is imported by its package name only, never one of its files by a path', () => {
    expect(files.flatMap(({ file, text }) => undiciNames(file, text).paths)).toEqual([]);
  });

  it('is seen where it is imported (the check above is not vacuous)', () => {
    const byName = files.filter(({ file, text }) => undiciNames(file, text).byName).map(({ file }) => file);
    expect(byName).toEqual(expect.arrayContaining([join('src', 'portal', 'http.ts')]));
    const required = [
      "const requestApi = require('undici/lib/api/api-request.js');",
      'import type { Agent } from "undici/lib/dispatcher/agent.js";',
      'const symbols = await import(`undici/lib/core/symbols.js`);',
    ].join('\n');
    expect(undiciNames('a.ts', required).paths).toEqual(['a.ts:1', 'a.ts:2', 'a.ts:3']);
  });

  it('is not pinned to one version: package.json takes its releases', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies.undici).toMatch(/^\^\d+\.\d+\.\d+$/);
  });
});
