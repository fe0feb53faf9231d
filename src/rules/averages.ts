// Averages exactly by spec 2.5: weighted averages of the 1-6 scale per subject for the current
// semester, each with the grades it is made of, and their mean. Point grades get a weighted
// percentage per subject alongside. In the second semester the first one's figures stay beside
// (a parent still asks in February what the half-year ended with), and the year's semester and final
// grades are kept whichever semester they were entered in.
//
// Corrections: when a grade is corrected, the portal adds the new grade with Improvement.Id pointing
// at the earlier one, and the earlier grade stays in the list. We count both, each with the weight of
// its own category. That is what the register itself shows (both grades stay in the child's row), it
// is the rule most Polish school statutes set (a correction is written next to the grade it improves
// and both count), and a school that wants a different rule has a lever it controls: a correction
// category with its own weight or with CountToTheAverage off. Dropping the earlier grade ourselves
// would make our average better than the one the teacher calculates.
import type { Grade, GradeCategory, GradingSystem } from '../portal/schemas/grades.js';
import type { PointCategory, PointGrade } from '../portal/schemas/othergrades.js';
import { byId, dayOf } from './portal-values.js';
import { plCompare } from './order.js';
import { categoryWeight, periodOf, pointPercent, pointValue, standardGradeItems, type GradePeriod } from './grades-standard.js';
import { termGrades, type TermGrade } from './term-grades.js';
import { gradeSemester } from './grade-item.js';
import type { Names } from './names.js';
import type { Semester } from './semester.js';
import type { Averaging } from '../config/schema.js';

