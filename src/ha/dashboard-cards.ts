// The dashboard's blocks, one builder each: a block reads a child's entities and returns a built-in
// Lovelace card, or nothing when the child lacks what it needs. Every text is in the dashboard's
// language, every date carries its weekday, and no state Home Assistant calls unknown reaches a parent.
import { entityId, type EntityDef } from './entities.js';
import { attr, changeLine, kindsDict, prelude } from './dashboard-templates.js';
import type { DashboardText } from '../i18n/dashboard-text.js';

export type Card = Record<string, unknown>;

export interface DashboardChild {
  /** The child id <c> of topics and entity ids. */
  id: string;
  /** Shown as the view's title and above the child's column. */
  name: string;
  /** What the bridge announces for this child (discovery's components). */
  entities: readonly EntityDef[];
}

/** Looks up a child's entities by key; `id` throws for one the child lacks, so no card can name it. */
export class ChildEntities {
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

  /** The configured fixed-message buttons, in the order of the config, with the user's names. */
  sendButtons(lang: keyof EntityDef['name']): { id: string; name: string }[] {
    return this.child.entities
      .filter((e) => e.platform === 'button' && e.key.startsWith('send_'))
      .map((e) => ({ id: entityId(this.child.id, e), name: e.name[lang] }));
  }
}

export type Block = (e: ChildEntities, t: DashboardText) => Card | undefined;

/** A markdown card whose template starts with the shared macros; nothing when it has no lines. */
function markdown(t: DashboardText, lines: string[], extra: Card = {}): Card | undefined {
  if (lines.length === 0) return undefined;
  return { type: 'markdown', content: [prelude(t), ...lines].join('\n'), ...extra };
}

export const heading = (title: string, icon?: string): Card => ({ type: 'heading', heading: title, ...(icon ? { icon } : {}) });

export const luckyBanner: Block = (e, t) => {
  if (!e.has('lucky_today', 'lucky_number')) return undefined;
  return {
    type: 'conditional',
    conditions: [{ condition: 'state', entity: e.id('lucky_today'), state: 'on' }],
    card: { type: 'markdown', text_only: true, content: `### 🍀 ${t.luckyYou(e.child.name)}` },
  };
};

export const problemBanner: Block = (e, t) => {
  if (!e.has('problem')) return undefined;
  // The advice (`message`) in the config's language; never the reason code, which means nothing to a parent.
  const id = e.id('problem');
  return {
    type: 'conditional',
    conditions: [{ condition: 'state', entity: id, state: 'on' }],
    card: { type: 'markdown', text_only: true, content: `<ha-alert alert-type="warning">${t.problem} {{ ${attr(id, 'message')} or '${t.problemUnknown}' }}</ha-alert>` },
  };
};

/** Lucky number and unread counts on one line. */
export const summary: Block = (e, t) => {
  const parts: string[] = [];
  if (e.has('lucky_number')) {
    const id = e.id('lucky_number');
    parts.push(`{% if has_value('${id}') %}🍀 ${t.lucky}{% if ${attr(id, 'day')} and ${attr(id, 'day')} != now().strftime('%Y-%m-%d') %} ({{ day(${attr(id, 'day')}) }}){% endif %}: **{{ states('${id}') }}**{% endif %}`);
  }
  const counts: string[] = [];
  for (const [key, icon, label] of [
    ['unread_messages', '✉️', t.unreadMessages],
    ['unread_notices', '📌', t.unreadNotices],
  ] as const) {
    if (e.has(key)) counts.push(`${icon} ${label}: **{{ states('${e.id(key)}') | int(0) }}**`);
  }
  if (counts.length > 0) parts.push(counts.join(' · '));
  // Without a frame: the family view must fit a 1280x800 tablet for two children.
  return markdown(t, parts, { text_only: true });
};

/** "Now:" from current_lesson: subject, hours, room and a substitution's teacher; nothing outside lessons. */
function lessonNow(e: ChildEntities, t: DashboardText): string {
  const id = e.id('current_lesson');
  return (
    `{% if has_value('${id}') %}**${t.lessonNow}:** {{ states('${id}') }}, {{ ${attr(id, 'from')} or '' }}–{{ ${attr(id, 'to')} or '' }}` +
    `{% if ${attr(id, 'room')} %}, ${t.room} {{ ${attr(id, 'room')} }}{% endif %}` +
    `{% if ${attr(id, 'change')} == 'substitution' %} (${t.substitution}{% if ${attr(id, 'teacher')} %}: {{ ${attr(id, 'teacher')} }}{% endif %}){% endif %}{% endif %}`
  );
}

