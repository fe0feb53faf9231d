// The dashboard's Home Assistant templates are files, each beside the feature whose card it fills (copied to
// dist/ by `npm run build`), so editors, linters and diffs see them as Jinja. A card's
// content is its file after a head that sets the file's named variables: `t`, the dashboard's words
// the files use, and each entity variable to the child's entity id (none when the child lacks it).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EntityDef } from '../kit/entities.js';
import type { AttributeName } from '../kit/contract.js';
import type { DashboardText } from '../../i18n/dashboard-text.js';
import { packageRoot } from '../../util/version.js';
import type { ChildEntities } from './child-entities.js';

/**
 * A template file by its path under src/ without `.jinja`: a feature's card's beside it
 * (`features/grades/grades`), the dashboard's shared macros in `outputs/homeassistant/templates/`.
 */
export type TemplateName = string;

/** The folder the files are read under: src/ when run from the sources, dist/ when built (`npm run build` copies them). */
export function templateRoot(): string {
  const self = fileURLToPath(import.meta.url);
  return join(packageRoot(dirname(self)), self.endsWith('.ts') ? 'src' : 'dist');
}

const read = new Map<TemplateName, string>();

/** A file's text without its opening comment (what it is for, which variables it takes) and last newline. */
export function templateText(name: TemplateName): string {
  let text = read.get(name);
  if (text === undefined) {
    text = readFileSync(join(templateRoot(), `${name}.jinja`), 'utf8')
      .replace(/^\{#[\s\S]*?#\}\n/, '')
      .replace(/\n$/, '');
    read.set(name, text);
  }
  return text;
}

/** An entity variable and the attributes its template reads with `state_attr(variable, '<name>')`. */
export interface EntityRead {
  entity: EntityDef;
  attributes: readonly string[];
}

/**
 * An entity for a template, with the attributes the template reads, named by the entity's declared
 * type: a renamed attribute fails the typecheck here, and `filled` refuses a template that reads
 * any other (a misspelling in a .jinja file fails every dashboard test).
 */
export function reads<E extends EntityDef>(entity: E, ...attributes: AttributeName<E>[]): EntityRead {
  return { entity, attributes };
}

/** A variable named as its entity's key (`next_lesson` for nextLesson), from the declaration: `...keyed(nextLesson, 'date')`. */
export function keyed<E extends EntityDef>(entity: E, ...attributes: AttributeName<E>[]): Record<string, EntityRead> {
  return { [entity.key]: reads(entity, ...attributes) };
}

/** A variable's value: an entity (its id, or none when the child lacks it), a text (none when undefined) or a list of records. */
export type TemplateValue = EntityRead | { text: string | undefined } | { list: readonly Readonly<Record<string, string>>[] };

/**
 * A card's template: the head that sets `t` (only the words the parts use) and the variables, the
 * shared parts (prelude.jinja's macros unless told) and the card's own file.
 */
export function filled(
  e: ChildEntities,
  t: DashboardText,
  name: TemplateName,
  variables: Readonly<Record<string, TemplateValue>>,
  parts: readonly TemplateName[] = ['outputs/homeassistant/templates/prelude'],
): string {
  const body = [...parts, name].map(templateText);
  // The words as the templates read them (`t.room`): the dashboard's texts and the date format of its language.
  const all: Record<string, unknown> = { ...t, dateFormat: t.decimal === ',' ? '%d.%m' : '%d %b' };
  const used: Record<string, unknown> = {};
  for (const [, word] of body.join('\n').matchAll(/\bt\.(\w+)/g)) {
    const value = all[word!];
    if (typeof value === 'function' || value === undefined)
      throw new Error(`dashboard: ${name}.jinja reads t.${word}, which is not one of the dashboard's words`);
    used[word!] = value;
  }
  // A group closing with `t` is written `} }`: a `}}` reads as a variable's end to the eye and to the checks.
  const literal = (value: unknown) => (value === undefined ? 'none' : JSON.stringify(value).replace(/\}(?=\})/g, '} '));
  const head = [`{%- set t = ${literal(used)} -%}`];
  for (const [variable, value] of Object.entries(variables)) {
    if ('entity' in value) checkReads(name, body.join('\n'), variable, value);
    const set = 'list' in value ? value.list : 'text' in value ? value.text : e.has(value.entity) ? e.id(value.entity) : undefined;
    head.push(`{%- set ${variable} = ${literal(set)} -%}`);
  }
  return [...head, ...body].join('\n');
}

/** The attributes a template reads of an entity variable are exactly those its block declares. */
function checkReads(name: TemplateName, text: string, variable: string, read: EntityRead): void {
  const found = new Set([...text.matchAll(new RegExp(`state_attr\\(\\s*${variable}\\s*,\\s*'(\\w+)'\\s*\\)`, 'g'))].map((m) => m[1]!));
  if ([...found].some((a) => !read.attributes.includes(a)) || read.attributes.some((a) => !found.has(a))) {
    throw new Error(
      `dashboard: ${name}.jinja reads ${variable} (${read.entity.key}) as ${[...found].join(', ') || 'no attribute'}, declared ${read.attributes.join(', ') || 'none'}`,
    );
  }
}

/** What prelude.jinja's md() writes as a character reference, each character in one pass. */
const MARKDOWN_SPECIAL = /[&\\`*_{}[\]()#+\-.!|<>~:=]/g;

/**
 * A portal string written into a card when the dashboard is made (a child's name), escaped as md()
 * escapes portal text at render time; the escaped `{` also keeps it from opening a template tag.
 */
export function markdownText(text: string): string {
  return text.replace(MARKDOWN_SPECIAL, (c) => `&#${c.codePointAt(0)};`);
}
