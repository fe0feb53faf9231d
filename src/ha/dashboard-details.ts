// The blocks of a child's own view (grades, notes and attendance, library, calendar, messages) and of
// the diagnostics view. Buttons that write to the portal ask for a confirmation first.
import { attr, prelude } from './dashboard-templates.js';
import type { Block, Card } from './dashboard-cards.js';
import type { DashboardText } from '../i18n/dashboard-text.js';
import type { Language } from '../i18n/language.js';

function markdown(t: DashboardText, lines: string[]): Card | undefined {
  if (lines.length === 0) return undefined;
  return { type: 'markdown', content: [prelude(t), ...lines].join('\n') };
}

export const grades: Block = (e, t) => {
  const lines: string[] = [];
  if (e.has('newest_grade')) {
    const id = e.id('newest_grade');
    lines.push(
      `#### ${t.newestGrades}`,
      `{%- for g in ${attr(id, 'recent')} or [] %}`,
      `- **{{ g.get('grade') | string | truncate(24) }}** {{ g.get('subject') or '' }} <small>{{ day(g.get('date')) }}</small>`,
      `{%- else %}`,
      t.noGrades,
      `{%- endfor %}`,
    );
  }
  if (e.has('average')) {
    const id = e.id('average');
    // Later: one average_<subject> sensor per subject (issue 13) gives this table its history graphs.
    lines.push(
      `{% set subjects = (${attr(id, 'subjects')} or []) | selectattr('average', 'ne', none) | list %}`,
      `{% if has_value('${id}') and subjects %}`,
      `#### ${t.averages}: {{ num(states('${id}')) }}`,
      `| ${t.subject} | ${t.average} | ${t.count} |`,
      `|:--|--:|--:|`,
      `{%- for s in subjects %}`,
      // The school's own average beside ours where the two differ (the portal's app shows the school's).
      `| {{ s.get('subject') }} | {{ num(s.get('average')) }}{% if s.get('school') is number and s.get('school') != s.get('average') %} <small>(${t.schoolAverage} {{ num(s.get('school')) }})</small>{% endif %} | {{ s.get('count') }} |`,
      `{%- endfor %}`,
      `{% endif %}`,
    );
  }
  return markdown(t, lines);
};

export const notesAndAbsences: Block = (e, t) => {
  const lines: string[] = [];
  if (e.has('newest_note')) {
    const id = e.id('newest_note');
    lines.push(
      `#### ${t.newestNote}`,
      `{% if has_value('${id}') %}`,
      `{% if ${attr(id, 'text')} is search('${t.signatureWords}', ignorecase=True) %}<ha-alert alert-type="info">✍️ ${t.signature}</ha-alert>\n{% endif %}` +
        `**{{ ${attr(id, 'category')} or '' }}**, {{ day(${attr(id, 'date')}) }}{% if ${attr(id, 'teacher')} %}, {{ ${attr(id, 'teacher')} }}{% endif %}`,
      `> {{ ${attr(id, 'text')} or states('${id}') }}`,
      `{% else %}${t.noNotes}{% endif %}`,
    );
  }
  if (e.has('absences_unexcused')) {
    const id = e.id('absences_unexcused');
    lines.push(
      `#### ${t.unexcused}`,
      `{%- for a in ${attr(id, 'unexcused')} or [] %}`,
      `- {{ day(a.get('date')) }}, {{ a.get('lesson_no') or '' }}. {{ a.get('subject') or '' }}`,
      `{%- else %}`,
      t.noUnexcused,
      `{%- endfor %}`,
      `{% if ${attr(id, 'attendance_percent')} is not none %}\n${t.attendance}: **{{ ${attr(id, 'attendance_percent')} | replace('.', '${t.decimal}') }}%**{% endif %}`,
    );
  }
  return markdown(t, lines);
};

