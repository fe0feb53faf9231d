// Attendances, generated from the timetable for the recent past so that every lesson held has a presence
// mark, as on a real account; the fixture adds the absences and lates. Realizations share heldLessons.
import { answers } from '../answers.js';
import type { DataResult } from '../answers.js';
import { addDays, semesterOf } from '../dates.js';
import { ref } from '../expand.js';
import { expandIn } from './context.js';
import type { DataContext } from './context.js';
import { buildSchoolDays } from './school-days.js';
import type { SchoolDays, PlannedLesson } from './school-days.js';

/** How far back generated records reach (a real account holds the whole year; a month shows the shape). */
const ATTENDANCE_DAYS = 35;
const PRESENCE_TYPE = 100;

export interface HeldLesson {
  date: string;
  lesson: PlannedLesson;
}

/** Lessons already started, from `days` ago up to now. */
export function heldLessons(ctx: DataContext, schoolDays: SchoolDays, days: number): HeldLesson[] {
  const out: HeldLesson[] = [];
  let date = addDays(ctx.today, -days);
  if (date < schoolDays.year.start) date = schoolDays.year.start;
  for (; date <= ctx.today; date = addDays(date, 1)) {
    for (const lesson of schoolDays.lessonsOn(date)) {
      if (lesson.cancelled) continue;
      if (date === ctx.today && schoolDays.bell(lesson.lessonNo).from > ctx.clock.slice(0, 5)) continue;
      out.push({ date, lesson });
    }
  }
  return out;
}

export function attendances(ctx: DataContext): DataResult {
  const schoolDays = buildSchoolDays(ctx);
  const { account } = ctx;
  const student = ref(ctx, 'Users', account.data.account.userId);
  const marks = expandIn<{ Id: number | string; Date: string; LessonNo: number; Type: number; AddedBy?: number }[]>(
    ctx,
    account.data.attendance,
  ).filter((m) => m.Date <= ctx.today);
  const records: Record<string, unknown>[] = [];
  const record = (id: number | string, date: string, lessonNo: number, type: number, lesson: PlannedLesson | undefined, teacher?: number): void => {
    const lessonId = lesson?.lessonId ?? Number(Object.keys(account.data.lessons)[0] ?? 0);
    records.push({
      Id: id,
      Lesson: ref(ctx, 'Lessons', lessonId),
      Student: student,
      Date: date,
      AddDate: `${date} ${schoolDays.bell(lessonNo).to}:00`,
      LessonNo: lessonNo,
      Semester: semesterOf(date),
      Type: ref(ctx, 'Attendances/Types', type),
      AddedBy: ref(ctx, 'Users', teacher ?? lesson?.change?.teacher ?? lesson?.teacher ?? 0),
    });
  };
  const used = new Set<string>();
  for (const { date, lesson } of heldLessons(ctx, schoolDays, ATTENDANCE_DAYS)) {
    // A slot split into groups holds several lessons, but the child attends one of them, and never the other group's.
    if (used.has(`${date}/${lesson.lessonNo}`) || account.otherGroup.has(lesson.lessonId)) continue;
    const mark = marks.find((m) => m.Date === date && m.LessonNo === lesson.lessonNo);
    used.add(`${date}/${lesson.lessonNo}`);
    const id = mark?.Id ?? 3_000_000 + schoolDays.dayIndex(date) * 20 + lesson.lessonNo;
    record(id, date, lesson.lessonNo, mark?.Type ?? PRESENCE_TYPE, lesson, mark?.AddedBy);
  }
  // Marks the timetable does not cover (older ones, or on a lesson the timetable lacks) are still listed.
  for (const m of marks) {
    if (used.has(`${m.Date}/${m.LessonNo}`)) continue;
    const lesson = schoolDays.lessonsOn(m.Date).find((l) => l.lessonNo === m.LessonNo);
    record(m.Id, m.Date, m.LessonNo, m.Type, lesson, m.AddedBy);
  }
  records.sort((a, b) => String(a.Date).localeCompare(String(b.Date)) || Number(a.LessonNo) - Number(b.LessonNo));
  return answers.ok({ Attendances: records });
}
