// Ordinary, point and text grades read into GradeItems, with their categories, weights and comments, and the
// lists every kind of grade is read from (GradeSources).
import type { Grade, GradeCategory, GradeComment, GradingSystem } from '../portal/schemas/grades.js';
import type { BaseTextGrade, PointCategory, PointComment, PointGrade, TextCategory } from '../portal/schemas/othergrades.js';
import type { DescriptiveComment, DescriptiveGrade, DescriptiveSkill } from '../portal/schemas/descriptive.js';
import type { AuthSubject } from '../portal/schemas/lookups.js';
import type { PartialGrade } from '../portal/schemas/partial.js';
import type { BehaviourGrade } from '../portal/schemas/behaviour.js';
import { byId, collapse } from './portal-values.js';
import { commentIndex, commentText, entryFields, plNumber, type CommentIndex, type GradeDetails, type GradeItem } from './grade-item.js';
import type { Names } from './names.js';

/** Spec 2.4: a category's Weight when it is a usable number, else 1 (negative is not usable). */
export function categoryWeight(category: { Weight?: number } | undefined): number {
  const w = category?.Weight;
  return w !== undefined && Number.isFinite(w) && w >= 0 ? w : 1;
}

/** The lists every kind of grade is read from: give whichever were fetched, a missing one contributes nothing. */
export interface GradeSources {
  grades?: readonly Grade[];
  categories?: readonly GradeCategory[];
  comments?: readonly GradeComment[];
  pointGrades?: readonly PointGrade[];
  pointCategories?: readonly PointCategory[];
  pointComments?: readonly PointComment[];
  textGrades?: readonly BaseTextGrade[];
  textCategories?: readonly TextCategory[];
  descriptiveGrades?: readonly DescriptiveGrade[];
  skills?: readonly DescriptiveSkill[];
  descriptiveComments?: readonly DescriptiveComment[];
  partialGrades?: readonly PartialGrade[];
  authSubjects?: readonly AuthSubject[];
  /** BehaviourGrades/Points: no grade of a subject (the behaviour feature reads them), only named to be forgotten. */
  behaviourPoints?: readonly BehaviourGrade[];
  /** The school's scale: whether a 0 counts (spec 2.5); without it, the default (a 0 does not). */
  gradingSystem?: GradingSystem;
}

/** The marks of spec 2.5 that Grades may hold beside the scale (shown, never averaged); compared in lower case. */
const MARKS = new Set(['bz', 'np', 'nk', 'uł', 'nł', 'zl', 'nz', 'zw', 'uc', 'nu', '+', '-']);

/**
 * Spec 2.4: only the 1-6 scale (with + or -; a bare 0 where a school counts zeros) and the marks of
 * spec 2.5 are what Grades holds as a grade. Anything else (a stray '85', '0+') is not a grade at all:
 * it is shown nowhere, not as the newest grade, not in a list, not as an event.
 */
export function isGradeEntry(value: string | undefined): boolean {
  const v = value?.trim().toLowerCase() ?? '';
  return /^(0|[1-6][+-]?)$/.test(v) || MARKS.has(v);
}

export function standardGradeItems(src: GradeSources, names: Names, endFirstSemester?: string): GradeItem[] {
  const categories = byId(src.categories);
  const comments = commentIndex(src.comments);
  return (src.grades ?? [])
    .filter((g) => isGradeEntry(g.Grade))
    .map((g) => {
      const category = g.Category === undefined ? undefined : categories.get(g.Category);
      const details: GradeDetails = {};
      if (g.Improvement !== undefined) details.improves = `grade:${g.Improvement}`;
      const period = periodOf(g);
      if (period !== undefined) details.period = period;
      if (category?.CountToTheAverage === false) details.counts_to_average = false;
      return {
        key: `grade:${g.Id}`,
        kind: 'grade',
        shown: g.Grade?.trim() ?? null,
        ...sharedFields(g, category, comments, names, endFirstSemester),
        details,
      };
    });
}

/** What ordinary and point grades say alike: subject, category, weight, teacher, dates, comment. */
function sharedFields(
  g: Grade | PointGrade,
  category: { Name?: string; Weight?: number } | undefined,
  comments: CommentIndex,
  names: Names,
  endFirstSemester: string | undefined,
): Omit<GradeItem, 'key' | 'kind' | 'shown' | 'details'> {
  return {
    subjectId: g.Subject,
    subject: names.subject(g.Subject),
    category: category?.Name?.trim() ?? null,
    weight: categoryWeight(category),
    ...entryFields(g, names, endFirstSemester),
    comment: commentText(g.Comments, g.Id, comments),
  };
}

