// The grades feature, normal tier: every kind of grade -> newest_grade, average and grade events. Ordinary grades are
// read every poll; the other kinds hourly; their lookups daily (and again when a grade names an id
// they do not know); the ~330 KB skills list weekly.
import {
  gradeCategoriesResponse,
  gradeCommentsResponse,
  gradesResponse,
  gradingSystemResponse,
} from '../portal/schemas/grades.js';
import {
  baseTextGradesResponse,
  pointCategoriesResponse,
  pointCommentsResponse,
  pointGradesResponse,
  textCategoriesResponse,
} from '../portal/schemas/othergrades.js';
import { descriptiveCommentsResponse, descriptiveGradesResponse, descriptiveSkillsResponse } from '../portal/schemas/descriptive.js';
import { partialGradesResponse } from '../portal/schemas/partial.js';
import { authSubjectsResponse } from '../portal/schemas/lookups.js';
import {
  behaviourPointsCategoriesResponse,
  behaviourPointsCommentsResponse,
  behaviourPointsResponse,
  behaviourTypesResponse,
} from '../portal/schemas/behaviour.js';
import { tokenInfoResponse, unitsResponse, userInfoResponse } from '../portal/schemas/identity.js';
import { gradeEvents, gradeItems, newestGrade, type GradeSources } from '../school/grades.js';
import { averageState } from '../school/averages.js';
import { semesterOf } from '../school/semester.js';
import { CADENCE, type ResourceSpec } from '../poller/resources.js';
import { lookupList, names } from '../poller/lookups.js';
import type { z } from 'zod';
import { eventEntity, sensor } from '../ha/entities.js';
import { feature } from './feature.js';
import type { Source, SourceContext, SourceResult } from '../poller/source.js';

export const grades = feature({
  name: 'grades',
  tier: 'normal',
  entities: [
    sensor('newest_grade', { en: 'Newest grade', pl: 'Najnowsza ocena' }, { icon: 'mdi:school' }),
    sensor('average', { en: 'Average', pl: 'Średnia' }, { icon: 'mdi:chart-line', stateClass: 'measurement' }),
    eventEntity('grade', { en: 'Grade', pl: 'Ocena' }, 'mdi:school'),
  ],
  create: () => new GradesSource(),
});

