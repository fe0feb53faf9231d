// The blocks of a child's own view (grades, notes and attendance, library, calendar, messages) and of
// the diagnostics view. Buttons that write to the portal ask for a confirmation first.
import { idsOf, ifKnown, ifOn, kindergartenVariable, markdown, whileKnown, type Block, type Card } from './dashboard-cards.js';
import { keyed, reads } from './dashboard-templates.js';
import type { Language } from '../config/language.js';
import { average, newestGrade } from '../features/grades/grades.js';
import { gradeAtRisk } from '../features/grades/subject-averages.js';
import { catchUpEntity, lessonTopics, nextTestEntity } from '../features/lessons-held/lessons-held.js';
import { newestNoteEntity } from '../features/notes/notes.js';
import { newestMessage, unreadMessages } from '../features/messages/messages.js';
import { openedMessageEntity, openMessageButton } from '../features/opened-message/opened-message.js';
import { absencesUnexcused, attendanceShare } from '../features/attendance/attendance.js';
import { libraryDue } from '../features/library/library.js';
import { behaviourEntity } from '../features/behaviour/behaviour.js';
import { schoolFilesEntity } from '../features/school-files/school-files.js';
import { sentMessageEntity } from '../features/sent-message/sent-message.js';
import { homeworkUpcomingEntity, upcomingTestsEntity } from '../features/agenda/agenda.js';
import { schoolEntity } from '../features/school-year/school-year.js';
import { markNoticesReadButton, newestNotice } from '../features/notices/notices.js';
import { lastRead, lastUpdate, loginsToday, problem, refresh, requestsToday, sessionAge } from '../features/status/status.js';
import type { DashboardText } from '../i18n/dashboard-text.js';

/**
 * The newest grades with their comments; the averages with the forecasts, the term grades, proposals, the first semester's (in the second) and what
 * the next threshold needs; the report card's forecast and honours; the subjects at risk. Only once the grades have answered (grade_at_risk has a state then, even with no grade).
 */
export const grades: Block = (e, t) => {
  if ((!e.has(newestGrade) && !e.has(average)) || e.preschool) return undefined;
  return whileKnown(
    idsOf(e, newestGrade, average, gradeAtRisk),
    markdown(e, t, 'grades', {
      ...keyed(newestGrade, 'recent'),
      ...keyed(average, 'subjects', 'previous_semester', 'forecast_average', 'honours'),
      ...keyed(gradeAtRisk, 'subjects'),
    }),
  );
};

/** Lessons held: what to revise before the next test, the lessons missed lately with their topics, the latest topics. */
export const lessons: Block = (e, t) => {
  if ((!e.has(lessonTopics) && !e.has(catchUpEntity) && !e.has(nextTestEntity)) || e.preschool) return undefined;
  return whileKnown(
    idsOf(e, nextTestEntity, catchUpEntity, lessonTopics),
    markdown(e, t, 'lessons', {
      ...keyed(nextTestEntity, 'subject', 'topics'),
      ...keyed(catchUpEntity, 'lessons'),
      ...keyed(lessonTopics, 'lessons'),
    }),
  );
};

export const notesAndAbsences: Block = (e, t) => {
  if (!e.has(newestNoteEntity) && !e.has(absencesUnexcused)) return undefined;
  return whileKnown(
    idsOf(e, newestNoteEntity, absencesUnexcused),
    markdown(e, t, 'notes-absences', {
      ...keyed(newestNoteEntity, 'text', 'category', 'date', 'teacher', 'count'),
      absences: reads(absencesUnexcused, 'unexcused', 'attendance_percent'),
    }),
  );
};

/** Each subject's attendance this semester, the lowest share first; nothing before the semester's first mark. */
export const attendanceBySubject: Block = (e, t) =>
  ifKnown(e, attendanceShare, () => markdown(e, t, 'attendance', keyed(attendanceShare, 'by_subject')));

export const library: Block = (e, t) => ifKnown(e, libraryDue, () => markdown(e, t, 'library', { library: reads(libraryDue, 'items') }));

/** The newest formal behaviour grade (or a points school's points), with the semester's and the year's; no box before there is one. */
export const behaviour: Block = (e, t) =>
  e.preschool ? undefined : ifKnown(e, behaviourEntity, () => markdown(e, t, 'behaviour', keyed(behaviourEntity, 'semester_grade', 'final_grade')));

/** The school's newest files: a saved one links to the board's own address (base) + its url. */
export function schoolFilesCard(base: string | undefined): Block {
  return (e, t) =>
    ifKnown(e, schoolFilesEntity, () => markdown(e, t, 'school-files', { ...keyed(schoolFilesEntity, 'files'), base: { text: base } }));
}

/** The newest sent message and who read it when; no card at all while none is known (an empty box says nothing). */
export const sentMessageCard: Block = (e, t) =>
  ifKnown(e, sentMessageEntity, () => markdown(e, t, 'sent-message', keyed(sentMessageEntity, 'date', 'read')));

