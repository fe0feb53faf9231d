// docs/development.md answers "when is Grades read next, and why" in one paragraph that says how many files and
// ideas the answer takes. A cold reader counts them as this test does: the files are the backticked `src/...ts`
// paths, the ideas the backticked names (`GRADES`, `school_interval`); the counts the paragraph states must be
// these, every file must exist, every idea must be declared in (or, a config word or a field, written in) one of
// the files it names, and every hour it gives must be written in one of them. A moved rule, a renamed function or
// a count left behind makes it fail.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url);
const PAGE = readFileSync(new URL('docs/development.md', ROOT), 'utf8');
const paragraph = /<!-- reader:start -->([\s\S]*?)<!-- reader:end -->/.exec(PAGE)?.[1] ?? '';

const backticked = [...paragraph.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
const files = [...new Set(backticked.filter((b) => /^src\/[\w/-]+\.ts$/.test(b)))];
const ideas = [...new Set(backticked.filter((b) => /^[A-Za-z_]\w*$/.test(b)))];
const sources = files.filter((f) => existsSync(new URL(f, ROOT))).map((f) => readFileSync(new URL(f, ROOT), 'utf8'));

const NUMBERS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
  'twenty-one',
  'twenty-two',
  'twenty-three',
  'twenty-four',
  'twenty-five',
];
/** The number the paragraph states before `noun` ("Seven files"), or -1. */
function stated(noun: string): number {
  const word = new RegExp(`([A-Za-z-]+) ${noun}\\b`).exec(paragraph)?.[1]?.toLowerCase() ?? '';
  return NUMBERS.indexOf(word);
}

/** Declared as code (exported or not) in a named file, or, a word in lower case (a config key, a field), written there. */
function backed(idea: string): boolean {
  const declared = new RegExp(`\\b(function|const|class|interface|type|let)\\s+${idea}\\b`);
  const written = new RegExp(`\\b${idea}\\b`);
  return sources.some((text) => declared.test(text) || (/^[a-z_]+$/.test(idea) && written.test(text)));
}

describe("the reader's paragraph in docs/development.md", () => {
  it('names as many files as it says, each one there', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(stated('files')).toBe(files.length);
    for (const file of files) expect(existsSync(new URL(file, ROOT)), file).toBe(true);
  });

  it('names as many ideas as it says, each declared or written in a file it names', () => {
    expect(ideas.length).toBeGreaterThan(3);
    expect(stated('ideas')).toBe(ideas.length);
    expect(ideas.filter((idea) => !backed(idea))).toEqual([]);
  });

  it('gives only hours written in the files it names', () => {
    const hours = [...new Set([...paragraph.matchAll(/\b\d{2}:\d{2}\b/g)].map((m) => m[0]))];
    expect(hours.length).toBeGreaterThan(3);
    expect(hours.filter((hour) => !sources.some((text) => text.includes(`'${hour}'`)))).toEqual([]);
  });
});
