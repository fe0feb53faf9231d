// The pages name the repository's files and show its code: a reader who follows a path must find the file, and a
// TypeScript snippet must be code that compiles today. Two kinds of check, over README.md, CONTRIBUTING.md,
// docs/*.md and the app's DOCS.md:
// - every path in backticks or in a code block: one that starts at a top folder of the repository (`src/once/`,
//   `test/helpers/mqtt.ts`, `scripts/bundle.mjs`) must be there; a file of code or a folder written from inside
//   src/ or test/ (`features/lucky/rules.ts`, `web/browser/`) must be the end of a path that is there; a bare file
//   name of code (`memory.ts`, `plan.jinja`) must be some file's name; a module specifier in quotes
//   (`'../../engine/source.js'`) must name a module that is there. Placeholders (`<name>`, `*`, `...`), what a run
//   makes (`dist/`, `data_dir/`, `test/artifacts/`), absolute paths, addresses (`ghcr.io/...`), paths beside the
//   checkout (`../shared/...`) and other projects' files (Home Assistant's `config_flow.py`) are none of ours.
// - every ```ts or ```typescript block compiles against the sources, all in one program. Its first line may say
//   where it sits, `// in src/features/<folder>/` (or name a file there), so that its relative imports resolve from
//   that folder; without it the snippet sits in src/.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '..', '..', '..');
const TOP = ['src', 'test', 'scripts', 'docs', 'fixtures', 'blueprints', 'examples', 'hassio-addon', '.github', '.ci'];
const MADE_BY_A_RUN = ['dist/', 'data_dir/', 'data/', 'node_modules/', 'test/artifacts/', 'coverage/'];
/** Outside a top folder only code is checked: a page also names files a run writes (`options.json`) and other projects' code. */
const CODE = /\.(ts|mts|mjs|jinja)$/;

