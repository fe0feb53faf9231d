// The `average` sensor, exactly by spec 2.5: weighted averages of the 1-6 scale per subject for the
// current semester, and their mean. Point grades get a weighted percentage per subject alongside.
//
// Corrections: when a grade is corrected, the portal adds the new grade with Improvement.Id pointing
// at the earlier one, and the earlier grade stays in the list. We count both, each with the weight of
// its own category. That is what the register itself shows (both grades stay in the child's row), it
// is the rule most Polish school statutes set (a correction is written next to the grade it improves
// and both count), and a school that wants a different rule has a lever it controls: a correction
// category with its own weight or with CountToTheAverage off. Dropping the earlier grade ourselves
// would make our average better than the one the teacher calculates.
import type { EntityState } from '../ha/state.js';
import type { Grade, GradeCategory, GradingSystem } from '../portal/schemas/grades.js';
import type { PointCategory, PointGrade } from '../portal/schemas/othergrades.js';
import { capAttributes } from '../ha/attributes.js';
import { byId, plCompare, round2 } from './common.js';
import { categoryWeight, periodOf, pointPercent } from './grades-standard.js';
import { gradeSemester } from './grade-item.js';
import type { Names } from './names.js';
import type { Semester } from './semester.js';

export interface GradeScale {
  /** What a + adds and a - takes away (absolute sizes). */
  plus: number;
  minus: number;
  /** Whether a 0 counts toward the average. */
  countZero: boolean;
}

export const DEFAULT_SCALE: GradeScale = { plus: 0.5, minus: 0.25, countZero: false };

/** The school's scale from GradingSystem; anything missing (or the resource refused) keeps the default. */
export function gradeScale(system: GradingSystem | undefined): GradeScale {
  const size = (v: number | undefined, fallback: number): number =>
    v !== undefined && Number.isFinite(v) ? Math.abs(v) : fallback;
  return {
    plus: size(system?.plusValue, DEFAULT_SCALE.plus),
    minus: size(system?.minusValue, DEFAULT_SCALE.minus),
    countZero: system?.countZero ?? DEFAULT_SCALE.countZero,
  };
}

/**
 * The numeric value of a grade as written, or undefined when it is not a grade: only 1-6 with an
 * optional + or -, and 0 alone when the school counts zeros. Marks (bz, np, a bare + or -), stray
 * numbers ('85') and '0+'/'0-' are not grades.
 */
export function gradeValue(grade: string | undefined, scale: GradeScale = DEFAULT_SCALE): number | undefined {
  const m = /^([0-6])([+-]?)$/.exec(grade?.trim() ?? '');
  if (!m) return undefined;
  const base = Number(m[1]);
  if (base === 0) return m[2] === '' && scale.countZero ? 0 : undefined;
  if (m[2] === '+') return base + scale.plus;
  if (m[2] === '-') return base - scale.minus;
  return base;
}

export interface SubjectAverage {
  subjectId: string;
  subject: string | null;
  /** Weighted average rounded to 2 decimals; null when nothing counts. */
  average: number | null;
  /** Grades that went into the average. */
  count: number;
}

export interface AverageInput {
  grades: readonly Grade[];
  categories?: readonly GradeCategory[];
  gradingSystem?: GradingSystem;
  semester: Semester;
  endFirstSemester?: string;
  names: Names;
}

/** Per subject of the semester: every subject with an entry in Grades there, averaged or not. */
export function subjectAverages(input: AverageInput): SubjectAverage[] {
  const scale = gradeScale(input.gradingSystem);
  const categories = byId(input.categories);
  const sums = new Map<string, { weighted: number; weights: number; count: number; exact: number | null }>();
  for (const g of input.grades) {
    if (g.Subject === undefined) continue;
    if (gradeSemester(g, input.endFirstSemester) !== input.semester) continue;
    const sum = sums.get(g.Subject) ?? { weighted: 0, weights: 0, count: 0, exact: null };
    sums.set(g.Subject, sum);
    const category = g.Category === undefined ? undefined : categories.get(g.Category);
    if (category?.CountToTheAverage === false || periodOf(g) !== undefined) continue;
    const value = gradeValue(g.Grade, scale);
    const weight = categoryWeight(category);
    if (value === undefined || weight === 0) continue;
    sum.weighted += value * weight;
    sum.weights += weight;
    sum.count += 1;
  }
  return [...sums.entries()]
    .map(([subjectId, s]) => ({
      subjectId,
      subject: input.names.subject(subjectId),
      average: s.weights > 0 ? s.weighted / s.weights : null,
      count: s.count,
    }))
    .sort((a, b) => plCompare(a.subject ?? a.subjectId, b.subject ?? b.subjectId));
}

/** The mean of the subject averages (unrounded), or null when no subject has one. */
export function overallAverage(subjects: readonly SubjectAverage[]): number | null {
  const averages = subjects.map((s) => s.average).filter((a) => a !== null);
  return averages.length === 0 ? null : averages.reduce((a, b) => a + b, 0) / averages.length;
}

export interface PointPercentage {
  subjectId: string;
  subject: string | null;
  percent: number | null;
  count: number;
}

/** Per subject: points earned over points possible, each grade weighted by its category (spec 2.4). */
export function pointPercentages(input: {
  pointGrades: readonly PointGrade[];
  pointCategories?: readonly PointCategory[];
  semester: Semester;
  endFirstSemester?: string;
  names: Names;
}): PointPercentage[] {
  const categories = byId(input.pointCategories);
  const sums = new Map<string, { earned: number; possible: number; count: number }>();
  for (const g of input.pointGrades) {
    if (g.Subject === undefined || g.GradeValue === undefined) continue;
    if (gradeSemester(g, input.endFirstSemester) !== input.semester) continue;
    const category = g.Category === undefined ? undefined : categories.get(g.Category);
    const max = category?.ValueTo;
    if (category?.CountToTheAverage === false || max === undefined || !(max > 0)) continue;
    const weight = categoryWeight(category);
    const sum = sums.get(g.Subject) ?? { earned: 0, possible: 0, count: 0 };
    sums.set(g.Subject, sum);
    sum.earned += g.GradeValue * weight;
    sum.possible += max * weight;
    sum.count += 1;
  }
  return [...sums.entries()]
    .map(([subjectId, s]) => ({
      subjectId,
      subject: input.names.subject(subjectId),
      percent: pointPercent(s.earned, s.possible),
      count: s.count,
    }))
    .sort((a, b) => plCompare(a.subject ?? a.subjectId, b.subject ?? b.subjectId));
}

/** average: the state is the mean of the subject averages with 2 decimals. */
export function averageState(
  input: AverageInput & { pointGrades?: readonly PointGrade[]; pointCategories?: readonly PointCategory[] },
): EntityState {
  const subjects = subjectAverages(input);
  const overall = overallAverage(subjects);
  const attributes: Record<string, unknown> = {
    semester: input.semester,
    subjects: subjects.map((s) => ({
      subject: s.subject ?? s.subjectId,
      average: s.average === null ? null : round2(s.average),
      count: s.count,
    })),
  };
  if (input.pointGrades && input.pointGrades.length > 0) {
    attributes.points = pointPercentages({ ...input, pointGrades: input.pointGrades }).map((p) => ({
      subject: p.subject ?? p.subjectId,
      percent: p.percent,
      count: p.count,
    }));
  }
  return { state: overall === null ? null : round2(overall).toFixed(2), attributes: capAttributes(attributes) };
}
