// Attendance (spec 2.6): marks per lesson (ids may be t<digits>), the school's own type list with
// IsPresenceKind, and parents' justifications in their lowercase envelope.
import * as z from 'zod';
import { numericId, lenientList } from './common.js';
import { text, num, bool, refId, anyId, objectList } from './fields.js';

const attendance = z.looseObject({
  /** An integer or a string such as t123 (spec 2.1.3). */
  Id: anyId,
  Lesson: refId,
  Date: text,
  AddDate: text,
  LessonNo: num,
  Semester: num,
  Type: refId,
  AddedBy: refId,
});
export const attendancesResponse = z.looseObject({ Attendances: lenientList(attendance) });

const attendanceType = z.looseObject({
  Id: numericId,
  Name: text,
  Short: text,
  IsPresenceKind: bool,
});
export const attendanceTypesResponse = z.looseObject({ Types: lenientList(attendanceType) });

const justification = z.looseObject({
  id: numericId,
  postDate: text,
  justificationStatus: text,
  dateFrom: text,
  dateTo: text,
  lessons: objectList(z.looseObject({ number: num, date: text })),
  justifiedAbsences: num,
  attachment: bool,
  notifiedTeachers: objectList(z.looseObject({ name: text })),
});
export const justificationsResponse = z.looseObject({
  status: text,
  message: text,
  data: lenientList(justification),
});

export type Attendance = z.output<typeof attendance>;
export type AttendanceType = z.output<typeof attendanceType>;
export type Justification = z.output<typeof justification>;