/** Rounds half up to two decimals without the binary surprises of 1.005 * 100. */
export function round2(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

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
  const size = (v: number | undefined, fallback: number): number => (v !== undefined && Number.isFinite(v) ? Math.abs(v) : fallback);
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

/** One grade as it counts toward its subject's average. */
export interface CountedGrade {
  id: string;
  /** As written ('4-'). */
  grade: string;
  /** Its value on the school's scale (3.75). */
  value: number;
  /** The weight it counts with: its category's, or 1 in an arithmetic mean. */
  weight: number;
  /** Its category's name, when the category is known. */
  category: string | null;
  date: string | undefined;
}

/** A subject's average with everything it is made of, so that one value can be shown several ways. */
export interface SubjectAverage {
  subjectId: string;
  subject: string | null;
  /** Weighted average, unrounded; null when nothing counts. */
  average: number | null;
  /** Grades that went into the average. */
  count: number;
  /** Those grades, in the portal's order; average = weighted / weights. */
  grades: CountedGrade[];
  weighted: number;
  weights: number;
  /** The year's proposed and given semester and final grades as written, when there are any. */
  periods: Partial<Record<PeriodAttribute, string>>;
  /** In the second semester, the first semester's figures of the subject (absent in the first). */
  previous?: { average: number | null; count: number };
}

/** The attribute each kind of term grade is published under: a given grade says so (`semester_grade`), a proposal keeps its name. */
const periodAttribute = (period: GradePeriod) => (period === 'semester' || period === 'final' ? (`${period}_grade` as const) : period);
export type PeriodAttribute = ReturnType<typeof periodAttribute>;

export interface AverageInput {
  grades: readonly Grade[];
  categories?: readonly GradeCategory[];
  gradingSystem?: GradingSystem;
  semester: Semester;
  endFirstSemester?: string;
  names: Names;
  /** arithmetic: every counted grade at weight 1 (a school whose statute says a plain mean); weighted by default. */
  averaging?: Averaging;
  pointGrades?: readonly PointGrade[];
  pointCategories?: readonly PointCategory[];
  /** The year's term grades (termGrades of every grade): each subject's `semester_proposal`, `final_grade`...; by default those of `grades`. */
  terms?: readonly TermGrade[];
}

/**
 * Per subject of the semester: every subject with an entry in Grades there, averaged or not, and every
 * subject with a term grade this year. A term grade belongs to the year, not to the semester it was
 * entered in: the first semester's grade (entered days after its end by some schools) stays all year.
 */
export function subjectAverages(input: AverageInput): SubjectAverage[] {
  const scale = gradeScale(input.gradingSystem);
  const categories = byId(input.categories);
  const subjects = new Map<string, SubjectAverage>();
  for (const g of input.grades) {
    if (g.Subject === undefined) continue;
    const period = periodOf(g);
    if (period === undefined && gradeSemester(g, input.endFirstSemester) !== input.semester) continue;
    const subject = subjects.get(g.Subject) ?? emptySubject(g.Subject, input.names.subject(g.Subject));
    subjects.set(g.Subject, subject);
    const category = g.Category === undefined ? undefined : categories.get(g.Category);
    if (category?.CountToTheAverage === false || period !== undefined) continue;
    const value = gradeValue(g.Grade, scale);
    const categoryWeighs = categoryWeight(category);
    if (value === undefined || categoryWeighs === 0) continue;
    const weight = input.averaging === 'arithmetic' ? 1 : categoryWeighs;
    subject.grades.push({ id: g.Id, grade: (g.Grade ?? '').trim(), value, weight, category: category?.Name ?? null, date: dayOf(g.Date) });
    subject.weighted += value * weight;
    subject.weights += weight;
    subject.count += 1;
  }
  // The term grades as the one list says them (a replaced proposal by its newest), never worked out here again.
  const terms = input.terms ?? termGrades(standardGradeItems({ grades: input.grades }, input.names, input.endFirstSemester));
  for (const t of terms) {
    if (t.subjectId === undefined) continue;
    const subject = subjects.get(t.subjectId) ?? emptySubject(t.subjectId, t.subject);
    subjects.set(t.subjectId, subject);
    subject.periods[periodAttribute(t.period)] ??= t.grade;
  }
  return [...subjects.values()]
    .map((s) => ({ ...s, average: s.weights > 0 ? s.weighted / s.weights : null }))
    .sort((a, b) => plCompare(a.subject ?? a.subjectId, b.subject ?? b.subjectId));
}

/** A subject with nothing counted (yet): no average. */
export function emptySubject(subjectId: string, subject: string | null): SubjectAverage {
  return { subjectId, subject, average: null, count: 0, grades: [], weighted: 0, weights: 0, periods: {} };
}

/** The mean of the subject averages (unrounded), or null when no subject has one. */
function overallAverage(subjects: readonly SubjectAverage[]): number | null {
  const averages = subjects.map((s) => s.average).filter((a) => a !== null);
  return averages.length === 0 ? null : averages.reduce((a, b) => a + b, 0) / averages.length;
}

/** A subject graded in points: its percentage of the points possible and how many grades make it. */
export type PointPercentage = NonNullable<ReturnType<typeof pointPercentages>>[number];

/** Per subject: points earned over points possible, each grade weighted by its category (spec 2.4); undefined without point grades. */
function pointPercentages(input: AverageInput) {
  if (input.pointGrades === undefined || input.pointGrades.length === 0) return undefined;
  const categories = byId(input.pointCategories);
  const sums = new Map<string, { earned: number; possible: number; count: number }>();
  for (const g of input.pointGrades) {
    // A grade given only as text ("5,5") counts as it is shown.
    const points = pointValue(g);
    if (g.Subject === undefined || points === undefined) continue;
    if (gradeSemester(g, input.endFirstSemester) !== input.semester) continue;
    const category = g.Category === undefined ? undefined : categories.get(g.Category);
    const max = category?.ValueTo;
    if (category?.CountToTheAverage === false || max === undefined || !(max > 0)) continue;
    const weight = categoryWeight(category);
    const sum = sums.get(g.Subject) ?? { earned: 0, possible: 0, count: 0 };
    sums.set(g.Subject, sum);
    sum.earned += points * weight;
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

/** The semester's averages: per subject, their mean, and point percentages when there are point grades. */
export interface Averages {
  semester: Semester;
  subjects: SubjectAverage[];
  /** The mean of the subject averages, unrounded; null when no subject has one. */
  overall: number | null;
  /** Absent when the child has no point grades at all. */
  points: PointPercentage[] | undefined;
  /**
   * Every subject with an entry in Grades or a point grade this school year (either semester), with its
   * name; `points` when it is graded in points only (its figure is a percentage).
   */
  year: { subjectId: string; subject: string | null; points: boolean }[];
  /** The scale the averages were computed on. */
  scale: GradeScale;
  /**
   * In the second semester (and the summer after it), the first semester's mean and the grades it counts;
   * each subject carries its own figures as `previous`, a subject graded in points its percentage.
   */
  previous?: { semester: 1; overall: number | null; count: number; points: PointPercentage[] | undefined };
}

export function averages(input: AverageInput): Averages {
  const subjects = subjectAverages(input);
  const points = pointPercentages(input);
  const subjectsOf = (list: readonly { Subject?: string }[]): string[] => list.flatMap((g) => (g.Subject === undefined ? [] : [g.Subject]));
  const graded = new Set(subjectsOf(input.grades));
  const year = [...new Set([...graded, ...subjectsOf(input.pointGrades ?? [])])].map((subjectId) => ({
    subjectId,
    subject: input.names.subject(subjectId),
    points: !graded.has(subjectId),
  }));
  const scale = gradeScale(input.gradingSystem);
  const value: Averages = { semester: input.semester, subjects, overall: overallAverage(subjects), points, year, scale };
  return input.semester === 2 ? withFirstSemester(value, input) : value;
}

/**
 * The second semester's averages with the first one's beside: its mean, and each subject's figures on the
 * subject (a subject graded in the first semester only is listed too, with no average of its own yet).
 */
function withFirstSemester(value: Averages, input: AverageInput): Averages {
  const first = subjectAverages({ ...input, semester: 1 });
  const bySubject = new Map(value.subjects.map((s) => [s.subjectId, s]));
  for (const before of first) {
    if (before.grades.length === 0) continue;
    const now = bySubject.get(before.subjectId) ?? { ...before, average: null, count: 0, grades: [], weighted: 0, weights: 0 };
    bySubject.set(before.subjectId, { ...now, previous: { average: before.average, count: before.count } });
  }
  const subjects = [...bySubject.values()].sort((a, b) => plCompare(a.subject ?? a.subjectId, b.subject ?? b.subjectId));
  const count = first.reduce((sum, s) => sum + s.count, 0);
  const previous = { semester: 1 as const, overall: overallAverage(first), count, points: pointPercentages({ ...input, semester: 1 }) };
  return { ...value, subjects, previous };
}

/** The grades a teacher can write, as written; their values come from the school's scale. */
const WRITTEN = ['1', '1+', '2-', '2', '2+', '3-', '3', '3+', '4-', '4', '4+', '5-', '5', '5+', '6-', '6'];

/** Whether an average reaches a threshold, compared as it is shown (2 decimals: 3.745 is shown 3.75, not below it). */
export const reaches = (average: number, threshold: number): boolean => round2(average) >= threshold - 1e-9;

/** The first threshold an average does not reach; null at the top. */
export const nextThreshold = (average: number, thresholds: readonly number[]): number | null => thresholds.find((t) => !reaches(average, t)) ?? null;

/**
 * What one more grade would do for a subject: the next threshold (null when the average is at or above the
 * last one) and the lowest grade of weight 1 that lifts the subject's average to it (null when none can):
 * with W the weighted sum and S the weights, the grade g with (W + g) / (S + 1) >= threshold. A subject with no
 * average yet has no next threshold.
 */
export function neededForNext(subject: SubjectAverage, thresholds: readonly number[], scale: GradeScale = DEFAULT_SCALE) {
  if (subject.average === null) return { threshold: null, grade: null };
  const threshold = nextThreshold(subject.average, thresholds);
  if (threshold === null) return { threshold, grade: null };
  const candidates = WRITTEN.map((grade) => ({ grade, value: gradeValue(grade, scale) }))
    .filter((c): c is { grade: string; value: number } => c.value !== undefined)
    .sort((a, b) => a.value - b.value);
  const reaching = candidates.find((c) => reaches((subject.weighted + c.value) / (subject.weights + 1), threshold));
  return { threshold, grade: reaching?.grade ?? null };
}
