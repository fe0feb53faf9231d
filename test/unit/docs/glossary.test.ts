// docs/development.md keeps the project's words, one meaning each, between its glossary markers: a term is
// a bold word followed by a colon or by its meaning in parentheses. A term defined twice, in the glossary or
// again elsewhere on the page, fails here, naming it. The code must say what the page says: an identifier in
// src/ named with a word the glossary retired ("feed" alone, "poll", the "e-mail road", "plan" in another
// sense than the planner's) fails too, naming its file, line and name; so does a string of the product (a log line,
// an error, a word a parent reads) that says "poll", the config's and the metrics' published names aside.
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tsFiles } from '../../helpers/import-graph.js';

const PAGE = readFileSync(new URL('../../../docs/development.md', import.meta.url), 'utf8');
const glossary = /<!-- glossary:start -->([\s\S]*?)<!-- glossary:end -->/.exec(PAGE)?.[1] ?? '';
const rest = PAGE.replace(glossary, '');
const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

/** The terms a text defines: `**term**:` or `**term** (...)`, lower-cased. */
function defined(text: string): string[] {
  return [...text.matchAll(/\*\*([^*]+)\*\*\s*(?::|\()/g)].map((m) => m[1]!.trim().toLowerCase());
}

/** An identifier's words, lower-cased: `ChildChangeFeed` is child, change, feed; `FEED_NAMES` is feed, names. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_$]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

/**
 * The files whose `plan` is the planner's own: what engine/plan.ts returns, the child's facts that
 * runner/account-plan.ts hands it, and docs/polling.md's table of it (features/plan-table.ts). The names
 * they export keep that meaning wherever they are used.
 */
const PLANNER_FILES = ['engine/plan.ts', 'runner/account-plan.ts', 'features/plan-table.ts'];

/** The names a file exports (a function, a class, an interface, a type, a constant). */
function exportedNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    if (!ts.canHaveModifiers(statement) || !ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return [];
    if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.map((d) => d.name.getText(source));
    const name = (statement as ts.DeclarationStatement).name;
    return name === undefined ? [] : [name.getText(source)];
  });
}

const PLANNER_NAMES = new Set(PLANNER_FILES.flatMap((file) => exportedNames(`${SRC}${file}`)));

/** Where an identifier stands: its file (relative to src/, with slashes), and what is written just before it. */
interface Site {
  file: string;
  /** The text of the expression a property is read from (`config` in `config.poll`), if any. */
  object?: string;
}

/**
 * The names a user or a file sees, which the public interface fixes: they keep their words, each for its
 * reason, where it holds.
 */
const ALLOWED: { name: string; where: (site: Site) => boolean; why: string }[] = [
  {
    name: 'feeds',
    where: (site) => site.file === 'features/calendar-feeds/kept-calendar-feeds.ts',
    why: 'the key of data_dir/feeds/<login>.json, where the calendar feeds last served are kept for a restart',
  },
  { name: 'feed_missed', where: () => true, why: "the diagnostics' per-child count of the changes the change feed missed (interface 11.1)" },
  ...[
    'feed_lost_change_minutes',
    'feed_safety_hours',
    'feed_worst_gap_seconds',
    'fresh_feed_allday_worst',
    'requests_feed_family',
    'requests_feed_reference',
    'requests_feed_register',
    'requests_polling_allday',
    'fresh_polling_allday_worst',
  ].map((name) => ({
    name,
    where: (site: Site) => site.file.startsWith('bench/'),
    why: "a bench figure's key in docs/bench-figures.json, which the pages print",
  })),
  {
    name: 'poll_interval',
    where: () => true,
    why: "the app's option (hassio-addon/config.yaml, DOCS.md) and its name in bridge/info's config summary (interface 3)",
  },
  {
    name: 'poll',
    where: (site) => site.file.startsWith('config/') || site.file.startsWith('bench/') || /(^|\.)config$/.test(site.object ?? ''),
    why: "the config's `poll:` group (interval, fast_interval ...): its schema, the bench's options that pass it on, and `config.poll`",
  },
  {
    name: 'pref_disable_polling',
    where: (site) => site.file.startsWith('bench/'),
    why: "a field of Home Assistant's own config entry, in the bench's model of it",
  },
  { name: 'plan_search', where: () => true, why: "a kindergarten's `plan_search` in the diagnostics (interface 12.2)" },
  { name: 'plan_source', where: () => true, why: "a kindergarten's `plan_source` in the diagnostics (interface 12.2)" },
  {
    name: 'plan',
    where: (site) =>
      ['engine/figures-store.ts', 'features/status/figures.ts', 'app/commands/diagnostics.ts', 'app/commands/dashboard.ts'].includes(site.file),
    why: "the key of data_dir's figures file that holds a kindergarten's plan_search and plan_source, which earlier runs wrote",
  },
];

