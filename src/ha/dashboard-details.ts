// The blocks of a child's own view (grades, notes and attendance, library, calendar, messages) and of
// the diagnostics view. Buttons that write to the portal ask for a confirmation first.
import { item, kindsDict, prelude } from './dashboard-templates.js';
import type { Block, Card } from './dashboard-cards.js';
import type { DashboardText } from '../i18n/dashboard-text.js';
import type { Language } from '../config/language.js';
import type { AttributeName, ItemOf } from '../feature-kit/contract.js';
import { average, newestGrade } from '../features/grades.js';
import { newestNoteEntity } from '../features/notes.js';
import { absencesUnexcused } from '../features/attendance.js';
import { libraryDue } from '../features/library.js';
import { behaviourEntity } from '../features/behaviour.js';
import { schoolFilesEntity } from '../features/school-files.js';
import { sentMessageEntity } from '../features/sent-message.js';
import { upcomingTestsEntity } from '../features/agenda.js';
import { markNoticesReadButton, newestNotice } from '../features/notices.js';
import { lastUpdate, problem, refresh } from '../features/status.js';

function markdown(t: DashboardText, lines: string[]): Card | undefined {
  if (lines.length === 0) return undefined;
  return { type: 'markdown', content: [prelude(t), ...lines].join('\n') };
}

export const grades: Block = (e, t) => {
  const lines: string[] = [];
  if (e.has(newestGrade)) {
    const g = item<ItemOf<typeof newestGrade, 'recent'>>('g');
    lines.push(
      `#### ${t.newestGrades}`,
      `{%- for g in ${e.attr(newestGrade, 'recent')} or [] %}`,
      `- **{{ ${g('grade')} | string | truncate(24) }}** {{ ${g('subject')} or '' }} <small>{{ day(${g('date')}) }}</small>`,
      `{%- else %}`,
      t.noGrades,
      `{%- endfor %}`,
    );
  }
  if (e.has(average)) {
    const id = e.id(average);
    const s = item<ItemOf<typeof average, 'subjects'>>('s');
    // Later: one average_<subject> sensor per subject (issue 13) gives this table its history graphs.
    lines.push(
      `{% set subjects = (${e.attr(average, 'subjects')} or []) | selectattr('${s.named('average')}', 'ne', none) | list %}`,
      `{% if has_value('${id}') and subjects %}`,
      `#### ${t.averages}: {{ num(states('${id}')) }}`,
      `| ${t.subject} | ${t.average} | ${t.count} |`,
      `|:--|--:|--:|`,
      `{%- for s in subjects %}`,
      // The school's own average beside ours where the two differ (the portal's app shows the school's).
      `| {{ ${s('subject')} }} | {{ num(${s('average')}) }}{% if ${s('school')} is number and ${s('school')} != ${s('average')} %} <small>(${t.schoolAverage} {{ num(${s('school')}) }})</small>{% endif %} | {{ ${s('count')} }} |`,
      `{%- endfor %}`,
      `{% endif %}`,
    );
  }
  return markdown(t, lines);
};

export const notesAndAbsences: Block = (e, t) => {
  const lines: string[] = [];
  if (e.has(newestNoteEntity)) {
    const id = e.id(newestNoteEntity);
    const a = (name: AttributeName<typeof newestNoteEntity>): string => e.attr(newestNoteEntity, name);
    lines.push(
      `#### ${t.newestNote}`,
      `{% if has_value('${id}') %}`,
      `{% if ${a('text')} is search('${t.signatureWords}', ignorecase=True) %}<ha-alert alert-type="info">✍️ ${t.signature}</ha-alert>\n{% endif %}` +
        `**{{ ${a('category')} or '' }}**, {{ day(${a('date')}) }}{% if ${a('teacher')} %}, {{ ${a('teacher')} }}{% endif %}`,
      `> {{ ${a('text')} or states('${id}') }}`,
      `{% else %}${t.noNotes}{% endif %}`,
    );
  }
  if (e.has(behaviourEntity)) {
    const id = e.id(behaviourEntity);
    const semester = e.attr(behaviourEntity, 'semester_grade');
    const final = e.attr(behaviourEntity, 'final_grade');
    lines.push(
      `#### ${t.behaviour}`,
      `{% if has_value('${id}') %}**{{ states('${id}') }}**` +
        `{% if ${semester} %} · ${t.semesterGrade}: {{ ${semester}.grade }}{% endif %}` +
        `{% if ${final} %} · ${t.finalGrade}: {{ ${final}.grade }}{% endif %}{% else %}—{% endif %}`,
    );
  }
  if (e.has(absencesUnexcused)) {
    const a = item<ItemOf<typeof absencesUnexcused, 'unexcused'>>('a');
    const percent = e.attr(absencesUnexcused, 'attendance_percent');
    lines.push(
      `#### ${t.unexcused}`,
      `{%- for a in ${e.attr(absencesUnexcused, 'unexcused')} or [] %}`,
      `- {{ day(${a('date')}) }}, {{ ${a('lesson_no')} or '' }}. {{ ${a('subject')} or '' }}`,
      `{%- else %}`,
      t.noUnexcused,
      `{%- endfor %}`,
      `{% if ${percent} is not none %}\n${t.attendance}: **{{ ${percent} | replace('.', '${t.decimal}') }}%**{% endif %}`,
    );
  }
  return markdown(t, lines);
};

