// The wall-tablet dashboard: one Lovelace view per child, built only from Home Assistant's own cards
// (heading, tile, markdown, conditional, entities). Pure: the children and the entities the bridge
// announces for each go in, the dashboard comes out; a card whose entities a child lacks is left out.
import { stringify } from 'yaml';
import { entityId, type EntityDef } from './entities.js';
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from '../i18n/language.js';
import { DASHBOARD_TEXT, type DashboardText } from '../i18n/dashboard-text.js';

/** The dashboard speaks the languages of the config's `language`. */
export const DASHBOARD_LANGS = LANGUAGES;
export type DashboardLang = Language;

export interface DashboardChild {
  /** The child id <c> of topics and entity ids. */
  id: string;
  /** Shown as the view's title. */
  name: string;
  /** What the bridge announces for this child (discovery's components). */
  entities: readonly EntityDef[];
}

export type Card = Record<string, unknown>;

/** The dashboard as a Lovelace config object. */
export function dashboard(children: readonly DashboardChild[], lang: DashboardLang = FALLBACK_LANGUAGE): Record<string, unknown> {
  const t = DASHBOARD_TEXT[lang];
  return { title: t.title, views: children.map((child) => childView(child, t)) };
}

/** The dashboard as YAML, ready for "Raw configuration editor". */
export function dashboardYaml(children: readonly DashboardChild[], lang: DashboardLang = FALLBACK_LANGUAGE): string {
  const header = `# ${DASHBOARD_TEXT[lang].header}\n`;
  // YAML 1.1 rules quote "on"/"off": Home Assistant's own YAML loader would read them as booleans.
  return header + stringify(dashboard(children, lang), { lineWidth: 0, version: '1.1' });
}

/** Looks up a child's entities by key; `id` throws for one the child lacks, so no card can name it. */
class ChildEntities {
  private readonly byKey: Map<string, EntityDef>;

  constructor(readonly child: DashboardChild) {
    this.byKey = new Map(child.entities.map((e) => [e.key, e]));
  }

  has(...keys: string[]): boolean {
    return keys.every((k) => this.byKey.has(k));
  }

  id(key: string): string {
    const entity = this.byKey.get(key);
    if (!entity) throw new Error(`dashboard: ${this.child.id} has no entity ${key}`);
    return entityId(this.child.id, entity);
  }

  /** The configured fixed-message buttons, in the order of the config. */
  sendButtons(): string[] {
    return this.child.entities.filter((e) => e.platform === 'button' && e.key.startsWith('send_')).map((e) => entityId(this.child.id, e));
  }
}

function childView(child: DashboardChild, t: DashboardText): Record<string, unknown> {
  const e = new ChildEntities(child);
  const sections = [
    section(t.today, [luckyBanner(e, t), problemBanner(e, t), ...tiles(e, ['lucky_number', 'next_lesson']), nextLesson(e, t), planChanges(e, t)]),
    section(t.school, [...tiles(e, ['newest_grade', 'average']), grades(e, t), homeworkAndTests(e, t)]),
    section(t.messages, [...tiles(e, ['unread_messages', 'unread_notices']), messages(e, t), bridge(e, t)]),
  ].filter((s): s is Card => s !== undefined);
  return { title: child.name, path: child.id, icon: 'mdi:school', type: 'sections', max_columns: 3, sections };
}

/** A section with a heading, or nothing when none of its cards applies to the child. */
function section(title: string, cards: (Card | undefined)[]): Card | undefined {
  const present = cards.filter((c): c is Card => c !== undefined);
  if (present.length === 0) return undefined;
  return { type: 'grid', cards: [{ type: 'heading', heading: title }, ...present] };
}

function tiles(e: ChildEntities, keys: string[]): Card[] {
  return keys.filter((k) => e.has(k)).map((k) => ({ type: 'tile', entity: e.id(k) }));
}

function luckyBanner(e: ChildEntities, t: DashboardText): Card | undefined {
  if (!e.has('lucky_today', 'lucky_number')) return undefined;
  const number = `{{ states('${e.id('lucky_number')}') }}`;
  return {
    type: 'conditional',
    conditions: [{ condition: 'state', entity: e.id('lucky_today'), state: 'on' }],
    card: { type: 'markdown', text_only: true, content: `# 🍀 ${number}\n## ${t.luckyYou(e.child.name)}` },
  };
}

function problemBanner(e: ChildEntities, t: DashboardText): Card | undefined {
  if (!e.has('problem')) return undefined;
  // The message is the advice in the config's language; the reason code is the fallback for an old state.
  const id = e.id('problem');
  const why = `{{ state_attr('${id}', 'message') or state_attr('${id}', 'reason') or '?' }}`;
  return {
    type: 'conditional',
    conditions: [{ condition: 'state', entity: id, state: 'on' }],
    card: { type: 'markdown', content: `<ha-alert alert-type="warning">${t.problem} ${why}</ha-alert>` },
  };
}

