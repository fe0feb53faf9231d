// The grades feature, normal tier: every kind of grade -> newest_grade, average (overall and per subject,
// see subject-averages.ts), grade_at_risk and grade events; the behaviour entries it reads go to the
// behaviour feature (behaviour.ts), never to the grades. Ordinary grades are
// read every poll; the other kinds hourly; their lookups daily (and again when a grade names an id
// they do not know); the ~330 KB skills list weekly. The school rules answer domain values; this renders them.
import {
  gradeCategoriesResponse,
  gradeCommentsResponse,
  gradesResponse,
  gradingSystemResponse,
  schoolAveragesResponse,
} from '../portal/schemas/grades.js';
import {
  baseTextGradesResponse,
  pointCategoriesResponse,
  pointCommentsResponse,
  pointGradesResponse,
  textCategoriesResponse,
} from '../portal/schemas/othergrades.js';
import { descriptiveCommentsResponse, descriptiveGradesResponse, descriptiveSkillsResponse } from '../portal/schemas/descriptive.js';
import { authSubjectsResponse } from '../portal/schemas/lookups.js';
import {
  behaviourPointsCategoriesResponse,
  behaviourPointsCommentsResponse,
  behaviourPointsResponse,
  behaviourTypesResponse,
} from '../portal/schemas/behaviour.js';
import { childUnit, unitsResponse, type UnitSettings } from '../portal/schemas/identity.js';
import { gradeEvents, gradeItems, newestGrades, notGradeKeys, type GradePayload, type GradeSources } from '../school/grades.js';
import { averages, gradeScale } from '../school/averages.js';
import { semesterOf } from '../school/semester.js';
import { CADENCE } from '../feature-kit/resources.js';
import { BY_THE_HOUR, CORE, DAILY, NEWS, steady, type PlanRow } from '../feature-kit/plan.js';
import { allNamed, fetchAll } from '../feature-kit/fetch-plan.js';
import { lookupList, lookupRows, names } from '../feature-kit/lookups.js';
import { eventEntity } from '../feature-kit/entities.js';
import { feature, type FeatureAccess } from './feature.js';
import { shape, type Events, type Tracked, type TrackedPayload } from '../feature-kit/contract.js';
import { gradeAtRisk, renderGradeAtRisk, SUBJECT_AVERAGE_EXAMPLE, SubjectEntities } from './subject-averages.js';
import { readMark } from '../feature-kit/reads.js';
import { readPartialGrades, type FirstPageTold } from './partial-grades.js';
import { average, renderAverage } from './average.js';

import { newestGrade, renderNewestGrade } from './newest-grade.js';
import type { Language } from '../config/language.js';

export { average, renderAverage, type AverageFacts, type AverageSubject } from './average.js';
export { newestGrade, renderNewestGrade, type MarkWording, type NewestGradeFacts } from './newest-grade.js';
import type { Source, SourceContext, SourceResult } from '../feature-kit/source.js';
import type { BehaviourCategory, BehaviourComment, BehaviourGrade, BehaviourType } from '../portal/schemas/behaviour.js';
import type { Names } from '../school/names.js';

/** What features naming grades as an input read: the formal behaviour grades as read this poll, with their lookups. */
export interface GradesOutput {
  behaviour?: {
    grades: readonly BehaviourGrade[];
    types?: readonly BehaviourType[];
    categories?: readonly BehaviourCategory[];
    comments?: readonly BehaviourComment[];
    names: Names;
  };
}

declare module '../feature-kit/source.js' {
  interface FeatureOutputs {
    grades: GradesOutput;
  }
}

/** What an edit of a grade changes. Not the weight: it follows the category, and is 1 while the categories are unknown. */
const GRADE_COMPARED = ['grade', 'subject', 'category', 'date', 'comment'] as const;
export const gradeEvent = eventEntity('grade', { en: 'Grade', pl: 'Ocena', uk: 'Оцінка' }, 'mdi:school', {
  tracked: true,
  payload: shape<TrackedPayload<GradePayload, (typeof GRADE_COMPARED)[number]>>(),
});

