// What the read tools answer (interface 16.4): a child's published states, laid out as text in the family's
// language. Like the board, they only print what the features computed once per pass (the states as MQTT
// carries them, the calendar feeds, the board's own boxes): no fact is derived here, no portal is asked.
import type { EntityDef } from '../../features/kit/entities.js';
import type { EntityState } from '../../engine/state.js';
import type { Language } from '../../config/language.js';
import type { CalendarFeedContent } from '../../rules/calendar-feeds.js';
import type { ChildView } from '../web/types.js';
import { MCP_TEXT, type McpText } from '../../i18n/mcp-text.js';
import { BOARD_TEXT, type BoardText } from '../../i18n/board-text.js';
import { boardModel, type BoardChild } from '../web/board-model.js';
import { clockAt, dayShort, dayTitle, list, num, part, spaced, str, type BoardMoment } from '../../features/screens/shown.js';
import { timetableToday, timetableTomorrow } from '../../features/timetable/entities.js';
import { homeworkUpcomingEntity, upcomingTestsEntity } from '../../features/agenda/entities.js';
import { average } from '../../features/grades/average.js';
import { newestGrade } from '../../features/grades/newest.js';
import { catchUpEntity, lessonTopics } from '../../features/lessons-held/lessons-held.js';
import { absencesUnexcused, attendanceShare } from '../../features/attendance/attendance.js';
import { behaviourEntity } from '../../features/behaviour/behaviour.js';
import { newestNoteEntity } from '../../features/notes/notes.js';
import { schoolEntity } from '../../features/school-year/school-year.js';
import { luckyNumber } from '../../features/lucky/lucky.js';
import { newestMessage, unreadMessages } from '../../features/messages/entities.js';
import { newestNotice, unreadNotices } from '../../features/notices/notices.js';
import { openedMessageEntity } from '../../features/opened-message/opened-message.js';
import { addDays } from '../../util/time.js';
import { TOPIC_DAYS_MAX, UPCOMING_DAYS_MAX } from './tools.js';

/** What a read tool is given: the child as the bridge holds it, its card on the board, its days off, the moment. */
export interface Asked {
  child: ChildView;
  /** The name the family calls the child by (the board's). */
  name: string;
  card: BoardChild;
  freeDays: CalendarFeedContent<'free-days'> | undefined;
  language: Language;
  now: number;
}

/** A tool's answer: its text, and whether it is a refusal (an MCP tool error). */
export interface ToolAnswer {
  text: string;
  isError?: boolean;
}

/** A refusal a person can act on, as an MCP tool error. */
export class ToolRefusal extends Error {
  override readonly name = 'ToolRefusal';
}

type Facts = Record<string, unknown>;

/** A published state of the child, by its declaration; its attributes as a plain record (each field may be missing). */
function stateOf(child: ChildView, entity: EntityDef): { state: unknown; attributes: Facts } | undefined {
  const s: EntityState | undefined = child.states.get(entity.key);
  return s === undefined ? undefined : { state: s.state, attributes: (part(s.attributes as Facts | undefined) ?? {}) as Facts };
}

/** The states of every `<prefix><slug>` key (the per-subject averages). */
function statesStarting(child: ChildView, prefix: string): Facts[] {
  return [...child.states.entries()]
    .filter(([key]) => key.startsWith(prefix))
    .map(([, s]) => ({ state: s.state, ...((part(s.attributes as Facts | undefined) ?? {}) as Facts) }));
}

/** The facts a line holds, without the unknown ones, joined: "Matematyka, s. 12". */
function joined(parts: readonly (string | null | undefined | false)[], separator = ', '): string {
  return parts.filter((p): p is string => typeof p === 'string' && p !== '').join(separator);
}

/** A day as the board says it, with its date: "jutro (2026-11-19)", "pt. 20.11 (2026-11-20)". */
function day(date: string, clock: BoardMoment, text: BoardText): string {
  return `${dayShort(date, clock, text)} (${date})`;
}

