// The timetable on a child's board card, printed from what the feature published: the day it shows (dayShown), each
// lesson with its change in words and whether it is over or on (current_lesson and next_lesson), the headline above
// the list (the lesson in progress or the next one), and the next school day's changes while another day is shown.
import type { BoardText } from '../../i18n/board-text.js';
import type { ItemOf, Received } from '../kit/contract.js';
import type { ChangeKind } from '../../rules/plan-changes.js';
import { currentLesson, nextLesson, timetableToday, timetableTomorrow } from './entities.js';
import { awayTeacher, dayShown } from './day.js';
import type {
  BoardDay,
  BoardHeadline,
  BoardLesson,
  BoardNextChange,
  BoardNextChanges,
  BoardPart,
  BoardStanding,
  ShownChild,
} from '../screens/parts.js';
import { TIMETABLE_WORDS } from '../../i18n/lesson-words.js';
import { standingLine } from './standing.js';
import { addDays } from '../../util/time.js';
import { dayShort, dayTitle, initialled, list, num, part, str, weekday, type BoardMoment } from '../screens/shown.js';

/** timetable_today or timetable_tomorrow as the board finds it (both have the same attributes). */
type DayState = Received<typeof timetableToday>;
type Slot = Partial<ItemOf<typeof timetableToday, 'lessons'>>;

function lessonsOf(state: DayState | undefined): { date: string; to: string | null; lessons: Slot[]; blocks: boolean } | undefined {
  const date = str(state?.attributes?.date);
  if (date === null || state?.state === null || state?.state === undefined) return undefined;
  const blocks = state.attributes?.kindergarten === true;
  return { date, to: str(part(state.attributes?.hours)?.to), lessons: list(state.attributes?.lessons), blocks };
}

const CHANGES: readonly ChangeKind[] = ['cancelled', 'substitution', 'room_change', 'shifted'];

/**
 * A lesson's change in words as the board prints it. The board shows no teachers, and its row has room for one short
 * line: a substitute of the same subject is told by both teachers, initialled, in place of the note's words for it
 * ("M. Piotrowska za E. Szymańska · s. 4"), which come first (such a lesson is neither moved nor an extra class).
 */
function noteShown(l: Slot, change: ChangeKind | null, text: BoardText): string | null {
  const [note, teacher] = [str(l.note), str(l.teacher)];
  const slot = { change, subject: str(l.subject), teacher, original_subject: str(l.original_subject), original_teacher: str(l.original_teacher) };
  const away = awayTeacher(slot);
  if (note === null || teacher === null || away === null) return note;
  const [, ...rest] = note.split(' · ');
  return [text.substitute(initialled(teacher) ?? teacher, initialled(away) ?? away), ...rest].join(' · ');
}
const changeOf = (v: unknown): ChangeKind | null => CHANGES.find((c) => c === v) ?? null;

/**
 * The day shown (dayShown; today's while the next school day is unknown), each lesson as the bridge published it: its
 * change in words (`note`), on when it is current_lesson's row of today's lessons (`on`), over when it comes before
 * next_lesson's row (all of a day before next_lesson's, or of today when none is left).
 */
function shownDay({ state, clock, text }: ShownChild, on: number | null, next: Received<typeof nextLesson> | undefined): BoardDay | null {
  const today = lessonsOf(state(timetableToday));
  const chosen = dayShown(clock, today, lessonsOf(state(timetableTomorrow))) ?? today;
  if (chosen === undefined) return null;
  const n = next?.attributes ?? {};
  const nextDate = str(n.date);
  let over = 0;
  if (nextDate === chosen.date) over = num(n.row) ?? 0;
  else if (nextDate === null ? chosen.date === clock.today : nextDate > chosen.date) over = chosen.lessons.length;
  const lessons = chosen.lessons.map((l, i): BoardLesson => {
    const extra = l.extra === true ? (true as const) : undefined;
    const block = extra === undefined && chosen.blocks ? (true as const) : undefined;
    const status = i < over ? 'done' : chosen.date === clock.today && i === on ? 'now' : null;
    const [from, to, change] = [str(l.from), str(l.to), changeOf(l.change)];
    return { no: num(l.no), from, to, subject: str(l.subject), room: str(l.room), change, note: noteShown(l, change, text), status, extra, block };
  });
  return { date: chosen.date, title: dayTitle(chosen.date, clock, text), lessons, empty: lessons.length === 0 ? text.noLessons : null };
}