export const library: Block = (e, t) => {
  if (!e.has(libraryDue)) return undefined;
  const b = item<ItemOf<typeof libraryDue, 'items'>>('b');
  return markdown(t, [
    `#### ${t.library}`,
    `{%- for b in ${e.attr(libraryDue, 'items')} or [] %}`,
    `- {% if ${b('overdue')} %}⚠️ {% endif %}**{{ ${b('title')} }}**: ` +
      `{% if ${b('overdue')} %}**${t.overdue}** ({{ day(${b('due')}) }}){% elif ${b('free_textbook')} %}${t.freeTextbook}{% elif ${b('overdue')} is none %}${t.due} {{ day(${b('due')}) }} (${t.dueUnsure}){% else %}${t.due} {{ day(${b('due')}) }}{% endif %}`,
    `{%- else %}`,
    t.noBooks,
    `{%- endfor %}`,
  ]);
};

/** The school's newest files (a link where the bridge saved one), and whether the newest sent message was read. */
export function schoolFilesAndSent(webBase: string | undefined): Block {
  return (e, t) => {
    const lines: string[] = [];
    if (e.has(schoolFilesEntity)) {
      const f = item<ItemOf<typeof schoolFilesEntity, 'files'>>('f');
      const link = webBase === undefined ? `**{{ ${f('name')} }}**` : `{% if ${f('url')} %}[{{ ${f('name')} }}](${webBase}{{ ${f('url')} }}){% else %}**{{ ${f('name')} }}**{% endif %}`;
      lines.push(
        `#### ${t.schoolFiles}`,
        `{%- for f in (${e.attr(schoolFilesEntity, 'files')} or [])[:5] %}`,
        `- ${link} <small>{{ day(${f('date')}) }}</small>`,
        `{%- else %}`,
        t.noSchoolFiles,
        `{%- endfor %}`,
      );
    }
    if (e.has(sentMessageEntity)) {
      const id = e.id(sentMessageEntity);
      const r = item<ItemOf<typeof sentMessageEntity, 'read'>>('r');
      lines.push(
        `{% if has_value('${id}') %}`,
        `#### ${t.sentMessage}`,
        `**{{ states('${id}') }}** <small>{{ day((${e.attr(sentMessageEntity, 'date')} or '')[:10]) }}</small>`,
        `{%- for r in ${e.attr(sentMessageEntity, 'read')} or [] %}`,
        `- {% if ${r('read')} %}✅ {{ ${r('name')} }}: ${t.readAt}{% if ${r('read_at')} %} {{ day(${r('read_at')}[:10]) }} {{ ${r('read_at')}[11:16] }}{% endif %}{% else %}✉️ {{ ${r('name')} }}: ${t.notRead}{% endif %}`,
        `{%- endfor %}`,
        `{% endif %}`,
      );
    }
    return markdown(t, lines);
  };
}

/**
 * The agenda: every test of the next two weeks, then the trips, meetings and other events. An entry
 * without a subject or a category (a trip, a meeting) is titled by its kind ("Wycieczka: Kopalnia Soli").
 */
export const calendar: Block = (e, t) => {
  if (!e.has(upcomingTestsEntity)) return undefined;
  const x = item<ItemOf<typeof upcomingTestsEntity, 'items'>>('x');
  const line =
    `- {{ day(${x('date')}) }}{% if ${x('time')} %} {{ ${x('time')} }}{% endif %} ` +
    `**{{ ${x('subject')} or ${x('category')} or agenda.get(${x('kind')}, '') }}**: {{ ${x('content')} or ${x('category')} or '' }}`;
  return markdown(t, [
    `{% set agenda = ${kindsDict(t, t.agendaKinds)} %}`,
    `#### ${t.tests}`,
    `{%- for x in ${e.attr(upcomingTestsEntity, 'items')} or [] %}`,
    line,
    `{%- else %}`,
    t.noTestsWeek,
    `{%- endfor %}`,
    `#### ${t.events}`,
    `{%- for x in ${e.attr(upcomingTestsEntity, 'other')} or [] %}`,
    line,
    `{%- else %}`,
    t.noEvents,
    `{%- endfor %}`,
  ]);
};

/** The newest notice of the school (the newest message is in the Messages card, dashboard-messages.ts). */
export const newestNoticeCard: Block = (e, t) => {
  if (!e.has(newestNotice)) return undefined;
  const id = e.id(newestNotice);
  const date = e.attr(newestNotice, 'start_date');
  const content = e.attr(newestNotice, 'content');
  return markdown(t, [
    `{% if has_value('${id}') %}`,
    `#### ${t.newestNotice}`,
    `**{{ states('${id}') }}**{% if ${date} %} <small>{{ day(${date}) }}</small>{% endif %}`,
    `{% if ${content} %}\n{{ ${content} | truncate(160) }}{% endif %}`,
    `{% endif %}`,
  ]);
};

/** A button row that asks before it presses: for every button that writes to the portal. */
export function confirmedButton(id: string, name: string, action: string, confirm: string): Card {
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
    if (e.has(markNoticesReadButton)) rows.push(confirmedButton(e.id(markNoticesReadButton), t.markRead, t.markReadAction, t.confirmMarkRead));
    if (rows.length === 0) return undefined;
    return { type: 'entities', entities: rows };
  };
}

/** The bridge's own state for a child: last update, whether the register can be read, refresh. */
export const diagnostics: Block = (e, t) => {
  const rows: Card[] = [];
  if (e.has(lastUpdate)) rows.push({ entity: e.id(lastUpdate), name: t.lastUpdate });
  if (e.has(problem)) rows.push({ entity: e.id(problem), name: t.problemRow });
  // A refresh only reads the portal: no confirmation needed.
  if (e.has(refresh)) rows.push({ type: 'button', entity: e.id(refresh), name: t.refresh, action_name: t.refreshAction });
  if (rows.length === 0) return undefined;
  return { type: 'entities', state_color: true, entities: rows };
};