/** Names a thing loosely: case, diacritics and spacing aside; a beginning is enough. */
export function loose(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

function heading(asked: Asked, title: string): string {
  const warning = asked.card.warning;
  const lines = [`${asked.name} (${asked.child.id}) — ${title}`];
  if (warning !== null) lines.push(joined([warning.text, warning.detail], ' '));
  return lines.join('\n');
}

// --- get_day ---

interface HeldDay {
  date: string;
  facts: Facts;
  count: unknown;
}

function heldDays(child: ChildView): HeldDay[] {
  return [timetableToday, timetableTomorrow].flatMap((entity) => {
    const s = stateOf(child, entity);
    const date = str(s?.attributes.date);
    return s === undefined || date === null || s.state === null ? [] : [{ date, facts: s.attributes, count: s.state }];
  });
}

/** The date a tool's `date` names: today, tomorrow (the next school day, as timetable_tomorrow says it) or YYYY-MM-DD. */
export function dateAsked(given: string | undefined, child: ChildView, clock: BoardMoment, w: McpText): string {
  const value = (given ?? 'today').trim().toLowerCase();
  if (value === 'today' || value === '') return clock.today;
  if (value === 'tomorrow') {
    const next = str(stateOf(child, timetableTomorrow)?.attributes.date);
    return next ?? addDays(clock.today, 1);
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) && Number.isFinite(Date.parse(`${value}T12:00:00Z`))) return value;
  throw new ToolRefusal(w.badDate(given ?? ''));
}

export function getDay(asked: Asked, date: string): ToolAnswer {
  const w = MCP_TEXT[asked.language];
  const text = BOARD_TEXT[asked.language];
  const clock = clockAt(asked.now);
  const lines = [heading(asked, `${dayTitle(date, clock, text)} (${date})`)];
  const held = heldDays(asked.child);
  const shown = held.find((d) => d.date === date);
  if (shown === undefined)
    lines.push(
      w.dayNotHeld(
        date,
        held.map((d) => d.date),
      ),
    );
  else {
    const hours = part(shown.facts.hours as Facts | null | undefined);
    const [from, to] = [str(hours?.from), str(hours?.to)];
    const lessons = list(shown.facts.lessons as Facts[] | undefined);
    lines.push(`${w.lessons}${from !== null && to !== null ? ` ${w.hours(from, to)}` : ''}:`);
    if (lessons.length === 0) lines.push(`- ${text.noLessons}`);
    for (const l of lessons) {
      const place = joined([num(l.no) === null ? null : `${num(l.no)}.`, str(l.from) && str(l.to) ? `${str(l.from)}–${str(l.to)}` : null], ' ');
      const room = str(l.room);
      const what = joined([str(l.subject), str(l.teacher) && `${w.teacher}: ${str(l.teacher)}`, room && text.room(room)]);
      lines.push(`- ${joined([place, what], ' ')}${str(l.note) ? ` — ${str(l.note)}` : ''}`);
    }
  }
  const homework = list(stateOf(asked.child, homeworkUpcomingEntity)?.attributes.items as Facts[] | undefined).filter((h) => h.date === date);
  if (homework.length > 0) {
    lines.push(`${w.homeworkDue}:`);
    for (const h of homework) lines.push(`- ${homeworkLine(h, w)}`);
  }
  const agenda = stateOf(asked.child, upcomingTestsEntity)?.attributes;
  const tests = list(agenda?.items as Facts[] | undefined).filter((t) => t.date === date);
  if (tests.length > 0) {
    lines.push(`${w.tests}:`);
    for (const t of tests) lines.push(`- ${agendaLine(t, text)}`);
  }
  const others = list(agenda?.other as Facts[] | undefined).filter(
    (e) => str(e.date) !== null && (e.date as string) <= date && (str(e.until) ?? (e.date as string)) >= date,
  );
  if (others.length > 0) {
    lines.push(`${w.events}:`);
    for (const e of others) lines.push(`- ${agendaLine(e, text)}`);
  }
  const free = (asked.freeDays?.entries ?? []).filter((f) => f.when.date <= date && (f.when.from === undefined ? f.when.last : f.when.date) >= date);
  for (const f of free) lines.push(`${w.daysOff}: ${joined([f.name, f.lessons ? `${f.lessons.from}–${f.lessons.to ?? ''}` : null])}`);
  return { text: lines.join('\n') };
}

