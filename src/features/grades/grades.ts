// The grades feature: every kind of grade -> newest_grade, average (overall and per subject, each
// subject with its grades of every kind, see subject-averages.ts; the forecast and the report card,
// forecast.ts), grade_at_risk and grade events; the behaviour entries it reads go to the behaviour
// feature (behaviour.ts), never to the grades. When each list is read is its declaration's
// (src/engine/resources/grades.ts). The school rules answer domain values; this renders them.
import type { GradeItem } from '../../rules/grade-item.js';
import { gradeEvents, gradeItems, newestGrades, notGradeKeys, type GradePayload, type GradeSources } from '../../rules/grades.js';
import { averages, gradeScale, type Averages } from '../../rules/averages.js';
import { termGrades, type TermGrade } from '../../rules/term-grades.js';
import { semesterOf } from '../../rules/semester.js';
import { want, type Copies, type Resource, type Want } from '../../engine/resource.js';
import * as R from '../../engine/resources/grades.js';
import { lookup, nameLookups, namesOf } from '../../engine/resources/lookups.js';
import { eventEntity } from '../kit/entities.js';
import { gradesBoard } from './board.js';
import { gradesDashboard } from './dashboard.js';
import { gradesAsk, type GradesAsk } from './ask.js';
import { feature, type FeatureAccess } from '../feature.js';
import { shape, statesOf, type Events, type Tracked, type TrackedPayload } from '../kit/contract.js';
import {
  gradeAtRisk,
  gradedSubjects,
  listedGrades,
  SUBJECT_AVERAGE_EXAMPLE,
  SubjectEntities,
  type ForecastChangedPayload,
} from './subject-averages.js';
import { behaviour as behaviourOf, type BehaviourInput } from '../../rules/behaviour.js';
import { readMark } from '../../engine/reads.js';
import { partialGrades, partialWants, type FirstPageTold } from './partial.js';
import { average, renderAverage } from './average.js';
import { GRADE_LISTS, newestGrade } from './newest.js';
import { childUnit, type UnitSettings } from '../../portal/schemas/identity.js';
import type { Identity } from '../../engine/identity.js';
import { silentLogger } from '../../util/log.js';
import { gradeNumber, type StarSubject, type StreakGrade } from '../streaks/rules.js';

import type { Source, SourceContext, SourceResult } from '../../engine/source.js';
import { yearSeries, type YearSeries } from '../../engine/series.js';
import { averagesYear, type AveragesYearInput } from './year.js';

/**
 * What features naming grades as an input read: the formal behaviour grades as read this pass, with their
 * lookups; null while the portal refuses them (undefined: not read this time).
 */
export interface GradesOutput {
  behaviour?: null | Omit<BehaviourInput, 'today' | 'endFirstSemester'>;
  /**
   * The grades of 1 to 6 (no term grade), oldest first, for the streaks; null while the portal refuses the
   * grades (a kindergarten), undefined when they were not read this time.
   */
  ordinary?: null | StreakGrade[];
  /** Each subject's average this semester and the forecast report card's honours, read with `ordinary` (the streaks' stars and honours). */
  standing?: { subjects: StarSubject[]; honours: boolean | null };
  /** The year's term grades, proposed and given: the one list (termGrades) the briefing and the calendar feeds print too. */
  terms?: readonly TermGrade[];
}

declare module '../../engine/source.js' {
  interface FeatureOutputs {
    grades: GradesOutput;
  }
}

/** What an edit of a grade changes. Not the weight: it follows the category, and is 1 while the categories are unknown. */
const GRADE_COMPARED = ['grade', 'subject', 'category', 'date', 'comment'] as const;
export const gradeEvent = eventEntity('grade', { en: 'Grade', pl: 'Ocena', uk: 'Оцінка' }, 'mdi:school', {
  tracked: true,
  payload: shape<TrackedPayload<GradePayload, (typeof GRADE_COMPARED)[number]>>(),
  module: GRADE_LISTS,
  rollover: { left: 'grades' },
});

/** A subject's forecast moved from one grade to another (interface 15.2); never at a first read. */
export const forecastChanged = eventEntity(
  'forecast_changed',
  { en: 'Forecast grade changed', pl: 'Zmiana przewidywanej oceny', uk: 'Зміна прогнозованої оцінки' },
  'mdi:chart-line-variant',
  { payload: shape<ForecastChangedPayload>(), module: [R.GRADES] },
);

