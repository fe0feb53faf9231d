// The timetable (spec 2.7): a week of days, each a list of period slots of lessons; the year's plan
// changes under Calendars/Substitutions; the standing plan; and the lessons held.
import { z } from 'zod';
import { numericId, lenientList } from './common.js';
import { text, num, bool, refId, anyId, namedRef, objectList } from './fields.js';

/** One lesson of a slot; ids inside are strings and names may come inline. */
const timetableLesson = z.looseObject({
  Lesson: refId,
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
  DateFrom: text,
  DateTo: text,
  DayNo: num,
  VirtualClassName: text,
});

/** A slot is a list of lessons (several when the class is split); anything else is an empty slot. */
const slot = objectList(timetableLesson);
const day = z.unknown().optional().transform((v) => (Array.isArray(v) ? v.map((s) => slot.parse(s)) : []));

/** Timetables?weekStart=: {Timetable: {'YYYY-MM-DD': [[lesson, ...], [], ...]}}. */
export const timetablesResponse = z.looseObject({ Timetable: z.record(z.string(), day) });

const substitution = z.looseObject({
  Id: numericId,
  OrgDate: text,
  OrgLessonNo: num,
  OrgTeacher: refId,
  OrgSubject: refId,
  OrgClassroomSymbol: text,
  OrgLesson: refId,
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
export const substitutionResponse = z.looseObject({ Substitution: substitution });

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

const realization = z.looseObject({
  /** t-prefixed string ids (spec 2.1.3). */
  Id: anyId,
  Lesson: refId,
  LessonNo: num,
  Date: text,
  Topic: text,
  IsTrip: bool,
  CountInStatistics: bool,
  CountInRPN: bool,
  AddedBy: refId,
});
export const realizationsResponse = z.looseObject({ Realizations: lenientList(realization) });
/** PlannedLessons/ThematicTeaching answers under Realizations too. */
export const thematicTeachingResponse = realizationsResponse;

/** PlannedLessons: a list (empty so far), bare or under PlannedLessons. */
const plannedLesson = z.looseObject({ Id: refId, Lesson: refId, Date: text });
export const plannedLessonsResponse = z.union([
  lenientList(plannedLesson),
  z.looseObject({ PlannedLessons: lenientList(plannedLesson) }).transform((r) => r.PlannedLessons),
]);

/** Timetables/OtherActivitiesRegister: {data: [...]}, empty so far. */
export const otherActivitiesResponse = z.looseObject({
  data: lenientList(z.looseObject({ id: refId, name: text })),
});

export type TimetableLesson = z.output<typeof timetableLesson>;
export type TimetableDays = z.output<typeof timetablesResponse>['Timetable'];
export type Substitution = z.output<typeof substitution>;
export type TimetableEntry = z.output<typeof timetableEntry>;
export type Realization = z.output<typeof realization>;