function homeworkLine(h: Facts, w: McpText): string {
  const body = spaced(str(h.text));
  return joined(
    [str(h.subject), str(h.topic), body && body !== str(h.topic) ? body : null, str(h.teacher) && `${w.teacher}: ${str(h.teacher)}`],
    ' — ',
  );
}

/** A test, trip, meeting or other entry: its kind in the board's words, its time, subject and what the school wrote. */
function agendaLine(e: Facts, text: BoardText): string {
  const kind = str(e.kind);
  const kindWord =
    kind === 'quiz'
      ? text.quiz
      : kind === 'test'
        ? text.test
        : kind !== null && kind in text.agendaKinds
          ? text.agendaKinds[kind as keyof BoardText['agendaKinds']]
          : kind;
  return joined(
    [joined([kindWord, str(e.time)], ' '), str(e.subject), spaced(str(e.description) ?? str(e.content)), str(e.category), str(e.teacher)],
    ' — ',
  );
}

// --- get_grades ---

const TERM_KEYS = ['semester_proposal', 'semester_grade', 'final_proposal', 'final_grade'] as const;

function termGrades(facts: Facts, w: McpText): string | null {
  return joined(TERM_KEYS.map((k) => str(facts[k]) && `${w.termGrades[k]}: ${str(facts[k])}`)) || null;
}

function gradeLine(g: Facts, w: McpText, text: BoardText, clock: BoardMoment, withSubject: boolean): string {
  const kind = str(g.kind);
  const mark = str(g.mark_name);
  const grade = joined([str(g.grade), mark && `(${mark})`, kind !== null && w.kinds[kind] ? `[${w.kinds[kind]}]` : null], ' ');
  const date = str(g.date);
  return joined([
    date === null ? null : day(date, clock, text),
    withSubject ? str(g.subject) : null,
    grade,
    str(g.category) && `${w.category}: ${str(g.category)}`,
    num(g.weight) === null ? null : `${w.weight}: ${num(g.weight)}`,
    str(g.teacher) && `${w.teacher}: ${str(g.teacher)}`,
    str(g.comment) && `${w.comment}: ${spaced(str(g.comment))}`,
  ]);
}

/** The subject a `subject` names: the one whose name begins so, loosely (`mat` → Matematyka). */
function subjectOf(given: string, subjects: readonly Facts[]): Facts | undefined {
  const wanted = loose(given);
  const named = (s: Facts): string => loose(str(s.subject) ?? '');
  return (
    subjects.find((s) => named(s) === wanted) ?? subjects.find((s) => named(s).startsWith(wanted)) ?? subjects.find((s) => named(s).includes(wanted))
  );
}

