// An entity's key is written where the entity is declared (and where its feature renders it), and every
// other place takes it from the declaration (issue 57, item 6): the dashboard names a template's
// variable by `keyed(entity)`, the board and the contract read entities through their declarations. A
// key with an underscore is spelled in at most two source files (the simulator and the bench aside,
// comments left out, by TypeScript's own parser): as a string or as a property's name. A one-word key
// (`grade`, `test`, `problem`) is left out: as a word it is also an event's kind, a card's file, a class.
// So is `school_year`, the one key the interface also gives two other things (interface.md 13.1): the
// diagnostics' year of a child and the school's own full-year average of a subject.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ENTITIES } from '../../../src/features/index.js';

const SRC = join(import.meta.dirname, '../../../src');
const ASIDE = ['simulator/', 'bench/'];
const MOST = 2;

const ALSO_ELSEWHERE = new Set(['school_year']);
const KEYS = [...new Set(ENTITIES.flatMap((e) => [e.key, ...(e.eventTypes ?? [])]))].filter((key) => key.includes('_') && !ALSO_ELSEWHERE.has(key));

/** The keys a file's code spells: string literals, and names of properties (declared, assigned or read). */
export function spelledKeys(file: string, source: string, keys: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && keys.has(node.text)) found.add(node.text);
    if (ts.isIdentifier(node) && keys.has(node.text)) {
      const parent = node.parent;
      const named =
        (ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent) || ts.isShorthandPropertyAssignment(parent)) && parent.name === node;
      if (named || (ts.isPropertyAccessExpression(parent) && parent.name === node)) found.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('the entity keys, written where they are declared', () => {
  it(`spells each key with an underscore in at most ${MOST} source files`, () => {
    const keys = new Set(KEYS);
    const quick = new RegExp(KEYS.join('|'));
    const files = new Map<string, string[]>();
    for (const file of readdirSync(SRC, { recursive: true }).map(String)) {
      if (!file.endsWith('.ts') || ASIDE.some((a) => file.startsWith(a))) continue;
      const text = readFileSync(join(SRC, file), 'utf8');
      if (!quick.test(text)) continue;
      for (const key of spelledKeys(file, text, keys)) files.set(key, [...(files.get(key) ?? []), file]);
    }
    const over = [...files].filter(([, where]) => where.length > MOST).map(([key, where]) => `${key}: ${where.join(', ')}`);
    expect(over).toEqual([]);
    // The scan sees the keys at all: each entity's is spelled at least where it is declared (an event's
    // `<kind>_changed` and `<kind>_removed` are made from its kind).
    expect(ENTITIES.map((e) => e.key).filter((key) => KEYS.includes(key) && !files.has(key))).toEqual([]);
  });

  it('finds a key as a string and as a property name, not in a comment nor as a variable', () => {
    const keys = new Set(['next_lesson', 'at_school', 'timetable_today', 'unread_messages']);
    const code = [
      '// next_lesson in a comment',
      "const a = { at_school: 1 }; const b = sensor('timetable_today');",
      'type S = { next_lesson: string };',
      'const unread_messages = 1;',
    ].join('\n');
    expect([...spelledKeys('x.ts', code, keys)].sort()).toEqual(['at_school', 'next_lesson', 'timetable_today']);
  });
});
