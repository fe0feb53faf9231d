// Timetables (the week as held, with cancellations and substitutions), the standing timetable
// (TimetableEntries), the Lessons lookup and the plan-change list (Calendars/Substitutions).
import { answers } from '../answers.js';
import type { DataResult } from '../answers.js';
import { addDays, isDate, isoWeekday, mondayOf } from '../dates.js';
import { ref } from '../expand.js';
import { expandIn, type DataContext } from './context.js';
import { buildSchoolDays, changedCell, entryId } from './school-days.js';
import type { SchoolDays, PlannedLesson } from './school-days.js';
import type { ExtraClassFixture } from '../fixtures.js';
import type { LessonMove } from '../account-records.js';

/** Weeks are published this many days ahead of the current Monday (three weeks: a parent may ask about one); later ones answer 403. */
const PUBLISHED_AHEAD_DAYS = 21;

/** Ids inside Timetables lessons are strings (spec 2.1). */
function sref(ctx: DataContext, kind: string, id: number): { Id: string; Url: string } {
  return ref(ctx, kind, String(id)) as { Id: string; Url: string };
}

function timetableLesson(ctx: DataContext, schoolDays: SchoolDays, date: string, l: PlannedLesson): Record<string, unknown> {
  const hours = schoolDays.bell(l.lessonNo);
  const classId = ctx.account.data.account.classId;
  const out: Record<string, unknown> = {
    Lesson: sref(ctx, 'Lessons', l.lessonId),
    Classroom: l.classroom === undefined ? undefined : sref(ctx, 'Classrooms', l.classroom),
    DateFrom: schoolDays.year.start,
    DateTo: schoolDays.year.end,
    LessonNo: String(l.lessonNo),
    TimetableEntry: sref(ctx, 'TimetableEntries', l.entryId),
    DayNo: String(isoWeekday(date)),
    Subject: sref(ctx, 'Subjects', l.subject),
    Teacher: sref(ctx, 'Users', l.teacher),
    IsSubstitutionClass: false,
    IsCanceled: l.cancelled,
    SubstitutionNote: null,
    HourFrom: hours.from,
    HourTo: hours.to,
    VirtualClassName: null,
    Class: sref(ctx, 'Classes', classId),
  };
  if (l.change) {
    Object.assign(out, {
      Subject: sref(ctx, 'Subjects', l.change.subject),
      Teacher: sref(ctx, 'Users', l.change.teacher),
      Classroom: l.change.classroom === null ? undefined : sref(ctx, 'Classrooms', l.change.classroom),
      IsSubstitutionClass: true,
      OrgDate: date,
      OrgLessonNo: String(l.lessonNo),
      OrgHourFrom: hours.from,
      OrgHourTo: hours.to,
      OrgLesson: sref(ctx, 'Lessons', l.lessonId),
      OrgSubject: sref(ctx, 'Subjects', l.subject),
      OrgTeacher: sref(ctx, 'Users', l.teacher),
      OrgClassroom: l.classroom === undefined ? undefined : sref(ctx, 'Classrooms', l.classroom),
      SubstitutionClassUrl: `${ctx.api}/Calendars/Substitutions/${l.change.id}`,
    });
  }
  return out;
}

/**
 * The lesson a move takes from its slot: of a split slot, the child's own group's (the other group's stays, whichever
 * the plan lists first), else the slot's first; none when the child's timetable does not hold the slot's lessons.
 */
function movedLesson(ctx: DataContext, schoolDays: SchoolDays, from: LessonMove['from']): PlannedLesson | undefined {
  const { account } = ctx;
  const slot = schoolDays.lessonsOn(from.date).filter((l) => l.lessonNo === from.lessonNo);
  return slot.find((l) => !account.otherGroup.has(l.lessonId)) ?? (account.ownGroupOnly ? undefined : slot[0]);
}

/** The lesson of a published slot that is held for `lesson` (its Lesson.Id). */
const heldFor = (slot: unknown[] | undefined, lesson: PlannedLesson) =>
  (slot as { Lesson: { Id: string } }[] | undefined)?.find((l) => l.Lesson.Id === String(lesson.lessonId));

