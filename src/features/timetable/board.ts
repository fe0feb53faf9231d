// The timetable on a child's board card: the day it shows (today's lessons until the last one ends, then the
// next school day's), each lesson with its change in words and whether it is over or on, the headline above the
// list (the lesson in progress or the next one), and the next school day's changes while another day is shown.
import type { BoardText } from '../../i18n/board-text.js';
import type { ItemOf, Received } from '../../feature-kit/contract.js';
import type { ChangeKind } from '../../school/plan-changes.js';
import { currentLesson, timetableToday, timetableTomorrow } from './entities.js';
import type { BoardDay, BoardHeadline, BoardLesson, BoardNextChange, BoardNextChanges, BoardPart } from '../../screens/parts.js';
import { addDays } from '../../util/time.js';
import { dayShort, dayTitle, list, num, part, str, weekday, type BoardMoment } from '../../screens/shown.js';

/** timetable_today or timetable_tomorrow as the board finds it (both have the same attributes). */
type DayState = Received<typeof timetableToday>;
type Slot = Partial<ItemOf<typeof timetableToday, 'lessons'>>;

function lessonsOf(state: DayState | undefined): { date: string; end: string | null; lessons: Slot[]; blocks: boolean } | null {
  const date = str(state?.attributes?.date);
  if (date === null || state?.state === null || state?.state === undefined) return null;
  const blocks = state.attributes?.kindergarten === true;
  return { date, end: str(part(state.attributes?.hours)?.to), lessons: list(state.attributes?.lessons), blocks };
}

const CHANGES: readonly ChangeKind[] = ['cancelled', 'substitution', 'room_change', 'shifted'];

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
function shownDay(today: DayState | undefined, next: DayState | undefined, clock: BoardMoment, text: BoardText): BoardDay | null {
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
function headlineOf(
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

/**
 * The next school day's changed lessons (timetable_tomorrow), each with its change in words as the timetable said
 * it; none when that day is not after today or is the day the plan column shows already (after today's lessons),
 * where the changes stand in the plan itself. A room change says the new room after its hour.
 */
function nextChangesOf(state: DayState | undefined, shownDate: string | null, clock: BoardMoment, text: BoardText): BoardNextChanges | null {
  const date = str(state?.attributes?.date);
  if (date === null || date <= clock.today || date === shownDate) return null;
  const day = dayShort(date, clock, text);
  const items = list(state?.attributes?.lessons).flatMap((l): BoardNextChange[] => {
    const change = CHANGES.find((k) => k === l.change);
    const note = str(l.note);
    if (change === undefined || note === null) return [];
    const [from, room] = [str(l.from), str(l.room)];
    const time = change === 'room_change' && room !== null ? [from, text.room(room)].filter((t) => t !== null).join(' · ') : from;
    return [{ day, no: num(l.no), time, subject: str(l.subject) ?? str(l.original_subject), change, note }];
  });
  if (items.length === 0) return null;
  // The day by its name and date, short: three cards side by side leave a heading one line.
  const named =
    date === addDays(clock.today, 1) ? `${text.tomorrow.toLowerCase()}, ${weekday(date, text, true)} ${date.slice(8, 10)}.${date.slice(5, 7)}` : day;
  return { date, title: `${text.labels.planChanges}: ${named}`, items };
}

/** The timetable's boxes: the day shown, its headline, and the next school day's changes beside another day. */
export const timetableBoard: BoardPart = ({ state, clock, text }) => {
  const day = shownDay(state(timetableToday), state(timetableTomorrow), clock, text);
  return {
    day,
    headline: headlineOf(state(currentLesson), day, clock, text),
    nextChanges: nextChangesOf(state(timetableTomorrow), day?.date ?? null, clock, text),
  };
};