export function getGrades(asked: Asked, subject: string | undefined): ToolAnswer {
  const w = MCP_TEXT[asked.language];
  const text = BOARD_TEXT[asked.language];
  const clock = clockAt(asked.now);
  const perSubject = statesStarting(asked.child, `${average.key}_`);
  if (subject !== undefined && subject.trim() !== '') {
    const found = subjectOf(subject, perSubject);
    if (found === undefined)
      throw new ToolRefusal(
        w.noSubject(
          subject,
          perSubject.flatMap((s) => str(s.subject) ?? []),
        ),
      );
    const lines = [heading(asked, `${w.grades}: ${str(found.subject)}`)];
    const avg = num(Number(found.state));
    lines.push(
      joined([avg === null ? null : `${w.average}: ${avg}`, str(found.forecast) && `${w.forecast}: ${str(found.forecast)}`, termGrades(found, w)]) ||
        `${w.average}: ${w.nothing}`,
    );
    const grades = list(found.grades as Facts[] | undefined);
    lines.push(`${w.grades}:`);
    if (grades.length === 0) lines.push(`- ${text.labels.noGrades}`);
    for (const g of grades) lines.push(`- ${gradeLine(g, w, text, clock, false)}`);
    return { text: lines.join('\n') };
  }
  const lines = [heading(asked, w.grades)];
  const newest = stateOf(asked.child, newestGrade);
  if (newest === undefined && perSubject.length === 0) return { text: `${lines.join('\n')}\n${w.notRead}` };
  // Each recent grade with its category and weight as its subject's list has them (the same grade, not a new fact).
  const detailed = (g: Facts): Facts => {
    const own = perSubject.find((s) => s.subject === g.subject);
    const same = list(own?.grades as Facts[] | undefined).find((x) => x.grade === g.grade && x.date === g.date && x.teacher === g.teacher);
    return { ...g, category: same?.category ?? null, weight: same?.weight ?? null, comment: same?.comment ?? g.comment };
  };
  lines.push(`${w.recentGrades}:`);
  const recent = list(newest?.attributes.recent as Facts[] | undefined);
  if (recent.length === 0) lines.push(`- ${text.labels.noGrades}`);
  for (const g of recent) lines.push(`- ${gradeLine(detailed(g), w, text, clock, true)}`);
  for (const p of list(newest?.attributes.proposals as Facts[] | undefined)) {
    const what = p.period === 'final_proposal' ? text.proposal.final_proposal : text.proposal.semester_proposal;
    lines.push(`- ${joined([str(p.date) && day(p.date as string, clock, text), str(p.subject), `${what}: ${str(p.grade)}`])}`);
  }
  const overall = stateOf(asked.child, average);
  const subjects = list(overall?.attributes.subjects as Facts[] | undefined);
  if (subjects.length > 0 || overall !== undefined) {
    const all = num(Number(overall?.state));
    lines.push(`${w.averages}${all === null ? '' : ` (${w.overall}: ${all})`}:`);
    for (const s of subjects) {
      const avg = num(s.average);
      const pct = num(s.percent);
      lines.push(
        `- ${joined([str(s.subject), avg === null ? null : `${w.average} ${avg}`, pct === null ? null : `${pct}%`, str(s.forecast) && `${w.forecast} ${str(s.forecast)}`, termGrades(s, w)])}`,
      );
    }
  }
  return { text: lines.join('\n') };
}

// --- get_upcoming ---

export function getUpcoming(asked: Asked, days: number | undefined): ToolAnswer {
  const w = MCP_TEXT[asked.language];
  const text = BOARD_TEXT[asked.language];
  const clock = clockAt(asked.now);
  const span = Math.min(Math.max(Math.trunc(days ?? UPCOMING_DAYS_MAX), 1), UPCOMING_DAYS_MAX);
  const last = addDays(clock.today, span);
  const within = (f: Facts): boolean => str(f.date) !== null && (f.date as string) <= last && (str(f.until) ?? (f.date as string)) >= clock.today;
  const lines = [heading(asked, `${dayShort(clock.today, clock, text)} – ${dayShort(last, clock, text)} (${clock.today} – ${last})`)];
  const agenda = stateOf(asked.child, upcomingTestsEntity);
  const homework = stateOf(asked.child, homeworkUpcomingEntity);
  const sections: Array<[string, string[] | null]> = [
    [
      w.tests,
      agenda === undefined
        ? null
        : list(agenda.attributes.items as Facts[] | undefined)
            .filter(within)
            .map((t) => `${day(t.date as string, clock, text)}: ${agendaLine(t, text)}`),
    ],
    [
      w.homework,
      homework === undefined
        ? null
        : list(homework.attributes.items as Facts[] | undefined)
            .filter(within)
            .map((h) => `${day(h.date as string, clock, text)}: ${homeworkLine(h, w)}`),
    ],
    [
      w.events,
      agenda === undefined
        ? null
        : list(agenda.attributes.other as Facts[] | undefined)
            .filter(within)
            .map(
              (e) =>
                `${day(e.date as string, clock, text)}${str(e.until) && e.until !== e.date ? ` – ${day(e.until as string, clock, text)}` : ''}: ${agendaLine(e, text)}`,
            ),
    ],
    [
      w.daysOff,
      asked.freeDays === undefined
        ? null
        : asked.freeDays.entries
            .filter((f) => f.when.date <= last && (f.when.from === undefined ? f.when.last : f.when.date) >= clock.today)
            .map(
              (f) =>
                `${day(f.when.date, clock, text)}${f.when.from === undefined && f.when.last !== f.when.date ? ` – ${day(f.when.last, clock, text)}` : ''}: ${f.name ?? ''}`,
            ),
    ],
  ];
  // A list the child's account does not have (a kindergarten's homework) is left out, not told as empty.
  const told = sections.filter((s): s is [string, string[]] => s[1] !== null);
  if (told.every(([, items]) => items.length === 0)) lines.push(w.nothingAhead(span));
  for (const [title, items] of told) lines.push(`${title}:`, ...(items.length === 0 ? [`- ${w.nothing}`] : items.map((i) => `- ${i}`)));
  return { text: lines.join('\n') };
}

