// Pieces of Home Assistant templates the dashboard's markdown cards share: dates with the weekday and
// numbers with the decimal mark of the dashboard's language (HA's own formatting would be English).
import type { DashboardText } from '../i18n/dashboard-text.js';

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

/** state_attr(id, name) as template text. */
export const attr = (id: string, name: string): string => `state_attr('${id}', '${name}')`;

/** A Jinja dict literal of the plan-change kinds in the dashboard's language. */
export function kindsDict(t: DashboardText): string {
  return `{${Object.entries(t.kinds)
    .map(([k, v]) => `'${k}': '${v}'`)
    .join(', ')}}`;
}

/** One plan change as a list item (c: an item of plan_changes_*'s `changes`; kinds: kindsDict). */
export function changeLine(t: DashboardText): string {
  // Only a lesson moved to another day keeps its own `date`: it is listed in the slot it leaves.
  const moved =
    `- **{{ c.get('original_lesson_no') or '' }}.** {{ c.get('original_hours') or '' }} {{ c.get('subject') or c.get('original_subject') or '' }}: ` +
    t.movedTo(`{{ day(c.get('date')) }}`, `{{ c.get('lesson_no') or '' }}`);
  return (
    `{% if c.get('date') %}${moved}{% else %}` +
    `- **{{ c.get('lesson_no') or '' }}.** {{ c.get('hours') or '' }} {{ c.get('subject') or c.get('original_subject') or '' }}: ` +
    `{{ kinds.get(c.get('kind'), '') }}` +
    `{% if c.get('kind') == 'substitution' and c.get('teacher') %} ({{ c.get('teacher') }}){% endif %}` +
    `{% if c.get('room') and c.get('room') != c.get('original_room') %}, ${t.room} {{ c.get('room') }}{% endif %}` +
    `{% if c.get('kind') == 'shifted' and c.get('original_date') %} (${t.from} {{ day(c.get('original_date')) }} {{ c.get('original_hours') or '' }}){% endif %}` +
    `{% endif %}`
  );
}
