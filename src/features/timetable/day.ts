// The day's lessons as a wall tablet lists them (timetable_today/tomorrow) and the lesson in progress
// (current_lesson), rendered from the Schedule the timetable feature computed once.
import { heldSlots, hoursOf, lessonChange, movedAway, movedIn, slotsOf } from '../../rules/schedule.js';
import { sameSlot } from '../../rules/timetable.js';
import type { GroupOut, ScheduledLesson, SchoolDay } from '../../rules/schedule.js';
import type { NextLesson } from '../../rules/schooldays.js';
import { slotOn, type ChangeKind, type PlanChange } from '../../rules/plan-changes.js';
import { stateText, withAttributes } from '../kit/render.js';
import type { Language } from '../../config/language.js';
import { TIMETABLE_WORDS, type TimetableWords } from '../../i18n/lesson-words.js';

/** One slot (period) of the day; a split class's groups share it. */
export interface SlotOut extends GroupOut {
  no: number | null;
  from: string | null;
  to: string | null;
  /** Each group on its own, only when the class is split (two or more groups in the slot). */
  groups?: GroupOut[];
  /** A kindergarten's block (interface 12.2): no number, every teacher, and `planned` or the portal's word. */
  number?: null;
  /** Undefined (left out of the published slot) but for a kindergarten's block. */
  teachers: string[] | undefined;
  kind?: string;
  /** Its change in words, as every screen prints it ("zastępstwo · zamiast: Matematyka · było: s. 12"); null for none. */
  note: string | null;
}

function groupOf(l: ScheduledLesson): GroupOut {
  const change = lessonChange(l);
  // A substitute lesson often has no room in the timetable; the plan change may name it.
  const changed = change !== null;
  const out: GroupOut = {
    subject: l.subject,
    teacher: l.teacher,
    room: l.room ?? (l.takesPlace ? (l.change?.room ?? null) : null),
    change,
    original_subject: changed ? (l.change?.original_subject ?? l.subject) : undefined,
    original_teacher: changed ? (l.change?.original_teacher ?? l.teacher) : undefined,
    original_room: changed ? (l.change?.original_room ?? l.room) : undefined,
    extra: l.extra ? true : undefined,
  };
  return { ...out, ...movesOf(l) };
}

/** Where a moved lesson went (seen from the slot it left) or came from (seen from the slot it came to). */
function movesOf(l: Pick<ScheduledLesson, 'change' | 'date' | 'lessonNo'>): Pick<GroupOut, 'moved_to' | 'moved_from'> {
  const c = l.change;
  if (c !== null && movedAway(l)) return { moved_to: { date: c.date, lesson_no: c.lesson_no, hours: c.hours } };
  if (c?.original_date && movedIn(l)) return { moved_from: { date: c.original_date, lesson_no: c.original_lesson_no, hours: c.original_hours } };
  return {};
}

/**
 * A plan change of `date` in the words the `note` of its slot (`lessonNo`, the one it stands at in the day's list unless
 * told) would say (plan_changes_*'s `words`).
 */
export function changeWords(c: PlanChange, date: string, w: TimetableWords, lessonNo = slotOn(c, date)): string | null {
  const facts: GroupOut = {
    subject: c.subject,
    teacher: c.teacher,
    room: c.room,
    change: c.kind,
    // As a slot's: what was planned, the change's own when it names none.
    original_subject: c.original_subject ?? c.subject,
    original_teacher: c.original_teacher ?? c.teacher,
    original_room: c.original_room ?? c.room,
    extra: undefined,
  };
  return noteOf({ ...facts, ...movesOf({ change: c, date, lessonNo }) }, w);
}

/** Distinct known values joined with ' / ' (a split class's groups); null when none is known. */
export function joined(values: readonly (string | null | undefined)[]): string | null {
  const distinct = [...new Set(values.filter((v): v is string => typeof v === 'string' && v !== ''))];
  return distinct.length > 0 ? distinct.join(' / ') : null;
}

/**
 * A slot's change, as every screen and the calendar feeds say it: "cancelled" only when every group is off; otherwise the
 * first change of a group that takes place (a group's own cancellation shows in `groups`).
 */
export function slotChange(lessons: readonly ScheduledLesson[]): ChangeKind | null {
  const changes = lessons.map(lessonChange);
  if (changes.every((c) => c === 'cancelled')) return 'cancelled';
  return changes.find((c, i) => lessons[i]?.takesPlace && c !== null) ?? null;
}

