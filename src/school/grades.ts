// Every kind of grade gathered into one newest-first list, the `newest_grade` sensor and one `grade`
// event per grade.
import type { EntityState } from '../ha/state.js';
import { capAttributes } from '../ha/attributes.js';
import { stateText, type ItemEvent } from './common.js';
import { newestFirst, type GradeItem } from './grade-item.js';
import { behaviourGradeItems, type BehaviourSources } from './grades-behaviour.js';
import { descriptiveGradeItems, partialGradeItems, type DescriptiveSources, type PartialSources } from './grades-descriptive.js';
import {
  pointGradeItems,
  standardGradeItems,
  textGradeItems,
  type PointSources,
  type StandardSources,
  type TextSources,
} from './grades-standard.js';
import type { Names } from './names.js';

export type GradeSources = StandardSources &
  PointSources &
  TextSources &
  DescriptiveSources &
  PartialSources &
  BehaviourSources;

/** How many of the latest grades newest_grade lists in its `recent` attribute. */
export const RECENT_GRADES = 10;

/**
 * All grades of every kind, newest first. Give whichever parsed lists were fetched; a missing one
 * just contributes nothing. endFirstSemester (Classes) places records that lack a Semester.
 */
export function gradeItems(src: GradeSources, names: Names, endFirstSemester?: string): GradeItem[] {
  return [
    ...standardGradeItems(src, names, endFirstSemester),
    ...pointGradeItems(src, names, endFirstSemester),
    ...textGradeItems(src, names, endFirstSemester),
    ...descriptiveGradeItems(src, names, endFirstSemester),
    ...partialGradeItems(src, names, endFirstSemester),
    ...behaviourGradeItems(src, names, endFirstSemester),
  ].sort(newestFirst);
}

function describe(item: GradeItem): Record<string, unknown> {
  return {
    grade: item.shown,
    subject: item.subject,
    kind: item.kind,
    category: item.category,
    weight: item.weight,
    teacher: item.teacher,
    date: item.date,
    comment: item.comment,
    semester: item.semester,
    ...item.details,
  };
}

/** newest_grade: the newest grade that has something to show; `recent` lists the latest few. */
export function newestGrade(items: readonly GradeItem[]): EntityState {
  const shown = items.filter((i) => i.shown !== null).sort(newestFirst);
  const newest = shown[0];
  if (newest === undefined) return { state: null, attributes: { recent: [] } };
  const recent = shown.slice(0, RECENT_GRADES).map((i) => ({
    grade: i.shown,
    subject: i.subject,
    kind: i.kind,
    date: i.date,
  }));
  return {
    state: stateText(newest.shown ?? undefined),
    attributes: capAttributes({ ...describe(newest), added: newest.added, recent }),
  };
}

/** One `grade` event per grade, keyed so that a grade fires once however often it is read. */
export function gradeEvents(items: readonly GradeItem[]): ItemEvent[] {
  return items.map((item) => ({
    id: item.key,
    payload: { event_type: 'grade', id: item.key, ...describe(item) },
  }));
}
