// The timetable (spec 2.7): a week of days, each a list of period slots of lessons; the year's plan
// changes under Calendars/Substitutions; the standing timetable; and the lessons held.
import * as z from 'zod';
import { numericId, lenientList } from './common.js';
import { text, num, bool, refId, namedRef, objectList, lenient } from './fields.js';

/** One lesson of a slot; ids inside are strings and names may come inline. */
const timetableLesson = z.looseObject({
  Lesson: refId,
  /** The standing plan's entry (TimetableEntries' Id) the lesson is held for. */
  TimetableEntry: refId,
  LessonNo: num,
  HourFrom: text,
  HourTo: text,
  Subject: namedRef,
  Teacher: namedRef,
  Classroom: namedRef,
  Class: refId,
  IsCanceled: bool,
  IsSubstitutionClass: bool,
  OrgDate: text,
  OrgLessonNo: num,
  OrgHourFrom: text,
  OrgHourTo: text,
  OrgSubject: namedRef,
  OrgTeacher: namedRef,
  OrgClassroom: namedRef,
  SubstitutionNote: text,
  /** On the slot a lesson leaves, where it moves to (live-notes 11). */
  NewDate: text,
  NewLessonNo: num,
  NewHourFrom: text,
  NewHourTo: text,
  NewSubject: namedRef,
  NewTeacher: namedRef,
  NewClassroom: namedRef,
  DateFrom: text,
  DateTo: text,
});

/** A slot is a list of lessons (several when the class is split); anything else is an empty slot. */
const slot = objectList(timetableLesson);
const day = lenient((v) => (Array.isArray(v) ? v.map((s) => slot.parse(s)) : []));

/** Timetables?weekStart=: {Timetable: {'YYYY-MM-DD': [[lesson, ...], [], ...]}}. */
export const timetablesResponse = z.looseObject({ Timetable: z.record(z.string(), day) });

/** A reference as a read leaves it (fields.ts, toNamedRef): its id and the names it carried inline. */
const keptRef = z
  .object({ id: z.string(), name: z.string(), short: z.string(), firstName: z.string(), lastName: z.string(), symbol: z.string() })
  .partial()
  .optional();
const [keptText, keptNum, keptBool] = [z.string().optional(), z.number().optional(), z.boolean().optional()];
/** A lesson as timetableLesson leaves it, field by field. */
const keptLesson = z.looseObject({
  ...{ Lesson: keptText, LessonNo: keptNum, HourFrom: keptText, HourTo: keptText, Subject: keptRef, Teacher: keptRef, Classroom: keptRef },
  ...{ Class: keptText, IsCanceled: keptBool, IsSubstitutionClass: keptBool, SubstitutionNote: keptText, DateFrom: keptText, DateTo: keptText },
  ...{ OrgDate: keptText, OrgLessonNo: keptNum, OrgHourFrom: keptText, OrgHourTo: keptText, OrgSubject: keptRef, OrgTeacher: keptRef },
  ...{ OrgClassroom: keptRef, NewDate: keptText, NewLessonNo: keptNum, NewHourFrom: keptText, NewHourTo: keptText },
  ...{ NewSubject: keptRef, NewTeacher: keptRef, NewClassroom: keptRef },
});
/**
 * A week as a read gave it, kept through a restart (Resource.kept). A field a read left undefined is absent from the
 * kept text: the cast says only that.
 */
export const keptTimetables = z
  .looseObject({ Timetable: z.record(z.string(), z.array(z.array(keptLesson))) })
  .transform((kept) => kept as z.output<typeof timetablesResponse>);

const substitution = z.looseObject({
  Id: numericId,
  OrgDate: text,
  OrgLessonNo: num,
  OrgTeacher: refId,
  OrgSubject: refId,
  OrgClassroomSymbol: text,
  /** The replacement side; absent on a cancellation. */
  Date: text,
  LessonNo: num,
  Teacher: refId,
  Subject: refId,
  Lesson: refId,
  ClassroomSymbol: text,
  HourFrom: text,
  HourTo: text,
  IsCancelled: bool,
  IsShifted: bool,
  AddDate: text,
});
export const substitutionsResponse = z.looseObject({ Substitutions: lenientList(substitution) });

/**
 * The standing weekly plan (spec 2.7, TimetableEntries): a lesson (Lesson.Id: its subject and teacher through the Lessons
 * lookup) on a weekday (1 is Monday) at a lesson number, in a room, valid from DateFrom to DateTo; a slot whose plan
 * changed lists its old and new versions both.
 */
const timetableEntry = z.looseObject({
  Id: numericId,
  Lesson: refId,
  DayOfTheWeek: num,
  LessonNo: num,
  DateFrom: text,
  DateTo: text,
  Classroom: namedRef,
});
export const timetableEntriesResponse = z.looseObject({ TimetableEntries: lenientList(timetableEntry) });
export type TimetableEntry = z.output<typeof timetableEntry>;

const keptEntry = z.looseObject({
  Id: z.string(),
  Lesson: z.string().optional(),
  DayOfTheWeek: z.number().optional(),
  LessonNo: z.number().optional(),
  DateFrom: z.string().optional(),
  DateTo: z.string().optional(),
  Classroom: keptRef,
});
/**
 * The standing plan as a read gave it (its fields named and typed as timetableEntriesResponse leaves them), kept through
 * a restart (Resource.kept). A field a read left undefined is absent from the kept text: the cast says only that.
 */
export const keptTimetableEntries = z
  .object({ TimetableEntries: z.array(keptEntry) })
  .transform((kept) => kept as z.output<typeof timetableEntriesResponse>);

/** A lesson as read; every field may be missing, so a lesson made elsewhere (a kindergarten's block) names only its own. */
export type TimetableLesson = Partial<z.output<typeof timetableLesson>>;
export type TimetableDays = Record<string, TimetableLesson[][]>;
export type Substitution = z.output<typeof substitution>;

/** An extra class (live-notes 43-44): `status` ACTUAL or CANCELLED, the teacher surname first, the room by name and/or symbol. */
const otherActivity = z.looseObject({
  status: text,
  date: text,
  startTime: text,
  endTime: text,
  title: text,
  teacherName: text,
  classroom: z.looseObject({ name: text, symbol: text }).nullish().catch(undefined),
});
/** Timetables/OtherActivitiesRegister?dateFrom&dateTo: {data: [...]}; an answer without `data` holds none. */
export const otherActivitiesResponse = z.looseObject({ data: lenientList(otherActivity).optional().catch(undefined) });
export type OtherActivity = z.output<typeof otherActivity>;