/** The next lesson today (or the next school day's first), unless one is in progress. */
function lessonNext(e: ChildEntities, t: DashboardText, schoolDay: string, inProgress: string): string {
  const id = e.id('next_lesson');
  return (
    `{% if ${inProgress} %}{% elif has_value('${id}') %}{% set started = ${attr(id, 'start')} and as_timestamp(${attr(id, 'start')}, 0) <= as_timestamp(now()) %}` +
    `**{{ '${t.lessonNow}' if started else '${t.nextLesson}' }}` +
    `{% if ${attr(id, 'date')} and ${attr(id, 'date')} != now().strftime('%Y-%m-%d') %} ({{ day(${attr(id, 'date')}) }}){% endif %}:** ` +
    `{{ states('${id}') }}, {{ ${attr(id, 'time')} }}–{{ ${attr(id, 'end')} }}` +
    `{% if ${attr(id, 'room')} %}, ${t.room} {{ ${attr(id, 'room')} }}{% endif %}` +
    `{% if ${attr(id, 'substitution')} %} (${t.substitution}{% if ${attr(id, 'teacher')} %}: {{ ${attr(id, 'teacher')} }}{% endif %}){% endif %}` +
    `{% elif ${schoolDay} %}${t.noMoreLessons}{% else %}${t.noLessonsToday}{% endif %}`
  );
}

/**
 * A slot of timetable_*'s `lessons` (l) as text: a cancelled one struck through, a change named in
 * italics (kinds: kindsDict), the slot in progress (cur: its number or none) in bold with a marker.
 * "1\." keeps Markdown from making a numbered list of it (which would renumber the slots).
 */
function slotText(t: DashboardText, withTime: boolean): string {
  const subject = `{{ l.get('subject') or l.get('original_subject') or '' }}`;
  const time = withTime ? ` {{ l.get('from') or '' }}` : '';
  return (
    `{% set on = cur is not none and l.get('no') == cur %}{% if on %}▶ **{% endif %}{{ l.get('no') or '' }}\\.${time} ` +
    `{% if l.get('change') == 'cancelled' %}<del>${subject}</del>{% else %}${subject}{% endif %}{% if on %}**{% endif %}` +
    `{% if l.get('moved_to') %} _(${t.movedTo(`{{ day(l.get('moved_to').get('date')) }}`, `{{ l.get('moved_to').get('lesson_no') or '' }}`)})_` +
    `{% elif l.get('change') %} _({{ kinds.get(l.get('change'), '') }}` +
    `{% if l.get('change') == 'substitution' and l.get('teacher') %}: {{ l.get('teacher') }}{% endif %}` +
    `{% if l.get('change') in ['room_change', 'shifted'] and l.get('room') %}, ${t.room} {{ l.get('room') }}{% endif %})_{% endif %}`
  );
}

/**
 * The day's lessons from timetable_today/tomorrow, changes marked at a glance: today one line each
 * with its time, the next school day on one flowing line (the family view fits 1280x800).
 */
function dayLessons(id: string, t: DashboardText, current: string, compact: boolean): string[] {
  // Home Assistant's Markdown breaks lines at each newline: one per slot, or none for the flowing line.
  const separator = compact ? ' · ' : '\n';
  return [`{% set cur = ${current} %}{% for l in ${attr(id, 'lessons')} or [] %}${slotText(t, !compact)}{% if not loop.last %}${separator}{% endif %}{% endfor %}`];
}

/** The lesson in progress or the next one, today's hours and today's lessons with their changes. */
export const today: Block = (e, t) => {
  const lines: string[] = [];
  const schoolDay = e.has('school_day_today') ? `is_state('${e.id('school_day_today')}', 'on')` : 'false';
  const inProgress = e.has('current_lesson') ? `has_value('${e.id('current_lesson')}')` : 'false';
  if (e.has('current_lesson')) lines.push(lessonNow(e, t));
  if (e.has('next_lesson')) lines.push(lessonNext(e, t, schoolDay, inProgress));
  if (e.has('timetable_today')) {
        const current = e.has('current_lesson') ? `${attr(e.id('current_lesson'), 'no')} if ${inProgress} else none` : 'none';
    lines.push('', ...dayLessons(e.id('timetable_today'), t, current, false));
  }
  if (e.has('plan_changes_today')) lines.push(changes(e.id('plan_changes_today'), t, e.has('timetable_today')));
  if (lines.length === 0) return undefined;
  const present = e.has('at_school') ? `{% if is_state('${e.id('at_school')}', 'on') %} · 🏫 ${t.atSchool}{% endif %}` : '';
  return markdown(t, [`{% set kinds = ${kindsDict(t)} %}`, `{% set d = now().strftime('%Y-%m-%d') %}### ${capitalized('longDay(d)')}${hours(e, 'today')}${present}`, ...lines]);
};

