// Descriptive grading (spec 2.4): skills-based grades whose mark is Map, never Grade, plus the
// school-wide skills, comments, scale, phrase bank and the other descriptive lists.
import * as z from 'zod';
import { numericId, lenientList } from './common.js';
import { text, refId } from './fields.js';
import { categoryFields, gradeRecord } from './grades.js';

// Its Grade is not the mark (probably the range on the descriptive scale): Map is.
const descriptiveGrade = z.looseObject({
  ...gradeRecord,
  /** The mark as shown ('6', '5+', 'bz'); equals RealGradeValue. */
  Map: text,
  RealGradeValue: text,
  Skill: refId,
});
export const descriptiveGradesResponse = z.looseObject({ Grades: lenientList(descriptiveGrade) });

/** A skill is graded as a category is, for one subject and teacher. */
const skill = z.looseObject({ ...categoryFields, Subject: refId, Teacher: refId });
export const descriptiveSkillsResponse = z.looseObject({ Skills: lenientList(skill) });

const descriptiveComment = z.looseObject({ Id: numericId, Text: text, AddedBy: refId, Grade: refId });
export const descriptiveCommentsResponse = z.looseObject({ Comments: lenientList(descriptiveComment) });

export type DescriptiveGrade = z.output<typeof descriptiveGrade>;
export type DescriptiveSkill = z.output<typeof skill>;
export type DescriptiveComment = z.output<typeof descriptiveComment>;