/** Every page a reader follows paths from. */
function pages(): string[] {
  const docs = readdirSync(join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', 'CONTRIBUTING.md', 'hassio-addon/DOCS.md', ...docs];
}

/** The repository's files and folders, as paths from its root (what a run makes left out). */
function tree(): { files: string[]; folders: string[] } {
  const files: string[] = readdirSync(REPO).filter((f) => statSync(join(REPO, f)).isFile());
  const folders: string[] = [];
  for (const top of TOP.filter((t) => existsSync(join(REPO, t)))) {
    folders.push(top);
    for (const entry of readdirSync(join(REPO, top), { recursive: true, withFileTypes: true })) {
      const path = posix.join(posix.relative(REPO, entry.parentPath).split('\\').join('/'), entry.name);
      if (MADE_BY_A_RUN.some((made) => `${path}/`.startsWith(made))) continue;
      if (entry.isDirectory()) folders.push(path);
      else files.push(path);
    }
  }
  return { files, folders };
}

interface Code {
  page: string;
  line: number;
  text: string;
  /** The fence's language for a block; undefined for a code span. */
  lang?: string;
}

/** A page's code spans and fenced blocks, each with the line it starts on. */
function codeOf(page: string, markdown: string): Code[] {
  const out: Code[] = [];
  const lines = markdown.split('\n');
  let fence: { lang: string; start: number; body: string[]; indent: string } | undefined;
  lines.forEach((line, i) => {
    const open = /^(\s*)(```|~~~)\s*([\w-]*)/.exec(line);
    if (fence) {
      if (open && line.trim().startsWith('```')) {
        out.push({ page, line: fence.start + 2, text: fence.body.join('\n'), lang: fence.lang });
        fence = undefined;
      } else fence.body.push(line.startsWith(fence.indent) ? line.slice(fence.indent.length) : line);
      return;
    }
    if (open) {
      fence = { lang: open[3] ?? '', start: i, body: [], indent: open[1] ?? '' };
      return;
    }
    for (const span of line.matchAll(/`([^`]+)`/g)) out.push({ page, line: i + 1, text: span[1]! });
  });
  return out;
}

/** The paths a piece of code names: its whitespace-separated words that look like one, and its quoted module specifiers. */
function pathsIn(text: string): { word: string; specifier: boolean }[] {
  const specifiers = [...text.matchAll(/(?:from\s+|import\(\s*|declare module\s+|import\s+)['"](\.\.?\/[^'"]+)['"]/g)].map((m) => ({
    word: m[1]!,
    specifier: true,
  }));
  const words = text
    .split(/[\s,;()[\]{}=|]+/)
    .map((w) =>
      w
        .replace(/^['"]+|['".:]+$/g, '')
        .replace(/'s$/, '')
        .replace(/:[\w.-]+$/, ''),
    )
    .filter((w) => (w.includes('/') || CODE.test(w)) && !/^\.\w+$/.test(w))
    .filter((w) => !/[<>*$~{}]|\.\.\.|^\w+:\/\/|^\/|^\.\.?\/|^[^/]*\.[^/]*\//.test(w))
    .filter((w) => !MADE_BY_A_RUN.some((made) => `${w}/`.startsWith(made)))
    .map((word) => ({ word, specifier: false }));
  return [...specifiers, ...words];
}

/** Why `word` names nothing in the repository, or undefined when it does. */
function missing(word: string, specifier: boolean, files: readonly string[], folders: readonly string[]): string | undefined {
  if (specifier) {
    // A module specifier: the module it names, from whatever folder; `.js` is how TypeScript's NodeNext names a `.ts`.
    const module = word.replace(/^(\.\.?\/)+/, '').replace(/\.js$/, '.ts');
    return files.some((f) => f === module || f.endsWith(`/${module}`)) ? undefined : 'no module of that name';
  }
  const path = word.replace(/\/$/, '');
  const isFolder = word.endsWith('/');
  const known = isFolder ? folders : [...files, ...folders];
  if (TOP.some((top) => path === top || path.startsWith(`${top}/`))) return known.includes(path) ? undefined : 'not in the repository';
  if (!path.includes('/')) {
    if (isFolder || !CODE.test(path)) return undefined; // a folder's bare name (`once/`): too short to say whose
    return files.some((f) => posix.basename(f) === path) ? undefined : 'no file of that name';
  }
  // Written from inside a top folder (`features/lucky/rules.ts`, `web/browser/`): the end of a path that is there.
  if (!isFolder && !CODE.test(path)) return undefined; // a topic, a user's config/config.yaml, another project's file
  return known.some((k) => k.endsWith(`/${path}`)) ? undefined : 'no path ends so';
}

/** A snippet's folder: its first line's `// in <folder>/`, or the folder of the file it names; src/ else. */
function folderOf(snippet: string): string {
  const first = /^\/\/\s*(?:in\s+)?((?:src|test)\/[\w./<>-]*)/.exec(snippet.trimStart())?.[1];
  if (first === undefined) return 'src';
  return first.endsWith('/') ? first.replace(/\/$/, '') : first.endsWith('.ts') ? posix.dirname(first) : first;
}

/** Compiles every snippet in one program against the sources; one line per diagnostic, empty when all compile. */
function compileSnippets(snippets: readonly Code[]): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(REPO, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (config === undefined) throw new Error('tsconfig.json could not be read');
  const virtual = new Map<string, { code: Code; text: string }>();
  snippets.forEach((code, i) => {
    const name = join(REPO, folderOf(code.text), `docs-snippet-${i}.ts`);
    // `export {}` makes a snippet without imports a module, as every file of src/ is.
    virtual.set(name, { code, text: `${code.text}\nexport {};\n` });
  });
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.getSourceFile = (name, language, onError, create) => {
    const snippet = virtual.get(name);
    return snippet ? ts.createSourceFile(name, snippet.text, language, true) : getSourceFile(name, language, onError, create);
  };
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  host.readFile = (name) => virtual.get(name)?.text ?? readFile(name);
  const program = ts.createProgram({ rootNames: [...virtual.keys()], options: { ...config.options, noEmit: true }, host });
  return [...virtual].flatMap(([name, { code }]) => {
    const file = program.getSourceFile(name);
    if (file === undefined) return [`${code.page}:${code.line}: the snippet was not compiled`];
    return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((d) => {
      const at = d.start === undefined ? 0 : file.getLineAndCharacterOfPosition(d.start).line;
      return `${code.page}:${code.line + at}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    });
  });
}

describe('the paths and the TypeScript in the pages', () => {
  const { files, folders } = tree();
  const code = pages().flatMap((page) => codeOf(page, readFileSync(join(REPO, page), 'utf8')));

  it('name only files and folders the repository has', () => {
    const wrong = code.flatMap((c) =>
      pathsIn(c.text).flatMap(({ word, specifier }) => {
        const why = missing(word, specifier, files, folders);
        return why === undefined ? [] : [`${c.page}:${c.line}: ${word}: ${why}`];
      }),
    );
    expect(wrong).toEqual([]);
  });

  // One program for the pages' snippets and the two below that prove the check (a program costs seconds).
  const FIXTURE = 'docs/example.md';
  const good: Code = {
    page: FIXTURE,
    line: 10,
    lang: 'ts',
    text: "// in src/features/lucky/\nimport { feature } from '../feature.js';\nexport const f = feature;",
  };
  const bad: Code = {
    page: FIXTURE,
    line: 20,
    lang: 'ts',
    text: "// in src/features/lucky/\nimport type { Source } from '../../polling/source.js';\nexport type S = Source;",
  };
  const snippets = code.filter((c) => c.lang === 'ts' || c.lang === 'typescript');
  let diagnostics: string[] | undefined;
  const compiled = (): string[] => (diagnostics ??= compileSnippets([...snippets, good, bad]));

  // The program binds some 400 files of src/ the snippets import: about 5 s of CPU (`process.cpuUsage()` around
  // ts.createProgram and the snippets' diagnostics), longer in wall time on a busy machine.
  it('compile, each TypeScript snippet against the sources', { timeout: 60_000 }, () => {
    expect(snippets.length).toBeGreaterThan(0);
    expect(compiled().filter((d) => !d.startsWith(FIXTURE))).toEqual([]);
  });

  it('tell a path that is gone from one that is there', () => {
    const check = (word: string, specifier = false) => missing(word, specifier, files, folders);
    expect(check('src/once/memory.ts')).toBeUndefined();
    expect(check('src/once/')).toBeUndefined();
    expect(check('features/lucky/rules.ts')).toBeUndefined();
    expect(check('memory.ts')).toBeUndefined();
    expect(check('../../engine/source.js', true)).toBeUndefined();
    expect(check('src/polling/source.ts')).toBe('not in the repository');
    expect(check('resources/feed.ts')).toBe('no path ends so');
    expect(check('no-such-file.ts')).toBe('no file of that name');
    expect(check('../../polling/source.js', true)).toBe('no module of that name');
    expect(pathsIn("declare module '../../polling/source.js'").map((p) => p.word)).toContain('../../polling/source.js');
    expect(folderOf('// in src/features/lucky/\nx')).toBe('src/features/lucky');
    expect(folderOf('// src/features/lucky/lucky.ts\nx')).toBe('src/features/lucky');
    expect(folderOf('const x = 1;')).toBe('src');
    expect(pathsIn('data_dir/seen/<child>.json dist/main.js test/artifacts/file-times.tsv /usr/bin/chromium ../shared/tools/x.py')).toEqual([]);
  });

  it('tell a snippet that does not compile, naming its page and line', { timeout: 60_000 }, () => {
    expect(compiled().filter((d) => d.startsWith(FIXTURE))).toEqual([
      expect.stringMatching(/^docs\/example\.md:21: TS2307 Cannot find module '\.\.\/\.\.\/polling\/source\.js'/),
    ]);
  });
});