/** The agenda: every test of the next two weeks, then the trips, meetings and other events; nothing while the list is unknown. */
export const calendar: Block = (e, t) =>
  ifKnown(e, upcomingTestsEntity, () => markdown(e, t, 'calendar', keyed(upcomingTestsEntity, 'items', 'other')));

/** The homework due in the next two weeks, soonest first; nothing while the list is unknown. */
export const homeworkWeeks: Block = (e, t) =>
  ifKnown(e, homeworkUpcomingEntity, () => markdown(e, t, 'homework', keyed(homeworkUpcomingEntity, 'items')));

/** The child's school: class (or group), tutor, number, address, the year's dates and the bells. */
export const schoolCard: Block = (e, t) =>
  ifKnown(e, schoolEntity, () =>
    markdown(e, t, 'school', {
      ...keyed(schoolEntity, 'school', 'address', 'tutor', 'register_number', 'school_year', 'bells'),
      kindergarten: kindergartenVariable(e),
    }),
  );

/**
 * The Messages card, one below the other: the newest inbox message (marked while unread), the button
 * that opens it (after a confirmation: the portal then marks it read), and the opened message whole,
 * its attachments as links to the bridge's web server (templates src/ha/templates/message-*.jinja);
 * nothing for a child without the messages feature.
 */
export function messagesCard(base: string | undefined): Block {
  return (e, t) => {
    if (!e.has(newestMessage)) return undefined;
    const cards: Card[] = [
      markdown(e, t, 'message-newest', {
        ...keyed(newestMessage, 'sender', 'date', 'read', 'preview'),
        ...keyed(unreadMessages),
      }),
    ];
    if (e.has(openMessageButton))
      cards.push({ type: 'entities', entities: [confirmedButton(e.id(openMessageButton), t.openMessage, t.openAction, t.confirmOpen)] });
    // A saved attachment links to the board's own address (base) + its url; without a base it is named only.
    if (e.has(openedMessageEntity))
      cards.push(
        markdown(e, t, 'message-opened', {
          ...keyed(openedMessageEntity, 'sender', 'date', 'withdrawn', 'text', 'truncated', 'attachments'),
          base: { text: base },
        }),
      );
    return { type: 'vertical-stack', cards };
  };
}

/** The newest notice of the school (the newest message is in the Messages card above). */
export const newestNoticeCard: Block = (e, t) =>
  e.has(newestNotice) ? markdown(e, t, 'newest-notice', keyed(newestNotice, 'start_date', 'content')) : undefined;

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

/**
 * The account's noisy figures (interface 9.2): off in Home Assistant until a user turns them on, so
 * each tile shows only while its entity is (a switched-off entity has no state: "unavailable").
 */
export const accountFigures: Block = (e, t) => {
  const tiles = (
    [
      [requestsToday, t.requestsToday],
      [lastRead, t.lastRead],
      [sessionAge, t.sessionAge],
    ] as const
  ).flatMap(([entity, name]) => (e.has(entity) ? [whileOn(e.id(entity), { type: 'tile', entity: e.id(entity), name })] : []));
  // One tile a row: their names are long ("Zapytania do portalu dziś"); three a row cut them to "Zapyt…".
  return tiles.length === 0 ? undefined : { type: 'vertical-stack', cards: tiles };
};

/** A card shown only while its entity exists and is available (one switched off in Home Assistant is not). */
export function whileOn(entity: string, card: Card): Card {
  return { type: 'conditional', conditions: [{ condition: 'state', entity, state_not: 'unavailable' }], card };
}

/**
 * The bridge's own device: its problem while it is on (an e-mail entry that names no child yet, a topic
 * the broker refused), its broker connection, since when it runs, its memory (off until turned on).
 */
export function bridgeDevice(ids: { connection: string; uptime: string; memory: string; problem: string }, t: DashboardText): Card {
  return {
    // One a row: three a row cut even "Broker MQTT" short in a section's width.
    type: 'vertical-stack',
    cards: [
      ifOn(ids.problem, { type: 'tile', entity: ids.problem, name: t.problemRow }),
      { type: 'tile', entity: ids.connection, name: t.broker },
      { type: 'tile', entity: ids.uptime, name: t.uptime },
      whileOn(ids.memory, { type: 'tile', entity: ids.memory, name: t.memory }),
    ],
  };
}

/** The bridge's own state for a child: last update, whether the register can be read, password logins today, refresh. */
export const diagnostics: Block = (e, t) => {
  const rows: Card[] = [];
  if (e.has(lastUpdate)) rows.push({ entity: e.id(lastUpdate), name: t.lastUpdate });
  if (e.has(problem)) rows.push({ entity: e.id(problem), name: t.problemRow });
  if (e.has(loginsToday)) rows.push({ entity: e.id(loginsToday), name: t.loginsToday });
  // A refresh only reads the portal: no confirmation needed.
  if (e.has(refresh)) rows.push({ type: 'button', entity: e.id(refresh), name: t.refresh, action_name: t.refreshAction });
  if (rows.length === 0) return undefined;
  return { type: 'entities', state_color: true, entities: rows };
};
