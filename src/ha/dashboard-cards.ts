// The dashboard's blocks, one builder each: a block reads a child's entities and returns a built-in
// Lovelace card, or nothing when the child lacks what it needs. Every text is in the dashboard's
// language, every date carries its weekday, and no state Home Assistant calls unknown reaches a parent.
import { entityId, type EntityDef } from '../feature-kit/entities.js';
import type { AttributeName, ItemOf } from '../feature-kit/contract.js';
import { changeLine, item, kind, kindsDict, markdownText, prelude, stateAttr, type ChangeItem } from './dashboard-templates.js';
import type { DashboardText } from '../i18n/dashboard-text.js';
import { luckyNumber, luckyToday } from '../features/lucky.js';
import { problem } from '../features/status.js';
import { unreadMessages } from '../features/messages.js';
import { unreadNotices } from '../features/notices.js';
import { homeworkDueEntity, upcomingTestsEntity } from '../features/agenda.js';
import {
  atSchool,
  currentLesson,
  lessonsEndToday,
  lessonsEndTomorrow,
  lessonsStartToday,
  lessonsStartTomorrow,
  nextLesson,
  planChangesToday,
  planChangesTomorrow,
  schoolDayToday,
  schoolDayTomorrow,
  timetableToday,
  timetableTomorrow,
} from '../features/timetable.js';

export type Card = Record<string, unknown>;

export interface DashboardChild {
  /** The child id <c> of topics and entity ids. */
  id: string;
  /** Shown as the view's title and above the child's column. */
  name: string;
  /** What the bridge announces for this child (discovery's components). */
  entities: readonly EntityDef[];
}

/**
 * A child's entities, looked up by the features' declarations (never by a key spelled here); `id`
 * throws for one the child lacks, so no card can name it.
 */
export class ChildEntities {
  private readonly byKey: Map<string, EntityDef>;

  constructor(readonly child: DashboardChild) {
    this.byKey = new Map(child.entities.map((e) => [e.key, e]));
  }

  has(...entities: readonly EntityDef[]): boolean {
    return entities.every((e) => this.byKey.has(e.key));
  }

  id(declared: EntityDef): string {
    const entity = this.byKey.get(declared.key);
    if (!entity) throw new Error(`dashboard: ${this.child.id} has no entity ${declared.key}`);
    return entityId(this.child.id, entity);
  }