function day(ctx: DataContext, schoolDays: SchoolDays, date: string): unknown[][] {
  const moves = ctx.account.moves;
  const length = Math.max(schoolDays.slotCount, ...moves.filter((m) => m.to.date === date).map((m) => m.to.lessonNo + 1));
  const slots: unknown[][] = Array.from({ length }, () => []);
  const account = ctx.account;
  for (const l of schoolDays.lessonsOn(date))
    if (!account.ownGroupOnly || !account.otherGroup.has(l.lessonId)) slots[l.lessonNo]?.push(timetableLesson(ctx, schoolDays, date, l));
  for (const move of moves) {
    const moved = movedLesson(ctx, schoolDays, move.from);
    if (!moved) continue;
    const lesson = timetableLesson(ctx, schoolDays, move.from.date, moved);
    const from = schoolDays.bell(move.from.lessonNo);
    const to = schoolDays.bell(move.to.lessonNo);
    if (move.from.date === date) {
      // The slot it leaves: cancelled there, with where it goes.
      const left = heldFor(slots[move.from.lessonNo], moved);
      Object.assign(left ?? {}, {
        IsCanceled: true,
        IsSubstitutionClass: true,
        NewDate: move.to.date,
        NewLessonNo: String(move.to.lessonNo),
        NewHourFrom: to.from,
        NewHourTo: to.to,
        NewSubject: lesson.Subject,
        NewTeacher: lesson.Teacher,
        NewClassroom: lesson.Classroom,
      });
    }
    if (move.to.date === date) {
      // The slot it goes to: a substitution whose Org* are the old slot's.
      slots[move.to.lessonNo]?.push({
        ...lesson,
        LessonNo: String(move.to.lessonNo),
        DayNo: String(isoWeekday(date)),
        HourFrom: to.from,
        HourTo: to.to,
        IsSubstitutionClass: true,
        OrgDate: move.from.date,
        OrgLessonNo: String(move.from.lessonNo),
        OrgHourFrom: from.from,
        OrgHourTo: from.to,
        OrgSubject: lesson.Subject,
        OrgTeacher: lesson.Teacher,
        OrgClassroom: lesson.Classroom,
      });
    }
  }
  return slots;
}

/** Timetables?weekStart=<Monday> (7 days) or ?day=<date> (one day); no query means this week. */
export function timetables(ctx: DataContext): DataResult {
  const dayParam = ctx.query.get('day');
  const start = dayParam ?? ctx.query.get('weekStart') ?? mondayOf(ctx.today);
  if (!isDate(start)) return answers.badRequest('Invalid date');
  if (start > addDays(mondayOf(ctx.today), PUBLISHED_AHEAD_DAYS + 6)) return answers.forbidden();
  const schoolDays = buildSchoolDays(ctx);
  const days = dayParam === null ? 7 : 1;
  const timetable: Record<string, unknown[][]> = {};
  for (let i = 0; i < days; i++) timetable[addDays(start, i)] = day(ctx, schoolDays, addDays(start, i));
  return answers.ok({
    Timetable: timetable,
    Pages: {
      Prev: `${ctx.api}/Timetables?weekStart=${addDays(start, -7)}`,
      Next: `${ctx.api}/Timetables?weekStart=${addDays(start, 7)}`,
    },
  });
}

/** The standing weekly timetable; the first Monday slot also shows the older version it replaced. */
export function timetableEntries(ctx: DataContext): DataResult {
  const schoolDays = buildSchoolDays(ctx);
  const { account } = ctx;
  const entries: Record<string, unknown>[] = [];
  const room = (id: number | undefined): unknown => {
    const c = account.school.classrooms.find((r) => r.Id === id);
    return c ? { Id: c.Id, Symbol: c.Symbol, Name: c.Name, Url: `${ctx.api}/Classrooms/${c.Id}` } : null;
  };
  const changedFrom = addDays(schoolDays.year.start, 14);
  for (const [weekday, slots] of Object.entries(account.data.week)) {
    slots.forEach((slot, lessonNo) =>
      slot.forEach((cell, index) => {
        const [lesson = '0', classroom] = cell.split('@');
        const first = weekday === '1' && entries.length === 0;
        const row = {
          Id: entryId(Number(weekday), lessonNo, index),
          Lesson: ref(ctx, 'Lessons', Number(lesson)),
          DayOfTheWeek: Number(weekday),
          LessonNo: String(lessonNo),
          DateFrom: first ? changedFrom : schoolDays.year.start,
          DateTo: schoolDays.year.end,
          Classroom: room(classroom === undefined ? undefined : Number(classroom)),
        };
        if (first) {
          const older = Object.keys(account.data.lessons).find((id) => id !== lesson) ?? lesson;
          entries.push({
            ...row,
            Id: row.Id + 5,
            Lesson: ref(ctx, 'Lessons', Number(older)),
            DateFrom: schoolDays.year.start,
            DateTo: addDays(changedFrom, -1),
          });
        }
        entries.push(row);
      }),
    );
  }
  return answers.ok({ TimetableEntries: entries });
}

export function lessons(ctx: DataContext): DataResult {
  const { account } = ctx;
  // A substitute teaching another subject brings a lesson of their own, which Realizations point at.
  const all = [...Object.entries(account.data.lessons).map(([id, l]) => ({ id: Number(id), ...l })), ...buildSchoolDays(ctx).substituteLessons];
  const list = all.map((l) => ({
    Id: l.id,
    Teacher: ref(ctx, 'Users', l.teacher),
    Subject: ref(ctx, 'Subjects', l.subject),
    Class: ref(ctx, 'Classes', account.data.account.classId),
  }));
  const one = ctx.params.id;
  if (one === undefined) return answers.ok({ Lessons: list });
  const found = list.find((l) => String(l.Id) === one);
  return found ? answers.ok({ Lesson: found }) : answers.notFound();
}