/** A macro call's text with its first letter upper-cased (Jinja's capitalize would lower the rest: "nov"). */
function capitalized(call: string): string {
  return `{% set s = ${call} | string %}{{ s[:1] | upper }}{{ s[1:] }}`;
}

/** " · 08:00–13:30", the day's first and last bell, for the day's heading; nothing when unknown. */
function hours(e: ChildEntities, day: 'today' | 'tomorrow'): string {
  const [start, end] = [`lessons_start_${day}`, `lessons_end_${day}`];
  if (!e.has(start, end)) return '';
  const time = (key: string): string => `{{ as_timestamp(states('${e.id(key)}')) | timestamp_custom('%H:%M') }}`;
  return `{% if has_value('${e.id(start)}') and has_value('${e.id(end)}') %} · ${time(start)}–${time(end)}{% endif %}`;
}

/**
 * A day's plan changes as a list. Beside the day's timetable (`movedOnly`) only the lessons moved to
 * another slot, whose new place the timetable's line cannot say; "no changes" then goes unsaid.
 */
function changes(id: string, t: DashboardText, movedOnly = false): string {
  const items = movedOnly ? `(${attr(id, 'changes')} or []) | selectattr('kind', 'eq', 'shifted') | list` : `${attr(id, 'changes')} or []`;
  return [
    `{%- for c in ${items} %}`,
    `{% if loop.first %}\n\n**${t.changes}:**\n{% endif %}${changeLine(t)}`,
    `{%- else %}`,
    movedOnly ? '' : `{% if has_value('${id}') %}\n\n${t.noChanges}{% endif %}`,
    `{%- endfor %}`,
  ].join('\n');
}

/** The next school day: its date with the weekday, hours, plan changes and the homework due. */
export const nextDay: Block = (e, t) => {
  const lines: string[] = [];
  if (!e.has('plan_changes_tomorrow') && !e.has('homework_due') && !e.has('lessons_start_tomorrow', 'lessons_end_tomorrow')) return undefined;
  const dated = ['timetable_tomorrow', 'school_day_tomorrow', 'plan_changes_tomorrow', 'homework_due'].filter((k) => e.has(k)).map((k) => attr(e.id(k), 'date'));
  if (e.has('timetable_tomorrow')) lines.push('', ...dayLessons(e.id('timetable_tomorrow'), t, 'none', true));
  if (e.has('plan_changes_tomorrow')) lines.push(changes(e.id('plan_changes_tomorrow'), t, e.has('timetable_tomorrow')));
  if (e.has('homework_due')) {
    const id = e.id('homework_due');
    lines.push(
      `{%- for h in ${attr(id, 'items')} or [] %}`,
      `{% if loop.first %}\n\n**${t.homework}:**\n{% endif %}- **{{ h.get('subject') or '' }}**: {{ h.get('topic') or h.get('text') or '' }}{% if h.get('done') %} ✔{% endif %}`,
      `{%- else %}`,
      `\n\n${t.noHomework}`,
      `{%- endfor %}`,
    );
  }
  if (lines.length === 0) return undefined;
  const date =
    dated.length > 0
      ? `{% set d = ${dated.join(' or ')} %}{% if d %}### ${capitalized('longDay(d)')}${hours(e, 'tomorrow')}{% endif %}`
      : `### ${t.lessons}${hours(e, 'tomorrow')}`;
  return markdown(t, [`{% set kinds = ${kindsDict(t)} %}`, date, ...lines]);
};

/** Tests of the next seven days (upcoming_tests covers two weeks). */
export const testsWeek: Block = (e, t) => {
  if (!e.has('upcoming_tests')) return undefined;
  const id = e.id('upcoming_tests');
  return markdown(t, [
    `{% set until = (now() + timedelta(days=7)).strftime('%Y-%m-%d') %}`,
    `{% set week = (${attr(id, 'items')} or []) | selectattr('date', 'le', until) | list %}`,
    `**${t.testsWeek}:**`,
    `{%- for x in week %}`,
    `- {{ day(x.get('date')) }}{% if x.get('time') %} {{ x.get('time') }}{% endif %} **{{ x.get('subject') or '' }}**: {{ x.get('content') or x.get('category') or '' }}`,
    `{%- else %}`,
    t.noTestsWeek,
    `{%- endfor %}`,
  ]);
};