  /** `state_attr(...)` of one of the entity's declared attributes, as template text. */
  attr<E extends EntityDef>(entity: E, name: AttributeName<E>): string {
    return stateAttr<E>(this.id(entity), name);
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
  if (!e.has(luckyToday, luckyNumber)) return undefined;
  return {
    type: 'conditional',
    conditions: [{ condition: 'state', entity: e.id(luckyToday), state: 'on' }],
    card: { type: 'markdown', text_only: true, content: `### 🍀 ${t.luckyYou(markdownText(e.child.name))}` },
  };
};

export const problemBanner: Block = (e, t) => {
  if (!e.has(problem)) return undefined;
  // The advice (`message`) in the config's language; never the reason code, which means nothing to a parent.
  return {
    type: 'conditional',
    conditions: [{ condition: 'state', entity: e.id(problem), state: 'on' }],
    card: { type: 'markdown', text_only: true, content: `<ha-alert alert-type="warning">${t.problem} {{ ${e.attr(problem, 'message')} or '${t.problemUnknown}' }}</ha-alert>` },
  };
};

/** Lucky number and unread counts on one line. */
export const summary: Block = (e, t) => {
  const parts: string[] = [];
  if (e.has(luckyNumber)) {
    const id = e.id(luckyNumber);
    const day = e.attr(luckyNumber, 'day');
    parts.push(`{% if has_value('${id}') %}🍀 ${t.lucky}{% if ${day} and ${day} != now().strftime('%Y-%m-%d') %} ({{ day(${day}) }}){% endif %}: **{{ md(states('${id}')) }}**{% endif %}`);
  }
  const counts: string[] = [];
  for (const [entity, icon, label] of [
    [unreadMessages, '✉️', t.unreadMessages],
    [unreadNotices, '📌', t.unreadNotices],
  ] as const) {
    if (e.has(entity)) counts.push(`${icon} ${label}: **{{ states('${e.id(entity)}') | int(0) }}**`);
  }
  if (counts.length > 0) parts.push(counts.join(' · '));
  // Without a frame: the family view must fit a 1280x800 tablet for two children.
  return markdown(t, parts, { text_only: true });
};

/** "Now:" from current_lesson: subject, hours, room and a substitution's teacher; nothing outside lessons. */
function lessonNow(e: ChildEntities, t: DashboardText): string {
  const id = e.id(currentLesson);
  const a = (name: AttributeName<typeof currentLesson>): string => e.attr(currentLesson, name);
  return (
    `{% if has_value('${id}') %}**${t.lessonNow}:** {{ md(states('${id}')) }}, {{ md(${a('from')}) }}–{{ md(${a('to')}) }}` +
    `{% if ${a('room')} %}, ${t.room} {{ md(${a('room')}) }}{% endif %}` +
    `{% if ${a('change')} == ${kind('substitution')} %} (${t.substitution}{% if ${a('teacher')} %}: {{ md(${a('teacher')}) }}{% endif %}){% endif %}{% endif %}`
  );
}

/** The next lesson today (or the next school day's first), unless one is in progress. */
function lessonNext(e: ChildEntities, t: DashboardText, schoolDay: string, inProgress: string): string {
  const id = e.id(nextLesson);
  const a = (name: AttributeName<typeof nextLesson>): string => e.attr(nextLesson, name);
  return (
    `{% if ${inProgress} %}{% elif has_value('${id}') %}{% set started = ${a('start')} and as_timestamp(${a('start')}, 0) <= as_timestamp(now()) %}` +
    `**{{ '${t.lessonNow}' if started else '${t.nextLesson}' }}` +
    `{% if ${a('date')} and ${a('date')} != now().strftime('%Y-%m-%d') %} ({{ day(${a('date')}) }}){% endif %}:** ` +
    `{{ md(states('${id}')) }}, {{ md(${a('time')}) }}–{{ md(${a('end')}) }}` +
    `{% if ${a('room')} %}, ${t.room} {{ md(${a('room')}) }}{% endif %}` +
    `{% if ${a('substitution')} %} (${t.substitution}{% if ${a('teacher')} %}: {{ md(${a('teacher')}) }}{% endif %}){% endif %}` +
    `{% elif ${schoolDay} %}${t.noMoreLessons}{% else %}${t.noLessonsToday}{% endif %}`
  );
}

/**
 * A slot of timetable_*'s `lessons` (l) as text: a cancelled one struck through, a change named in
 * italics (kinds: kindsDict), the slot in progress (cur: its number or none) in bold with a marker.
 * "1\." keeps Markdown from making a numbered list of it (which would renumber the slots).
 */
function slotText(t: DashboardText, withTime: boolean): string {
  const l = item<ItemOf<typeof timetableToday, 'lessons'>>('l');
  const subject = `{{ md(${l('subject')} or ${l('original_subject')}) }}`;
  const time = withTime ? ` {{ md(${l('from')}) }}` : '';
  return (
    `{% set on = cur is not none and ${l('no')} == cur %}{% if on %}▶ **{% endif %}{{ ${l('no')} or '' }}\\.${time} ` +
    `{% if ${l('change')} == ${kind('cancelled')} %}<del>${subject}</del>{% else %}${subject}{% endif %}{% if on %}**{% endif %}` +
    `{% if ${l('moved_to')} %} _(${t.movedTo(`{{ day(${l('moved_to')}.get('date')) }}`, `{{ ${l('moved_to')}.get('lesson_no') or '' }}`)})_` +
    `{% elif ${l('change')} %} _({{ kinds.get(${l('change')}, '') }}` +
    `{% if ${l('change')} == ${kind('substitution')} and ${l('teacher')} %}: {{ md(${l('teacher')}) }}{% endif %}` +
    `{% if ${l('change')} in [${kind('room_change')}, ${kind('shifted')}] and ${l('room')} %}, ${t.room} {{ md(${l('room')}) }}{% endif %})_{% endif %}`
  );
}

/**
 * The day's lessons from timetable_today/tomorrow, changes marked at a glance: today one line each
 * with its time, the next school day on one flowing line (the family view fits 1280x800).
 */
function dayLessons(e: ChildEntities, day: typeof timetableToday | typeof timetableTomorrow, t: DashboardText, current: string, compact: boolean): string[] {
  // Home Assistant's Markdown breaks lines at each newline: one per slot, or none for the flowing line.
  const separator = compact ? ' · ' : '\n';
  return [`{% set cur = ${current} %}{% for l in ${e.attr(day, 'lessons')} or [] %}${slotText(t, !compact)}{% if not loop.last %}${separator}{% endif %}{% endfor %}`];
}

/** The lesson in progress or the next one, today's hours and today's lessons with their changes. */
export const today: Block = (e, t) => {
  const lines: string[] = [];
  const schoolDay = e.has(schoolDayToday) ? `is_state('${e.id(schoolDayToday)}', 'on')` : 'false';
  const inProgress = e.has(currentLesson) ? `has_value('${e.id(currentLesson)}')` : 'false';
  if (e.has(currentLesson)) lines.push(lessonNow(e, t));
  if (e.has(nextLesson)) lines.push(lessonNext(e, t, schoolDay, inProgress));
  if (e.has(timetableToday)) {
    const current = e.has(currentLesson) ? `${e.attr(currentLesson, 'no')} if ${inProgress} else none` : 'none';
    lines.push('', ...dayLessons(e, timetableToday, t, current, false));
  }
  if (e.has(planChangesToday)) lines.push(changes(e, planChangesToday, t, e.has(timetableToday)));
  if (lines.length === 0) return undefined;
  const present = e.has(atSchool) ? `{% if is_state('${e.id(atSchool)}', 'on') %} · 🏫 ${t.atSchool}{% endif %}` : '';
  return markdown(t, [`{% set kinds = ${kindsDict(t)} %}`, `{% set d = now().strftime('%Y-%m-%d') %}### ${capitalized('longDay(d)')}${hours(e, 'today')}${present}`, ...lines]);
};

/** A macro call's text with its first letter upper-cased (Jinja's capitalize would lower the rest: "nov"). */
function capitalized(call: string): string {
  return `{% set s = ${call} | string %}{{ s[:1] | upper }}{{ s[1:] }}`;
}

/** " · 08:00–13:30", the day's first and last bell, for the day's heading; nothing when unknown. */
function hours(e: ChildEntities, day: 'today' | 'tomorrow'): string {
  const [start, end] = day === 'today' ? [lessonsStartToday, lessonsEndToday] : [lessonsStartTomorrow, lessonsEndTomorrow];
  if (!e.has(start, end)) return '';
  const time = (entity: EntityDef): string => `{{ as_timestamp(states('${e.id(entity)}')) | timestamp_custom('%H:%M') }}`;
  return `{% if has_value('${e.id(start)}') and has_value('${e.id(end)}') %} · ${time(start)}–${time(end)}{% endif %}`;
}

/**
 * A day's plan changes as a list. Beside the day's timetable (`movedOnly`) only the lessons moved to
 * another slot, whose new place the timetable's line cannot say; "no changes" then goes unsaid.
 */
function changes(e: ChildEntities, day: typeof planChangesToday | typeof planChangesTomorrow, t: DashboardText, movedOnly = false): string {
  const id = e.id(day);
  const list = e.attr(day, 'changes');
  const items = movedOnly ? `(${list} or []) | selectattr('${item<ChangeItem>('c').named('kind')}', 'eq', ${kind('shifted')}) | list` : `${list} or []`;
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
  if (!e.has(planChangesTomorrow) && !e.has(homeworkDueEntity) && !e.has(lessonsStartTomorrow, lessonsEndTomorrow)) return undefined;
  const dated = [
    ...(e.has(timetableTomorrow) ? [e.attr(timetableTomorrow, 'date')] : []),
    ...(e.has(schoolDayTomorrow) ? [e.attr(schoolDayTomorrow, 'date')] : []),
    ...(e.has(planChangesTomorrow) ? [e.attr(planChangesTomorrow, 'date')] : []),
    ...(e.has(homeworkDueEntity) ? [e.attr(homeworkDueEntity, 'date')] : []),
  ];
  if (e.has(timetableTomorrow)) lines.push('', ...dayLessons(e, timetableTomorrow, t, 'none', true));
  if (e.has(planChangesTomorrow)) lines.push(changes(e, planChangesTomorrow, t, e.has(timetableTomorrow)));
  if (e.has(homeworkDueEntity)) {
    const h = item<ItemOf<typeof homeworkDueEntity, 'items'>>('h');
    lines.push(
      `{%- for h in ${e.attr(homeworkDueEntity, 'items')} or [] %}`,
      `{% if loop.first %}\n\n**${t.homework}:**\n{% endif %}- **{{ md(${h('subject')}) }}**: {{ md(${h('topic')} or ${h('text')}) }}{% if ${h('done')} %} ✔{% endif %}`,
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
  if (!e.has(upcomingTestsEntity)) return undefined;
  const x = item<ItemOf<typeof upcomingTestsEntity, 'items'>>('x');
  return markdown(t, [
    `{% set agenda = ${kindsDict(t, t.agendaKinds)} %}`,
    `{% set until = (now() + timedelta(days=7)).strftime('%Y-%m-%d') %}`,
    `{% set week = (${e.attr(upcomingTestsEntity, 'items')} or []) | selectattr('${x.named('date')}', 'le', until) | list %}`,
    `**${t.testsWeek}:**`,
    `{%- for x in week %}`,
    `- {{ day(${x('date')}) }}{% if ${x('time')} %} {{ md(${x('time')}) }}{% endif %} **{{ md(${x('subject')} or agenda.get(${x('kind')}, '')) }}**: {{ md(${x('content')} or ${x('category')}) }}`,
    `{%- else %}`,
    t.noTestsWeek,
    `{%- endfor %}`,
  ]);
};
