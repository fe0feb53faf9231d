// Ordinary grades (spec 2.4, 2.5): Grades with their categories, comments and value list, the school's
// grading settings, and the averages resources (usually switched off).
import * as z from 'zod';
import { numericId, lenientList } from './common.js';
import { text, num, bool, refId, idList } from './fields.js';

/** What a grade record of every kind says (Grades, the point, text and descriptive grades); each kind adds its own. */
export const gradeRecord = {
  Id: numericId,
  Grade: text,
  Subject: refId,
  Category: refId,
  Lesson: refId,
  AddedBy: refId,
  Date: text,
  AddDate: text,
  Semester: num,
  /** A list of {Id} into the kind's comments; bare ids are read too. */
  Comments: idList,
};

const grade = z.looseObject({
  ...gradeRecord,
  IsSemesterProposition: bool,
  IsSemester: bool,
  IsFinalProposition: bool,
  IsFinal: bool,
  /** On a correction: the earlier grade it improves (which stays in the list). */
  Improvement: refId,
});
export const gradesResponse = z.looseObject({ Grades: lenientList(grade) });

/** What a category of grades of every kind says; Weight is a number or a numeric string ('1,5'), num reads both. */
export const categoryFields = { Id: numericId, Name: text, Weight: num, CountToTheAverage: bool };
const gradeCategory = z.looseObject(categoryFields);
export const gradeCategoriesResponse = z.looseObject({ Categories: lenientList(gradeCategory) });

const comment = z.looseObject({ Id: numericId, Text: text, AddedBy: refId, Grade: refId });
export const gradeCommentsResponse = z.looseObject({ Comments: lenientList(comment) });

const gradingSystem = z.looseObject({ countZero: bool, plusValue: num, minusValue: num });
/** GradingSystem: a flat object; a GradingSystem wrapper is unwrapped in case a school sends one. */
export const gradingSystemResponse = z
  .looseObject({ GradingSystem: z.unknown().optional() })
  .transform((root) => gradingSystem.parse(root.GradingSystem && typeof root.GradingSystem === 'object' ? root.GradingSystem : root));

/**
 * Grades/Averages with averages enabled (live-notes 12): per subject the portal's own averages, 0
 * meaning none yet. A school without them answers Status Disabled, a refusal the gateway raises.
 */
const schoolAverage = z.looseObject({ Subject: refId, Semester1: num, Semester2: num, FullYear: num });
export const schoolAveragesResponse = z.looseObject({ Averages: lenientList(schoolAverage) });
export type SchoolAverage = z.output<typeof schoolAverage>;

export type Grade = z.output<typeof grade>;
export type GradeCategory = z.output<typeof gradeCategory>;
export type GradeComment = z.output<typeof comment>;
export type GradingSystem = z.output<typeof gradingSystem>;