/** Every plan change of the school year; a cancelled lesson has only its Org* side. */
export function substitutions(ctx: DataContext): DataResult {
  if (ctx.query.has('dateFrom') || ctx.query.has('dateTo')) return answers.badRequest('Invalid request params');
  const schoolDays = buildSchoolDays(ctx);
  const { account } = ctx;
  const symbol = (id: number | null | undefined): string | null => account.school.classrooms.find((r) => r.Id === id)?.Symbol ?? null;
  const week = account.data.week;
  const list = schoolDays.changes.map((c) => {
    const [lesson = '0', room] = changedCell(week, c).split('@');
    const info = account.data.lessons[lesson] ?? { subject: 0, teacher: 0 };
    const orgRoom = room === undefined ? null : Number(room);
    const entry: Record<string, unknown> = {
      Id: c.Id,
      Class: ref(ctx, 'Classes', account.data.account.classId),
      OrgDate: c.OrgDate,
      OrgLessonNo: String(c.OrgLessonNo),
      OrgLesson: ref(ctx, 'Lessons', Number(lesson)),
      OrgTeacher: ref(ctx, 'Users', info.teacher),
      OrgSubject: ref(ctx, 'Subjects', info.subject),
      OrgClassroomSymbol: symbol(orgRoom),
      IsCancelled: c.kind === 'cancelled',
      IsShifted: false,
      AddDate: c.AddDate,
    };
    if (c.kind === 'substitution') {
      Object.assign(entry, {
        Date: c.OrgDate,
        LessonNo: String(c.OrgLessonNo),
        Teacher: ref(ctx, 'Users', c.Teacher ?? info.teacher),
        Subject: ref(ctx, 'Subjects', c.Subject ?? info.subject),
        ClassroomSymbol: symbol(c.Classroom === undefined ? orgRoom : c.Classroom),
      });
    }
    return entry;
  });
  const one = ctx.params.id;
  if (one === undefined) return answers.ok({ Substitutions: list });
  const found = list.find((s) => String(s.Id) === one);
  return found ? answers.ok({ Substitution: found }) : answers.notFound();
}

/**
 * Timetables/OtherActivitiesRegister?dateFrom&dateTo (live-notes 42-44): the child's extra classes on the school
 * days between (at most 62 days), a cancelled one listed with its status; none for a child without them.
 */
export function otherActivities(ctx: DataContext): DataResult {
  const [from, to] = [ctx.query.get('dateFrom') ?? '', ctx.query.get('dateTo') ?? ''];
  if (!isDate(from) || !isDate(to)) return answers.badRequest('Invalid request params');
  const schoolDays = buildSchoolDays(ctx);
  const classes = expandIn<ExtraClassFixture[]>(ctx, ctx.account.data.extraClasses ?? []);
  const users = ctx.account.school.users;
  const data: Record<string, unknown>[] = [];
  for (let date = from, i = 0; date <= to && i < 62; date = addDays(date, 1), i++) {
    if (!schoolDays.isSchoolDay(date)) continue;
    for (const c of classes.filter((x) => x.weekday === isoWeekday(date))) {
      const teacher = users.find((u) => u.Id === c.teacher);
      data.push({
        status: c.cancelled?.includes(date) ? 'CANCELLED' : 'ACTUAL',
        date,
        startTime: c.startTime,
        endTime: c.endTime,
        title: c.title,
        // Surname first; a user the register keeps without a first name (spec 2.1) by the surname alone.
        teacherName: teacher ? [teacher.LastName, teacher.FirstName].filter((part) => typeof part === 'string' && part !== '').join(' ') : null,
        classroom: c.classroom,
      });
    }
  }
  return answers.ok({ data });
}

/** The hostile standing plan's size the issue names (interface 19.2): its entries, and how many of them come again. */
export const HOSTILE_STANDING_TIMETABLE = { entries: 28_000, repeats: 5_000 };

/**
 * A hostile portal's standing plan (interface 19.2): `count` entries over all seven days, Sundays too, many to a slot,
 * every tenth without a lesson and the rest taking the child's `lessons` in turn; then `repeats` of the first ones again
 * under new ids. Each entry holds only the fields a plan needs, without the portal's Urls, so that the whole (33,000
 * entries, about 2 MB) stays within what the bridge reads of one answer and is parsed rather than refused for its size.
 */
export function hostileStandingEntries(lessons: readonly string[], count: number, repeats: number): Record<string, unknown>[] {
  const entries = Array.from({ length: count }, (_, i) => ({
    Id: i + 1,
    ...(i % 10 === 9 || lessons.length === 0 ? {} : { Lesson: { Id: Number(lessons[i % lessons.length]) } }),
    DayOfTheWeek: (i % 7) + 1,
    LessonNo: Math.floor(i / 7) % 100,
  }));
  return [...entries, ...entries.slice(0, repeats).map((entry, i) => ({ ...entry, Id: count + i + 1 }))];
}