export class GradesSource implements Source {
  async poll(ctx: SourceContext): Promise<SourceResult> {
    const get = <S extends z.ZodType>(spec: ResourceSpec<S>) => ctx.cache.get(spec);
    const units = await get({ endpoint: 'Units', schema: unitsResponse, maxAgeMs: CADENCE.daily, staleOnError: true });
    // A kind of grade the school does not use answers an empty list; the cache asks less often then.
    const hourly = { maxAgeMs: CADENCE.hourly, list: (r: { Grades: readonly unknown[] }) => r.Grades };
    const [grades, point, text, descriptive, behaviour, partial, gradingSystem] = await Promise.all([
      get({ endpoint: 'Grades', schema: gradesResponse, maxAgeMs: CADENCE.everyPoll }).then((r) => r?.Grades),
      units?.point === false
        ? undefined
        : get({ endpoint: 'PointGrades', schema: pointGradesResponse, ...hourly }).then((r) => r?.Grades),
      get({ endpoint: 'BaseTextGrades', schema: baseTextGradesResponse, ...hourly }).then((r) => r?.Grades),
      units?.descriptive === false
        ? undefined
        : get({ endpoint: 'DescriptiveGrades', schema: descriptiveGradesResponse, ...hourly }).then(
            (r) => r?.Grades,
          ),
      get({ endpoint: 'BehaviourGrades/Points', schema: behaviourPointsResponse, ...hourly }).then(
        (r) => r?.Grades,
      ),
      this.partialGrades(ctx),
      get({ endpoint: 'GradingSystem', schema: gradingSystemResponse, maxAgeMs: CADENCE.daily }),
    ]);

    const ids = <T>(list: readonly T[] | undefined, pick: (item: T) => string | undefined | (string | undefined)[]) =>
      (list ?? []).flatMap((item) => pick(item));
    const some = (list: readonly unknown[] | undefined): boolean => (list?.length ?? 0) > 0;
    const [categories, comments, pointCategories, pointComments, textCategories, skills, descriptiveComments, behaviourTypes, behaviourComments, behaviourCategories, authSubjects] =
      await Promise.all([
        lookupList(ctx, 'Grades/Categories', gradeCategoriesResponse, (r) => r.Categories, ids(grades, (g) => g.Category)),
        some(grades) ? lookupList(ctx, 'Grades/Comments', gradeCommentsResponse, (r) => r.Comments, ids(grades, (g) => g.Comments)) : undefined,
        some(point) ? lookupList(ctx, 'PointGrades/Categories', pointCategoriesResponse, (r) => r.Categories, ids(point, (g) => g.Category)) : undefined,
        some(point) ? lookupList(ctx, 'PointGrades/Comments', pointCommentsResponse, (r) => r.Comments, ids(point, (g) => g.Comments)) : undefined,
        some(text) ? lookupList(ctx, 'TextGrades/Categories', textCategoriesResponse, (r) => r.Categories, ids(text, (g) => g.Category)) : undefined,
        some(descriptive) ? this.skills(ctx, ids(descriptive, (g) => g.Skill)) : undefined,
        some(descriptive)
          ? lookupList(ctx, 'DescriptiveGrades/Comments', descriptiveCommentsResponse, (r) => r.Comments, ids(descriptive, (g) => g.Comments))
          : undefined,
        some(behaviour) ? lookupList(ctx, 'BehaviourGrades/Types', behaviourTypesResponse, (r) => r.Types) : undefined,
        some(behaviour)
          ? lookupList(ctx, 'BehaviourGrades/Points/Comments', behaviourPointsCommentsResponse, (r) => r.Comments, ids(behaviour, (g) => g.Comments))
          : undefined,
        some(behaviour) ? lookupList(ctx, 'BehaviourGrades/Points/Categories', behaviourPointsCategoriesResponse, (r) => r.Categories) : undefined,
        some(partial) ? get({ endpoint: 'Auth/Subjects', schema: authSubjectsResponse, maxAgeMs: CADENCE.daily, staleOnError: true }).then((r) => r?.subjects) : undefined,
      ]);

    const all = [grades, point, text, descriptive, behaviour];
    const nameLookup = await names(ctx, {
      subjects: all.flatMap((list) => (list ?? []).map((g) => (g as { Subject?: string }).Subject)),
      users: all.flatMap((list) => (list ?? []).map((g) => (g as { AddedBy?: string }).AddedBy)),
    });
    const endFirstSemester = ctx.identity.semester1End;
    const sources: GradeSources = {
      grades,
      categories,
      comments,
      pointGrades: point,
      pointCategories,
      pointComments,
      textGrades: text,
      textCategories,
      descriptiveGrades: descriptive,
      skills,
      descriptiveComments,
      partialGrades: partial,
      authSubjects,
      behaviourPoints: behaviour,
      behaviourTypes,
      behaviourComments,
      behaviourCategories,
    };
    const items = gradeItems(sources, nameLookup, endFirstSemester);
    // Lenient reading keeps a record that lost its fields; a list where none names its subject means
    // the portal's format changed, which a parent must hear about rather than see a silent None.
    const lost = [grades, point, text].some((list) => list !== undefined && list.length > 0 && list.every((g) => g.Subject === undefined));
    return {
      suspicious: lost ? 'grades: no grade names its subject (the portal format may have changed)' : undefined,
      states: {
        newest_grade: newestGrade(items),
        average: averageState({
          grades: grades ?? [],
          categories,
          gradingSystem,
          semester: semesterOf(ctx.today, endFirstSemester),
          endFirstSemester,
          names: nameLookup,
          pointGrades: point,
          pointCategories,
        }),
      },
      events: { grade: gradeEvents(items) },
    };
  }

  /** The newer partial grades (spec 4.5): the child's LID first, then one POST, hourly. */
  private async partialGrades(ctx: SourceContext) {
    const token = await ctx.cache.get({ endpoint: 'Auth/TokenInfo', schema: tokenInfoResponse, maxAgeMs: CADENCE.daily, staleOnError: true });
    const userLid = token?.UserIdentifier;
    if (!userLid) return undefined;
    const info = await ctx.cache.get({
      endpoint: `Auth/UserInfo/${encodeURIComponent(userLid)}`,
      schema: userInfoResponse,
      maxAgeMs: CADENCE.daily,
      staleOnError: true,
    });
    const childLid = info?.IdentifierOfStudentAssignedWithUser;
    if (!childLid) return undefined;
    const endpoint = `Auth/DescriptiveGradingSystem/PartialGrades/Student/${encodeURIComponent(childLid)}`;
    const answer = await ctx.cache.get({ endpoint, schema: partialGradesResponse, maxAgeMs: CADENCE.hourly, list: (r) => r.data, post: {} });
    return answer?.data;
  }

  /** The school's whole skills list is large and rarely changes: weekly, or daily when a grade misses one. */
  private skills(ctx: SourceContext, needed: (string | undefined)[]) {
    return lookupList(ctx, 'DescriptiveGrades/Skills', descriptiveSkillsResponse, (r) => r.Skills, needed, {
      usual: CADENCE.weekly,
      onMiss: CADENCE.daily,
    });
  }
}