/** A room with the rest of a line; a kindergarten's room stands by its own name ("sala 1", "ogród"), no "s." before it. */
function roomAnd(room: string | null, rest: string | null, text: BoardText, roomFirst = true, block = false): string {
  const named = room && (block ? room : text.room(room));
  return (roomFirst ? [named, rest] : [rest, named]).filter((p): p is string => typeof p === 'string' && p !== '').join(' · ');
}

/** current_lesson while one is on, else next_lesson (today's, or the next school day's first, named with its day). */
function headlineOf(
  current: Received<typeof currentLesson> | undefined,
  next: Received<typeof nextLesson> | undefined,
  day: BoardDay | null,
  clock: BoardMoment,
  text: BoardText,
): BoardHeadline | null {
  // A kindergarten's day is of blocks (an extra class aside): its room stands by its name, its first is activities.
  const block = (extra: unknown): boolean => extra !== true && day?.lessons.some((l) => l.block) === true;
  const c = current?.attributes ?? {};
  const subject = str(current?.state);
  if (subject !== null) {
    const to = str(c.to);
    return {
      label: text.labels.now,
      subject,
      detail: roomAnd(str(c.room), to && text.until(to), text, true, block(c.extra)),
      change: changeOf(c.change),
    };
  }
  const n = next?.attributes ?? {};
  const [following, date] = [str(next?.state), str(n.date)];
  if (following === null || date === null) return null;
  const label = date === clock.today ? text.labels.next : `${block(n.extra) ? text.firstBlock : text.firstLesson} (${dayShort(date, clock, text)})`;
  return { label, subject: following, detail: roomAnd(str(n.room), str(n.time), text, false, block(n.extra)), change: changeOf(n.change) };
}

/**
 * The next school day's changed lessons (timetable_tomorrow), each with its change in words as the timetable said
 * it; none when that day is not after today or is the day the timetable column shows already (after today's lessons),
 * where the changes stand in the timetable itself.
 */
function nextChangesOf(state: DayState | undefined, shownDate: string | null, clock: BoardMoment, text: BoardText): BoardNextChanges | null {
  const date = str(state?.attributes?.date);
  if (date === null || date <= clock.today || date === shownDate) return null;
  const day = dayShort(date, clock, text);
  const items = list(state?.attributes?.lessons).flatMap((l): BoardNextChange[] => {
    const change = changeOf(l.change);
    const note = noteShown(l, change, text);
    if (change === null || note === null) return [];
    return [{ day, no: num(l.no), time: str(l.from), subject: str(l.subject) ?? str(l.original_subject), change, note }];
  });
  if (items.length === 0) return null;
  // The day by its name and date, short: three cards side by side leave a heading one line.
  const named =
    date === addDays(clock.today, 1) ? `${text.tomorrow.toLowerCase()}, ${weekday(date, text, true)} ${date.slice(8, 10)}.${date.slice(5, 7)}` : day;
  return { date, title: `${text.labels.planChanges}: ${named}`, items };
}

/** This and next week's differences from the standing plan (timetable_today's `standing_differences`), today's and later. */
function standingOf(state: DayState | undefined, { clock, text, language }: ShownChild): BoardStanding | null {
  const items = list(state?.attributes?.standing_differences ?? undefined).flatMap((d) => {
    const [date, words] = [str(d.date), str(d.words)];
    if (date === null || words === null || date < clock.today) return [];
    return [{ day: dayShort(date, clock, text), line: standingLine({ no: num(d.no), words }) }];
  });
  return items.length === 0 ? null : { title: TIMETABLE_WORDS[language].standing.heading, items };
}

/** The timetable's boxes: the day shown, its headline, the next school day's changes beside another day, the weeks against the standing plan. */
export const timetableBoard: BoardPart = (child) => {
  const { state, clock, text } = child;
  const [current, next] = [state(currentLesson), state(nextLesson)];
  const on = str(current?.state) === null ? null : num(current?.attributes?.row);
  const day = shownDay(child, on, next);
  return {
    day,
    headline: headlineOf(current, next, day, clock, text),
    nextChanges: nextChangesOf(state(timetableTomorrow), day?.date ?? null, clock, text),
    standing: standingOf(state(timetableToday), child),
  };
};
