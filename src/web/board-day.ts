// The day a card shows: today's lessons until the last one ends, then the next school day's; each
// lesson with its change in words and whether it is over or on, and the headline above the list (the
// lesson in progress or the next one).
import type { BoardText } from '../i18n/board-text.js';
import type { ItemOf, Received } from '../feature-kit/contract.js';
import type { ChangeKind } from '../school/plan-changes.js';
import type { currentLesson, timetableToday } from '../features/timetable/entities.js';
import { dayShort, dayTitle, list, num, part, str, type BoardMoment } from './board-read.js';

/** timetable_today or timetable_tomorrow as the board finds it (both have the same attributes). */
type DayState = Received<typeof timetableToday>;
type Slot = Partial<ItemOf<typeof timetableToday, 'lessons'>>;

export interface BoardLesson {
  no: number | null;
  from: string | null;
  to: string | null;
  subject: string | null;
  room: string | null;
  change: ChangeKind | null;
  /** The change in words (timetable_*'s `note`), e.g. "zastępstwo · zamiast: Matematyka"; null for an unchanged lesson. */
  note: string | null;
  /** done: over; now: in progress (today only). */
  status: 'done' | 'now' | null;
  /** An extra class (zajęcia dodatkowe): no kindergarten's block for want of a number. */
  extra?: true;
  /** A kindergarten's block (its day `kindergarten`, as the timetable says it; an extra class aside): said by its hours, no number. */
  block?: true;
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
  change: ChangeKind | null;
}

function lessonsOf(state: DayState | undefined): { date: string; end: string | null; lessons: Slot[]; blocks: boolean } | null {
  const date = str(state?.attributes?.date);
  if (date === null || state?.state === null || state?.state === undefined) return null;
  const blocks = state.attributes?.kindergarten === true;
  return { date, end: str(part(state.attributes?.hours)?.to), lessons: list(state.attributes?.lessons), blocks };
}

export const CHANGES: readonly ChangeKind[] = ['cancelled', 'substitution', 'room_change', 'shifted'];

/** A lesson as the bridge published it, its change in words (`note`) as the timetable feature said it, and whether it is over or on. */
function lessonOf(l: Slot, today: boolean, blocks: boolean, clock: BoardMoment): BoardLesson {
  const change = CHANGES.find((c) => c === l.change) ?? null;
  const from = str(l.from);
  const to = str(l.to);
  let status: BoardLesson['status'] = null;
  if (today && to !== null && to <= clock.time) status = 'done';
  else if (today && from !== null && from <= clock.time && change !== 'cancelled') status = 'now';
  const kind = l.extra === true ? { extra: true as const } : blocks ? { block: true as const } : {};
  return { no: num(l.no), from, to, subject: str(l.subject), room: str(l.room), change, note: str(l.note), status, ...kind };
}

/** Today's lessons until the last one ends; then (or on a day without lessons) the next school day's. */
export function shownDay(today: DayState | undefined, next: DayState | undefined, clock: BoardMoment, text: BoardText): BoardDay | null {
  const t = lessonsOf(today);
  const n = lessonsOf(next);
  const chosen = t !== null && t.date === clock.today && t.end !== null && clock.time < t.end ? t : (n ?? t);
  if (chosen === null) return null;
  const isToday = chosen.date === clock.today;
  const lessons = chosen.lessons.map((l) => lessonOf(l, isToday, chosen.blocks, clock));
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
    // A kindergarten's block: one of the day's blocks (the day in progress is the one shown).
    const block = a.extra !== true && day?.lessons.some((l) => l.block) === true;
    return { label: text.labels.now, subject, detail: roomAnd(str(a.room), to && text.until(to), text, true, block), change };
  }
  if (day === null) return null;
  const isToday = day.date === clock.today;
  const next = day.lessons.find((l) => l.change !== 'cancelled' && l.subject !== null && (!isToday || (l.from !== null && l.from > clock.time)));
  if (next === undefined) return null;
  // A kindergarten's day begins with its first activities, not a lesson.
  const block = next.block === true;
  const label = isToday ? text.labels.next : `${block ? text.firstBlock : text.firstLesson} (${dayShort(day.date, clock, text)})`;
  return { label, subject: next.subject as string, detail: roomAnd(next.room, next.from, text, false, block), change: next.change };
}
