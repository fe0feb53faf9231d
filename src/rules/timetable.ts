// The timetable read into plain lessons per day: names resolved, hours as HH:MM, and for a changed
// lesson what was planned originally (the Org* fields of a substitution).
import type { TimetableDays, TimetableLesson } from '../portal/schemas/timetable.js';
import type { Bell } from '../portal/schemas/identity.js';
import { dayOf, hhmm } from './portal-values.js';
import { textCompare } from './order.js';
import type { Names } from './names.js';
import { blockOf, type BlockFacts } from './kindergarten.js';

export interface LessonSide {
  subjectId?: string;
  subject: string | null;
  teacherId?: string;
  teacher: string | null;
  roomId?: string;
  room: string | null;
}

export interface DayLesson extends LessonSide {
  date: string;
  lessonNo: number | null;
  /** HH:MM. */
  from: string | null;
  to: string | null;
  cancelled: boolean;
  substitution: boolean;
  note: string | null;
  /** What was planned, for a substitution; null for an ordinary lesson. */
  org: LessonPlace | null;
  /** Where the lesson moved to, on the slot it leaves (the New* fields, live-notes 11); else null. */
  moved: LessonPlace | null;
  /** A kindergarten's block (rules/kindergarten.ts): every teacher, and the portal's word for its kind; null for a lesson. */
  block: BlockFacts | null;
  /** An extra class (rules/extra-classes.ts), not a lesson of the timetable. */
  extra: boolean;
  /** The lesson's Lesson.Id and the standing plan's entry it is held for (TimetableEntry), when the portal names them. */
  lessonId?: string | undefined;
  entryId?: string | undefined;
}

/** A slot's lesson: a day's (`extra` a boolean) or a published one (`extra` left out of an ordinary lesson). */
type Slot = { lessonNo: number | null; from: string | null; extra?: boolean };

/** Two lessons share a slot: the same lesson number, or the same start when a number is missing; an extra class only another. */
export function sameSlot(a: Slot, b: Slot): boolean {
  if ((a.extra === true) !== (b.extra === true)) return false;
  return a.lessonNo !== null && b.lessonNo !== null ? a.lessonNo === b.lessonNo : a.from === b.from;
}

/** A lesson's place and people: as planned (Org*) or where it moved to (New*). */
export type LessonPlace = LessonSide & { date: string | null; lessonNo: number | null; from: string | null; to: string | null };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

type Ref = TimetableLesson['Subject'];

/** Subject, teacher and room of one side of a lesson (as planned, or as it takes place). */
function side(names: Names, subject: Ref, teacher: Ref, room: Ref): LessonSide {
  return {
    subjectId: subject?.id,
    subject: names.subject(subject?.id, subject),
    teacherId: teacher?.id,
    teacher: names.teacher(teacher?.id, teacher),
    roomId: room?.id,
    room: names.room(room?.id, room),
  };
}

/** Several Timetables answers (this week, next week) as one map of days; a later answer wins a day. */
export function mergeTimetables(...weeks: (TimetableDays | undefined)[]): TimetableDays {
  return Object.assign({}, ...weeks);
}

function toLesson(date: string, l: TimetableLesson, names: Names): DayLesson {
  const block = blockOf(l);
  const hasOrg =
    l.IsSubstitutionClass === true || [l.OrgDate, l.OrgLessonNo, l.OrgSubject, l.OrgTeacher, l.OrgClassroom].some((v) => v !== undefined);
  return {
    date,
    lessonNo: l.LessonNo ?? null,
    from: hhmm(l.HourFrom) ?? null,
    to: hhmm(l.HourTo) ?? null,
    ...side(names, l.Subject, l.Teacher, l.Classroom),
    cancelled: l.IsCanceled === true,
    substitution: l.IsSubstitutionClass === true,
    note: l.SubstitutionNote?.trim() ?? null,
    org: hasOrg
      ? {
          date: dayOf(l.OrgDate) ?? null,
          lessonNo: l.OrgLessonNo ?? null,
          from: hhmm(l.OrgHourFrom) ?? null,
          to: hhmm(l.OrgHourTo) ?? null,
          ...side(names, l.OrgSubject, l.OrgTeacher, l.OrgClassroom),
        }
      : null,
    moved: movedTo(date, l, names),
    block: block ?? null,
    extra: false,
    lessonId: l.Lesson,
    entryId: l.TimetableEntry,
  };
}

