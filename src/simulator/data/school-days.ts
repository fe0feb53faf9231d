// The child's school calendar for one request: which days are school days and which lessons happen on
// a day, after free days and plan changes. Timetables, Attendances, Realizations and the lucky number
// all read it, so they can never disagree with each other.
import { daysBetween, isoWeekday } from '../dates.js';
import type { SchoolYear } from '../dates.js';
import type { ChangeFixture } from '../fixtures.js';
import { expandIn, nowStamp } from './context.js';
import type { DataContext } from './context.js';

export interface PlannedLesson {
  lessonNo: number;
  lessonId: number;
  subject: number;
  teacher: number;
  classroom: number | undefined;
  /** Id of the standing TimetableEntries row. */
  entryId: number;
  cancelled: boolean;
  /**
   * Set on a substitution (a room change is a substitution with the same teacher and subject);
   * lessonId is the substitute's own lesson, which the lesson held (Realizations) points at.
   */
  change?: { id: number; teacher: number; subject: number; classroom: number | null; lessonId: number };
}

/** A lesson of the Lessons lookup that only a substitute teaching another subject or class brings. */
export interface SubstituteLesson {
  id: number;
  subject: number;
  teacher: number;
}

export interface SchoolDays {
  year: SchoolYear;
  /** Number of slots of every timetable day (LessonNo 0 up to the last lesson of the week). */
  slotCount: number;
  bell(lessonNo: number): { from: string; to: string };
  /** The child's class has lessons that day (a class's own free day, a trip, is none). */
  isSchoolDay(date: string): boolean;
  /** The school teaches that day, whatever one class does (the school's draws follow it: the lucky number). */
  isSchoolOpen(date: string): boolean;
  /** The lessons of a day as held: cancelled ones flagged, substitutions applied; [] on a day off. */
  lessonsOn(date: string): PlannedLesson[];
  /** Plan changes already announced (AddDate passed), with their dates expanded. */
  changes: ChangeFixture[];
  /** Days since 1 September, for stable generated ids. */
  dayIndex(date: string): number;
  /** Lessons announced substitutions add to the Lessons lookup (teacher and subject not in the fixture). */
  substituteLessons: SubstituteLesson[];
}

/** Id of the lesson a substitute brings when no fixture lesson has that teacher and subject. */
const SUBSTITUTE_LESSON_BASE = 9_000_000;

export function entryId(weekday: number, lessonNo: number, index: number): number {
  return 600_000 + weekday * 1000 + lessonNo * 10 + index;
}

export function buildSchoolDays(ctx: DataContext): SchoolDays {
  const { account } = ctx;
  const year = account.year.settle(ctx.today);
  const now = nowStamp(ctx);
  const classId = account.data.account.classId;
  const schoolFree = expandIn<{ DateFrom: string; DateTo: string }[]>(ctx, account.school.schoolFreeDays);
  const classFree = expandIn<{ Class: number; DateFrom: string; DateTo: string; LessonNoFrom?: string }[]>(ctx, account.school.classFreeDays).filter(
    (d) => d.Class === classId && d.LessonNoFrom === undefined,
  );
  const changes = expandIn<ChangeFixture[]>(ctx, account.data.changes).filter((c) => c.AddDate <= now);
  const week = account.data.week;
  // The substitute's lesson: the class's own lesson of that teacher and subject, else one made up
  // from the first change that needs it (so the id stays stable while the changes do).
  const substituteLessons: SubstituteLesson[] = [];
  const lessonOf = (teacher: number, subject: number, changeId: number): number => {
    const own = Object.entries(account.data.lessons).find(([, l]) => l.teacher === teacher && l.subject === subject);
    if (own) return Number(own[0]);
    const made = substituteLessons.find((l) => l.teacher === teacher && l.subject === subject);
    if (made) return made.id;
    substituteLessons.push({ id: SUBSTITUTE_LESSON_BASE + changeId, subject, teacher });
    return SUBSTITUTE_LESSON_BASE + changeId;
  };
  for (const c of [...changes].sort((a, b) => a.Id - b.Id)) {
    if (c.kind !== 'substitution') continue;
    const info = account.data.lessons[changedCell(week, c).split('@')[0] ?? '0'];
    if (info) lessonOf(c.Teacher ?? info.teacher, c.Subject ?? info.subject, c.Id);
  }
  const slotCount = Math.max(1, ...Object.values(week).map((slots) => slots.length));

  const isSchoolOpen = (date: string): boolean =>
    isoWeekday(date) <= 5 && date >= year.start && date <= year.end && !schoolFree.some((d) => d.DateFrom <= date && date <= d.DateTo);
  const isSchoolDay = (date: string): boolean => isSchoolOpen(date) && !classFree.some((d) => d.DateFrom <= date && date <= d.DateTo);

  const bell = (lessonNo: number): { from: string; to: string } => {
    const [from = '00:00', to = '00:00'] = account.school.bells[lessonNo] ?? [];
    return { from, to };
  };

  const lessonsOn = (date: string): PlannedLesson[] => {
    if (!isSchoolDay(date)) return [];
    const weekday = isoWeekday(date);
    const out: PlannedLesson[] = [];
    (week[String(weekday)] ?? []).forEach((slot, lessonNo) => {
      slot.forEach((cell, index) => {
        const [lesson = '0', room] = cell.split('@');
        const info = account.data.lessons[lesson];
        if (!info) return;
        const planned: PlannedLesson = {
          lessonNo,
          lessonId: Number(lesson),
          subject: info.subject,
          teacher: info.teacher,
          classroom: room === undefined ? undefined : Number(room),
          entryId: entryId(weekday, lessonNo, index),
          cancelled: false,
        };
        // A lesson changed twice stands as the school's later word has it (a substitution cancelled after all).
        const change = changes
          .filter((c) => c.OrgDate === date && c.OrgLessonNo === lessonNo && changedCell(week, c) === slot[index])
          .reduce<ChangeFixture | undefined>((later, c) => (later === undefined || c.Id > later.Id ? c : later), undefined);
        if (change?.kind === 'cancelled') planned.cancelled = true;
        if (change?.kind === 'substitution') {
          const teacher = change.Teacher ?? info.teacher;
          const subject = change.Subject ?? info.subject;
          planned.change = {
            id: change.Id,
            teacher,
            subject,
            classroom: change.Classroom === undefined ? (planned.classroom ?? null) : change.Classroom,
            lessonId: lessonOf(teacher, subject, change.Id),
          };
        }
        out.push(planned);
      });
    });
    return out;
  };

  return {
    year,
    slotCount,
    bell,
    isSchoolDay,
    isSchoolOpen,
    lessonsOn,
    changes,
    dayIndex: (date) => daysBetween(year.start, date),
    substituteLessons,
  };
}

/**
 * The cell of the week (`lesson@room`) a plan change is to: in a slot split into groups, the group's lesson the
 * change names (OrgLesson), else the slot's first; '0' where the slot is empty.
 */
export function changedCell(week: Record<string, string[][]>, change: Pick<ChangeFixture, 'OrgDate' | 'OrgLessonNo' | 'OrgLesson'>): string {
  const slot = week[String(isoWeekday(change.OrgDate))]?.[change.OrgLessonNo] ?? [];
  const named = change.OrgLesson === undefined ? undefined : slot.find((cell) => cell.split('@')[0] === String(change.OrgLesson));
  return named ?? slot[0] ?? '0';
}
