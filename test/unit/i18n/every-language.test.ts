// Every wording in every language: a key written in one language and forgotten in another fails here
// (the compiler catches a missing language; this catches an empty, English-copied or shape-changed one).
import { describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from '../../../src/config/language.js';
import { ENTITIES } from '../../../src/features/index.js';
import { BOARD_TEXT } from '../../../src/i18n/board-text.js';
import { DASHBOARD_TEXT } from '../../../src/i18n/dashboard-text.js';
import { CALENDAR_TEXT } from '../../../src/i18n/calendar-text.js';
import { CHECK_TEXT } from '../../../src/i18n/check-text.js';
import { FEATURE_TEXT } from '../../../src/i18n/feature-text.js';
import { AGENDA_WORDS, CHANGE_WORDS, WEEKDAYS } from '../../../src/i18n/lesson-words.js';
import { BEHAVIOUR_WORDS, MARK_WORDS } from '../../../src/i18n/school-words.js';
import { CONFIG_TEXT } from '../../../src/config/config-text.js';
import { TERMINAL_TEXT } from '../../../src/i18n/terminal-text.js';
import { DIAGNOSTICS_REFUSED, UNAUTHORIZED } from '../../../src/i18n/web-text.js';
import { bridgeProblemAdvice, problemReasons } from '../../../src/i18n/problem-advice.js';

/** Each leaf of a wording as `path → kind`: strings by their emptiness, functions, array lengths. */
function shape(value: unknown, path = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === 'string') out.set(path, value.trim() === '' ? 'empty' : 'text');
  else if (typeof value === 'function') out.set(path, `function/${value.length}`);
  else if (Array.isArray(value)) value.forEach((v, i) => shape(v, `${path}[${i}]`).forEach((k, p) => out.set(p, k)));
  else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) shape(v, `${path}.${key}`).forEach((k, p) => out.set(p, k));
  } else out.set(path, typeof value);
  return out;
}

/** The texts a language says, flattened to strings (functions called with sample words). */
function words(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'function') return [String((value as (...a: string[]) => unknown)('2026-11-26', '3'))];
  if (Array.isArray(value)) return value.flatMap(words);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(words);
  return [];
}

const TABLES: Record<string, (language: Language) => unknown> = {
  board: (l) => BOARD_TEXT[l],
  dashboard: (l) => DASHBOARD_TEXT[l],
  calendar: (l) => CALENDAR_TEXT[l],
  changes: (l) => CHANGE_WORDS[l],
  weekdays: (l) => WEEKDAYS[l],
  agenda: (l) => AGENDA_WORDS[l],
  check: (l) => CHECK_TEXT[l],
  features: (l) => FEATURE_TEXT[l],
  behaviour: (l) => BEHAVIOUR_WORDS[l],
  marks: (l) => MARK_WORDS[l],
  config: (l) => CONFIG_TEXT[l],
  terminal: (l) => TERMINAL_TEXT[l],
  web: (l) => [UNAUTHORIZED[l], DIAGNOSTICS_REFUSED[l]],
  bridgeProblem: (l) => problemReasons().map((reason) => bridgeProblemAdvice(reason, l)),
};

describe('every wording has every language', () => {
  for (const [table, of] of Object.entries(TABLES)) {
    it(`${table}: the same keys, all filled, in ${LANGUAGES.join(', ')}`, () => {
      const reference = [...shape(of('pl'))].sort();
      expect(reference.length).toBeGreaterThan(0);
      expect(reference.filter(([, kind]) => kind === 'empty')).toEqual([]);
      for (const language of LANGUAGES) expect([...shape(of(language))].sort(), `${table} ${language}`).toEqual(reference);
    });
  }

  it('Ukrainian is written in Ukrainian, not left in English or Polish', () => {
    for (const [table, of] of Object.entries(TABLES)) {
      const uk = words(of('uk'));
      const cyrillic = uk.filter((w) => /[а-яіїєґ]/i.test(w));
      // A few words are the same everywhere ("webcal", numbers); most must be Ukrainian.
      expect(cyrillic.length / uk.length, table).toBeGreaterThan(0.9);
    }
  });

  it('names every entity in every language, the Ukrainian name in Cyrillic', () => {
    for (const entity of ENTITIES) {
      for (const language of LANGUAGES) expect(entity.name[language]?.trim(), `${entity.key} ${language}`).toBeTruthy();
      expect(entity.name.uk, entity.key).toMatch(/[А-ЯІЇЄҐа-яіїєґ]/);
      expect(entity.name.uk, entity.key).not.toBe(entity.name.pl);
      if (entity.short) expect([entity.key, entity.short.uk], 'short').toEqual([entity.key, expect.stringMatching(/[А-ЯІЇЄҐа-яіїєґ]/)]);
    }
  });
});