/** Why a name uses a retired word, or undefined when it uses none (the allowed names aside). */
function retiredWord(name: string): string | undefined {
  const words = wordsOf(name);
  const at = (i: number) => words[i] ?? '';
  for (const [i, word] of words.entries()) {
    if ((word === 'feed' || word === 'feeds') && at(i - 1) !== 'change' && at(i - 1) !== 'calendar')
      return '"feed" alone: a change feed (changeFeed) or a calendar feed (calendarFeed)';
    if (/^poll(s|ed|er|ers|ing)?$/.test(word)) return '"poll": a pass (PassRunner, Source.compute), a read or a schedule';
    if (word === 'email' && at(i + 1) === 'road') return 'the "e-mail road": the family road (familyRoad)';
    if ((word === 'plan' || word === 'plans') && !/^changes?$/.test(at(i + 1)) && at(i - 1) !== 'kindergarten' && !PLANNER_NAMES.has(name))
      return '"plan" is what the planner returns: a kindergarten plan, a plan change, a timetable or steps are named so';
  }
  return undefined;
}

interface Finding {
  at: string;
  name: string;
  why: string;
}

/**
 * Why a name says "memory" in another sense than the event memory, or undefined. A file in src/once/, or one
 * that imports from it, speaks of the event memory and may call it "memory" alone; anywhere else the word stands
 * only after "event" (`eventMemory`), and the process's memory is its RSS or heap.
 */
function otherMemory(name: string, site: Site & { once: boolean }): string | undefined {
  const words = wordsOf(name);
  const alone = words.some((word, i) => /^memor(y|ies)$/.test(word) && words[i - 1] !== 'event');
  if (!alone || site.once || MEMORY_SENSOR.some((a) => a.name === name && a.where(site))) return undefined;
  return '"memory" is the event memory (eventMemory); the process\'s is its RSS or heap, another store is named for what it holds';
}

/** The bridge device's published sensor of the process's RSS (its key `memory`, its field `memory_mb`, interface 12), and Node's `process.memoryUsage`. */
const MEMORY_SENSOR: { name: string; where: (site: Site) => boolean }[] = [
  { name: 'memory_mb', where: () => true },
  { name: 'memoryUsage', where: () => true },
  {
    name: 'memory',
    where: (site) =>
      ['outputs/mqtt/discovery.ts', 'outputs/homeassistant/dashboard.ts'].includes(site.file) || site.file.startsWith('i18n/dashboard-text'),
  },
];