/**
 * A lesson's place in its day's lessons as timetable_today and timetable_tomorrow list them (from 0), its slot as the
 * timetable groups one (sameSlot: next_lesson's lessons are copies with the room filled in): the one answer
 * to "which row of the day is it" that the screens mark; null when the day shown does not hold it.
 */
function rowOf(day: SchoolDay | null | undefined, lesson: ScheduledLesson | undefined): number | null {
  const row = lesson === undefined ? -1 : slotsOf(day?.lessons ?? []).findIndex((s) => s[0] !== undefined && sameSlot(s[0], lesson));
  return row < 0 ? null : row;
}

/**
 * The attributes of next_lesson: the slot's place and time (a split class's groups joined), today's, or once today's
 * lessons are over the next school day's first; its change as the slot's (slotChange); `row`, its place in that
 * day's lessons (`day`: the published day of its date), by which the board marks the lessons before it as over.
 */
export const nextLessonFacts = (next: NextLesson<ScheduledLesson>, day?: SchoolDay | null) => ({
  date: next.date,
  lesson_no: next.lessonNo,
  time: next.from,
  end: next.to,
  start: next.start,
  room: joined(next.lessons.map((l) => l.room)),
  teacher: joined(next.lessons.map((l) => l.teacher)),
  substitution: next.lessons.some((l) => l.substitution),
  change: slotChange(next.lessons),
  row: rowOf(day, next.lessons[0]),
  // An extra class (zajęcia dodatkowe), not a lesson of the timetable.
  extra: next.lessons.some((l) => l.extra) ? (true as const) : undefined,
});

/**
 * The day the screens are about: today until its last lesson ends (`to`, HH:MM: timetable_today's `hours`), then
 * the next school day (timetable_tomorrow's); none when that is not known. The board shows it, the briefing tells it.
 */
export function dayShown<D extends { date: string; to: string | null }>(clock: { today: string; time: string }, today?: D, next?: D): D | undefined {
  return today?.date === clock.today && today.to !== null && clock.time < today.to ? today : next;
}

/** The teacher a substitute of the same subject stands in for; null when the subject or the teacher is another. */
export function awayTeacher(s: Pick<GroupOut, 'change' | 'subject' | 'teacher' | 'original_subject' | 'original_teacher'>): string | null {
  const away = s.original_teacher ?? null;
  return s.change === 'substitution' && s.original_subject === s.subject && away !== null && away !== s.teacher ? away : null;
}

/**
 * A slot's change in words: where a lesson moved away went or one moved in came from, or the change's kind (a
 * substitute of the same subject by the teacher who is away: "zastępstwo za: Jan Nowak", the substitute being the
 * lesson's teacher); the subject it replaced, the room it moved to and the one it left; an extra class and a
 * kindergarten block's own kind. A slot a lesson left holds nothing to compare with what was planned.
 */
export function noteOf(s: GroupOut & Pick<SlotOut, 'kind'>, w: TimetableWords): string | null {
  const notes = s.extra ? [w.extra] : [];
  const change = s.change;
  const away = awayTeacher(s);
  if (s.moved_to) notes.push(w.movedTo(s.moved_to.date, s.moved_to.lesson_no));
  else if (s.moved_from) notes.push(w.movedFrom(s.moved_from.date, s.moved_from.lesson_no));
  else if (away !== null) notes.push(w.substituteFor(away));
  else if (change !== null) notes.push(w.changes[change]);
  if (change !== null && change !== 'cancelled' && !s.moved_to) {
    const original = s.original_subject ?? null;
    if (original !== null && original !== s.subject) notes.push(w.instead(original));
    // The room it moved to and the one it left; a substitute's room is often unknown: "was room 22" would then
    // say the lesson moved when it may not have.
    if (s.room !== null && s.original_room && s.original_room !== s.room) notes.push(w.room(s.room), w.wasRoom(s.original_room));
  }
  if (s.kind !== undefined && s.kind !== 'planned') notes.push(s.kind);
  return notes.length > 0 ? notes.join(' · ') : null;
}