// --- get_lesson_topics ---

export function getLessonTopics(asked: Asked, subject: string | undefined, days: number | undefined): ToolAnswer {
  const w = MCP_TEXT[asked.language];
  const text = BOARD_TEXT[asked.language];
  const clock = clockAt(asked.now);
  const span = Math.min(Math.max(Math.trunc(days ?? TOPIC_DAYS_MAX), 1), TOPIC_DAYS_MAX);
  const since = addDays(clock.today, -span);
  const wanted = subject?.trim() ? loose(subject) : null;
  const keep = (l: Facts): boolean =>
    str(l.date) !== null && (l.date as string) >= since && (wanted === null || loose(str(l.subject) ?? '').startsWith(wanted));
  const line = (l: Facts): string =>
    `- ${joined([day(l.date as string, clock, text), num(l.no) === null ? null : `${num(l.no)}.`, str(l.subject)], ' ')}: ${spaced(str(l.topic)) ?? '—'}`;
  const lines = [heading(asked, w.topics)];
  const topics = stateOf(asked.child, lessonTopics);
  const missed = stateOf(asked.child, catchUpEntity);
  if (topics === undefined && missed === undefined) return { text: `${lines.join('\n')}\n${w.notRead}` };
  if (topics !== undefined) {
    const held = list(topics.attributes.lessons as Facts[] | undefined).filter(keep);
    lines.push(`${w.topics}:`, ...(held.length === 0 ? [`- ${w.nothing}`] : held.map(line)));
  }
  if (missed !== undefined) {
    const lost = list(missed.attributes.lessons as Facts[] | undefined).filter(keep);
    lines.push(`${w.catchUp}:`, ...(lost.length === 0 ? [`- ${w.nothing}`] : lost.map(line)));
  }
  return { text: lines.join('\n') };
}

// --- get_attendance ---

export function getAttendance(asked: Asked): ToolAnswer {
  const w = MCP_TEXT[asked.language];
  const text = BOARD_TEXT[asked.language];
  const share = stateOf(asked.child, attendanceShare);
  const counts = stateOf(asked.child, absencesUnexcused);
  const lines = [heading(asked, w.attendance)];
  if ((share === undefined || share.state === null) && (counts === undefined || counts.state === null))
    return { text: `${lines.join('\n')}\n${w.notRead}` };
  const percent = num(Number(share?.state ?? NaN));
  lines.push(
    joined([
      percent === null ? null : `${text.attendance}: ${text.percent(percent)}`,
      counts?.state === null || counts === undefined ? null : `${w.unexcused}: ${String(counts.state)}`,
      num(counts?.attributes.excused) === null ? null : `${w.excused}: ${num(counts?.attributes.excused)}`,
      num(counts?.attributes.late) === null ? null : `${w.late}: ${num(counts?.attributes.late)}`,
    ]),
  );
  const bySubject = list(share?.attributes.by_subject as Facts[] | undefined);
  if (bySubject.length > 0) {
    lines.push(`${w.bySubject}:`);
    for (const s of bySubject) {
      const pct = num(s.percent);
      lines.push(
        `- ${joined([str(s.subject) ?? '?', pct === null ? null : text.percent(pct), num(s.absent) ? `${num(s.absent)} ✗` : null, num(s.late) ? `${w.late}: ${num(s.late)}` : null, num(s.excused) ? `${w.excused}: ${num(s.excused)}` : null])}`,
      );
    }
  }
  return { text: lines.join('\n') };
}