/** Whether a file speaks of the event memory: it is in src/once/ or imports from there. */
const speaksOfEventMemory = (file: string, source: ts.SourceFile): boolean =>
  file.startsWith('once/') ||
  source.statements.some((s) => ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && /(^|\/)once\//.test(s.moduleSpecifier.text));

/**
 * Why a declaration's name says "family" alone for the family road, or undefined: a field, parameter or variable
 * named `family` (or `alsoFamily`, `families`) that holds the family portal's account (`FamilyAccount`) names the
 * household for a login. The household keeps the word (the family board, what the family deleted), and so does
 * the diagnostics' published `families`, the config's e-mail entries.
 */
function familyForTheRoad(node: ts.Node, source: ts.SourceFile): string | undefined {
  const declaration = ts.isPropertySignature(node) || ts.isPropertyDeclaration(node) || ts.isParameter(node) || ts.isVariableDeclaration(node);
  if (!declaration || !ts.isIdentifier(node.name) || !/^famil(y|ies)$/.test(wordsOf(node.name.text).at(-1) ?? '')) return undefined;
  const holds = `${node.type?.getText(source) ?? ''} ${ts.isPropertySignature(node) ? '' : (node.initializer?.getText(source) ?? '')}`;
  return /\bFamilyAccount\b/.test(holds) ? '"family" is the household: the family portal\'s account is the family road (familyRoad)' : undefined;
}

/** Every identifier of src/ named with a retired word, as `file:line`. */
function retiredInSrc(): Finding[] {
  const found: Finding[] = [];
  for (const path of tsFiles(SRC)) {
    const text = readFileSync(path, 'utf8');
    // Only a file that holds one of the words anywhere is parsed (about 160 of 400).
    if (!/feed|poll|email_?road|plan|memor|family/i.test(text)) continue;
    const file = relative(SRC, path).split(sep).join('/');
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const planner = PLANNER_FILES.includes(file);
    const once = speaksOfEventMemory(file, source);
    const visit = (node: ts.Node): void => {
      const road = familyForTheRoad(node, source);
      if (road !== undefined)
        found.push({
          at: `src/${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`,
          name: (node as ts.NamedDeclaration).name!.getText(source),
          why: road,
        });
      if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
        const name = node.text;
        const parent = node.parent;
        const object =
          parent !== undefined && ts.isPropertyAccessExpression(parent) && parent.name === node ? parent.expression.getText(source) : undefined;
        const site: Site = object === undefined ? { file } : { file, object };
        const why = retiredWord(name) ?? (file.startsWith('simulator/') ? undefined : otherMemory(name, { ...site, once }));
        const allowed = ALLOWED.some((a) => a.name === name && a.where(site)) || (planner && why?.startsWith('"plan"') === true);
        if (why !== undefined && !allowed)
          found.push({ at: `src/${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`, name, why });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** Every file of src/ whose name holds a retired word (`runner/email-road.ts`), the planner's own files aside. */
function retiredFileNames(): string[] {
  return tsFiles(SRC)
    .map((path) => relative(SRC, path).split(sep).join('/'))
    .filter((file) => !PLANNER_FILES.includes(file))
    .flatMap((file) => {
      const why = retiredWord(file.replace(/^.*\//, '').replace(/\.ts$/, '').replace(/-/g, '_'));
      return why === undefined ? [] : [`src/${file}: ${why}`];
    });
}

/**
 * The names a string may spell with "poll", each published: the config's `poll:` group and its keys, the app's
 * `poll_interval`, the metric `dziennik2mqtt_poll_duration_seconds` a Prometheus dashboard reads, and the page
 * docs/polling.md, to which the text links.
 */
const PUBLISHED_POLL = /\bpoll(\.(interval|fast_interval|school_interval|quiet_hours)\b|_interval\b|_duration_seconds\b|:)|polling\.md/g;

/** Every string of the product (src/, the simulator and the bench aside) that says "poll", as `file:line text`. */
function pollInStrings(): string[] {
  const found: string[] = [];
  for (const path of tsFiles(SRC)) {
    const file = relative(SRC, path).split(sep).join('/');
    const text = readFileSync(path, 'utf8');
    if (/^(simulator|bench)\//.test(file) || !/poll/i.test(text)) continue;
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node)) {
        const said = node.text.replace(PUBLISHED_POLL, '');
        if (/\bpoll(s|ed|er|ers|ing)?\b/i.test(said))
          found.push(`src/${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${node.text}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('the glossary in docs/development.md', () => {
  it('defines the words of the style guide, the planner and the bus', () => {
    const terms = defined(glossary);
    for (const word of [
      'pass',
      'read',
      'plan',
      'view',
      'bus',
      'sink',
      'delivered',
      'outbox',
      'event memory',
      'change feed',
      'calendar feed',
      'tomorrow',
      'bridge',
      'family',
      'lease',
      'claim',
      'resource',
      'copy',
      'want',
      'age',
      'signal',
    ])
      expect(terms, word).toContain(word);
  });

  it('defines each term once, and the rest of the page defines none of them again', () => {
    const terms = defined(glossary);
    expect(terms.filter((term, i) => terms.indexOf(term) !== i)).toEqual([]);
    expect(defined(rest).filter((term) => terms.includes(term))).toEqual([]);
  });

  it('names the words the code retired with the word the code uses instead', () => {
    expect(glossary).toContain('**family road**');
    for (const name of ['PassRunner', 'Source.compute', 'changeFeed', 'calendarFeed', 'kindergartenPlan', 'planChange'])
      expect(glossary, name).toContain(`\`${name}`);
  });
});

describe('the words of the code', () => {
  it('tells a retired word from the words that replaced it', () => {
    const retired = [
      'feed',
      'feeds',
      'FEED_NAMES',
      'ChildFeed',
      'feedUrl',
      'AccountPoller',
      'poll',
      'pollers',
      'startPolling',
      'emailRoad',
      'EMAIL_ROAD',
      'buildPlan',
      'PlanSearch',
    ];
    const kept = [
      'changeFeed',
      'ChildChangeFeed',
      'CALENDAR_FEED_NAMES',
      'calendarFeedUrl',
      'PassRunner',
      'compute',
      'familyRoad',
      'planChanges',
      'PLAN_CHANGE_HORIZON_DAYS',
      'kindergartenPlanKey',
      'AccountPlan',
      'planner',
      'planned',
    ];
    expect(retired.filter((name) => retiredWord(name) === undefined)).toEqual([]);
    expect(kept.filter((name) => retiredWord(name) !== undefined)).toEqual([]);
  });

  it("tells the process's memory from the event memory, and the family road from the household", () => {
    const away = { file: 'app/bridge-info.ts', once: false };
    expect(['memoryNow', 'MEMORY_FLAGS', 'memory'].filter((name) => otherMemory(name, away) === undefined)).toEqual([]);
    expect(['rssAndHeap', 'eventMemory', 'memory_mb', 'memoryUsage'].filter((name) => otherMemory(name, away) !== undefined)).toEqual([]);
    expect(otherMemory('memory', { file: 'once/session.ts', once: true })).toBeUndefined();
    const source = ts.createSourceFile(
      'roads.ts',
      'interface A { family?: FamilyAccount; familyRoad?: FamilyAccount; families: FamilyAccountConfig[] } const alsoFamily = new FamilyAccount(o);',
      ts.ScriptTarget.Latest,
      true,
    );
    const found: string[] = [];
    const visit = (node: ts.Node): void => {
      if (familyForTheRoad(node, source) !== undefined) found.push((node as ts.NamedDeclaration).name!.getText(source));
      ts.forEachChild(node, visit);
    };
    visit(source);
    expect(found).toEqual(['family', 'alsoFamily']);
  });

  it('names nothing in src/ with a retired word, but the published names the interface fixes', () => {
    expect(retiredInSrc().map((f) => `${f.at} ${f.name}: ${f.why}`)).toEqual([]);
  });

  it('says "pass" or "read" in every string a person reads, never "poll" (the published names aside)', () => {
    expect(pollInStrings()).toEqual([]);
    // The check reads strings: it finds one, and leaves the published names.
    expect('the bridge tries again at the next poll'.replace(PUBLISHED_POLL, '')).toMatch(/\bpoll\b/);
    expect('set poll.interval or poll_interval; see docs/polling.md'.replace(PUBLISHED_POLL, '')).not.toMatch(/\bpoll/);
  });

  it('names no file of src/ with a retired word', () => {
    expect(retiredFileNames()).toEqual([]);
  });
});
