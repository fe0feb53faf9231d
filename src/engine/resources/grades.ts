// Every kind of grade and what names them. The grades a child actually gets are news (classes 1 to 3
// get descriptive grades, some schools points or text grades): a kind that gave this child entries is
// read at the news age as ordinary grades are; one whose list is empty (a kind the school does not
// use) waits WHILE_EMPTY. Behaviour points hourly; the lookups daily and on a miss.
import {
  gradeCategoriesResponse,
  gradeCommentsResponse,
  gradesResponse,
  gradingSystemResponse,
  schoolAveragesResponse,
} from '../../portal/schemas/grades.js';
import {
  baseTextGradesResponse,
  pointCategoriesResponse,
  pointCommentsResponse,
  pointGradesResponse,
  textCategoriesResponse,
} from '../../portal/schemas/othergrades.js';
import { descriptiveCommentsResponse, descriptiveGradesResponse, descriptiveSkillsResponse } from '../../portal/schemas/descriptive.js';
import {
  behaviourPointsCategoriesResponse,
  behaviourPointsCommentsResponse,
  behaviourPointsResponse,
  behaviourTypesResponse,
} from '../../portal/schemas/behaviour.js';
import { partialGradesResponse } from '../../portal/schemas/partial.js';
import { authSubjectsResponse } from '../../portal/schemas/lookups.js';
import { tokenInfoResponse, unitsResponse, userInfoResponse } from '../../portal/schemas/identity.js';
import { registerResource } from '../resource.js';
import { BY_THE_HOUR, byDay, CORE, DAILY, DAY, NEWS, WHILE_EMPTY } from './ages.js';
import { daily, lookupResource } from './lookups.js';
import type { z } from 'zod';

const GRADE_KIND = {
  fresh: NEWS,
  yearOfRecords: true,
  whileEmptyMs: WHILE_EMPTY,
  note: 'at the news age while the child has such grades; 6 hours while the list is empty',
} as const;
const grades = (r: { Grades: readonly unknown[] }) => r.Grades;

/** A kind of grade besides the ordinary ones: a school year of them, at the news age while the child has some. */
function kindOfGrade<S extends z.ZodType<{ Grades: readonly unknown[] }>>(endpoint: string, schema: S, changeFeed: true | readonly string[] = true) {
  return registerResource({ endpoint, schema, ...GRADE_KIND, list: grades, changeFeed });
}

// Declared in full: "when is Grades read next" is answered from this file, ages.ts, change-feed.ts and
// engine/plan.ts (docs/development.md's reader paragraph).
export const GRADES = registerResource({
  endpoint: 'Grades',
  schema: gradesResponse,
  yearOfRecords: true,
  fresh: NEWS,
  changeFeed: true,
});
/** The portal's own averages: they move with the grades. A school without them answers Disabled, a refusal for a day. */
export const GRADE_AVERAGES = registerResource({
  endpoint: 'Grades/Averages',
  schema: schoolAveragesResponse,
  fresh: CORE,
  changeFeed: ['Grades'],
  note: "the portal's own averages",
});
export const POINT_GRADES = kindOfGrade('PointGrades', pointGradesResponse);
export const TEXT_GRADES = kindOfGrade('BaseTextGrades', baseTextGradesResponse, ['TextGrades', 'DescriptiveTextGrades']);
export const DESCRIPTIVE_GRADES = kindOfGrade('DescriptiveGrades', descriptiveGradesResponse);
export const BEHAVIOUR_POINTS = registerResource({
  endpoint: 'BehaviourGrades/Points',
  schema: behaviourPointsResponse,
  yearOfRecords: true,
  fresh: BY_THE_HOUR,
  whileEmptyMs: WHILE_EMPTY,
  list: grades,
  changeFeed: ['BehaviourGrades/Points', 'BehaviourGrades'],
});
export const GRADING_SYSTEM = registerResource({
  endpoint: 'GradingSystem',
  schema: gradingSystemResponse,
  fresh: byDay(DAILY),
});
export const UNITS = daily('Units', unitsResponse, "which kinds of grade the child's unit uses");

/** The newer descriptive grading (spec 4.5): the user's LID, then the child's, then one POST of the first page. */
export const TOKEN_INFO = daily('Auth/TokenInfo', tokenInfoResponse, "the user's LID; a login reads it too, to prove the new session");
export const USER_INFO = daily('Auth/UserInfo/<lid>', userInfoResponse, "the child's LID");
export const PARTIAL_GRADES = registerResource({
  name: 'partial grades (POST)',
  endpoint: 'Auth/DescriptiveGradingSystem/PartialGrades/Student/<lid>',
  schema: partialGradesResponse,
  post: {},
  ...GRADE_KIND,
  list: (r) => r.data,
  // Whether the change feed names the newer grading's partial grades is not known (live-notes 31 lists
  // none of its names): they keep their own ages whether the change feed is on or not.
});
export const AUTH_SUBJECTS = daily('Auth/Subjects', authSubjectsResponse, 'only where partial grades are used');

export const GRADE_CATEGORIES = lookupResource('Grades/Categories', gradeCategoriesResponse, (r) => r.Categories);
export const GRADE_COMMENTS = lookupResource('Grades/Comments', gradeCommentsResponse, (r) => r.Comments, { yearOfRecords: true });
export const POINT_CATEGORIES = lookupResource('PointGrades/Categories', pointCategoriesResponse, (r) => r.Categories);
export const POINT_COMMENTS = lookupResource('PointGrades/Comments', pointCommentsResponse, (r) => r.Comments, { yearOfRecords: true });
export const TEXT_CATEGORIES = lookupResource('TextGrades/Categories', textCategoriesResponse, (r) => r.Categories);
/** The school's whole skills list (about 330 KB) rarely changes: weekly, or daily when a grade names a skill it lacks. */
export const SKILLS = lookupResource('DescriptiveGrades/Skills', descriptiveSkillsResponse, (r) => r.Skills, { usual: 7 * DAY, onMiss: DAILY });
export const DESCRIPTIVE_COMMENTS = lookupResource('DescriptiveGrades/Comments', descriptiveCommentsResponse, (r) => r.Comments, {
  yearOfRecords: true,
});
export const BEHAVIOUR_TYPES = lookupResource('BehaviourGrades/Types', behaviourTypesResponse, (r) => r.Types);
export const BEHAVIOUR_COMMENTS = lookupResource('BehaviourGrades/Points/Comments', behaviourPointsCommentsResponse, (r) => r.Comments);
export const BEHAVIOUR_CATEGORIES = lookupResource('BehaviourGrades/Points/Categories', behaviourPointsCategoriesResponse, (r) => r.Categories);
