// Every kind of grade gathered into one newest-first list, the newest of them and the latest few, and
// one new-item candidate per grade (the grades feature renders these for Home Assistant).
import type { NewsItem } from './news.js';
import { newestFirst, type GradeDetails, type GradeItem } from './grade-item.js';
import { descriptiveGradeItems, partialGradeItems } from './grades-descriptive.js';
import { hiddenTextGrade, pointGradeItems, standardGradeItems, textGradeItems, textGradeKey, type GradeSources } from './grades-standard.js';
import type { Names } from './names.js';
import { gradeScale, gradeValue, type GradeScale } from './averages.js';
import { isProposal, termGrades, type TermGrade } from './term-grades.js';

export type { GradeSources };

/** How many of the latest grades a parent is shown beside the newest one. */
const RECENT_GRADES = 10;

/**
 * All grades of every kind, newest first. Give whichever parsed lists were fetched; a missing one
 * just contributes nothing. endFirstSemester (Classes) places records that lack a Semester.
 */
export function gradeItems(src: GradeSources, names: Names, endFirstSemester?: string): GradeItem[] {
  const scale = gradeScale(src.gradingSystem);
  return [
    ...standardGradeItems(src, names, endFirstSemester),
    ...pointGradeItems(src, names, endFirstSemester),
    ...textGradeItems(src, names, endFirstSemester),
    ...descriptiveGradeItems(src, names, endFirstSemester),
    ...partialGradeItems(src, names, endFirstSemester),
  ]
    .map((item) => uncounted(item, scale))
    .sort(newestFirst);
}

/**
 * A mark that is no grade (a 0 the school does not count, a bare + or -, np, bz...) counts toward no average: it says so
 * as a grade of a category that does not count does (`counts_to_average: false`), wherever its weight is told.
 */
function uncounted(item: GradeItem, scale: GradeScale): GradeItem {
  return markOf(item, scale) === null ? item : { ...item, details: { ...item.details, counts_to_average: false } };
}

/** What every grade says, by the names a parent's automation reads; some kinds add details beside them. */
export type GradeFields = { grade: string | null } & Pick<GradeItem, SharedField> & GradeDetails;
type SharedField = 'subject' | 'kind' | 'category' | 'weight' | 'teacher' | 'date' | 'comment' | 'semester';

/** What a grade says (an event's fields, the newest grade's), its kind's details (points, skill...) beside. */
export function gradeFields({ shown, subject, kind, category, weight, teacher, date, comment, semester, details }: GradeItem): GradeFields {
  return { grade: shown, subject, kind, category, weight, teacher, date, comment, semester, ...details };
}

/**
 * The newest grade that has something to show (`newest`: undefined when none has), the latest few such grades
 * (`recent`: at most RECENT_GRADES, newest first, the newest among them) and the proposed semester and final
 * grades (`proposals`: every one of the year's term grades list that is a proposal, newest first, uncapped), and the
 * semester's descriptive and text grades (`described`: newest first, all of them; every semester's without one).
 */
export type NewestGrades = ReturnType<typeof newestGrades>;

/**
 * Marks with nothing to show (an empty grade) are skipped: a parent asks what the child got. A proposal or a term
 * grade (`period`) is no new grade: never the newest nor one of the latest, the proposals stand in `proposals`.
 */
export function newestGrades(items: readonly GradeItem[], terms: readonly TermGrade[] = termGrades(items), semester?: number) {
  const plain = items.filter((i) => i.shown !== null && i.details.period === undefined).sort(newestFirst);
  // The descriptive and text grades of the semester, all of them: words a parent reads, which count in no average.
  const described = plain.filter((i) => (i.kind === 'descriptive' || i.kind === 'text') && (semester === undefined || i.semester === semester));
  return { newest: plain[0], recent: plain.slice(0, RECENT_GRADES), proposals: terms.filter(isProposal), described };
}

/**
 * The mark a grade item holds when it is no grade, in lower case ('0', '+', 'np'), or null for a grade.
 * Only the ordinary and the descriptive kinds hold marks (a point grade says its points, a text grade is
 * words). A bare + or -, bz, np and the other statuses of spec 2.5 are marks; so is a 0, unless the school
 * counts zeros in its ordinary grades: the descriptive scale gives a 0 no range (spec 2.3, its Types), so
 * there it is never a grade. A parent reading a bare 0 takes it for a failing grade.
 */
export function markOf(item: Pick<GradeItem, 'kind' | 'shown'>, scale: GradeScale): string | null {
  if (item.shown === null || (item.kind !== 'grade' && item.kind !== 'descriptive')) return null;
  const counted = item.kind === 'grade' ? scale : { ...scale, countZero: false };
  return gradeValue(item.shown, counted) === undefined ? item.shown.trim().toLowerCase() : null;
}

/** What a `grade` event carries: the grade's key (`<kind>:<id>`) and its fields. */
export type GradePayload = { id: string } & GradeFields;

/** One candidate per grade, keyed so that a grade fires once however often it is read. */
export function gradeEvents(items: readonly GradeItem[]): NewsItem<GradePayload>[] {
  return items.map((item) => ({ id: item.key, payload: { id: item.key, ...gradeFields(item) } }));
}

/**
 * The keys of records the lists hold that are no grade a parent is shown (a text grade kept out of the
 * grades view): a memory that knew them as grades (the school hid one since) forgets them quietly, with no
 * `grade_removed`.
 */
export function notGradeKeys(src: GradeSources): string[] {
  return (src.textGrades ?? []).filter(hiddenTextGrade).map(textGradeKey);
}
