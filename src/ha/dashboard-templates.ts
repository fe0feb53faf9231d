// Pieces of Home Assistant templates the dashboard's markdown cards share: dates with the weekday and
// numbers with the decimal mark of the dashboard's language (HA's own formatting would be English).
import type { DashboardText } from '../i18n/dashboard-text.js';
import type { ItemOf, AttributeName } from '../feature-kit/contract.js';
import type { planChangesToday } from '../features/timetable.js';
import type { ChangeKind } from '../school/plan-changes.js';

const list = (items: readonly string[]): string => `[${items.map((s) => `'${s}'`).join(', ')}]`;

/**
 * Macros every card's template starts with: day(d) "pon. 24.11", longDay(d) "poniedziałek 24.11",
 * num(x) "4,87". They take a YYYY-MM-DD date (or a longer ISO time) and print nothing for none.
 */
export function prelude(t: DashboardText): string {
  const format = t.decimal === ',' ? '%d.%m' : '%d %b';
  const date = (names: string): string =>
    `{%- if d -%}{%- set x = strptime((d | string)[:10], '%Y-%m-%d') -%}{{ ${names}[x.weekday()] }} {{ x.strftime('${format}') }}{%- endif -%}`;
  return [
    `{%- macro day(d) -%}${date(list(t.weekdaysShort))}{%- endmacro -%}`,
    `{%- macro longDay(d) -%}${date(list(t.weekdays))}{%- endmacro -%}`,
    `{%- macro num(x) -%}{{ ('%.2f' | format(x | float)) | replace('.', '${t.decimal}') }}{%- endmacro -%}`,
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
    `- **{{ ${c('original_lesson_no')} or '' }}.** {{ ${c('original_hours')} or '' }} {{ ${c('subject')} or ${c('original_subject')} or '' }}: ` +
    t.movedTo(`{{ day(${c('date')}) }}`, `{{ ${c('lesson_no')} or '' }}`);
  return (
    `{% if ${c('date')} %}${moved}{% else %}` +
    `- **{{ ${c('lesson_no')} or '' }}.** {{ ${c('hours')} or '' }} {{ ${c('subject')} or ${c('original_subject')} or '' }}: ` +
    `{{ kinds.get(${c('kind')}, '') }}` +
    `{% if ${c('kind')} == ${kind('substitution')} and ${c('teacher')} %} ({{ ${c('teacher')} }}){% endif %}` +
    `{% if ${c('room')} and ${c('room')} != ${c('original_room')} %}, ${t.room} {{ ${c('room')} }}{% endif %}` +
    `{% if ${c('kind')} == ${kind('shifted')} and ${c('original_date')} %} (${t.from} {{ day(${c('original_date')}) }} {{ ${c('original_hours')} or '' }}){% endif %}` +
    `{% endif %}`
  );
}
