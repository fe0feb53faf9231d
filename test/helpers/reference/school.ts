// What a parent should read of a child, worked out from the portal's records (portal.ts) and the spec alone
// (shared/spec/portal-interface.md; interface 19.1 where it says what is true): the reference the worlds hold every
// door against. Written apart from the bridge: it imports nothing of src/features, src/rules or src/engine
// (test/unit/layout/reference-apart.test.ts), and it is small and plain rather than fast. Every fact is a function of
// the records; a list the portal refused gives nothing (null or empty), never a guess.
import type { Records } from './portal.js';
import { addDays, hourOf, weekday } from './dates.js';

type Row = Record<string, unknown>;

/** A reference's id ({Id, Url}, or a bare id) as a string (spec 2.1: ids compared normalized). */
export const idOf = (ref: unknown): string | null => {
  const id = ref !== null && typeof ref === 'object' ? (ref as Row).Id : ref;
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : null;
};

/** The rows of a list under its root key (`Timetable` aside: every list the reference reads has one array). */
export function rows(records: Records, list: keyof Records['lists'], key: string): Row[] {
  const body = records.lists[list] as Row | null | undefined;
  const value = body?.[key];
  return Array.isArray(value) ? (value as Row[]) : [];
}

const byId = (list: Row[]): Map<string, Row> => new Map(list.flatMap((r) => (idOf(r.Id) === null ? [] : [[idOf(r.Id) as string, r]])));

/** The lookups a fact is told by: subject, teacher and room names; a lesson's subject and teacher (spec 2.3). */
export interface Names {
  subject(id: unknown): string | null;
  teacher(id: unknown): string | null;
  lesson(id: unknown): { subject: string | null; teacher: string | null } | undefined;
}

export function namesOf(records: Records): Names {
  const subjects = byId(rows(records, 'Subjects', 'Subjects'));
  const users = byId(rows(records, 'Users', 'Users'));
  const lessons = byId(rows(records, 'Lessons', 'Lessons'));
  const subject = (id: unknown) => (subjects.get(idOf(id) ?? '')?.Name as string | undefined) ?? null;
  const teacher = (id: unknown) => {
    const user = users.get(idOf(id) ?? '');
    return user === undefined ? null : [user.FirstName, user.LastName].filter((n) => typeof n === 'string' && n !== '').join(' ');
  };
  return {
    subject,
    teacher,
    lesson: (id) => {
      const lesson = lessons.get(idOf(id) ?? '');
      return lesson && { subject: idOf(lesson.Subject), teacher: idOf(lesson.Teacher) };
    },
  };
}

/** The class (Classes: its number and symbol, "4b"); null without it. */
export function classOf(records: Records): string | null {
  const klass = (records.lists.Classes as { Class?: Row } | null | undefined)?.Class;
  return klass === undefined ? null : `${String(klass.Number ?? '')}${String(klass.Symbol ?? '')}`;
}

/** The lucky number of today or a day to come (spec 2.9: the next school day's may show a day early); null for none. */
export function luckyOf(records: Records): { number: number; day: string } | null {
  const lucky = (records.lists.LuckyNumbers as { LuckyNumber?: Row | null } | null | undefined)?.LuckyNumber;
  if (lucky === null || lucky === undefined || typeof lucky.LuckyNumber !== 'number') return null;
  const day = String(lucky.LuckyNumberDay ?? '');
  return day >= records.today ? { number: lucky.LuckyNumber, day } : null;
}

/** One lesson of a day's timetable, as the child's Timetables has it. */
export interface DayLesson {
  no: number;
  lesson: string | null;
  subject: string | null;
  teacher: string | null;
  room: string | null;
  /** It does not take place (cancelled, or moved away from this slot). */
  cancelled: boolean;
  /** Where it moved to (New*), for a lesson moved away from this slot. */
  movedTo: { date: string; no: number } | null;
}