/** The grades' rows of the fetch plan: an ordinary grade is news; the other kinds hourly (6 hours while the school leaves them empty). */
const OTHER_KIND = { fresh: BY_THE_HOUR, refresh: 'keep', whileEmptyMs: CADENCE.whileEmpty } as const;
/**
 * The grades a child actually gets are news (issue 47): classes 1 to 3 get descriptive grades, some
 * schools points or text grades. A kind that gave this child entries is read at the news age, as
 * ordinary grades; one whose list is empty (a kind the school does not use) waits its `whileEmpty`.
 */
const GRADE_KIND = { fresh: NEWS, refresh: 'read', whileEmptyMs: CADENCE.whileEmpty, note: 'at the news age while the child has such grades; 6 hours while the list is empty' } as const;
/** The school's whole skills list (about 330 KB) rarely changes: weekly, or daily when a grade names a skill it lacks. */
export const SKILLS_ROWS = lookupRows('DescriptiveGrades/Skills', { usual: CADENCE.weekly, onMiss: CADENCE.daily });

export const GRADES_PLAN = {
  grades: { resource: 'Grades', fresh: NEWS, refresh: 'read' },
  averages: { resource: 'Grades/Averages', fresh: CORE, refresh: 'read', note: 'the portal\'s own averages' },
  point: { resource: 'PointGrades', ...GRADE_KIND },
  text: { resource: 'BaseTextGrades', ...GRADE_KIND },
  descriptive: { resource: 'DescriptiveGrades', ...GRADE_KIND },
  behaviour: { resource: 'BehaviourGrades/Points', ...OTHER_KIND },
  // The descriptive grading of the new system (spec 4.5): a child's descriptive grades come here now.
  partial: { resource: 'partial grades (POST)', ...GRADE_KIND },
  gradingSystem: steady('GradingSystem', DAILY),
  units: steady('Units', DAILY, { whileEmptyMs: CADENCE.whileEmpty, note: "which kinds of grade the child's unit uses" }),
  authSubjects: steady('Auth/Subjects', DAILY, { whileEmptyMs: CADENCE.whileEmpty, note: 'only where partial grades are used' }),
  tokenInfo: steady('Auth/TokenInfo', DAILY, { whileEmptyMs: CADENCE.whileEmpty, note: "the user's LID, for the partial grades; a login reads it too, to prove the new session" }),
  userInfo: steady('Auth/UserInfo/<lid>', DAILY, { whileEmptyMs: CADENCE.whileEmpty, note: "the child's LID, for the partial grades" }),
} satisfies Record<string, PlanRow>;

export const grades = feature({
  name: 'grades',
  tier: 'normal',
  plan: [...Object.values(GRADES_PLAN), SKILLS_ROWS.usual, SKILLS_ROWS.onMiss],
  entities: [
    newestGrade,
    average,
    gradeEvent,
    gradeAtRisk,
  ],
  dynamicExamples: [SUBJECT_AVERAGE_EXAMPLE],
  create: (access) => new GradesSource(access),
});

/**
 * Every kind of grade, by name. Ordinary grades, and the point, text and descriptive grades the child
 * has, at the news age; behaviour points hourly; a kind the school's Units switch off is not asked for.
 */
function gradeLists(units: UnitSettings | undefined) {
  // A kind of grade the school does not use answers an empty list; the cache asks less often then.
  const list = (r: { Grades: readonly unknown[] }) => r.Grades;
  const rows = GRADES_PLAN;
  return {
    grades: { endpoint: 'Grades', schema: gradesResponse, row: rows.grades },
    point: units?.point === false ? undefined : { endpoint: 'PointGrades', schema: pointGradesResponse, row: rows.point, list },
    text: { endpoint: 'BaseTextGrades', schema: baseTextGradesResponse, row: rows.text, list },
    descriptive:
      units?.descriptive === false ? undefined : { endpoint: 'DescriptiveGrades', schema: descriptiveGradesResponse, row: rows.descriptive, list },
    behaviour: { endpoint: 'BehaviourGrades/Points', schema: behaviourPointsResponse, row: rows.behaviour, list },
    gradingSystem: { endpoint: 'GradingSystem', schema: gradingSystemResponse, row: rows.gradingSystem },
    // The portal's own averages, read with the grades; a school without them answers Disabled, which
    // the cache remembers for a day.
    schoolAverages: { endpoint: 'Grades/Averages', schema: schoolAveragesResponse, row: rows.averages },
  };
}

