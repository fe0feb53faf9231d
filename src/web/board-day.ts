// The day a card shows: today's lessons until the last one ends, then the next school day's; each
// lesson with its change in words and whether it is over or on, and the headline above the list (the
// lesson in progress or the next one).
import type { BoardText } from '../i18n/board-text.js';
import type { ItemOf, Received } from '../feature-kit/contract.js';
import type { ChangeKind } from '../school/plan-changes.js';
import type { currentLesson, timetableToday } from '../features/timetable/entities.js';
import { dayShort, dayTitle, list, num, part, str, type BoardMoment } from './board-read.js';

export type LessonChange = ChangeKind;

/** timetable_today or timetable_tomorrow as the board finds it (both have the same attributes). */
type DayState = Received<typeof timetableToday>;
type Slot = Partial<ItemOf<typeof timetableToday, 'lessons'>>;

export interface BoardLesson {
  no: number | null;
  from: string | null;
  to: string | null;
  subject: string | null;
  room: string | null;
  change: LessonChange | null;
  /** The change in words, e.g. "zastępstwo · zamiast: Matematyka"; null for an unchanged lesson. */
  note: string | null;
  /** done: over; now: in progress (today only). */
  status: 'done' | 'now' | null;
  /** An extra class (zajęcia dodatkowe): no kindergarten's block for want of a number. */
  extra?: true;
}

export interface BoardDay {
  date: string;
  /** "Dziś, środa 18.11", "Jutro, czwartek 19.11", "Poniedziałek 23.11". */
  title: string;
  lessons: BoardLesson[];
  /** Shown instead of the list when the day has no lessons. */
  empty: string | null;
}

/** The headline line: the lesson in progress, or the next one (today's or the next school day's first). */
export interface BoardHeadline {
  label: string;
  subject: string;
  /** "s. 14 · do 09:40", "08:55 · s. 12". */
  detail: string;
  change: LessonChange | null;
}

function lessonsOf(state: DayState | undefined): { date: string; lessons: Slot[] } | null {
  const date = str(state?.attributes?.date);
  if (date === null || state?.state === null || state?.state === undefined) return null;
  return { date, lessons: list(state.attributes?.lessons) };
}

const CHANGES: readonly LessonChange[] = ['cancelled', 'substitution', 'room_change', 'shifted'];

function lessonOf(l: Slot, today: boolean, clock: BoardMoment, text: BoardText): BoardLesson {
  const change = CHANGES.find((c) => c === l.change) ?? null;
  const from = str(l.from);
  const to = str(l.to);
  const subject = str(l.subject);
  const room = str(l.room);
  const extra = l.extra === true ? (true as const) : undefined;
  const notes: string[] = extra ? [text.extra] : [];
  // A lesson moved away says where to; the other changes by their kind.
  const moved = part(l.moved_to);
  const movedDate = str(moved?.date);
  const movedNo = num(moved?.lesson_no);
  if (change === 'shifted' && movedDate !== null) notes.push(text.movedTo(movedDate, movedNo === null ? null : String(movedNo)));
  else if (change !== null) notes.push(text.changes[change]);
  const originalSubject = str(l.original_subject);
  const originalRoom = str(l.original_room);
  if (change !== null && change !== 'cancelled' && originalSubject !== null && originalSubject !== subject) notes.push(text.instead(originalSubject));
  // The same subject with another teacher: the substitute's name is the news.
  const teacher = str(l.teacher);
  if (change === 'substitution' && originalSubject === subject && teacher !== null && teacher !== str(l.original_teacher)) notes.push(teacher);
  // A substitute's room is often unknown: "was room 22" would then say the lesson moved when it may not have.
  if (change !== null && change !== 'cancelled' && room !== null && originalRoom !== null && originalRoom !== room)
    notes.push(text.wasRoom(originalRoom));
  // A kindergarten's block (interface 12.2) says a kind other than `planned` as the portal names it.
  const kind = str((l as { kind?: unknown }).kind);
  if (kind !== null && kind !== 'planned') notes.push(kind);
  let status: BoardLesson['status'] = null;
  if (today && to !== null && to <= clock.time) status = 'done';
  else if (today && from !== null && from <= clock.time && change !== 'cancelled') status = 'now';
  return { no: num(l.no), from, to, subject, room, change, note: notes.length > 0 ? notes.join(' · ') : null, status, ...(extra ? { extra } : {}) };
}

/** When today's last lesson that takes place ends (HH:MM); null without one. */
function lastEnd(lessons: readonly Slot[]): string | null {
  const ends = lessons
    .filter((l) => l.change !== 'cancelled')
    .map((l) => str(l.to))
    .filter((t): t is string => t !== null);
  return ends.length > 0 ? ends.reduce((a, b) => (b > a ? b : a)) : null;
}

/** Today's lessons until the last one ends; then (or on a day without lessons) the next school day's. */
export function shownDay(today: DayState | undefined, next: DayState | undefined, clock: BoardMoment, text: BoardText): BoardDay | null {
  const t = lessonsOf(today);
  const n = lessonsOf(next);
  const end = t !== null && t.date === clock.today ? lastEnd(t.lessons) : null;
  const chosen = end !== null && clock.time < end ? t : (n ?? t);
  if (chosen === null) return null;
  const isToday = chosen.date === clock.today;
  const lessons = chosen.lessons.map((l) => lessonOf(l, isToday, clock, text));
  return { date: chosen.date, title: dayTitle(chosen.date, clock, text), lessons, empty: lessons.length === 0 ? text.noLessons : null };
}

/** A room with the rest of a line; a kindergarten's room stands by its own name ("sala 1", "ogród"), no "s." before it. */
function roomAnd(room: string | null, rest: string | null, text: BoardText, roomFirst = true, block = false): string {
  const named = room && (block ? room : text.room(room));
  const parts = roomFirst ? [named, rest] : [rest, named];
  return parts.filter((p): p is string => typeof p === 'string' && p !== '').join(' · ');
}

/**
 * The lesson in progress (current_lesson, moved on time by the bridge at each lesson start and end);
 * between lessons the next one of the day shown, for the next school day its first lesson.
 */
export function headlineOf(
  current: Received<typeof currentLesson> | undefined,
  day: BoardDay | null,
  clock: BoardMoment,
  text: BoardText,
): BoardHeadline | null {
  const subject = str(current?.state);
  const a = current?.attributes ?? {};
  if (subject !== null) {
    const change = CHANGES.find((c) => c === a.change) ?? null;
    const to = str(a.to);
    // A kindergarten's block has no number (a school lesson's `no` is one).
    const block = a.no === null && a.extra !== true;
    return { label: text.labels.now, subject, detail: roomAnd(str(a.room), to && text.until(to), text, true, block), change };
  }
  if (day === null) return null;
  const isToday = day.date === clock.today;
  const next = day.lessons.find((l) => l.change !== 'cancelled' && l.subject !== null && (!isToday || (l.from !== null && l.from > clock.time)));
  if (next === undefined) return null;
  // A kindergarten's day begins with its first activities, not a lesson.
  const block = next.no === null && next.to !== null && !next.extra;
  const label = isToday ? text.labels.next : `${block ? text.firstBlock : text.firstLesson} (${dayShort(day.date, clock, text)})`;
  return { label, subject: next.subject as string, detail: roomAnd(next.room, next.from, text, false, block), change: next.change };
}
