// The family board's view model: what the wall tablet shows for each child, built from the states the
// bridge last published (ChildView.states, exactly the MQTT payloads) and the time. Pure: no I/O; every
// word comes from src/i18n/board-text.ts in the bridge's language.
import { BOARD_TEXT, type BoardLabels, type BoardText } from '../i18n/board-text.js';
import type { Language } from '../config/language.js';
import { received, type Received } from '../feature-kit/contract.js';
import { briefingEntity } from '../features/briefing/briefing.js';
import { FEATURES } from '../features/index.js';
import type { BoardFact, ShownChild } from '../features/screen-parts.js';
import { currentLesson, timetableToday, timetableTomorrow } from '../features/timetable/entities.js';
import { homeworkDueEntity, homeworkUpcomingEntity, upcomingTestsEntity } from '../features/agenda/agenda.js';
import { nextTestEntity } from '../features/lessons-held/lessons-held.js';
import { average, newestGrade } from '../features/grades/grades.js';
import { newestMessage } from '../features/messages/messages.js';
import { behaviourEntity } from '../features/behaviour/behaviour.js';
import { sentMessageEntity } from '../features/sent-message/sent-message.js';
import { schoolFilesEntity } from '../features/school-files/school-files.js';
import { attendanceShare } from '../features/attendance/attendance.js';
import { schoolEntity } from '../features/school-year/school-year.js';
import { openedMessageEntity } from '../features/opened-message/opened-message.js';
import { unreadNotices } from '../features/notices/notices.js';
import { lastUpdate as lastUpdateEntity, problem } from '../features/status/status.js';
import type { EntityDef } from '../feature-kit/entities.js';
import { feedLinks } from './board-calendars.js';
import { nextChangesOf, noticesOf, type BoardNextChanges, type BoardNotice } from './board-next.js';
import { headlineOf, shownDay, type BoardDay, type BoardHeadline } from './board-day.js';
import { messagesOf, type BoardMessages } from './board-messages.js';
import { schoolOf, type BoardSchool } from './board-school.js';
import { agendaOf, homeworkOf, testsOf, type BoardAgendaEntry, type BoardHomework, type BoardTest } from './board-agenda.js';
import { gradesOf, proposalsOf, type BoardGrade, type BoardProposal } from './board-grades.js';
import { clockAt, dayShort, lastUpdate, str, when, type BoardMoment } from './board-read.js';
import type { ChildView } from './types.js';
import { oneLine } from '../util/text.js';

export type { BoardDay, BoardHeadline, BoardLesson } from './board-day.js';
export type { BoardMessage, BoardMessages } from './board-messages.js';
export type { BoardGrade } from './board-grades.js';
export type { BoardNextChanges, BoardNotice } from './board-next.js';
export type { BoardFact } from '../features/screen-parts.js';

export interface BoardChild {
  id: string;
  name: string;
  /** The device's model line, e.g. "Klasa 4b". */
  className: string | null;
  /** The features' facts (a badge beside the name, counts under it), in the features' order. */
  facts: BoardFact[];
  headline: BoardHeadline | null;
  /** The briefing's short line (the next school day in a sentence); null before the first. */
  briefing: string | null;
  day: BoardDay | null;
  /** The next school day's plan changes while the plan shows another day; null when there are none. */
  nextChanges: BoardNextChanges | null;
  /** The unread announcements by their titles, newest first. */
  notices: BoardNotice[];
  /** Null (no box) when the homework list has no state: never answered, or refused for this child (a kindergarten). */
  homework: BoardHomework | null;
  /** Tests and quizzes only; null (no box) when neither test list has a state. */
  tests: BoardTest[] | null;
  /** Trips, meetings and the other agenda entries: no test, so not under the tests' heading. */
  agenda: BoardAgendaEntry[];
  /** Null (no box) when the grades have no state and no proposal stands. */
  grades: BoardGrade[] | null;
  /** The proposed term grades entered in the last 7 days: "propozycja śródroczna". */
  proposals: BoardProposal[];
  /** The behaviour grade, the newest sent message and whether it was read, the school's newest files. */
  school: BoardSchool;
  /** The newest message while unread and the opened one; null when there is neither. */
  messages: BoardMessages | null;
  /** The clear sign that what the card shows cannot be trusted as current; null when it can. */
  warning: { kind: 'offline' | 'problem' | 'stale' | 'waiting'; text: string; detail: string | null } | null;
  updated: string | null;
  /** The child's calendar feeds, without the token (the page adds it and the host). */
  feeds: ReturnType<typeof feedLinks>;
}

export interface BoardModel {
  language: Language;
  labels: BoardLabels;
  children: BoardChild[];
}