// --- get_behaviour ---

export function getBehaviour(asked: Asked): ToolAnswer {
  const w = MCP_TEXT[asked.language];
  const text = BOARD_TEXT[asked.language];
  const clock = clockAt(asked.now);
  const lines = [heading(asked, w.behaviour)];
  const grade = stateOf(asked.child, behaviourEntity);
  const note = stateOf(asked.child, newestNoteEntity);
  if (grade === undefined && note === undefined) return { text: `${lines.join('\n')}\n${w.notRead}` };
  if (grade !== undefined) {
    const a = grade.attributes;
    lines.push(
      `${w.behaviour}: ${joined([
        typeof grade.state === 'string' ? grade.state : w.nothing,
        str(a.teacher) && `${w.teacher}: ${str(a.teacher)}`,
        str(a.date) && day(a.date as string, clock, text),
        termGrades(Object.fromEntries(TERM_KEYS.map((k) => [k, str(part(a[k] as Facts | null | undefined)?.grade) ?? str(a[k])])), w),
      ])}`,
    );
  }
  if (note !== undefined && note.state !== null) {
    const a = note.attributes;
    const kind = str(a.kind);
    lines.push(
      `${w.newestNote}: ${joined([
        str(a.date) && day(a.date as string, clock, text),
        kind && (w.noteKinds[kind] ?? kind),
        str(a.category),
        str(a.teacher) && `${w.teacher}: ${str(a.teacher)}`,
      ])}: ${spaced(str(a.text) ?? (typeof note.state === 'string' ? note.state : null)) ?? ''}`,
    );
  }
  return { text: lines.join('\n') };
}

// --- get_school ---

export function getSchool(asked: Asked): ToolAnswer {
  const w = MCP_TEXT[asked.language];
  const text = BOARD_TEXT[asked.language];
  const clock = clockAt(asked.now);
  const school = stateOf(asked.child, schoolEntity);
  const lines = [heading(asked, w.school)];
  if (school === undefined) lines.push(w.notRead);
  else {
    const a = school.attributes;
    const labelled: Array<[string, unknown]> = [
      [w.school, a.school],
      [w.address, a.address],
      [w.headTeacher, a.head_teacher],
      [w.email, a.email],
      [w.phone, a.phone],
      [w.className, school.state],
      [w.tutor, a.tutor],
      [w.registerNumber, a.register_number === null || a.register_number === undefined ? null : String(a.register_number)],
    ];
    for (const [label, value] of labelled) if (str(value) !== null) lines.push(`${label}: ${str(value)}`);
    const year = part(a.school_year as Facts | null | undefined);
    if (year && str(year.begins) && str(year.first_semester_ends) && str(year.ends))
      lines.push(w.schoolYear(year.begins as string, year.first_semester_ends as string, year.ends as string));
    const bells = list(a.bells as Facts[] | undefined);
    if (bells.length > 0) lines.push(`${w.bells}: ${bells.map((b) => `${num(b.no) ?? ''}. ${str(b.from) ?? ''}–${str(b.to) ?? ''}`).join('; ')}`);
  }
  const lucky = stateOf(asked.child, luckyNumber);
  if (lucky !== undefined && lucky.state !== null && lucky.state !== undefined) {
    const luckyDay = str(lucky.attributes.day);
    const mine = lucky.attributes.register_number !== null && String(lucky.attributes.register_number) === String(lucky.state);
    lines.push(`${w.lucky(String(lucky.state), luckyDay === null ? '?' : day(luckyDay, clock, text))}${mine ? ` — ${w.luckyHers(asked.name)}` : ''}`);
  }
  return { text: lines.join('\n') };
}

