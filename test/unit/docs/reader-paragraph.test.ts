// docs/development.md answers "when is Grades read next, and why" in one paragraph: it may name at most
// four files and fifteen symbols (issue 66), every file it names exists, and every symbol it names is exported by one
// of those files (a renamed function or a moved file makes it fail, so the answer stays true).
import { readFileSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url);
const PAGE = readFileSync(new URL('docs/development.md', ROOT), 'utf8');
const paragraph = /<!-- reader:start -->([\s\S]*?)<!-- reader:end -->/.exec(PAGE)?.[1] ?? '';

const files = [...new Set([...paragraph.matchAll(/`(src\/[^`]+\.ts)`/g)].map((m) => m[1]!))];
/** The code it names: a backticked name with a capital in it (camelCase or a constant), a method after a dot; the config's words (`school_interval`) are not code. */
const symbols = [...new Set([...paragraph.matchAll(/`([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)`/g)].map((m) => m[1]!))].filter((s) =>
  /[A-Z]/.test(s),
);

/** Whether a file exports a name (a function, a const, a class or a type), or a class of it has the method. */
function exports(file: string, symbol: string): boolean {
  const text = readFileSync(new URL(file, ROOT), 'utf8');
  const [owner, member] = symbol.split('.');
  const exported = new RegExp(`export (async )?(function|const|class|interface|type) ${owner}\\b`).test(text);
  return exported && (member === undefined || new RegExp(`\\n  (async )?${member}[<(]`).test(text));
}

describe("the reader's paragraph in docs/development.md", () => {
  it('names at most four files, each one there', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(files.length).toBeLessThanOrEqual(4);
    for (const file of files) expect(existsSync(new URL(file, ROOT)), file).toBe(true);
  });

  it('names at most fifteen symbols, each exported by a file it names', () => {
    expect(symbols.length).toBeGreaterThan(3);
    expect(symbols.length).toBeLessThanOrEqual(15);
    for (const symbol of symbols)
      expect(
        files.some((file) => exports(file, symbol)),
        symbol,
      ).toBe(true);
  });
});