/** Where a lesson leaving this slot goes: a new day or lesson number that is not this slot's own. */
function movedTo(date: string, l: TimetableLesson, names: Names): LessonPlace | null {
  const newDate = dayOf(l.NewDate);
  const elsewhere = (newDate !== undefined && newDate !== date) || (l.NewLessonNo !== undefined && l.NewLessonNo !== l.LessonNo);
  if (!elsewhere) return null;
  const moved = side(names, l.NewSubject ?? l.Subject, l.NewTeacher ?? l.Teacher, l.NewClassroom);
  return { date: newDate ?? date, lessonNo: l.NewLessonNo ?? null, from: hhmm(l.NewHourFrom) ?? null, to: hhmm(l.NewHourTo) ?? null, ...moved };
}

function lessonOrder(a: DayLesson, b: DayLesson): number {
  return (a.lessonNo ?? 99) - (b.lessonNo ?? 99) || textCompare(a.from ?? '', b.from ?? '');
}

/**
 * The lessons of one day in slot order, or undefined when the timetable does not cover that day
 * (not fetched, or not yet published): unknown, which is not the same as a day without lessons.
 */
export function dayLessons(days: TimetableDays, date: string, names: Names): DayLesson[] | undefined {
  const slots = days[date];
  if (slots === undefined) return undefined;
  return slots.flatMap((slot) => slot.map((l) => toLesson(date, l, names))).sort(lessonOrder);
}

/** Every lesson of every day covered, by date then slot. */
export function allLessons(days: TimetableDays, names: Names): DayLesson[] {
  return Object.keys(days)
    .filter((d) => DATE.test(d))
    .sort()
    .flatMap((d) => dayLessons(days, d, names) ?? []);
}

/**
 * The bell schedule as seen in the timetable: lesson number -> the hours it most often has (live-notes 54; the
 * first seen of equals), in lesson order. A change that lacks its hours takes them from here.
 */
export function bellTimes(days: TimetableDays): Map<number, { from: string; to: string }> {
  const seen = new Map<number, Map<string, number>>();
  for (const l of Object.values(days).flat(2)) {
    const [from, to] = [hhmm(l.HourFrom), hhmm(l.HourTo)];
    if (l.LessonNo === undefined || !from || !to) continue;
    const counts = seen.get(l.LessonNo) ?? new Map<string, number>();
    seen.set(l.LessonNo, counts.set(`${from}-${to}`, (counts.get(`${from}-${to}`) ?? 0) + 1));
  }
  const out = new Map<number, { from: string; to: string }>();
  for (const no of [...seen.keys()].sort((a, b) => a - b)) {
    const [hours = ''] = [...seen.get(no)!].reduce((best, next) => (next[1] > best[1] ? next : best));
    const [from = '', to = ''] = hours.split('-');
    out.set(no, { from, to });
  }
  return out;
}

/** The school's bells: its LessonsRange (live-notes 56) where it gives one, else the timetable's most frequent hours (bellTimes). */
export function schoolBells(range: readonly Bell[] | undefined, days: TimetableDays): Bell[] {
  return range !== undefined && range.length > 0 ? [...range] : [...bellTimes(days)].map(([no, hours]) => ({ no, ...hours }));
}

/**
 * A split class's other group, by Lesson.Id: a lesson that shares a slot with another one somewhere in
 * the weeks read and of which the child has no attendance mark, while a lesson it shares a slot with has
 * one (so the child's group is known). Empty when the marks cannot tell (none yet, or no split slot).
 */
export function otherGroupLessons(days: TimetableDays, attended: ReadonlySet<string>): Set<string> {
  const slots = Object.values(days)
    .flat()
    .map((slot) => slot.map((l) => l.Lesson).filter((id) => id !== undefined));
  const split = slots.filter((ids) => ids.length >= 2 && ids.some((id) => attended.has(id)));
  return new Set(split.flat().filter((id) => !attended.has(id)));
}

/** The timetable without some lessons (the other group's), every day keeping its slots. */
export function withoutLessons(days: TimetableDays, lessons: ReadonlySet<string>): TimetableDays {
  if (lessons.size === 0) return days;
  return Object.fromEntries(
    Object.entries(days).map(([date, slots]) => [date, slots.map((slot) => slot.filter((l) => l.Lesson === undefined || !lessons.has(l.Lesson)))]),
  );
}