/**
 * Whether a lesson of the child's class is free on a date: a ClassFreeDays entry of the class (spec 2.8) covering the
 * date, and, where it names them, the lesson's number among LessonNoFrom to LessonNoTo.
 */
function freeLesson(records: Records, date: string, no: number): boolean {
  const klass = idOf((records.lists.Classes as { Class?: Row } | null | undefined)?.Class?.Id);
  return rows(records, 'ClassFreeDays', 'ClassFreeDays').some(
    (f) =>
      idOf(f.Class) === klass &&
      String(f.DateFrom) <= date &&
      date <= String(f.DateTo) &&
      (f.LessonNoFrom === undefined || f.LessonNoFrom === null || (Number(f.LessonNoFrom) <= no && no <= Number(f.LessonNoTo ?? f.LessonNoFrom))),
  );
}

/** The lessons of a day of the weeks read (spec 2.7: slots of lessons, several for a split class); undefined for a day not read. */
export function lessonsOn(records: Records, date: string): DayLesson[] | undefined {
  const slots = records.days[date];
  if (slots === undefined) return undefined;
  return slots.flatMap((slot, place) =>
    (slot as Row[]).map((l) => {
      const no = Number(l.LessonNo ?? place);
      return {
        no,
        lesson: idOf(l.Lesson),
        subject: idOf(l.Subject),
        teacher: idOf(l.Teacher),
        room: idOf(l.Classroom),
        cancelled: l.IsCanceled === true || freeLesson(records, date, no),
        movedTo: typeof l.NewDate === 'string' ? { date: l.NewDate, no: Number(l.NewLessonNo) } : null,
      };
    }),
  );
}

/**
 * The child's own lessons of a day: of a slot split into groups (spec 2.7: a slot holds several lessons when a class is
 * split), the lesson the child attends, where its attendance marks one of them (spec 2.6: Attendances' Lesson.Id;
 * interface 19.1: the child's own entry is the one whose lesson the child attends). Without such a mark, every group's.
 */
export function ownLessonsOn(records: Records, date: string): DayLesson[] | undefined {
  const attended = new Set(rows(records, 'Attendances', 'Attendances').map((a) => idOf(a.Lesson)));
  const day = lessonsOn(records, date);
  return day?.filter((l) => attended.has(l.lesson) || !day.some((o) => o.no === l.no && o.lesson !== l.lesson && attended.has(o.lesson)));
}

/** The dates of the weeks read. */
export const datesRead = (records: Records): string[] => Object.keys(records.days).sort();

/** An entry of the standing plan (TimetableEntries) valid on a date. */
export interface PlanEntry {
  no: number;
  lesson: string | null;
  room: string | null;
}

export function planOn(records: Records, date: string): PlanEntry[] {
  return rows(records, 'TimetableEntries', 'TimetableEntries')
    .filter((e) => Number(e.DayOfTheWeek) === weekday(date) && String(e.DateFrom ?? '') <= date && date <= String(e.DateTo ?? '9999'))
    .map((e) => ({ no: Number(e.LessonNo), lesson: idOf(e.Lesson), room: idOf(e.Classroom) }));
}

export type DifferenceKind = 'missing' | 'added' | 'subject' | 'teacher' | 'room' | 'no_lessons';

/**
 * What a slot of a day holds against the standing plan: the kinds of difference that are true of it, and whether the
 * records leave it open (a lesson of no entry of the slot, a substitution without a room: the spec does not say which
 * difference to tell). A slot is `${date} ${no}`; a day without lessons `${date} null`.
 */
export type Differences = Map<string, { kinds: Set<DifferenceKind>; open: boolean }>;

/**
 * The standing plan's differences on a date (interface 19.1): a slot may hold several entries (the groups of a split
 * class); the child's own is the entry whose lesson the child's timetable holds, and a lesson held by its own entry's
 * lesson, teacher and room is no difference.
 */