/** During the day (06:00-21:00) the bridge polls every few minutes; at night every 2 hours. */
export const STALE_DAY_MS = 60 * 60_000;
export const STALE_NIGHT_MS = 3 * 60 * 60_000;
const DAY_STARTS = '06:00';
const DAY_ENDS = '21:00';

/** The board for every child the bridge holds, at `now`. */
export function boardModel(children: readonly ChildView[], language: Language, now: number): BoardModel {
  const text = BOARD_TEXT[language];
  // Always in the same places: the bridge learns its children in whatever order their first polls end.
  const sorted = [...children].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const names = callNames(sorted);
  return { language, labels: text.labels, children: sorted.map((c, i) => named(childBoard(c, text, language, now), names[i] as string, language)) };
}

function named(child: Omit<BoardChild, 'name' | 'feeds'>, name: string, language: Language): BoardChild {
  return { ...child, name, feeds: feedLinks(child.id, name, language) };
}

/**
 * The names a family calls its children by across the room: the first names, unless two children
 * share one (then the full names); the id until the first identity.
 */
function callNames(children: readonly ChildView[]): string[] {
  // One line each, whatever the portal or a file in data_dir held.
  const full = children.map((c) => oneLine(c.name ?? c.id));
  const first = full.map((n) => n.split(/\s+/)[0] || n);
  return first.every((n, i) => first.indexOf(n) === i) ? first : full;
}

function childBoard(child: ChildView, text: BoardText, language: Language, now: number): Omit<BoardChild, 'name' | 'feeds'> {
  const clock = clockAt(now);
  const s = <E extends EntityDef>(entity: E): Received<E> | undefined => received(child.states, entity);
  const shown: ShownChild = { state: s, language, today: clock.today, day: (date) => dayShort(date, clock, text) };
  const day = shownDay(s(timetableToday), s(timetableTomorrow), clock, text);
  const updated = lastUpdate(s(lastUpdateEntity));
  const proposals = proposalsOf(s(newestGrade), clock, text);
  return {
    id: child.id,
    className: child.model,
    facts: FEATURES.flatMap((f) => f.board?.(shown) ?? []),
    headline: headlineOf(s(currentLesson), day, clock, text),
    briefing: s(briefingEntity)?.state ?? null,
    day,
    nextChanges: nextChangesOf(s(timetableTomorrow), day?.date ?? null, clock, text),
    notices: noticesOf(s(unreadNotices), clock, text),
    homework:
      known(s(homeworkDueEntity)) || known(s(homeworkUpcomingEntity))
        ? homeworkOf(s(homeworkDueEntity), s(homeworkUpcomingEntity), clock, text)
        : null,
    tests: known(s(upcomingTestsEntity)) || known(s(nextTestEntity)) ? testsOf(s(upcomingTestsEntity), s(nextTestEntity), clock, text) : null,
    agenda: agendaOf(s(upcomingTestsEntity), clock, text),
    grades: known(s(newestGrade)) || proposals.length > 0 ? gradesOf(s(newestGrade), s(average), clock, text) : null,
    proposals,
    messages: messagesOf(s(newestMessage), s(openedMessageEntity), clock, text),
    school: schoolOf(s(behaviourEntity), s(sentMessageEntity), s(schoolFilesEntity), s(attendanceShare), s(schoolEntity), text),
    warning: warningOf(child, clock, text),
    updated: updated === null ? null : text.updated(when(updated, clock)),
  };
}

// --- the parts of a card beside the day ---

/** Whether an entity has a state: a list that never answered, or that the portal refuses for this child, has none (no box for it). */
const known = (state: { state: unknown } | undefined): boolean => state !== undefined && state.state !== null && state.state !== undefined;

/** Offline beats a problem, which beats old data: the sign names the cause when it is known. */
function warningOf(child: ChildView, clock: BoardMoment, text: BoardText): BoardChild['warning'] {
  const updated = lastUpdate(received(child.states, lastUpdateEntity));
  const lastRead = updated === null ? null : when(updated, clock);
  if (!child.online && updated !== null) return { kind: 'offline', text: text.offline(lastRead as string), detail: null };
  const trouble = received(child.states, problem);
  if (trouble?.state === 'ON') return { kind: 'problem', text: text.problem, detail: str(trouble.attributes?.message) };
  if (updated === null) return { kind: 'waiting', text: text.waiting, detail: null };
  const limit = clock.time >= DAY_STARTS && clock.time < DAY_ENDS ? STALE_DAY_MS : STALE_NIGHT_MS;
  if (clock.now - Date.parse(updated) > limit) return { kind: 'stale', text: text.stale(lastRead as string), detail: null };
  return null;
}
