// Realizations (spec 2.7): the lessons held this school year with their topics. A realization names
// its lesson only, so a reader joins Lesson.Id with Lessons (lookups.ts) to find the subject.
import * as z from 'zod';
import { lenientList } from './common.js';
import { anyId, bool, num, refId, toText, lenient } from './fields.js';

/** YYYY-MM-DD (a time after it is dropped); a record without a usable date cannot be placed. */
const date = z
  .string()
  .regex(/^\s*\d{4}-\d{2}-\d{2}(?:[ T].*)?$/)
  .transform((v) => v.trim().slice(0, 10));

/** A topic on one line: teachers paste line breaks and runs of spaces; blank reads as undefined. */
const topic = lenient((v) => toText(v)?.replace(/\s+/g, ' ').trim() || undefined);

const realization = z.looseObject({
  /** A t-prefixed string (t123) or a number (spec 2.1.3). */
  Id: anyId,
  Date: date,
  Lesson: refId,
  LessonNo: num,
  Topic: topic,
  IsTrip: bool,
  AddedBy: refId,
});
export const realizationsResponse = z.looseObject({ Realizations: lenientList(realization) });

export type Realization = z.output<typeof realization>;