const GRADES_ENTITIES = [newestGrade, average, gradeEvent, gradeAtRisk, forecastChanged];

export const grades = feature({
  name: 'grades',
  reads: ({ copies, identity }) => {
    const r = gradeReads(copies, identity);
    return [
      want(R.UNITS),
      ...Object.values(r.lists),
      ...r.partial.chain,
      ...(r.partial.list ? [r.partial.list] : []),
      ...Object.values(r.lookups),
      ...r.names,
    ].filter((w) => w !== undefined);
  },
  entities: GRADES_ENTITIES,
  board: gradesBoard,
  dashboard: gradesDashboard,
  ask: gradesAsk,
  dynamicExamples: [SUBJECT_AVERAGE_EXAMPLE],
  savedEntities: (dataDir, login) => new SubjectEntities({ dataDir, login, log: silentLogger() }).saved(),
  create: (access) => new GradesSource(access),
});

class GradesSource implements Source {
  private readonly subjects: SubjectEntities;
  /** The day the log last said that only the first page of partial grades was read. */
  private readonly told: FirstPageTold = {};

  constructor(private readonly access: Pick<FeatureAccess, 'account' | 'dataDir' | 'log' | 'thresholds' | 'averaging' | 'language'>) {
    this.subjects = new SubjectEntities({ dataDir: access.dataDir, login: access.account.login, log: access.log });
  }

  prepare(): Promise<void> {
    return this.subjects.load();
  }

  dynamic() {
    return this.subjects.entities();
  }

  /** A pass: what the copies hold (read), what it means (derive), what is published (render). */
  async compute(ctx: SourceContext): Promise<SourceResult> {
    const read = this.read(ctx);
    const derived = await this.derive(ctx, read);
    return this.render(ctx, read, derived);
  }

  /** The lists and lookups this pass holds, as `gradeReads` asked for them, and the grades of them every view is made from. */
  private read(ctx: SourceContext) {
    const c = ctx.cache;
    const { unit, lists: wanted, lookups: l, partial: p } = gradeReads(c, ctx.identity);
    const lists = {
      grades: c.get(R.GRADES),
      point: wanted.point && c.get(R.POINT_GRADES),
      text: c.get(R.TEXT_GRADES),
      descriptive: wanted.descriptive && c.get(R.DESCRIPTIVE_GRADES),
      behaviour: c.get(R.BEHAVIOUR_POINTS),
      gradingSystem: c.get(R.GRADING_SYSTEM),
      schoolAverages: c.get(R.GRADE_AVERAGES),
    };
    const partialRead = partialGrades(ctx, this.told, p.list);
    // The lookups of the kinds that have grades, named as GradeSources names them.
    const lookups = {
      categories: c.get(R.GRADE_CATEGORIES)?.Categories,
      comments: l.comments && c.get(R.GRADE_COMMENTS)?.Comments,
      pointCategories: l.pointCategories && c.get(R.POINT_CATEGORIES)?.Categories,
      pointComments: l.pointComments && c.get(R.POINT_COMMENTS)?.Comments,
      textCategories: l.textCategories && c.get(R.TEXT_CATEGORIES)?.Categories,
      skills: l.skills && c.get(R.SKILLS)?.Skills,
      descriptiveComments: l.descriptiveComments && c.get(R.DESCRIPTIVE_COMMENTS)?.Comments,
      behaviourTypes: l.behaviourTypes && c.get(R.BEHAVIOUR_TYPES)?.Types,
      behaviourComments: l.behaviourComments && c.get(R.BEHAVIOUR_COMMENTS)?.Comments,
      behaviourCategories: l.behaviourCategories && c.get(R.BEHAVIOUR_CATEGORIES)?.Categories,
      authSubjects: l.authSubjects && c.get(R.AUTH_SUBJECTS)?.subjects,
    };
    // The behaviour entries' lookups go to the behaviour feature with them: no entry is a subject grade.
    const { behaviourTypes, behaviourComments, behaviourCategories, ...gradeLookups } = lookups;
    const sources: GradeSources = {
      grades: lists.grades?.Grades,
      pointGrades: lists.point?.Grades,
      textGrades: lists.text?.Grades,
      descriptiveGrades: lists.descriptive?.Grades,
      partialGrades: partialRead?.data,
      behaviourPoints: lists.behaviour?.Grades,
      gradingSystem: lists.gradingSystem,
      ...gradeLookups,
    };
    const behaviour = { types: behaviourTypes, comments: behaviourComments, categories: behaviourCategories };
    return { unit, lists, partialRead, sources, behaviour, names: namesOf(c) };
  }

