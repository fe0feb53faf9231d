// zod is imported as a namespace (`import * as z from 'zod'`) or for its types alone (`import type { z }`), never as
// `import { z } from 'zod'`: that `z` is one object holding all of zod, which the bundle cannot trim (scripts/bundle.mjs
// says why). A rule of the lint until oxlint, whose rules cannot tell the two apart, took the lint over.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tsFiles } from '../../helpers/import-graph.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** Each `import { z }` of zod that brings the value, as `file:line`. */
function valueImportsOfZ(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || statement.moduleSpecifier.text !== 'zod') continue;
    const clause = statement.importClause;
    const named = clause?.namedBindings;
    if (clause === undefined || clause.isTypeOnly || named === undefined || !ts.isNamedImports(named)) continue;
    for (const element of named.elements)
      if (!element.isTypeOnly && (element.propertyName ?? element.name).text === 'z')
        found.push(`${file}:${source.getLineAndCharacterOfPosition(element.getStart(source)).line + 1}`);
  }
  return found;
}

describe('zod in src/ and test/', () => {
  // Only a file that names zod is parsed.
  const files = [...tsFiles(join(ROOT, 'src')), ...tsFiles(join(ROOT, 'test'))]
    .map((path) => ({ file: relative(ROOT, path), text: readFileSync(path, 'utf8') }))
    .filter(({ text }) => text.includes("'zod'"));

  it("is imported as a namespace or for its types, never as `import { z } from 'zod'`", () => {
    expect(files.flatMap(({ file, text }) => valueImportsOfZ(file, text))).toEqual([]);
  });

  it('is seen where it is imported (the check above is not vacuous)', () => {
    expect(files.filter(({ text }) => text.includes("import * as z from 'zod'")).length).toBeGreaterThan(20);
    expect(valueImportsOfZ('a.ts', "import { z } from 'zod';\nimport { z as zod, ZodError } from 'zod';\n")).toEqual(['a.ts:1', 'a.ts:2']);
    expect(
      valueImportsOfZ(
        'b.ts',
        "import * as z from 'zod';\nimport type { z } from 'zod';\nimport { type z } from 'zod';\nimport { z } from 'zodiac';\n",
      ),
    ).toEqual([]);
  });
});
