// The contract from feature to screen is the compiler's: renaming an attribute where its feature renders
// it must fail the typecheck where a screen reads it. The project's src (tsconfig.build.json), with the
// timetable's `lessons` attribute (or a nested field) renamed in memory, must be refused by the compiler
// in the dashboard and the board, and nowhere in the feature itself. Each proof checks the files its edit
// can reach: those importing the feature, directly or not, and those importing a module whose
// declarations a reached file augments (`declare module`). Every other file compiles as it does in
// `npm run typecheck`, and is the same in both proofs: so both compile in one program, the first edit in
// src itself and the second in a copy of the reached files alone (src/.contract-copy/, in memory only),
// whose imports of a file no edit reaches lead to that file. What such files declare (the portal's
// schemas, mostly) is then worked out once rather than once a proof: it was about three fifths of a
// proof's check. Each proof's output is the compiler's, byte for byte, as when each had a program of
// its own. Slow on purpose all the same, the proof being the compiler's: `vitest run` of this file
// alone took 11.0 s of CPU, 14.3 s with a program a proof (the medians of three, in turn, on this 2-core
// machine shared with other runs).
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

/** Where the second proof's copy of the reached files stands, inside src (tsconfig.build.json's rootDir). */
const CONTRACT_COPY = '.contract-copy';
const copyOf = (file: string): string => file.replace(`${ROOT}/src/`, `${ROOT}/src/${CONTRACT_COPY}/`);
const originalOf = (file: string): string => file.replace(`${ROOT}/src/${CONTRACT_COPY}/`, `${ROOT}/src/`);

/** Every file parsed, once (the edited feature never enters it). */
const parsed = new Map<string, ts.SourceFile>();

/**
 * The program of src with FEATURE's text replaced by `texts[0]`, and, for `texts[1]`, a copy of the files in
 * `reached` (FEATURE's with that text) whose imports of a reached file lead to its copy, and of any other file
 * to that file itself.
 */
function programWith(texts: readonly string[], reached: ReadonlySet<string> = new Set()): ts.Program {
  const feature = join(ROOT, FEATURE);
  const host = ts.createCompilerHost(CONFIG.options);
  const readSource = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, version, onError, create) => {
    const original = originalOf(resolve(fileName));
    const text = original === feature ? texts[fileName === original ? 0 : 1] : undefined;
    if (text !== undefined) return ts.createSourceFile(fileName, text, version);
    let file = parsed.get(fileName);
    if (!file) {
      file =
        fileName === original
          ? readSource(fileName, version, onError, create)
          : ts.createSourceFile(fileName, ts.sys.readFile(original) ?? '', version);
      if (file) parsed.set(fileName, file);
    }
    return file;
  };
  host.readFile = (fileName) => (resolve(fileName) === feature ? texts[0] : ts.sys.readFile(fileName));
  // A copy's import is resolved from its original, and leads to the copy of what it finds when that was reached.
  const cache = ts.createModuleResolutionCache(ROOT, (f) => f, CONFIG.options);
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, options, containing) => {
    const original = originalOf(resolve(containingFile));
    return literals.map((literal) => {
      const mode = ts.getModeForUsageLocation(containing, literal, options);
      const found = ts.resolveModuleName(literal.text, original, options, ts.sys, cache, redirected, mode);
      const to = found.resolvedModule && resolve(found.resolvedModule.resolvedFileName);
      if (original === resolve(containingFile) || to === undefined || !reached.has(to)) return found;
      return { ...found, resolvedModule: { ...found.resolvedModule!, resolvedFileName: copyOf(to) } };
    });
  };
  const copies = texts.length > 1 ? [...reached].map(copyOf) : [];
  return ts.createProgram({ rootNames: [...CONFIG.fileNames, ...copies], options: CONFIG.options, host });
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

/**
 * The compiler's verdict on src with FEATURE's text replaced by each of `texts` (two at most): whether it
 * passed, and its output as tsc prints it.
 */
function typecheck(texts: readonly string[]): { ok: boolean; output: string }[] {
  const reached = reachedByFeature(programWith(texts.slice(0, 1)));
  const program = programWith(texts, new Set(reached.map((f) => resolve(f.fileName))));
  const shared = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  return texts.map((_, i) => {
    const files = reached.map((f) => program.getSourceFile(i === 0 ? f.fileName : copyOf(resolve(f.fileName)))!);
    const diagnostics = [...shared, ...files.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)])];
    const output = ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' });
    return { ok: diagnostics.length === 0, output: output.replaceAll(`src/${CONTRACT_COPY}/`, 'src/') };
  });
}

const SOURCE = readFileSync(join(ROOT, FEATURE), 'utf8');

/** The timetable's `lessons` attribute renamed: its declaration and the two places the feature renders it, and nothing else. */
const renameLessons = (source: string): string => source.replaceAll(/\blessons: (?=SlotOut\[\]|\[\]|slotsOf\()/g, 'periods: ');
/** A nested attribute renamed, a field of the day's hours: the field's declaration and the one place the feature renders it. */
const renameTo = (source: string): string => source.replaceAll(/\bto(?=: string \} \| null|: span\.to)/g, 'until');
const EDITS = [renameLessons, renameTo];
/** The files that print what the timetable publishes: each feature's board and dashboard, and the briefing. */
const SCREENS = /^src\/features\/(\w+\/(board|dashboard)|briefing\/briefing)\.ts$/;

/** Each edit's verdict, both compiled by the first test that asks. */
let verdicts: { ok: boolean; output: string }[] | undefined;

/** The project's src with FEATURE `edit`ed: the files the compiler then refuses, and its output. */
function failingAfter(edit: (source: string) => string): { failing: Set<string | undefined>; output: string } {
  verdicts ??= typecheck(EDITS.map((e) => e(SOURCE)));
  const { ok, output } = verdicts[EDITS.indexOf(edit)]!;
  expect(ok).toBe(false);
  return { failing: new Set([...output.matchAll(/^(src\/[^(]+)\(\d+,\d+\): error/gm)].map((m) => m[1])), output };
}

describe('the typed contract from feature to screen', () => {
  it('fails the typecheck in the screens when the timetable renames its lessons attribute', () => {
    expect(renameLessons(SOURCE).match(/\bperiods: /g)).toHaveLength(3);
    const { failing, output } = failingAfter(renameLessons);
    expect(failing).toContain('src/features/timetable/dashboard.ts');
    expect(failing).toContain('src/features/timetable/board.ts');
    expect(failing).toContain('src/features/briefing/briefing.ts');
    // The feature itself renames consistently: only the screens (the dashboard, the board, the briefing, which
    // reads the day as published) that read `lessons` are wrong.
    expect(
      [...failing].filter((file) => !SCREENS.test(file ?? '')),
      output,
    ).toEqual([]);
    expect(output).toMatch(/"lessons"/);
  }, 240_000);

  it("fails the typecheck in the board when the timetable renames a field of the day's hours", () => {
    expect(renameTo(SOURCE).match(/\buntil: /g)).toHaveLength(2);
    const { failing, output } = failingAfter(renameTo);
    expect(failing).toContain('src/features/timetable/board.ts');
    expect(
      [...failing].filter((file) => !SCREENS.test(file ?? '')),
      output,
    ).toEqual([]);
    expect(output).toMatch(/'to'/);
  }, 240_000);
});