  /**
   * What the grades mean: every grade as an item, the term grades, the semester's averages and what they are rendered
   * with, the formal behaviour grade honours asks for, and the subjects' forecasts that moved (their keys kept).
   */
  private async derive(ctx: SourceContext, { unit, lists, sources, behaviour, names }: ReturnType<GradesSource['read']>) {
    const { grades, pointGrades: point, textGrades: text, behaviourPoints } = sources;
    const endFirstSemester = ctx.identity.semester1End;
    const items = gradeItems(sources, names, endFirstSemester);
    // The year's proposed and given term grades, one list that newest_grade and the averages both print.
    const terms = termGrades(items);
    // Lenient reading keeps a record that lost its fields; a list where none names its subject means
    // the portal's format changed, which a parent must hear about rather than see a silent None.
    const lost = [grades, point, text].some((list) => list !== undefined && list.length > 0 && list.every((g) => g.Subject === undefined));
    // What the averages are made of, the semester aside: today's for the sensors, each day's for the year's statistics.
    const averageInput = {
      grades: grades ?? [],
      categories: sources.categories,
      gradingSystem: lists.gradingSystem,
      endFirstSemester,
      names,
      pointGrades: point,
      pointCategories: sources.pointCategories,
      averaging: this.access.averaging,
      terms,
    };
    const semester = averages({ ...averageInput, semester: semesterOf(ctx.today, endFirstSemester) });
    const grading = { thresholds: this.access.thresholds, today: ctx.today, listed: listedGrades(items, semester.semester) };
    // Honours asks for the behaviour grade: the formal one read with the grades (none at a points school).
    const conduct =
      behaviourPoints &&
      behaviourOf({ grades: behaviourPoints, types: behaviour.types, categories: behaviour.categories, names, today: ctx.today, endFirstSemester });
    // A list not read this time, or one that lost its subjects, must not take the subjects' sensors away
    // (the point grades name the subjects graded in points only).
    const forecasts =
      grades !== undefined && (unit?.point === false || point !== undefined) && !lost
        ? await this.subjects.update(gradedSubjects(semester.year, items), semester.subjects, this.access.thresholds)
        : [];
    return { items, terms, lost, averageInput, semester, grading, conduct, forecasts };
  }

  /** The year's averages day by day, by the sensors' rule, worked out only when a sink asks for them. */
  private year(ctx: SourceContext, input: AveragesYearInput['input']): YearSeries {
    const span = { begins: ctx.identity.schoolYearBegin, endFirstSemester: ctx.identity.semester1End, today: ctx.today };
    const slugs = this.subjects.slugs();
    return yearSeries(() => averagesYear({ input, slugs }, span, this.access.language));
  }

  /** What a pass publishes: the states its declarations make of the view, the events, the year's averages, the output for others. */
  private render(
    ctx: SourceContext,
    { lists, partialRead, sources, behaviour, names }: ReturnType<GradesSource['read']>,
    { items, terms, lost, averageInput, semester, grading, conduct, forecasts }: Awaited<ReturnType<GradesSource['derive']>>,
  ): SourceResult {
    const c = ctx.cache;
    const { grades, behaviourPoints } = sources;
    const school = lists.schoolAverages?.Averages;
    const view = {
      newest: newestGrades(items, terms, semester.semester),
      wording: { language: this.access.language, scale: gradeScale(lists.gradingSystem) },
      averaged: renderAverage(semester, school, { ...grading, conduct }),
      semester,
      grading,
      school,
      gradesKnown: grades !== undefined,
    };
    return {
      suspicious: lost ? 'grades: no grade names its subject (the portal format may have changed)' : undefined,
      states: statesOf([...GRADES_ENTITIES, ...this.subjects.entities()], view),
      events: {
        grade: gradeEvents(items),
        forecast_changed: forecasts.map((payload) => ({ id: `${forecastChanged.key}:${payload.subject}:${ctx.now}`, payload })),
      } satisfies Events<typeof gradeEvent | typeof forecastChanged>,
      // The year's averages day by day once the grades were read (a list not read leaves the last ones standing).
      ...(grades === undefined || lost ? {} : { year: this.year(ctx, averageInput) }),
      output: {
        behaviour:
          behaviourPoints === undefined ? (c.refused(R.BEHAVIOUR_POINTS) ? null : undefined) : { grades: behaviourPoints, ...behaviour, names },
        ordinary: grades === undefined ? (c.refused(R.GRADES) ? null : undefined) : streakGrades(items),
        ...(grades === undefined ? {} : { standing: { subjects: starSubjects(semester), honours: view.averaged.attributes.honours ?? null } }),
        terms,
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
            'descriptive:p': partialRead?.whole === true ? readMark(partialRead.data) : undefined,
          },
          listed: notGradeKeys(sources),
        },
      } satisfies Tracked<typeof gradeEvent>,
      ask: {
        items: grades === undefined ? null : items,
        terms,
        averaged: view.averaged,
        semester: semester.semester,
        absent: grades === undefined && c.refused(R.GRADES),
      } satisfies GradesAsk,
    };
  }
}