/** A slot as timetable_*'s `lessons` list it, without its words (a split class's groups joined, its change slotChange's). */
export function slotFacts(lessons: ScheduledLesson[]): Omit<SlotOut, 'note'> {
  const first = lessons[0] as ScheduledLesson;
  const groups = lessons.map(groupOf);
  if (first.block)
    return {
      no: null,
      number: null,
      from: first.from,
      to: first.to,
      ...(groups[0] as GroupOut),
      teachers: first.block.teachers,
      kind: first.block.kind,
    };
  if (groups.length === 1) return { no: first.lessonNo, from: first.from, to: first.to, ...(groups[0] as GroupOut), teachers: undefined };
  const change = slotChange(lessons);
  const changed = change !== null;
  return {
    no: first.lessonNo,
    from: first.from,
    to: first.to,
    subject: joined(groups.map((g) => g.subject)),
    teacher: joined(groups.map((g) => g.teacher)),
    room: joined(groups.map((g) => g.room)),
    change,
    original_subject: changed ? joined(groups.map((g) => g.original_subject ?? g.subject)) : undefined,
    original_teacher: changed ? joined(groups.map((g) => g.original_teacher ?? g.teacher)) : undefined,
    original_room: changed ? joined(groups.map((g) => g.original_room ?? g.room)) : undefined,
    extra: undefined,
    groups,
    teachers: undefined,
  };
}

/**
 * The attributes of timetable_today / timetable_tomorrow: the day, its span (the first start and the last end
 * of what takes place, extra classes included, as lessons_start_* and lessons_end_* say it; HH:MM), its lessons,
 * and `kindergarten` on a kindergarten's day of blocks, which the screens then speak of as activities.
 */
export type TimetableDay = {
  date: string | null;
  hours: { from: string; to: string } | null;
  lessons: SlotOut[];
  /** Undefined (left out of the published attributes) but on a kindergarten's day. */
  kindergarten: true | undefined;
};

/** The attributes of current_lesson: the slot in progress (all null outside lessons). */
export interface CurrentLesson {
  no: number | null;
  from: string | null;
  to: string | null;
  room: string | null;
  teacher: string | null;
  change: ChangeKind | null;
  /** Its place in today's lessons as timetable_today lists them (from 0). */
  row: number | null;
  /** An extra class (zajęcia dodatkowe): published only then (undefined is left out). */
  extra: true | undefined;
}

/**
 * timetable_today / timetable_tomorrow: the periods that take place (a split slot counts once) and
 * every slot listed, cancelled ones marked; unknown when the timetable does not cover the day.
 */
export function timetableOf(day: SchoolDay | null, language: Language): { state: string | null; attributes: TimetableDay } {
  if (day === null || day.lessons === undefined)
    return { state: null, attributes: { date: day?.date ?? null, hours: null, lessons: [], kindergarten: undefined } };
  const span = hoursOf(day);
  const words = TIMETABLE_WORDS[language];
  return withAttributes(heldSlots(day), {
    date: day.date,
    hours: span && { from: span.from, to: span.to },
    lessons: slotsOf(day.lessons)
      .map(slotFacts)
      .map((slot) => ({ ...slot, note: noteOf(slot, words) })),
    kindergarten: day.lessons.some((l) => l.block) ? true : undefined,
  });
}

/**
 * current_lesson: the subject(s) of the slot in progress ("Lekcja 3" when the portal names none, so
 * that a lesson never reads as no lesson); None outside lessons. `row`: its place in `today`'s lessons as
 * timetable_today lists them (from 0), the one answer to "which of the day's lessons is on" that the board and the
 * dashboard mark (null outside lessons).
 */
export function currentLessonOf(
  slot: readonly ScheduledLesson[],
  language: Language,
  today?: SchoolDay,
): { state: string | null; attributes: CurrentLesson } {
  const first = slot[0];
  if (first === undefined)
    return { state: null, attributes: { no: null, from: null, to: null, room: null, teacher: null, change: null, row: null, extra: undefined } };
  const groups = slot.map(groupOf);
  return {
    state: stateText(
      joined(groups.map((g) => g.subject)) ?? [TIMETABLE_WORDS[language].unnamed, first.lessonNo].filter((part) => part !== null).join(' '),
    ),
    attributes: {
      no: first.lessonNo,
      from: first.from,
      to: first.to,
      room: joined(groups.map((g) => g.room)),
      teacher: joined(groups.map((g) => g.teacher)),
      change: slotChange(slot),
      row: rowOf(today, first),
      extra: first.extra ? true : undefined,
    },
  };
}
