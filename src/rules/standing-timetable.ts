// How a week differs from the standing weekly plan (TimetableEntries, spec 2.7; interface 18.2): for each day of the
// weeks read, each slot of the plan against the lessons that day's timetable holds. A lesson of the plan that does
// not take place is missing; one the plan has not is added; another subject, teacher or room is told as such; a
// school weekday of the plan with no lesson at all is a day without lessons. Pure: copies and names in, facts out.
import type { TimetableEntry } from '../portal/schemas/timetable.js';
import type { Names } from './names.js';
import type { SchoolDay, ScheduledLesson } from './schedule.js';
import { dayOfWeek } from '../util/time.js';

export const STANDING_KINDS = ['missing', 'added', 'subject', 'teacher', 'room', 'no_lessons'] as const;
export type StandingKind = (typeof STANDING_KINDS)[number];

/** One difference: the day, the lesson number (null for a whole day), its kind, and what the plan has and the day has. */
export interface StandingDifference {
  date: string;
  no: number | null;
  kind: StandingKind;
  /** As the standing plan has it (a subject, a teacher, a room; the number of lessons for a day without any); null for an added lesson. */
  was: string | null;
  /** As the day has it; null for a missing lesson (and a day without lessons that is no named day off). */
  now: string | null;
}

/** A slot of the standing plan on a date: its lesson number, and the lesson's subject, teacher and room. */
export interface StandingSlot {
  no: number;
  subject: string | null;
  teacher: string | null;
  room: string | null;
}

/** The Lessons lookup's lessons: Lesson.Id to its subject and teacher. */
export type LessonSides = ReadonlyMap<string, { Subject?: string | undefined; Teacher?: string | undefined }>;

/** The standing plan's slots on a date: the entries of its weekday valid that day, by lesson number. */
export function standingSlots(entries: readonly TimetableEntry[], lessons: LessonSides, names: Names, date: string): StandingSlot[] {
  const weekday = dayOfWeek(date);
  return entries
    .filter((e) => e.DayOfTheWeek === weekday && e.LessonNo !== undefined && (e.DateFrom ?? '') <= date && date <= (e.DateTo ?? '9999'))
    .map((e) => {
      const lesson = e.Lesson === undefined ? undefined : lessons.get(e.Lesson);
      return {
        no: e.LessonNo as number,
        subject: names.subject(lesson?.Subject),
        teacher: names.teacher(lesson?.Teacher),
        room: names.room(e.Classroom?.id, e.Classroom),
      };
    })
    .sort((a, b) => a.no - b.no);
}

/** The lessons of a slot that take place (an extra class is no lesson of the plan). */
const heldAt = (lessons: readonly ScheduledLesson[], no: number): ScheduledLesson[] =>
  lessons.filter((l) => l.lessonNo === no && l.takesPlace && !l.extra);

/** One slot against the plan: missing, added, or each of subject, teacher and room that differs. */
function slotDifferences(date: string, no: number, planned: readonly StandingSlot[], held: readonly ScheduledLesson[]): StandingDifference[] {
  const subjects = (list: readonly { subject: string | null }[]) => list.map((l) => l.subject ?? '').join(', ') || null;
  if (held.length === 0) return planned.length === 0 ? [] : [{ date, no, kind: 'missing', was: subjects(planned), now: null }];
  if (planned.length === 0) return [{ date, no, kind: 'added', was: null, now: subjects(held) }];
  // A split class: each lesson held against the group's own lesson of the plan (the same subject), the other group aside.
  return held.flatMap((l): StandingDifference[] => {
    const own = planned.find((p) => p.subject === l.subject);
    if (own === undefined) return [{ date, no, kind: 'subject', was: subjects(planned), now: l.subject }];
    return [
      ...(own.teacher !== null && l.teacher !== null && own.teacher !== l.teacher
        ? [{ date, no, kind: 'teacher' as const, was: own.teacher, now: l.teacher }]
        : []),
      ...(own.room !== null && l.room !== null && own.room !== l.room ? [{ date, no, kind: 'room' as const, was: own.room, now: l.room }] : []),
    ];
  });
}

/**
 * How the days differ from the standing plan, in date and lesson order: only days whose lessons were read, and a
 * weekday the plan has lessons on. A day without any lesson (all cancelled, or a day off) is one difference.
 */
export function standingDifferences(days: readonly SchoolDay[], slots: (date: string) => readonly StandingSlot[]): StandingDifference[] {
  return days.flatMap((day) => {
    const planned = day.lessons === undefined ? [] : slots(day.date);
    if (day.lessons === undefined || planned.length === 0) return [];
    const lessons = day.lessons;
    if (!lessons.some((l) => l.takesPlace && !l.extra))
      return [
        {
          date: day.date,
          no: null,
          kind: 'no_lessons' as const,
          was: String(new Set(planned.map((p) => p.no)).size),
          now: day.freeDay?.name ?? null,
        },
      ];
    const numbers = [
      ...new Set([...planned.map((p) => p.no), ...lessons.filter((l) => !l.extra).flatMap((l) => (l.lessonNo === null ? [] : [l.lessonNo]))]),
    ];
    return numbers
      .sort((a, b) => a - b)
      .flatMap((no) =>
        slotDifferences(
          day.date,
          no,
          planned.filter((p) => p.no === no),
          heldAt(lessons, no),
        ),
      );
  });
}