// --- get_messages ---

export function getMessages(asked: Asked): ToolAnswer {
  const w = MCP_TEXT[asked.language];
  const text = BOARD_TEXT[asked.language];
  const clock = clockAt(asked.now);
  const lines = [heading(asked, text.labels.messages)];
  const counter = stateOf(asked.child, unreadMessages);
  const newest = stateOf(asked.child, newestMessage);
  if (counter !== undefined && counter.state === null && newest?.state === null) lines.push(w.noMessagesModule);
  else if (counter !== undefined || newest !== undefined) {
    const unread = list(newest?.attributes.unread as Facts[] | undefined);
    lines.push(`${w.unreadMessages}: ${counter?.state ?? unread.length}`);
    for (const m of unread)
      lines.push(
        `- id ${str(m.id) ?? String(m.id)}: ${joined([str(m.date) && day((m.date as string).slice(0, 10), clock, text), str(m.sender) && `${w.from} ${str(m.sender)}`, `"${str(m.topic) ?? ''}"`])}`,
      );
    const preview = spaced(str(newest?.attributes.preview));
    if (preview !== null && unread.some((m) => String(m.id) === String(newest?.attributes.id)))
      lines.push(`  ${w.message} ${String(newest?.attributes.id)}: ${preview}`);
  } else lines.push(`${w.unreadMessages}: ${w.notRead}`);
  const notices = stateOf(asked.child, unreadNotices);
  if (notices !== undefined && notices.state !== null) {
    lines.push(`${w.unreadNotices}: ${String(notices.state)}`);
    const newestOne = stateOf(asked.child, newestNotice);
    for (const n of list(notices.attributes.notices as Facts[] | undefined)) {
      const content = String(newestOne?.attributes.id) === String(n.id) ? spaced(str(newestOne?.attributes.content)) : null;
      lines.push(
        `- ${joined([str(n.date) && day((n.date as string).slice(0, 10), clock, text), `"${str(n.subject) ?? ''}"`])}${content ? `: ${content}` : ''}`,
      );
    }
  }
  const opened = stateOf(asked.child, openedMessageEntity);
  if (opened !== undefined && opened.state !== null) {
    lines.push(
      `${w.openedMessage}: id ${String(opened.attributes.message_id)}, "${String(opened.state)}"${str(opened.attributes.sender) ? ` ${w.from} ${str(opened.attributes.sender)}` : ''}`,
    );
  }
  return { text: lines.join('\n') };
}

/** The message opened_message holds now, whole: what open_message answers. */
export function openedText(child: ChildView, language: Language, now: number): string {
  const w = MCP_TEXT[language];
  const text = BOARD_TEXT[language];
  const opened = stateOf(child, openedMessageEntity);
  const a = opened?.attributes ?? {};
  const files = list(a.attachments as Facts[] | undefined).flatMap((f) => str(f.name) ?? []);
  return [
    `${w.message} id ${String(a.message_id)}: "${String(opened?.state ?? '')}"`,
    joined([
      str(a.sender) && `${w.from} ${str(a.sender)}`,
      str(a.date) && day((a.date as string).slice(0, 10), clockAt(now), text),
      a.withdrawn === true ? w.withdrawn : null,
    ]),
    files.length > 0 ? `${w.attachments}: ${files.join(', ')}` : '',
    '',
    str(a.text) ?? '',
  ]
    .filter((l, i) => l !== '' || i === 3)
    .join('\n');
}

/** What every read tool is given for one child: its board card (the same boxes the wall tablet shows) and days off. */
export function askedOf(
  child: ChildView,
  all: readonly ChildView[],
  freeDays: CalendarFeedContent<'free-days'> | undefined,
  language: Language,
  now: number,
): Asked {
  const card = boardModel(all, language, now).children.find((c) => c.id === child.id) as BoardChild;
  return { child, name: card.name, card, freeDays, language, now };
}
