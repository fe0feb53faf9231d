// Pieces of Home Assistant templates the dashboard's markdown cards share: dates with the weekday and
// numbers with the decimal mark of the dashboard's language (HA's own formatting would be English).
import type { DashboardText } from '../i18n/dashboard-text.js';
import type { ItemOf, AttributeName } from '../feature-kit/contract.js';
import type { planChangesToday } from '../features/timetable.js';
import type { ChangeKind } from '../school/plan-changes.js';

const list = (items: readonly string[]): string => `[${items.map((s) => `'${s}'`).join(', ')}]`;

/**
 * The characters Markdown (and the HTML Home Assistant's Markdown lets through) gives a meaning to,
 * each backslash-escaped by md(): `\\` first, so the escapes added after stay single. `:` and `.`
 * too, so that a bare `http://` or `www.` is no link of GFM's autolinks.
 */
const MARKDOWN_SPECIAL = ['\\', '`', '*', '_', '{', '}', '[', ']', '(', ')', '#', '+', '-', '.', '!', '|', '<', '>', '~', ':', '&', '='];

/** A character as a Jinja string literal. */
const jinjaString = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * md(x): portal text (a topic, a sender, a subject) as literal Markdown, so that a sender named
 * `![x](http://evil/x.png)` or `[bank](http://evil)` shows as written instead of loading an image or
 * disguising a link; none prints nothing. Every card's portal string goes through it.
 */
const MD_MACRO = `{%- macro md(x) -%}{{ ('' if x is none else x) | string${MARKDOWN_SPECIAL.map((c) => ` | replace(${jinjaString(c)}, ${jinjaString(`\\${c}`)})`).join('')} }}{%- endmacro -%}`;

/**
 * A portal string written into a card when the dashboard is made (a child's name), escaped as md()
 * escapes it at render time; the escaped `{` also keeps it from opening a template tag.
 */
export function markdownText(text: string): string {
  let out = text;
  for (const c of MARKDOWN_SPECIAL) out = out.split(c).join(`\\${c}`);
  return out;
}

/**
 * Macros every card's template starts with: day(d) "pon. 24.11", longDay(d) "poniedziałek 24.11",
 * num(x) "4,87", md(x) portal text escaped for Markdown. The date ones take a YYYY-MM-DD date (or a
 * longer ISO time) and print nothing for none.
 */
export function prelude(t: DashboardText): string {
  const format = t.decimal === ',' ? '%d.%m' : '%d %b';
  const date = (names: string): string =>
    `{%- if d -%}{%- set x = strptime((d | string)[:10], '%Y-%m-%d') -%}{{ ${names}[x.weekday()] }} {{ x.strftime('${format}') }}{%- endif -%}`;
  return [
    `{%- macro day(d) -%}${date(list(t.weekdaysShort))}{%- endmacro -%}`,
    `{%- macro longDay(d) -%}${date(list(t.weekdays))}{%- endmacro -%}`,
    `{%- macro num(x) -%}{{ ('%.2f' | format(x | float)) | replace('.', '${t.decimal}') }}{%- endmacro -%}`,
    MD_MACRO,
  ].join('\n');
}

/** state_attr(id, name) of a declared attribute, as template text (ChildEntities.attr names it). */
export function stateAttr<E>(id: string, name: AttributeName<E>): string {
  return `state_attr('${id}', '${name}')`;
}

/**
 * A Jinja loop variable over the items of a list attribute, read by the items' declared names:
 * `item<Slot>('l')('subject')` is `l.get('subject')`. `.named` gives a name alone (for selectattr).
 */
export function item<T>(variable: string): ((name: keyof T & string) => string) & { named: (name: keyof T & string) => string } {
  const get = (name: keyof T & string): string => `${variable}.get('${name}')`;
  return Object.assign(get, { named: (name: keyof T & string): string => name });
}

/** A plan change's kind as a Jinja string literal, checked against the kinds the features publish. */
export const kind = (k: ChangeKind): string => `'${k}'`;

/** An item of plan_changes_*'s `changes`. */
export type ChangeItem = ItemOf<typeof planChangesToday, 'changes'>;

/** A Jinja dict literal of words by kind (the plan-change kinds in the dashboard's language, unless told). */
export function kindsDict(t: DashboardText, words: Readonly<Record<string, string>> = t.kinds): string {
  return `{${Object.entries(words)
    .map(([k, v]) => `'${k}': '${v}'`)
    .join(', ')}}`;
}

/** One plan change as a list item (c: an item of plan_changes_*'s `changes`; kinds: kindsDict). */
export function changeLine(t: DashboardText): string {
  const c = item<ChangeItem>('c');
  // Only a lesson moved to another day keeps its own `date`: it is listed in the slot it leaves.
  const moved =
    `- **{{ ${c('original_lesson_no')} or '' }}.** {{ md(${c('original_hours')}) }} {{ md(${c('subject')} or ${c('original_subject')}) }}: ` +
    t.movedTo(`{{ day(${c('date')}) }}`, `{{ ${c('lesson_no')} or '' }}`);
  return (
    `{% if ${c('date')} %}${moved}{% else %}` +
    `- **{{ ${c('lesson_no')} or '' }}.** {{ md(${c('hours')}) }} {{ md(${c('subject')} or ${c('original_subject')}) }}: ` +
    `{{ kinds.get(${c('kind')}, '') }}` +
    `{% if ${c('kind')} == ${kind('substitution')} and ${c('teacher')} %} ({{ md(${c('teacher')}) }}){% endif %}` +
    `{% if ${c('room')} and ${c('room')} != ${c('original_room')} %}, ${t.room} {{ md(${c('room')}) }}{% endif %}` +
    `{% if ${c('kind')} == ${kind('shifted')} and ${c('original_date')} %} (${t.from} {{ day(${c('original_date')}) }} {{ md(${c('original_hours')}) }}){% endif %}` +
    `{% endif %}`
  );
}
