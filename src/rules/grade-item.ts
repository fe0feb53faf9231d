// The one shape every kind of grade is read into (ordinary, point, descriptive, partial, text), so
// that "newest grade" and grade events treat them alike.
import { byId, collapse, dayOf, portalTime } from './portal-values.js';
import { idCompare, textCompare } from './order.js';
import type { Names } from './names.js';
import { recordSemester, type Semester } from './semester.js';

export type GradeKind = 'grade' | 'point' | 'descriptive' | 'text';

/** What only some kinds of grade have, by the names they are published under. */
export type GradeDetails = {
  [K in 'name' | 'points' | 'max_points' | 'percent' | 'skill' | 'requirements' | 'text' | 'improves' | 'period' | 'counts_to_average']?: unknown;
};

export interface GradeItem {
  /** Unique across kinds and stable across passes: `<kind>:<id>`; the grade event's id. */
  key: string;
  kind: GradeKind;
  /** The grade as the register shows it ('5+', 'np', '9,5 pkt', a descriptive mark, a text). */
  shown: string | null;
  subjectId?: string;
  subject: string | null;
  category: string | null;
  weight: number | null;
  teacher: string | null;
  /** YYYY-MM-DD. */
  date: string | null;
  /** When it was entered, as the portal gives it; orders grades newest first. */
  added: string | null;
  comment: string | null;
  semester: Semester | null;
  /** What only some kinds have: points, max_points, percent, skill, text, improves... */
  details: GradeDetails;
}

interface CommentLike {
  Id: string;
  Text?: string;
  Grade?: string;
}

/** A list's comments by id and by the grade they point back at. */
export type CommentIndex = ReturnType<typeof commentIndex>;

/** Built once per list, so that joining comments stays linear in a school year of grades. */
export function commentIndex(comments: readonly CommentLike[] | undefined) {
  const byGrade = new Map<string, CommentLike[]>();
  for (const c of comments ?? []) {
    if (c.Grade === undefined) continue;
    const list = byGrade.get(c.Grade);
    if (list) list.push(c);
    else byGrade.set(c.Grade, [c]);
  }
  return { byId: byId(comments), byGrade };
}

/** Comment texts of a record: by its Comments ids, plus comments that point back at it by Grade.Id. */
export function commentText(ids: readonly string[], gradeId: string, index: CommentIndex): string | null {
  const found = [...ids.map((id) => index.byId.get(id)), ...(index.byGrade.get(gradeId) ?? [])];
  // Each comment once, where it is first found.
  const once = found.filter((c, i) => c !== undefined && found.findIndex((o) => o?.Id === c.Id) === i);
  const texts = once.map((c) => collapse(c?.Text)).filter((t) => t !== undefined);
  return texts.length > 0 ? texts.join('; ') : null;
}

/** The fields of a grade record every kind reads alike: the teacher, its day, its entry time, its semester. */
export function entryFields(
  g: { AddedBy?: string; Date?: string; AddDate?: string; Semester?: number },
  names: Names,
  endFirstSemester: string | undefined,
): Pick<GradeItem, 'teacher' | 'date' | 'added' | 'semester'> {
  return {
    teacher: names.teacher(g.AddedBy),
    date: gradeDay(g) ?? null,
    added: portalTime(g.AddDate ?? g.Date) ?? null,
    semester: gradeSemester(g, endFirstSemester) ?? null,
  };
}

/** A grade record's day: its Date, else the day it was entered. */
function gradeDay(g: { Date?: string; AddDate?: string }): string | undefined {
  return dayOf(g.Date) ?? dayOf(g.AddDate);
}

/** A grade record's semester: its own Semester field, else by its day. */
export function gradeSemester(g: { Date?: string; AddDate?: string; Semester?: number }, endFirstSemester: string | undefined): Semester | undefined {
  return recordSemester(g.Semester, gradeDay(g), endFirstSemester);
}

/** A number the Polish way, for texts a parent reads: 9.5 -> '9,5'. */
export function plNumber(value: number): string {
  return String(Math.round(value * 100) / 100).replace('.', ',');
}

/** Newest first: by entry time, then date, then id (later ids were entered later). */
export function newestFirst(a: GradeItem, b: GradeItem): number {
  const entered = (g: GradeItem): string => (g.added ?? g.date ?? '').replace('T', ' ');
  return textCompare(entered(b), entered(a)) || idCompare(b.key, a.key);
}