function nextLesson(e: ChildEntities, t: DashboardText): Card | undefined {
  const lines: string[] = [];
  if (e.has('next_lesson')) {
    const id = e.id('next_lesson');
    const attr = (name: string): string => `state_attr('${id}', '${name}')`;
    lines.push(
      `{% if has_value('${id}') %}` +
        `**${t.nextLesson}:** {{ states('${id}') }}, {{ ${attr('time')} }}–{{ ${attr('end')} }}` +
        `{% if ${attr('room')} %}, ${t.room} {{ ${attr('room')} }}{% endif %}` +
        `{% if ${attr('teacher')} %}, {{ ${attr('teacher')} }}{% endif %}` +
        `{% if ${attr('substitution')} %} (${t.substitution}){% endif %}` +
        `{% else %}${t.noMoreLessons}{% endif %}`,
    );
  }
  for (const [start, end, label] of [
    ['lessons_start_today', 'lessons_end_today', t.lessonsToday],
    ['lessons_start_tomorrow', 'lessons_end_tomorrow', t.lessonsNext],
  ] as const) {
    if (!e.has(start, end)) continue;
    const time = (key: string): string => `{{ as_timestamp(states('${e.id(key)}')) | timestamp_custom('%H:%M') }}`;
    lines.push(`{% if has_value('${e.id(start)}') and has_value('${e.id(end)}') %}**${label}:** ${time(start)}–${time(end)}{% endif %}`);
  }
  if (lines.length === 0) return undefined;
  return { type: 'markdown', content: lines.join('\n\n') };
}

function planChanges(e: ChildEntities, t: DashboardText): Card | undefined {
  const parts: string[] = [];
  for (const [key, title] of [
    ['plan_changes_today', t.changesToday],
    ['plan_changes_tomorrow', t.changesNext],
  ] as const) {
    if (!e.has(key)) continue;
    const id = e.id(key);
    parts.push(
      `### ${title}{% if state_attr('${id}', 'date') %} ({{ state_attr('${id}', 'date') }}){% endif %}`,
      `{%- for c in state_attr('${id}', 'changes') or [] %}`,
      `- **{{ c.lesson_no or '' }}** {{ c.hours or '' }} {{ c.subject or c.original_subject or '' }}: ` +
        `{{ kinds[c.kind] if c.kind in kinds else c.kind }}` +
        `{% if c.kind == 'substitution' and c.teacher %} ({{ c.teacher }}){% endif %}` +
        `{% if c.room and c.room != c.original_room %}, ${t.room} {{ c.room }}{% endif %}` +
        `{% if c.kind == 'shifted' and c.original_date %} (${t.from} {{ c.original_date }} {{ c.original_hours or '' }}){% endif %}`,
      `{%- else %}`,
      t.noChanges,
      `{%- endfor %}`,
    );
  }
  if (parts.length === 0) return undefined;
  const kinds = Object.entries(t.kinds)
    .map(([k, v]) => `'${k}': '${v}'`)
    .join(', ');
  return { type: 'markdown', content: [`{% set kinds = {${kinds}} %}`, ...parts].join('\n') };
}

function grades(e: ChildEntities, t: DashboardText): Card | undefined {
  const parts: string[] = [];
  if (e.has('newest_grade')) {
    const id = e.id('newest_grade');
    parts.push(
      `### ${t.newestGrades}`,
      `{%- for g in state_attr('${id}', 'recent') or [] %}`,
      `- **{{ g.grade }}** {{ g.subject or '' }} <small>{{ g.date or '' }}</small>`,
      `{%- else %}`,
      `${t.none}`,
      `{%- endfor %}`,
    );
  }
  if (e.has('average')) {
    const id = e.id('average');
    parts.push(
      `### ${t.averages}: {{ states('${id}') }}`,
      `| ${t.subject} | ${t.average} | ${t.count} |`,
      `|:--|--:|--:|`,
      `{%- for s in state_attr('${id}', 'subjects') or [] %}`,
      `| {{ s.subject }} | {{ s.average if s.average is not none else '–' }} | {{ s.count }} |`,
      `{%- endfor %}`,
    );
  }
  if (parts.length === 0) return undefined;
  return { type: 'markdown', content: parts.join('\n') };
}

function homeworkAndTests(e: ChildEntities, t: DashboardText): Card | undefined {
  const parts: string[] = [];
  if (e.has('homework_due')) {
    const id = e.id('homework_due');
    parts.push(
      `### ${t.homework}{% if state_attr('${id}', 'date') %} ({{ state_attr('${id}', 'date') }}){% endif %}`,
      `{%- for h in state_attr('${id}', 'items') or [] %}`,
      `- **{{ h.subject or '' }}**: {{ h.topic or h.text or '' }}{% if h.done %} ✔{% endif %}`,
      `{%- else %}`,
      t.none,
      `{%- endfor %}`,
    );
  }
  if (e.has('upcoming_tests')) {
    const id = e.id('upcoming_tests');
    parts.push(
      `### ${t.tests}`,
      `{%- for x in state_attr('${id}', 'items') or [] %}`,
      `- {{ x.date }}{% if x.time %} {{ x.time }}{% endif %} **{{ x.subject or '' }}**: {{ x.category or '' }} {{ x.content or '' }}`,
      `{%- else %}`,
      t.none,
      `{%- endfor %}`,
    );
  }
  if (parts.length === 0) return undefined;
  return { type: 'markdown', content: parts.join('\n') };
}

function messages(e: ChildEntities, t: DashboardText): Card | undefined {
  const rows: (string | Card)[] = [];
  for (const key of ['newest_message', 'newest_notice']) if (e.has(key)) rows.push(e.id(key));
  const buttons = e.sendButtons();
  if (buttons.length > 0) rows.push({ type: 'section', label: t.send }, ...buttons);
  if (e.has('mark_notices_read')) rows.push(e.id('mark_notices_read'));
  if (rows.length === 0) return undefined;
  return { type: 'entities', title: t.messages, entities: rows };
}

function bridge(e: ChildEntities, t: DashboardText): Card | undefined {
  const rows = ['last_update', 'problem', 'refresh'].filter((k) => e.has(k)).map((k) => e.id(k));
  if (rows.length === 0) return undefined;
  return { type: 'entities', title: t.bridge, state_color: true, entities: rows };
}
