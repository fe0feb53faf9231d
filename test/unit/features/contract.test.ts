// The contract from feature to screen is the compiler's: renaming an attribute where its feature renders
// it must fail the typecheck where a screen reads it. The project's src (tsconfig.build.json), with the
// timetable's `lessons` attribute (or a nested field) renamed in memory, must be refused by the compiler
// in the dashboard and the board, and nowhere in the feature itself. Both proofs compile in this
// process, share every file but the edited one (parsed once), and check the files the edit can reach:
// those importing the feature, directly or not, and those importing a module whose declarations a
// reached file augments (`declare module`). Every other file compiles as it does in `npm run typecheck`.
// Slow on purpose: 128 s measured here (the 2-core machine shared at a load of ~16; 145 s before, with
// two tsc processes), about a fifth of that idle: the proof is the compiler's, and checking the
// screens' types against the feature's is the work itself.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const FEATURE = 'src/features/timetable/day.ts';

const CONFIG = (() => {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.build.json'),
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.build.json unreadable');
  return config;
})();

/** The files both proofs share, parsed once (the edited feature never enters it). */
const parsed = new Map<string, ts.SourceFile>();

/** The program of src with FEATURE's text replaced. */
function programWith(featureText: string): ts.Program {
  const feature = join(ROOT, FEATURE);
  const host = ts.createCompilerHost(CONFIG.options);
  const readSource = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, version, onError, create) => {
    if (resolve(fileName) === feature) return ts.createSourceFile(fileName, featureText, version);
    let file = parsed.get(fileName);
    if (!file) {
      file = readSource(fileName, version, onError, create);
      if (file) parsed.set(fileName, file);
    }
    return file;
  };
  host.readFile = (fileName) => (resolve(fileName) === feature ? featureText : ts.sys.readFile(fileName));
  return ts.createProgram({ rootNames: CONFIG.fileNames, options: CONFIG.options, host });
}

/** The modules a file names: what it imports (import, export from, import(), import types) and what it augments. */
function modulesNamed(file: ts.SourceFile): { imports: string[]; augments: string[] } {
  const imports: string[] = [];
  const augments: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      imports.push(node.moduleSpecifier.text);
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      imports.push(node.arguments[0].text);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
      imports.push(node.argument.literal.text);
    else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) augments.push(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { imports, augments };
}

/** The project's files whose types the feature's text can change (all of them if one is a global script). */
function reachedByFeature(program: ts.Program): ts.SourceFile[] {
  const own = program.getSourceFiles().filter((f) => !program.isSourceFileFromExternalLibrary(f) && !program.isSourceFileDefaultLibrary(f));
  const local = (from: ts.SourceFile, names: string[]): string[] =>
    names.flatMap((name) => {
      const found = ts.resolveModuleName(name, from.fileName, CONFIG.options, ts.sys).resolvedModule;
      return found && !found.isExternalLibraryImport ? [resolve(found.resolvedFileName)] : [];
    });
  const named = new Map(
    own.map((f) => {
      const { imports, augments } = modulesNamed(f);
      return [resolve(f.fileName), { imports: local(f, imports), augments: local(f, augments) }];
    }),
  );
  const reached = new Set([join(ROOT, FEATURE)]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [file, { imports, augments }] of named) {
      // A reached file that augments a module changes that module's types for every file importing it.
      const next = reached.has(file) ? augments.filter((a) => !reached.has(a)) : imports.some((i) => reached.has(i)) ? [file] : [];
      for (const f of next) reached.add(f);
      grew ||= next.length > 0;
    }
  }
  if (own.some((f) => reached.has(resolve(f.fileName)) && !ts.isExternalModule(f))) return own;
  return own.filter((f) => reached.has(resolve(f.fileName)));
}

/** The compiler's verdict on src with FEATURE's text replaced: whether it passed, and its output as tsc prints it. */
function typecheck(featureText: string): { ok: boolean; output: string } {
  const program = programWith(featureText);
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...reachedByFeature(program).flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
  const output = ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' });
  return { ok: diagnostics.length === 0, output };
}

/** The project's src with FEATURE `edit`ed: the files the compiler then refuses, and its output. */
function failingAfter(edit: (source: string) => string): { failing: Set<string | undefined>; output: string } {
  const { ok, output } = typecheck(edit(readFileSync(join(ROOT, FEATURE), 'utf8')));
  expect(ok).toBe(false);
  return { failing: new Set([...output.matchAll(/^(src\/[^(]+)\(\d+,\d+\): error/gm)].map((m) => m[1])), output };
}

describe('the typed contract from feature to screen', () => {
  it('fails the typecheck in the screens when the timetable renames its lessons attribute', () => {
    // The attribute's declaration and the two places the feature renders it, and nothing else.
    const { failing, output } = failingAfter((source) => {
      const renamed = source.replaceAll(/\blessons: (?=SlotOut\[\]|\[\]|slotsOf\()/g, 'periods: ');
      expect(renamed.match(/\bperiods: /g)).toHaveLength(3);
      return renamed;
    });
    expect(failing).toContain('src/ha/dashboard-cards.ts');
    expect(failing).toContain('src/web/board-day.ts');
    // The feature itself renames consistently: only the screens (the dashboard, the board) that read
    // `lessons` are wrong.
    expect(
      [...failing].filter((file) => !/^src\/(ha|web)\//.test(file ?? '')),
      output,
    ).toEqual([]);
    expect(output).toMatch(/"lessons"/);
  }, 240_000);

  it("fails the typecheck in the board when the timetable renames a field of the day's hours", () => {
    // A nested attribute: the field's declaration and the one place the feature renders it.
    const { failing, output } = failingAfter((source) => {
      const renamed = source.replaceAll(/\bto(?=: string \} \| null|: span\.to)/g, 'until');
      expect(renamed.match(/\buntil: /g)).toHaveLength(2);
      return renamed;
    });
    expect(failing).toContain('src/web/board-day.ts');
    expect(
      [...failing].filter((file) => !/^src\/(ha|web)\//.test(file ?? '')),
      output,
    ).toEqual([]);
    expect(output).toMatch(/'to'/);
  }, 240_000);
});
