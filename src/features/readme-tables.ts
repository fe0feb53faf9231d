// The entity tables derived from the list of features: docs/entities.md's generated table (key, names,
// platform, classes, feature) with the check that its hand-written table of states covers the same keys,
// and the app's shorter table in hassio-addon/DOCS.md (entity id and names).
import type { AccountConfig } from '../config/schema.js';
import type { EntityDef } from './kit/entities.js';
import type { Feature } from './feature.js';
import { FEATURES } from './index.js';
import { LANGUAGES } from '../config/language.js';

/** The page that holds both tables, from the repository's root. */
export const ENTITIES_PAGE = 'docs/entities.md';
/** Where the generated table sits in that page. */
const TABLE_MARKERS = { start: '<!-- entities:start -->', end: '<!-- entities:end -->' } as const;
/** Where the hand-written table of states and attributes sits; only its keys are checked. */
const STATES_MARKERS = { start: '<!-- entity-states:start -->', end: '<!-- entity-states:end -->' } as const;
/** The Home Assistant app's page (its Documentation tab), and where its table of entities sits. */
export const ADDON_PAGE = 'hassio-addon/DOCS.md';
const ADDON_MARKERS = { start: '<!-- addon-entities:start -->', end: '<!-- addon-entities:end -->' } as const;
/** What rewrites the generated tables. */
export const WRITE_COMMAND = 'npm run build';

/**
 * An account with one fixed message standing for any: the entities a feature makes from the account's
 * configuration (a send_<id> button per message) are listed as this account would have them.
 */
const EXAMPLE_ACCOUNT: AccountConfig = {
  login: 'example',
  downloads: false,
  write_messages: true,
  messages: [{ id: '<message id>', name: "the message's `name`", to: 'class_tutor', topic: '-', body: '-' }],
};

/** Every entity a child can have, grouped by feature in list order, configured and dynamic ones after the fixed. */
function rows(features: readonly Feature[]) {
  return features.flatMap((f) =>
    [...f.entities, ...(f.configured?.(EXAMPLE_ACCOUNT) ?? []), ...(f.dynamicExamples ?? [])].map((entity) => ({ entity, feature: f.name })),
  );
}

/** The keys the page must describe. */
export function documentedKeys(features: readonly Feature[] = FEATURES): string[] {
  return rows(features).map((r) => r.entity.key);
}

const cell = (text: string | undefined): string => (text ?? '').replace(/\|/g, '\\|');
const code = (text: string | undefined): string => (text === undefined ? '' : `\`${text}\``);
/** An entity's names in the three languages, each once (a name the same in all is written once). */
const names = (e: EntityDef): string => cell([...new Set(LANGUAGES.map((l) => e.name[l]))].join(' / '));
const GENERATED_NOTE = `<!-- generated from src/features by \`${WRITE_COMMAND}\`; edit the features, not this table -->`;

/** The generated table, markers included. */
function entityTable(features: readonly Feature[] = FEATURES): string {
  const lines = rows(features).map(({ entity: e, feature }) => {
    const columns = [code(e.key), names(e), e.platform, code(e.deviceClass), code(e.stateClass), code(e.entityCategory), feature];
    return `| ${columns.join(' | ')} |`;
  });
  return [
    TABLE_MARKERS.start,
    GENERATED_NOTE,
    '| key | name (`language: pl` / `en` / `uk`) | platform | device class | state class | category | feature |',
    '|---|---|---|---|---|---|---|',
    ...lines,
    TABLE_MARKERS.end,
  ].join('\n');
}

/** The app's table: the entity id a parent finds in Home Assistant and the name it shows there. */
function addonTable(features: readonly Feature[] = FEATURES): string {
  const lines = rows(features).map(({ entity: e }) => `| \`${e.platform}.<child>_${e.key}\` | ${names(e)} |`);
  return [ADDON_MARKERS.start, GENERATED_NOTE, '| entity | name (`language: pl` / `en` / `uk`) |', '|---|---|', ...lines, ADDON_MARKERS.end].join(
    '\n',
  );
}

/** Where a table sits in a page: its start and end markers. */
type Markers = { start: string; end: string };

/** The text between a pair of markers (markers included), or undefined when either is missing. */
function between(text: string, markers: Markers): { from: number; to: number } | undefined {
  const from = text.indexOf(markers.start);
  const end = text.indexOf(markers.end, from);
  if (from < 0 || end < 0) return undefined;
  return { from, to: end + markers.end.length };
}

/** `text` (the page `page`) with `table` written between its markers; everything outside them stays as it is. */
export function withTable(text: string, page: string, markers: Markers, table: string): string {
  const at = between(text, markers);
  if (!at) throw new Error(`${page} has no ${markers.start} ... ${markers.end} pair to write the table between`);
  return text.slice(0, at.from) + table + text.slice(at.to);
}

/** What is wrong with the generated table of `text` (the page `page`): empty when it is `table`, else what it is not (`stale`). */
export function tableProblems(text: string, page: string, markers: Markers, table: string, stale: string): string[] {
  const at = between(text, markers);
  if (!at) return [`${page} has no ${markers.start} ... ${markers.end} pair; add it where the table goes, then run: ${WRITE_COMMAND}`];
  return text.slice(at.from, at.to) === table ? [] : [`${page}'s ${stale}; run: ${WRITE_COMMAND}`];
}

/** The page with its generated table made anew. */
export function withEntityTable(page: string, features: readonly Feature[] = FEATURES): string {
  return withTable(page, ENTITIES_PAGE, TABLE_MARKERS, entityTable(features));
}

/** The app's page with its table of entities made anew. */
export function withAddonTable(page: string, features: readonly Feature[] = FEATURES): string {
  return withTable(page, ADDON_PAGE, ADDON_MARKERS, addonTable(features));
}

/** What is wrong with the app page's table of entities (empty when it is what the features declare). */
export function addonTableProblems(page: string, features: readonly Feature[] = FEATURES): string[] {
  return tableProblems(page, ADDON_PAGE, ADDON_MARKERS, addonTable(features), 'entity table is not what the features declare');
}

/** The keys named (in backticks) in the first column of the hand-written table, in order. */
function describedKeys(block: string): string[] {
  const body = block
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2); // header and separator
  return body.flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? ''));
}

/** What is wrong with the page's entity tables (empty when they match the features). */
export function readmeProblems(page: string, features: readonly Feature[] = FEATURES): string[] {
  const problems = tableProblems(page, ENTITIES_PAGE, TABLE_MARKERS, entityTable(features), 'entity table is not what the features declare');
  const states = between(page, STATES_MARKERS);
  if (!states) return [...problems, `${ENTITIES_PAGE} has no ${STATES_MARKERS.start} ... ${STATES_MARKERS.end} pair around the table of states`];
  const described = describedKeys(page.slice(states.from, states.to));
  const declared = documentedKeys(features);
  const missing = declared.filter((k) => !described.includes(k));
  const unknown = described.filter((k) => !declared.includes(k));
  const twice = described.filter((k, i) => described.indexOf(k) !== i);
  const list = (keys: string[]): string => keys.map((k) => `\`${k}\``).join(', ');
  if (missing.length > 0)
    problems.push(
      `${ENTITIES_PAGE}'s table of states does not describe ${list(missing)}: add a row (by hand) between the ${STATES_MARKERS.start} markers`,
    );
  if (unknown.length > 0) problems.push(`${ENTITIES_PAGE}'s table of states describes ${list(unknown)}, which no feature declares`);
  if (twice.length > 0) problems.push(`${ENTITIES_PAGE}'s table of states describes ${list(twice)} more than once`);
  return problems;
}
