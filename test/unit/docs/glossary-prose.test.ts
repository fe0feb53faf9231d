// What a person reads says each word of docs/development.md's glossary in its one meaning: the pages (docs/,
// README, CONTRIBUTING, the app's DOCS.md) and every string of the product (a log line, an error, a word a
// parent reads; the simulator aside). "poll" names nothing (a pass or a read); the family portal's login is
// the family road, never the "e-mail road" or "e-mail login"; "memory" alone is the event memory, the
// process's is its RSS or heap. The published names keep theirs, each listed below with why; a finding names
// its file, line and words.
import { readFileSync, readdirSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tsFiles } from '../../helpers/import-graph.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SRC = `${ROOT}src/`;

/** A retired word: how it is found, the published names that keep it (taken out of the text first), and what to say instead. */
interface Word {
  found: RegExp;
  published: { name: RegExp; why: string }[];
  instead: string;
}

const WORDS: Record<'poll' | 'family road' | 'memory', Word> = {
  poll: {
    found: /\bpoll(s|ed|er|ers|ing)?\b/,
    published: [
      { name: /\bpoll\.(interval|fast_interval|school_interval|quiet_hours)\b|\bpoll:/g, why: "the config's `poll:` group and its keys" },
      { name: /\bpoll_interval\b/g, why: "the app's option" },
      { name: /\bdziennik2mqtt_poll_duration_seconds\b/g, why: 'the metric a Prometheus dashboard reads' },
      {
        name: /\bpolling\.md\b|#polling-schedule\b/g,
        why: 'the page docs/polling.md and its anchor #polling-schedule, to which the pages and the README link',
      },
      { name: /^## Polling schedule$/gm, why: "docs/polling.md's heading, whose anchor #polling-schedule the pages and the README link to" },
      { name: /^poll$/g, why: "the config group's key as a string of the code (`Pick<SimulationOptions, 'poll'>`)" },
    ],
    instead: 'a pass or a read',
  },
  'family road': {
    found: /\be-?mail[ -](road|login)\b|\bfamily login\b/i,
    published: [],
    instead: "the family road (the family portal's login)",
  },
  memory: {
    found: /\bmemory\b/i,
    published: [
      { name: /\bevent[\s_]+memory\b/gi, why: 'the event memory itself, and its retained topic `event_memory`' },
      {
        name: /\bmemory_mb\b|\bsensor\.dziennik2mqtt_bridge_memory\b|`[Mm]emory`|\bmdi:memory\b/g,
        why: "the bridge device's published `memory` sensor: its field, entity, name and icon",
      },
      { name: /\bprocess_resident_memory_bytes\b/g, why: "Prometheus' own name for the RSS" },
      { name: /"heap out of memory"/g, why: "Node's own words, quoted as it died" },
      { name: /[\w./-]*\bmemory[\w.-]*\.(ts|js|json)\b/g, why: 'a file of the repository (src/once/memory.ts, lost-memory.test.ts)' },
    ],
    instead: "the event memory; the process's memory is its RSS or heap",
  },
};

/** Blanks as long as what they stand for, so that what is left keeps its places (and its lines). */
const blank = (taken: string): string => taken.replace(/[^\n]/g, ' ');

/** Each retired word a text says, where, and the words around it; a link's target is an address, not words. */
function retiredAt(text: string): { at: number; said: string }[] {
  const prose = text.replace(/\]\([^)\s]*\)/g, blank);
  return Object.entries(WORDS).flatMap(([word, { found, published }]) => {
    // A word in quotes is named, not used: the glossary says "poll" names nothing.
    const named = new RegExp(`"(${found.source})"`, 'gi');
    const left = published.reduce((rest, p) => rest.replace(p.name, blank), prose.replace(named, blank));
    return [...left.matchAll(new RegExp(found.source, 'gi'))].map((m) => ({
      at: m.index,
      said: `${word}: "${left
        .slice(Math.max(0, m.index - 40), m.index + 40)
        .replace(/\s+/g, ' ')
        .trim()}"`,
    }));
  });
}

const retiredIn = (text: string): string[] => retiredAt(text).map((r) => r.said);

/** The pages a person reads, from the repository's root. */
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  'hassio-addon/DOCS.md',
  ...readdirSync(`${ROOT}docs`)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Every retired word of the pages, as `page:line word: words`; a page is read whole, as a word may end one line and the next begin it. */
function retiredInPages(): string[] {
  return PAGES.flatMap((page) => {
    const text = readFileSync(`${ROOT}${page}`, 'utf8');
    return retiredAt(text).map((r) => `${page}:${text.slice(0, r.at).split('\n').length} ${r.said}`);
  });
}

/** A string that is one word alone is a key or a label, not a sentence: the bridge device's `memory` sensor and its name "Memory". */
const LABEL = /^memory$/i;

/** Every string of the product (src/, the simulator aside) that says a retired word, as `file:line word: words`. */
function retiredInStrings(): string[] {
  const found: string[] = [];
  for (const path of tsFiles(SRC)) {
    const file = relative(SRC, path).split(sep).join('/');
    const text = readFileSync(path, 'utf8');
    if (file.startsWith('simulator/') || !/poll|mail|family|memory/i.test(text)) continue;
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      const literal = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node);
      if (literal && !LABEL.test(node.text) && !ts.isImportDeclaration(node.parent) && !ts.isExportDeclaration(node.parent)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        found.push(...retiredIn(node.text).map((finding) => `src/${file}:${line} ${finding}`));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('the words a person reads', () => {
  it('finds each retired word, and leaves the published names and the words that replaced it', () => {
    for (const text of [
      'the next poll tries again',
      'polling goes on',
      'a captcha on the e-mail login',
      'the e-mail road',
      "the bridge's memory (RSS)",
      'in memory',
    ])
      expect(retiredIn(text), text).not.toEqual([]);
    for (const text of [
      'set poll.interval or poll_interval; see [the schedule](polling.md#polling-schedule), `dziennik2mqtt_poll_duration_seconds`',
      '## Polling schedule',
      'the next pass tries again; the family road; an e-mail entry',
      'the event memory, its retained `event_memory`; the event\n  memory is signed; "poll" names nothing, nor does "e-mail road"',
      '`Memory` (its RSS in MB), `memory_mb`, src/once/memory.ts, `lost-memory.test.ts`, "heap out of memory"',
    ])
      expect(retiredIn(text), text).toEqual([]);
  });

  it('says each word in its one meaning in every page', () => {
    expect(retiredInPages()).toEqual([]);
  });

  it('says each word in its one meaning in every string of the product', () => {
    expect(retiredInStrings()).toEqual([]);
  });

  it("names in the glossary the published names that keep a retired word, and the word chosen for the family portal's login", () => {
    const page = readFileSync(`${ROOT}docs/development.md`, 'utf8');
    const glossary = /<!-- glossary:start -->([\s\S]*?)<!-- glossary:end -->/.exec(page)?.[1] ?? '';
    for (const name of [
      '`poll:`',
      '`poll_interval`',
      '`dziennik2mqtt_poll_duration_seconds`',
      'docs/polling.md',
      '**family road**',
      '**RSS**',
      '**heap**',
      '`memory`',
    ])
      expect(glossary, name).toContain(name);
  });
});