class GradesSource implements Source {
  private readonly subjects: SubjectEntities;
  private readonly thresholds: readonly number[];
  /** The day the log last said that only the first page of partial grades was read. */
  private readonly told: FirstPageTold = {};

  private readonly language: Language;

  constructor(access: Pick<FeatureAccess, 'account' | 'dataDir' | 'log' | 'thresholds' | 'language'>) {
    this.subjects = new SubjectEntities({ dataDir: access.dataDir, login: access.account.login, log: access.log });
    this.thresholds = access.thresholds;
    this.language = access.language;
  }

  prepare(): Promise<void> {
    return this.subjects.load();
  }

  dynamic() {
    return this.subjects.entities();
  }

  async poll(ctx: SourceContext): Promise<SourceResult> {
    const units = await ctx.cache.get({ endpoint: 'Units', schema: unitsResponse, row: GRADES_PLAN.units, staleOnError: true });
    // The child's own unit decides which kinds of grade exist (a school complex has several).
    const unit = childUnit(units, ctx.identity.unitId);
    const { lists, partialRead } = await allNamed({ lists: fetchAll(ctx.cache, gradeLists(unit)), partialRead: readPartialGrades(ctx, this.told, GRADES_PLAN) });
    const partial = partialRead?.data;
    const grades = lists.grades?.Grades;
    const point = lists.point?.Grades;
    const text = lists.text?.Grades;
    const descriptive = lists.descriptive?.Grades;
    const behaviour = lists.behaviour?.Grades;

    const ids = <T>(list: readonly T[] | undefined, pick: (item: T) => string | undefined | (string | undefined)[]) =>
      (list ?? []).flatMap((item) => pick(item));
    const some = (list: readonly unknown[] | undefined): boolean => (list?.length ?? 0) > 0;
    // The lookups of the kinds that have grades, named as GradeSources names them.
    const lookups = await allNamed({
      categories: lookupList(ctx, 'Grades/Categories', gradeCategoriesResponse, (r) => r.Categories, ids(grades, (g) => g.Category)),
      comments: some(grades) ? lookupList(ctx, 'Grades/Comments', gradeCommentsResponse, (r) => r.Comments, ids(grades, (g) => g.Comments)) : undefined,
      pointCategories: some(point) ? lookupList(ctx, 'PointGrades/Categories', pointCategoriesResponse, (r) => r.Categories, ids(point, (g) => g.Category)) : undefined,
      pointComments: some(point) ? lookupList(ctx, 'PointGrades/Comments', pointCommentsResponse, (r) => r.Comments, ids(point, (g) => g.Comments)) : undefined,
      textCategories: some(text) ? lookupList(ctx, 'TextGrades/Categories', textCategoriesResponse, (r) => r.Categories, ids(text, (g) => g.Category)) : undefined,
      skills: some(descriptive) ? this.skills(ctx, ids(descriptive, (g) => g.Skill)) : undefined,
      descriptiveComments: some(descriptive)
        ? lookupList(ctx, 'DescriptiveGrades/Comments', descriptiveCommentsResponse, (r) => r.Comments, ids(descriptive, (g) => g.Comments))
        : undefined,
      behaviourTypes: some(behaviour) ? lookupList(ctx, 'BehaviourGrades/Types', behaviourTypesResponse, (r) => r.Types) : undefined,
      behaviourComments: some(behaviour)
        ? lookupList(ctx, 'BehaviourGrades/Points/Comments', behaviourPointsCommentsResponse, (r) => r.Comments, ids(behaviour, (g) => g.Comments))
        : undefined,
      behaviourCategories: some(behaviour) ? lookupList(ctx, 'BehaviourGrades/Points/Categories', behaviourPointsCategoriesResponse, (r) => r.Categories) : undefined,
      authSubjects: some(partial)
        ? ctx.cache.get({ endpoint: 'Auth/Subjects', schema: authSubjectsResponse, row: GRADES_PLAN.authSubjects, staleOnError: true }).then((r) => r?.subjects)
        : undefined,
    });

    const all = [grades, point, text, descriptive, behaviour];
    const nameLookup = await names(ctx, {
      subjects: all.flatMap((list) => (list ?? []).map((g) => (g as { Subject?: string }).Subject)),
      users: all.flatMap((list) => (list ?? []).map((g) => (g as { AddedBy?: string }).AddedBy)),
    });
    const endFirstSemester = ctx.identity.semester1End;
    // The behaviour entries' lookups go to the behaviour feature with them: no entry is a subject grade.
    const { behaviourTypes, behaviourComments, behaviourCategories, ...gradeLookups } = lookups;
    const sources: GradeSources = {
      grades,
      pointGrades: point,
      textGrades: text,
      descriptiveGrades: descriptive,
      partialGrades: partial,
      behaviourPoints: behaviour,
      ...gradeLookups,
    };
    const items = gradeItems(sources, nameLookup, endFirstSemester);
    // Lenient reading keeps a record that lost its fields; a list where none names its subject means
    // the portal's format changed, which a parent must hear about rather than see a silent None.
    const lost = [grades, point, text].some((list) => list !== undefined && list.length > 0 && list.every((g) => g.Subject === undefined));
    const semester = averages({
      grades: grades ?? [],
      categories: lookups.categories,
      gradingSystem: lists.gradingSystem,
      semester: semesterOf(ctx.today, endFirstSemester),
      endFirstSemester,
      names: nameLookup,
      pointGrades: point,
      pointCategories: lookups.pointCategories,
    });
    // A list not read this time, or one that lost its subjects, must not take the subjects' sensors away
    // (the point grades name the subjects graded in points only).
    const pointsRead = unit?.point === false || point !== undefined;
    if (grades !== undefined && pointsRead && !lost) await this.subjects.update(semester.year);
    return {
      suspicious: lost ? 'grades: no grade names its subject (the portal format may have changed)' : undefined,
      states: {
        newest_grade: renderNewestGrade(newestGrades(items), { language: this.language, scale: gradeScale(lists.gradingSystem) }),
        average: renderAverage(semester, lists.schoolAverages?.Averages, this.thresholds),
        grade_at_risk: renderGradeAtRisk(semester, this.thresholds),
        ...this.subjects.states(semester, this.thresholds, lists.schoolAverages?.Averages),
      },
      events: { grade: gradeEvents(items) } satisfies Events<typeof gradeEvent>,
      output: {
        behaviour:
          behaviour === undefined ? undefined : { grades: behaviour, types: behaviourTypes, categories: behaviourCategories, comments: behaviourComments, names: nameLookup },
      } satisfies GradesOutput,
      tracked: {
        grade: {
          fields: GRADE_COMPARED,
          reads: {
            'grade:': readMark(lists.grades),
            'point:': readMark(lists.point),
            'text:': readMark(lists.text),
            'descriptive:': readMark(lists.descriptive),
            // Only a whole list can miss a grade: one that slid off the first page is not removed.
            'descriptive:p': partialRead?.whole === true ? readMark(partial) : undefined,
          },
          listed: notGradeKeys(sources),
        },
      } satisfies Tracked<typeof gradeEvent>,
    };
  }

  /** The school's whole skills list is large and rarely changes: weekly, or daily when a grade misses one. */
  private skills(ctx: SourceContext, needed: (string | undefined)[]) {
    return lookupList(ctx, 'DescriptiveGrades/Skills', descriptiveSkillsResponse, (r) => r.Skills, needed, SKILLS_ROWS);
  }
}