export function differencesOn(records: Records, date: string, out: Differences = new Map()): Differences {
  const day = lessonsOn(records, date);
  const plan = planOn(records, date);
  if (day === undefined || plan.length === 0) return out;
  const held = day.filter((l) => !l.cancelled);
  const names = namesOf(records);
  const slot = (no: number | null) => out.get(`${date} ${no}`) ?? out.set(`${date} ${no}`, { kinds: new Set(), open: false }).get(`${date} ${no}`)!;
  if (held.length === 0) {
    slot(null).kinds.add('no_lessons');
    return out;
  }
  for (const no of new Set([...plan.map((e) => e.no), ...held.map((l) => l.no)])) {
    const planned = plan.filter((e) => e.no === no);
    const lessons = held.filter((l) => l.no === no);
    // A group's lesson that does not take place while another group's does is missing all the same.
    const gone = day.filter((l) => l.no === no && l.cancelled && planned.some((e) => e.lesson === l.lesson));
    if (lessons.length === 0 || gone.length > 0) slot(no).kinds.add('missing');
    if (lessons.length > 0 && planned.length === 0) slot(no).kinds.add('added');
    else for (const lesson of lessons) lessonAgainst(lesson, planned, names, slot(no));
  }
  return out;
}

/** One lesson held against its own entry of the slot (the one of its lesson), if the slot has one. */
function lessonAgainst(lesson: DayLesson, planned: PlanEntry[], names: Names, slot: { kinds: Set<DifferenceKind>; open: boolean }): void {
  const own = planned.find((e) => e.lesson !== null && e.lesson === lesson.lesson);
  const plannedLesson = own === undefined ? undefined : names.lesson(own.lesson);
  if (own === undefined || plannedLesson === undefined) {
    slot.open = true;
    return;
  }
  if (lesson.subject !== plannedLesson.subject) slot.kinds.add('subject');
  if (lesson.teacher !== plannedLesson.teacher) slot.kinds.add('teacher');
  if (lesson.room === null && own.room !== null) slot.open = true;
  else if (lesson.room !== own.room) slot.kinds.add('room');
}

/** Every difference of the weeks read. */
export function differences(records: Records): Differences {
  const out: Differences = new Map();
  for (const date of datesRead(records)) differencesOn(records, date, out);
  return out;
}

/** A lesson moved away from its slot: told on the day it leaves at the number of the slot it leaves (interface 19.1). */
export function movedAway(records: Records): { date: string; no: number; subject: string | null }[] {
  const names = namesOf(records);
  return datesRead(records).flatMap((date) =>
    (lessonsOn(records, date) ?? []).filter((l) => l.movedTo !== null).map((l) => ({ date, no: l.no, subject: names.subject(l.subject) })),
  );
}

/** An agenda entry (HomeWorks, spec 2.8): its day, start and end (TimeTo: interface 19.1), category and subject. */
export interface AgendaEntry {
  id: string;
  date: string;
  start: string | null;
  end: string | null;
  category: string | null;
  subject: string | null;
  content: string;
}

export function agendaOf(records: Records): AgendaEntry[] {
  const names = namesOf(records);
  const categories = byId(rows(records, 'HomeWorks/Categories', 'Categories'));
  return rows(records, 'HomeWorks', 'HomeWorks').flatMap((h) => {
    const id = idOf(h.Id);
    if (id === null || typeof h.Date !== 'string') return [];
    const category = (categories.get(idOf(h.Category) ?? '')?.Name as string | undefined) ?? null;
    const start = hourOf(h.TimeFrom);
    const end = hourOf(h.TimeTo);
    return [{ id, date: h.Date, start, end, category, subject: names.subject(h.Subject), content: String(h.Content ?? '') }];
  });
}

/** The tests and quizzes of the next `days` days from today on (a category or content naming one: spec 2.8). */
export function testsAhead(records: Records, days: number): AgendaEntry[] {
  const test = /sprawdzian|kartkówk|praca klasowa|test/i;
  const last = addDays(records.today, days);
  return agendaOf(records).filter((e) => e.date >= records.today && e.date <= last && test.test(`${e.category ?? ''} ${e.content}`));
}
