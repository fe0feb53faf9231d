// What the grades feature reads, by name: both its `reads` and its computation take it, so that the
// computation reads exactly what was said.
import { childUnit, type UnitSettings } from '../../portal/schemas/identity.js';
import { want, type Copies, type Want } from '../../feature-kit/resource.js';
import * as R from '../../resources/grades.js';
import { lookup, nameLookups } from '../../resources/lookups.js';
import { partialWants } from './partial.js';
import type { Identity } from '../../feature-kit/identity.js';

/** A list's grades as its copy holds them (undefined: not read, or not asked for). */
type Listed = readonly { Category?: string; Comments?: string | string[]; Subject?: string; AddedBy?: string; Skill?: string }[] | undefined;

/**
 * What the grades read, by name: every kind of grade (a kind the child's unit switches off is not asked
 * for), the lookups of the kinds that have grades (each wanted again when a grade names an id it
 * lacks), the partial grades' steps and the names. Both `reads` and the computation take it, so that
 * the computation reads exactly what was said.
 */
export function gradeReads(copies: Copies, identity: Identity) {
  // The child's own unit decides which kinds of grade exist (a school complex has several): a kind it
  // may switch off is asked for once the units are read (or refused).
  const unitsKnown = copies.peek(R.UNITS) !== undefined || copies.refused(R.UNITS);
  const unit: UnitSettings | undefined = childUnit(copies.peek(R.UNITS), identity.unitId);
  const lists = {
    grades: want(R.GRADES),
    point: !unitsKnown || unit?.point === false ? undefined : want(R.POINT_GRADES),
    text: want(R.TEXT_GRADES),
    descriptive: !unitsKnown || unit?.descriptive === false ? undefined : want(R.DESCRIPTIVE_GRADES),
    behaviour: want(R.BEHAVIOUR_POINTS),
    gradingSystem: want(R.GRADING_SYSTEM),
    // The portal's own averages; a school without them answers Disabled, a refusal for a day.
    schoolAverages: want(R.GRADE_AVERAGES),
  };
  const held = (w: Want | undefined): Listed =>
    w === undefined ? undefined : ((copies.peek(w.res) as { Grades?: Listed } | undefined)?.Grades ?? undefined);
  const [grades, point, text, descriptive, behaviour] = [
    held(lists.grades),
    held(lists.point),
    held(lists.text),
    held(lists.descriptive),
    held(lists.behaviour),
  ];
  const partial = partialWants(copies);
  const partialData = partial.list === undefined ? undefined : copies.peek(R.PARTIAL_GRADES, partial.list.key)?.data;
  const ids = (list: Listed, pick: (g: NonNullable<Listed>[number]) => string | undefined | string[]) => (list ?? []).flatMap((g) => pick(g) ?? []);
  const some = (list: readonly unknown[] | undefined): boolean => (list?.length ?? 0) > 0;
  const only = (list: readonly unknown[] | undefined, w: Want): Want | undefined => (some(list) ? w : undefined);
  const all = [grades, point, text, descriptive, behaviour];
  return {
    unit,
    lists,
    partial,
    lookups: {
      categories: lookup(
        copies,
        R.GRADE_CATEGORIES,
        ids(grades, (g) => g.Category),
      ),
      comments: only(
        grades,
        lookup(
          copies,
          R.GRADE_COMMENTS,
          ids(grades, (g) => g.Comments),
        ),
      ),
      pointCategories: only(
        point,
        lookup(
          copies,
          R.POINT_CATEGORIES,
          ids(point, (g) => g.Category),
        ),
      ),
      pointComments: only(
        point,
        lookup(
          copies,
          R.POINT_COMMENTS,
          ids(point, (g) => g.Comments),
        ),
      ),
      textCategories: only(
        text,
        lookup(
          copies,
          R.TEXT_CATEGORIES,
          ids(text, (g) => g.Category),
        ),
      ),
      skills: only(
        descriptive,
        lookup(
          copies,
          R.SKILLS,
          ids(descriptive, (g) => g.Skill),
        ),
      ),
      descriptiveComments: only(
        descriptive,
        lookup(
          copies,
          R.DESCRIPTIVE_COMMENTS,
          ids(descriptive, (g) => g.Comments),
        ),
      ),
      behaviourTypes: only(behaviour, lookup(copies, R.BEHAVIOUR_TYPES)),
      behaviourComments: only(
        behaviour,
        lookup(
          copies,
          R.BEHAVIOUR_COMMENTS,
          ids(behaviour, (g) => g.Comments),
        ),
      ),
      behaviourCategories: only(behaviour, lookup(copies, R.BEHAVIOUR_CATEGORIES)),
      authSubjects: only(partialData, want(R.AUTH_SUBJECTS)),
    },
    names: nameLookups(copies, {
      subjects: all.flatMap((list) => ids(list, (g) => g.Subject)),
      users: all.flatMap((list) => ids(list, (g) => g.AddedBy)),
    }),
  };
}
