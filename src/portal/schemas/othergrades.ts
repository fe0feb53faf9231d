// Point grades and text grades (spec 2.4): points with the maximum on the category, and the free-text
// grades that Grades does not contain.
import * as z from 'zod';
import { numericId, lenientList } from './common.js';
import { text, num, bool, refId } from './fields.js';
import { categoryFields, gradeRecord } from './grades.js';

const pointGrade = z.looseObject({
  ...gradeRecord,
  /** The points themselves; Grade is the text shown. */
  GradeValue: num,
});
export const pointGradesResponse = z.looseObject({ Grades: lenientList(pointGrade) });

/** ValueTo: the maximum points of a grade in this category. */
const pointCategory = z.looseObject({ ...categoryFields, ValueTo: num });
export const pointCategoriesResponse = z.looseObject({ Categories: lenientList(pointCategory) });

const comment = z.looseObject({ Id: numericId, Text: text, Grade: refId });
export const pointCommentsResponse = z.looseObject({ Comments: lenientList(comment) });

// A text grade's Grade is free text that may hold line breaks and indentation; readers collapse the whitespace.
const baseTextGrade = z.looseObject({ ...gradeRecord, ShowInGradesView: bool });
export const baseTextGradesResponse = z.looseObject({ Grades: lenientList(baseTextGrade) });

const textCategory = z.looseObject({ ...categoryFields, Short: text });
export const textCategoriesResponse = z.looseObject({ Categories: lenientList(textCategory) });

export type PointGrade = z.output<typeof pointGrade>;
export type PointCategory = z.output<typeof pointCategory>;
export type PointComment = z.output<typeof comment>;
export type BaseTextGrade = z.output<typeof baseTextGrade>;
export type TextCategory = z.output<typeof textCategory>;
