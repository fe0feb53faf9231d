// Behaviour grades (spec 2.4): the formal grade under BehaviourGrades/Points, either points or the
// classic six-step scale whose value is BehaviourGrade.Id into BehaviourGrades/Types.
import * as z from 'zod';
import { numericId, lenientList } from './common.js';
import { text, num, bool, refId, idList } from './fields.js';

const behaviourGrade = z.looseObject({
  Id: numericId,
  /** Points schools: the points and the short name of the grade. */
  Value: num,
  ShortName: text,
  Text: text,
  /** Classic scale: '1' (wz) to '6' (ng), see BehaviourGrades/Types. */
  BehaviourGrade: refId,
  Category: refId,
  AddedBy: refId,
  Semester: num,
  Date: text,
  AddDate: text,
  IsProposal: bool,
  IsSemester: bool,
  IsFinal: bool,
  Comments: idList,
});

/** BehaviourGrades/Points (and the plain BehaviourGrades, empty so far and read the same way). */
export const behaviourPointsResponse = z.looseObject({ Grades: lenientList(behaviourGrade) });

/** Ids are the strings '1' to '6'; numericId accepts them. */
const behaviourType = z.looseObject({ Id: numericId, Name: text, Shortcut: text });
export const behaviourTypesResponse = z.looseObject({ Types: lenientList(behaviourType) });

const comment = z.looseObject({ Id: numericId, Text: text });
export const behaviourPointsCommentsResponse = z.looseObject({ Comments: lenientList(comment) });

const category = z.looseObject({ Id: numericId, Name: text, Points: num });
export const behaviourPointsCategoriesResponse = z.looseObject({ Categories: lenientList(category) });

export type BehaviourGrade = z.output<typeof behaviourGrade>;
export type BehaviourType = z.output<typeof behaviourType>;
export type BehaviourComment = z.output<typeof comment>;
export type BehaviourCategory = z.output<typeof category>;