/**
 * The grades on the scale of 1 to 6 that are no term grade, oldest first: the ordinary ones and an early-years
 * class's descriptive ones given as a number ("6" for a drawing), in the order of the days the portal gives them,
 * then of their entry.
 */
function streakGrades(items: readonly GradeItem[]): StreakGrade[] {
  const counted = items.filter(
    (i) => (i.kind === 'grade' || i.kind === 'descriptive') && i.details.period === undefined && gradeNumber(i.shown) !== null,
  );
  // The items are the newest first (newestFirst): the other way round, the oldest first.
  return counted
    .map((i) => ({
      shown: i.shown,
      date: i.date,
      key: i.key,
      subject: i.subject,
      ...(typeof i.details.improves === 'string' && { improves: i.details.improves }),
    }))
    .reverse();
}

/** Each subject's average this semester as its sensor shows it, and the grades it is made of. */
const starSubjects = (semester: Averages): StarSubject[] =>
  semester.subjects.map((s) => ({ id: s.subjectId, subject: s.subject ?? s.subjectId, average: s.average, count: s.count }));

/** A list's grades as its copy holds them (undefined: not read, or not asked for). */
type Listed = readonly { Category?: string; Comments?: string | string[]; Subject?: string; AddedBy?: string; Skill?: string }[] | undefined;

/**
 * What the grades read, by name: every kind of grade (a kind the child's unit switches off is not asked
 * for), the lookups of the kinds that have grades (each wanted again when a grade names an id it
 * lacks), the partial grades' steps and the names. Both `reads` and the computation take it, so that
 * the computation reads exactly what was said.
 */
function gradeReads(copies: Copies, identity: Identity) {
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
  const [grades, point, text, descriptive, behaviour] = [lists.grades, lists.point, lists.text, lists.descriptive, lists.behaviour].map(held);
  const partial = partialWants(copies);
  const partialData = partial.list === undefined ? undefined : copies.peek(R.PARTIAL_GRADES, partial.list.key)?.data;
  const ids = (list: Listed, pick: (g: NonNullable<Listed>[number]) => string | undefined | string[]) => (list ?? []).flatMap((g) => pick(g) ?? []);
  const only = (list: readonly unknown[] | undefined, w: Want): Want | undefined => ((list?.length ?? 0) > 0 ? w : undefined);
  // The lookup of the ids a list names, wanted while the list has grades.
  const of = (list: Listed, res: Resource, pick: Parameters<typeof ids>[1]) => only(list, lookup(copies, res, ids(list, pick)));
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
      comments: of(grades, R.GRADE_COMMENTS, (g) => g.Comments),
      pointCategories: of(point, R.POINT_CATEGORIES, (g) => g.Category),
      pointComments: of(point, R.POINT_COMMENTS, (g) => g.Comments),
      textCategories: of(text, R.TEXT_CATEGORIES, (g) => g.Category),
      skills: of(descriptive, R.SKILLS, (g) => g.Skill),
      descriptiveComments: of(descriptive, R.DESCRIPTIVE_COMMENTS, (g) => g.Comments),
      behaviourTypes: only(behaviour, lookup(copies, R.BEHAVIOUR_TYPES)),
      behaviourComments: of(behaviour, R.BEHAVIOUR_COMMENTS, (g) => g.Comments),
      behaviourCategories: only(behaviour, lookup(copies, R.BEHAVIOUR_CATEGORIES)),
      authSubjects: only(partialData, want(R.AUTH_SUBJECTS)),
    },
    names: nameLookups(copies, {
      subjects: all.flatMap((list) => ids(list, (g) => g.Subject)),
      users: all.flatMap((list) => ids(list, (g) => g.AddedBy)),
    }),
  };
}
