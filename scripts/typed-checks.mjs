// One TypeScript project's typecheck and its type-aware lint in one process, on one program: what
// `tsc -p <project> --noEmit` and `eslint <files>` each did on a program of their own. The lint's
// type-aware rules (no-floating-promises, no-misused-promises) ask the same type checker the typecheck
// has already filled, so the project is read, bound and checked once instead of twice: scripts/checks.mjs
// runs one of these per project. The rules, the files and the config are eslint.config.js's, unchanged;
// only where the types come from differs (the program given rather than the project service's, built
// from the same tsconfig.json).
//
//   node scripts/typed-checks.mjs <tsconfig.json> [--lint <path>...] [--lint-ignore <glob>...]
import path from 'node:path';
import process from 'node:process';
import { ESLint } from 'eslint';
import ts from 'typescript';

const [project, ...rest] = process.argv.slice(2);
if (!project) throw new Error('usage: typed-checks.mjs <tsconfig.json> [--lint <path>...] [--lint-ignore <glob>...]');
const lint = [];
const ignore = [];
for (let i = 0, into = lint; i < rest.length; i++) {
  if (rest[i] === '--lint') into = lint;
  else if (rest[i] === '--lint-ignore') into = ignore;
  else into.push(rest[i]);
}

// The typecheck, as tsc reports it: the config's diagnostics, then the program's, with each file's types
// checked in the project that includes it. A module a project only imports is another project's: the
// board's browser code imports the board model's types, and with them some 200 server modules, which the
// root project checks against the libraries they run with (Node's, not the DOM's); checking them again in
// the browser project took it from 5.1 to 9.7 s of CPU (medians of three). (The root imports only the browser
// code's news order, in a test, and a script's declarations, which skipLibCheck skips.)
const parsed = ts.getParsedCommandLineOfConfigFile(
  path.resolve(project),
  { noEmit: true },
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
);
if (!parsed) throw new Error(`cannot read ${project}`);
const program = ts.createProgram({
  rootNames: parsed.fileNames,
  options: parsed.options,
  projectReferences: parsed.projectReferences,
  host: ts.createCompilerHost(parsed.options, true),
});
const own = new Set(parsed.fileNames.map((file) => path.resolve(file)));
const diagnostics = [
  ...parsed.errors,
  ...ts.sortAndDeduplicateDiagnostics([
    ...program.getOptionsDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSourceFiles().flatMap((file) => (own.has(path.resolve(file.fileName)) ? program.getSemanticDiagnostics(file) : [])),
  ]),
];
const format = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' };
let failed = false;
if (diagnostics.length > 0) {
  process.stdout.write(ts.formatDiagnostics(diagnostics, format));
  failed = diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error);
}
process.stdout.write(`typecheck ${project}: ${diagnostics.length} diagnostics\n`);

if (lint.length > 0) {
  // eslint.config.js's typed block gives `projectService: true`; the program replaces it for the same files.
  const eslint = new ESLint({
    ignorePatterns: ignore,
    overrideConfig: [{ files: ['src/**/*.ts', 'test/**/*.ts'], languageOptions: { parserOptions: { projectService: false, programs: [program] } } }],
  });
  const results = await eslint.lintFiles(lint);
  const text = (await eslint.loadFormatter('stylish')).format(results);
  if (text) process.stdout.write(text);
  if (results.some((r) => r.errorCount > 0 || r.fatalErrorCount > 0)) failed = true;
  process.stdout.write(`lint ${lint.join(' ')}: ${results.length} files\n`);
}
process.exitCode = failed ? 1 : 0;
