// A feature is one folder (issue 66, item 4): an entity's key, and the prefix of the keys a feature makes
// from the data or the configuration (`average_<subject>`, `send_<id>`), are written in the feature's own
// folder and nowhere else in src/ (the simulator and the bench aside, see ASIDE), so that a screen
// (discovery, the dashboard, the board) takes a key from the declaration or from a helper the feature
// exports. Read by TypeScript's parser: a string literal equal to a key, or one (or a template's head)
// equal to a prefix; comments and variable names do not count.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { FEATURES } from '../../../src/features/index.js';
import type { Feature } from '../../../src/features/feature.js';
import type { AccountConfig } from '../../../src/config/schema.js';

const SRC = join(import.meta.dirname, '../../../src');
/**
 * The simulator is the portal's stand-in and the bench a harness around the bridge: neither is read to
 * learn what an entity is called, and the simulator may import nothing of the bridge (style 11).
 */
const ASIDE = ['bench/'];

/**
 * A one-word key (`grade`, `test`, `problem`, `briefing`) is left out: as a word it is also an event's
 * kind, a dashboard template's file, a class of the board. So are the two keys the interface also gives
 * other things: `school_year` (the diagnostics' year of a child, the school's full-year average of a
 * subject; interface 13.1) and `password_change_advised` (the `advice` a login keeps and `problem` carries;
 * interface 11).
 */
const ALSO_ELSEWHERE = new Set(['school_year', 'password_change_advised']);

/** An account with one fixed message: the entities a feature makes from the configuration. */
const MESSAGE_ID = 'MESSAGE-ID';
const ACCOUNT: AccountConfig = {
  login: 'example',
  downloads: false,
  write_messages: true,
  messages: [{ id: MESSAGE_ID, name: 'name', to: 'class_tutor', topic: '-', body: '-' }],
};

interface Spellings {
  keys: Set<string>;
  prefixes: Set<string>;
}

/** What a feature names: its entities' keys and event types, and the prefixes of the keys it makes. */
export function featureSpellings(f: Feature): Spellings {
  const keys = new Set(f.entities.flatMap((e) => [e.key, ...(e.eventTypes ?? [])]));
  const prefixes = new Set<string>();
  for (const e of f.configured?.(ACCOUNT) ?? []) {
    if (e.key.includes(MESSAGE_ID)) prefixes.add(e.key.slice(0, e.key.indexOf(MESSAGE_ID)));
    else keys.add(e.key);
  }
  // A documented example stands for its kind by `<...>` (`average_<subject>`); one without is a key.
  for (const e of f.dynamicExamples ?? []) {
    if (e.key.includes('<')) prefixes.add(e.key.slice(0, e.key.indexOf('<')));
    else keys.add(e.key);
  }
  prefixes.delete('');
  return { keys: new Set([...keys].filter((k) => k.includes('_') && !ALSO_ELSEWHERE.has(k))), prefixes };
}

/** The string literals of a file's code and the heads of its templates (the text before the first `${`). */
export function literals(file: string, source: string): { strings: Set<string>; heads: Set<string> } {
  const strings = new Set<string>();
  const heads = new Set<string>();
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) strings.add(node.text);
    if (ts.isTemplateHead(node)) heads.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { strings, heads };
}

/** The keys and prefixes of `names` a file spells: a literal equal to either, a template whose head ends in a prefix. */
export function spelled(found: ReturnType<typeof literals>, names: Spellings): string[] {
  const keys = [...names.keys].filter((k) => found.strings.has(k));
  const prefixes = [...names.prefixes].filter((p) => found.strings.has(p) || [...found.heads].some((h) => h.endsWith(p)));
  return [...keys, ...prefixes.map((p) => `${p}*`)];
}

/** The folder a file belongs to, as a feature's name ('' outside src/features/<name>/). */
const featureFolder = (file: string): string => /^features\/([^/]+)\//.exec(file)?.[1] ?? '';

/** The folder a feature lives in: its name, with dashes (`lessons_held` in features/lessons-held/). */
const homeOf = (f: Feature): string => f.name.replaceAll('_', '-');

describe("the entity keys, each written in its feature's folder", () => {
  it('spells no key and no key prefix outside the folder of the feature that declares it', () => {
    const sources = readdirSync(SRC, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.ts') && !ASIDE.some((a) => file.startsWith(a)))
      .map((file) => ({ file, found: literals(file, readFileSync(join(SRC, file), 'utf8')) }));
    const misplaced: string[] = [];
    const unseen: string[] = [];
    for (const f of FEATURES) {
      const names = featureSpellings(f);
      const home = homeOf(f);
      const seen = new Set<string>();
      for (const { file, found } of sources) {
        const where = spelled(found, names);
        if (featureFolder(file) === home) where.forEach((key) => seen.add(key));
        else for (const key of where) misplaced.push(`${key} (${f.name}): ${file}`);
      }
      // The scan sees what it looks for: each entity's key and each prefix is spelled at home (an event's
      // `<kind>_changed` and `<kind>_removed` are made from its kind).
      const declared = [...names.keys].filter((k) => !f.entities.some((e) => e.key !== k && e.eventTypes?.includes(k)));
      unseen.push(...[...declared, ...[...names.prefixes].map((p) => `${p}*`)].filter((k) => !seen.has(k)).map((k) => `${k} (${f.name})`));
    }
    expect(misplaced.sort()).toEqual([]);
    expect(unseen).toEqual([]);
  });

  it('leaves each key to at most one dashboard template besides its folder (issue 73: a key in at most 2 places)', () => {
    // A template reads an entity by the variable its card gives it; a second template reading the same entity
    // names it by what it is for (`tests`, `message`), not by the key again.
    const templates = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jinja'));
    const code = templates.map((file) => ({ file, text: readFileSync(join(SRC, file), 'utf8').replace(/\{#[\s\S]*?#\}/g, '') }));
    const keys = FEATURES.flatMap((f) => [...featureSpellings(f).keys]);
    const twice = keys.flatMap((key) => {
      const word = new RegExp(`(?<![\\w-])${key}(?![\\w-])`);
      const where = code.filter(({ text }) => word.test(text)).map(({ file }) => file);
      return where.length > 1 ? [`${key}: ${where.join(', ')}`] : [];
    });
    expect(templates.length).toBeGreaterThan(10);
    expect(twice).toEqual([]);
  });

  it("finds a key as a string, a prefix as a string or a template's head, not in a comment nor as a name", () => {
    const names = { keys: new Set(['next_lesson', 'timetable_today']), prefixes: new Set(['average_']) };
    const code = [
      '// next_lesson and average_ in a comment',
      'const timetable_today = 1; type T = { next_lesson: string };',
      "const b = sensor('timetable_today'); const a = `average_${slug}`;",
    ].join('\n');
    expect(spelled(literals('x.ts', code), names)).toEqual(['timetable_today', 'average_*']);
    expect(spelled(literals('x.ts', "e.key.startsWith('average_') || k === `next_lesson`"), names)).toEqual(['next_lesson', 'average_*']);
  });
});