export const library: Block = (e, t) => {
  if (!e.has('library_due')) return undefined;
  const id = e.id('library_due');
  return markdown(t, [
    `#### ${t.library}`,
    `{%- for b in ${attr(id, 'items')} or [] %}`,
    `- {% if b.get('overdue') %}⚠️ {% endif %}**{{ b.get('title') }}**: ` +
      `{% if b.get('overdue') %}**${t.overdue}** ({{ day(b.get('due')) }}){% elif b.get('free_textbook') %}${t.freeTextbook}{% else %}${t.due} {{ day(b.get('due')) }}{% endif %}`,
    `{%- else %}`,
    t.noBooks,
    `{%- endfor %}`,
  ]);
};

/** The agenda: every test of the next two weeks, then the trips, meetings and other events. */
export const calendar: Block = (e, t) => {
  if (!e.has('upcoming_tests')) return undefined;
  const id = e.id('upcoming_tests');
  const item = `- {{ day(x.get('date')) }}{% if x.get('time') %} {{ x.get('time') }}{% endif %} **{{ x.get('subject') or x.get('category') or '' }}**: {{ x.get('content') or x.get('category') or '' }}`;
  return markdown(t, [
    `#### ${t.tests}`,
    `{%- for x in ${attr(id, 'items')} or [] %}`,
    item,
    `{%- else %}`,
    t.noTestsWeek,
    `{%- endfor %}`,
    `#### ${t.events}`,
    `{%- for x in ${attr(id, 'other')} or [] %}`,
    item,
    `{%- else %}`,
    t.noEvents,
    `{%- endfor %}`,
  ]);
};

export const newestMessages: Block = (e, t) => {
  const lines: string[] = [];
  for (const [key, title, by, preview] of [
    ['newest_message', t.newestMessage, 'sender', 'preview'],
    ['newest_notice', t.newestNotice, 'created', 'content'],
  ] as const) {
    if (!e.has(key)) continue;
    const id = e.id(key);
    lines.push(
      `{% if has_value('${id}') %}`,
      `#### ${title}`,
      `**{{ states('${id}') }}**` +
        (by === 'sender' ? `{% if ${attr(id, 'sender')} %}, {{ ${attr(id, 'sender')} }}{% endif %}` : '') +
        `{% if ${attr(id, by === 'sender' ? 'date' : 'start_date')} %} <small>{{ day(${attr(id, by === 'sender' ? 'date' : 'start_date')}) }}</small>{% endif %}`,
      `{% if ${attr(id, preview)} %}\n{{ ${attr(id, preview)} | truncate(160) }}{% endif %}`,
      `{% endif %}`,
    );
  }
  return markdown(t, lines);
};

/** A button row that asks before it presses: for every button that writes to the portal. */
function confirmedButton(id: string, name: string, action: string, confirm: string): Card {
  return {
    type: 'button',
    entity: id,
    name,
    action_name: action,
    // A button row's toggle presses the button (Home Assistant's default for the row), here after a yes.
    tap_action: { action: 'toggle', confirmation: { text: confirm } },
  };
}

export function messageButtons(lang: Language): Block {
  return (e, t) => {
    const rows: Card[] = e.sendButtons(lang).map((b) => confirmedButton(b.id, b.name, t.send, t.confirmSend(b.name)));
    if (e.has('mark_notices_read')) rows.push(confirmedButton(e.id('mark_notices_read'), t.markRead, t.markReadAction, t.confirmMarkRead));
    if (rows.length === 0) return undefined;
    return { type: 'entities', entities: rows };
  };
}

/** The bridge's own state for a child: last update, whether the register can be read, refresh. */
export const diagnostics: Block = (e, t) => {
  const rows: Card[] = [];
  if (e.has('last_update')) rows.push({ entity: e.id('last_update'), name: t.lastUpdate });
  if (e.has('problem')) rows.push({ entity: e.id('problem'), name: t.problemRow });
  // A refresh only reads the portal: no confirmation needed.
  if (e.has('refresh')) rows.push({ type: 'button', entity: e.id('refresh'), name: t.refresh, action_name: t.refreshAction });
  if (rows.length === 0) return undefined;
  return { type: 'entities', state_color: true, entities: rows };
};