export type GradePeriod = 'final' | 'final_proposal' | 'semester' | 'semester_proposal';

/** A semester or final grade (or a proposal of one) is a summary, not one more grade to average. */
export function periodOf(g: Grade): GradePeriod | undefined {
  if (g.IsFinal) return 'final';
  if (g.IsFinalProposition) return 'final_proposal';
  if (g.IsSemester) return 'semester';
  if (g.IsSemesterProposition) return 'semester_proposal';
  return undefined;
}

/** Percent of one point grade: points earned over the category's maximum (ValueTo). */
export function pointPercent(points: number | undefined, max: number | undefined): number | null {
  if (points === undefined || max === undefined || !(max > 0)) return null;
  return Math.round((points / max) * 1000) / 10;
}

/** The points a point grade's Grade text reads (what the teacher wrote: `9,5`, `17`); undefined when it reads no number. */
function writtenPoints(g: { Grade?: string }): string | undefined {
  const written = g.Grade?.trim();
  return written !== undefined && /^\d+([.,]\d+)?$/.test(written) ? written : undefined;
}

/**
 * A point grade's points: GradeValue, else the number its Grade text reads (a grade given only as text,
 * `5,5` of 10, live-notes 37), so that it counts as it is shown; undefined when neither says one.
 */
export function pointValue(g: { Grade?: string; GradeValue?: number }): number | undefined {
  if (g.GradeValue !== undefined) return g.GradeValue;
  const written = writtenPoints(g);
  return written === undefined ? undefined : Number(written.replace(',', '.'));
}

/**
 * A point grade as a parent reads it: its points over the category's maximum, `9,5/10 pkt` (`9,5 pkt`
 * while the maximum is unknown). The points are the portal's Grade text where it is a number (what the
 * teacher wrote, with a decimal comma), else GradeValue; a Grade text that is no number stands alone.
 */
export function pointShown(g: { Grade?: string; GradeValue?: number }, max: number | undefined): string | null {
  const written = writtenPoints(g)?.replace('.', ',');
  const number = written ?? (g.GradeValue === undefined ? undefined : plNumber(g.GradeValue));
  if (number === undefined) return g.Grade?.trim() || null;
  return max !== undefined && max > 0 ? `${number}/${plNumber(max)} pkt` : `${number} pkt`;
}

export function pointGradeItems(src: GradeSources, names: Names, endFirstSemester?: string): GradeItem[] {
  const categories = byId(src.pointCategories);
  const comments = commentIndex(src.pointComments);
  return (src.pointGrades ?? []).map((g) => {
    const category = g.Category === undefined ? undefined : categories.get(g.Category);
    const max = category?.ValueTo;
    const points = pointValue(g);
    const details: GradeDetails = { points: points ?? null, max_points: max ?? null, percent: pointPercent(points, max) };
    // Its category's CountToTheAverage leaves it out of the subject's percentage (averages.ts): it says so.
    if (category?.CountToTheAverage === false) details.counts_to_average = false;
    return {
      key: `point:${g.Id}`,
      kind: 'point',
      shown: pointShown(g, max),
      ...sharedFields(g, category, comments, names, endFirstSemester),
      details,
    };
  });
}

/** A text grade's key (`text:<id>`), the same for a grade shown and one the school keeps out of the grades view. */
export const textGradeKey = (g: BaseTextGrade): string => `text:${g.Id}`;

/** A text grade the school keeps out of the grades view (ShowInGradesView false): no grade a parent is shown. */
export const hiddenTextGrade = (g: BaseTextGrade): boolean => g.ShowInGradesView === false;

export function textGradeItems(src: GradeSources, names: Names, endFirstSemester?: string): GradeItem[] {
  const categories = byId(src.textCategories);
  return (src.textGrades ?? [])
    .filter((g) => !hiddenTextGrade(g))
    .map((g) => {
      const category = g.Category === undefined ? undefined : categories.get(g.Category);
      const text = collapse(g.Grade) ?? null;
      return {
        key: textGradeKey(g),
        kind: 'text',
        shown: text,
        subjectId: g.Subject,
        subject: names.subject(g.Subject),
        category: category?.Name?.trim() ?? null,
        weight: null,
        ...entryFields(g, names, endFirstSemester),
        comment: null,
        details: { text },
      };
    });
}
