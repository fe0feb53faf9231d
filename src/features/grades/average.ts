// The `average` sensor: the mean of the child's subject averages, each subject's figures beside it
// (the school's own average, point percentages, what the next grade threshold needs, the forecast) and
// the report card the forecasts make.
import { neededForNext, type Averages, round2 } from '../../rules/averages.js';
import { plCompare } from '../../rules/order.js';
import { sensor } from '../kit/entities.js';
import { withAttributes } from '../kit/render.js';
import { shape } from '../kit/contract.js';
import { previousPoints, previousSemester, schoolSemesterAverage, type Grading } from './subject-averages.js';
import { reportCard, subjectForecast } from './forecast.js';
import type { Behaviour } from '../../rules/behaviour.js';
import type { SchoolAverage } from '../../portal/schemas/grades.js';
import { GRADES, POINT_GRADES } from '../../engine/resources/grades.js';

/**
 * The attributes of average: the semester, in the second one the first one's mean and the grades it
 * counted, each subject's figures (its forecast too), point percentages when there are points, and the
 * report card the forecasts make (`forecast_average`, `honours`, `at_risk`): renderAverage's.
 */
export type AverageFacts = ReturnType<typeof renderAverage>['attributes'];

export const average = sensor(
  'average',
  { en: 'Average', pl: 'Średnia', uk: 'Середній бал' },
  {
    icon: 'mdi:chart-line',
    stateClass: 'measurement',
    attributes: shape<AverageFacts>(),
    module: [GRADES, POINT_GRADES],
    // Rendered once per pass into the grades' view (renderAverage), since newest_grade reads each subject's forecast from it.
    state: ({ averaged }: { averaged: ReturnType<typeof renderAverage> }) => averaged,
  },
);

/**
 * average: the mean of the subject averages with 2 decimals; each subject's figures beside (with
 * `grading`, what the next one needs and the forecast, and the report card of the forecasts, honours by
 * the behaviour grade), a subject graded in points only among them by its percentage.
 */
export function renderAverage(
  value: Averages,
  school: readonly SchoolAverage[] = [],
  grading?: Pick<Grading, 'thresholds' | 'today'> & { conduct?: Behaviour | null },
) {
  const schools = new Map(school.map((a) => [a.Subject, a]));
  const points = new Map((value.points ?? []).map((p) => [p.subjectId, p]));
  // One subject of `average`: its average and count; `school`, the school's own average this semester when it
  // publishes one; `percent` where it has point grades; the year's proposed and given term grades as written; in
  // the second semester the first one's figures; what the next threshold needs.
  const graded = value.subjects.map((s) => {
    const next = grading && neededForNext(s, grading.thresholds, value.scale);
    const figures = next && grading && gradingFigures(next, subjectForecast(s, grading.thresholds, grading.today));
    return {
      subject: s.subject ?? s.subjectId,
      average: s.average === null ? null : round2(s.average),
      count: s.count,
      // The school's own average this semester, when it publishes one (the dashboard shows it beside ours).
      ...schoolSemesterAverage(schools.get(s.subjectId), value.semester),
      percent: points.get(s.subjectId)?.percent,
      ...s.periods,
      ...previousSemester(s.previous),
      next_threshold: figures?.next_threshold,
      needed_for_next: figures?.needed_for_next,
      forecast: figures?.forecast,
      trend: figures?.trend,
      to_next: figures?.to_next,
    };
  });
  return withAttributes(value.overall === null ? null : round2(value.overall).toFixed(2), {
    semester: value.semester,
    ...(value.previous === undefined ? {} : previousSemester({ average: value.previous.overall, count: value.previous.count })),
    subjects: [...graded, ...pointsOnly(value)].sort((a, b) => plCompare(a.subject, b.subject)),
    ...(grading &&
      reportCard(
        graded.map((s) => ({ subject: s.subject, forecast: s.forecast ?? null })),
        grading.conduct ?? null,
      )),
    ...(value.points && { points: value.points.map((p) => ({ subject: p.subject ?? p.subjectId, percent: p.percent, count: p.count })) }),
  });
}

/**
 * What Assist's grades part and newest_grade read of a subject of `average`: each published only where the subject has
 * it (a percentage where it has point grades; with the grading thresholds, the next one, what it needs, the forecast),
 * undefined where it has not: an undefined value is left out of the published attributes, as before it was made a field.
 */
export interface SubjectFigures {
  subject: string;
  average: number | null;
  percent: number | null | undefined;
  /** Null at the top of the scale. */
  next_threshold: number | null | undefined;
  needed_for_next: string | null | undefined;
  forecast: string | null | undefined;
}

/** A subject's figures by the grading thresholds: the next threshold and what it needs, the forecast, its trend and what lifts it. */
function gradingFigures(next: ReturnType<typeof neededForNext>, ahead: ReturnType<typeof subjectForecast>) {
  const figures: Required<Pick<SubjectFigures, 'next_threshold' | 'needed_for_next' | 'forecast'>> = {
    next_threshold: next.threshold,
    needed_for_next: next.grade,
    forecast: ahead.forecast,
  };
  return { ...figures, trend: ahead.trend, to_next: ahead.to_next };
}

/**
 * The subjects graded in points only, by their percentage this semester; in the second, the first one's
 * beside (a subject with no point grade yet this semester is listed by it, its percentage null).
 */
function pointsOnly(value: Averages) {
  const inGrades = new Set(value.subjects.map((s) => s.subjectId));
  const now = new Map((value.points ?? []).map((p) => [p.subjectId, p]));
  const before = new Map((value.previous?.points ?? []).map((p) => [p.subjectId, p]));
  const ids = [...new Set([...now.keys(), ...before.keys()])].filter((id) => !inGrades.has(id));
  return ids.map((id) => {
    const p = now.get(id);
    const b = before.get(id);
    return {
      subject: (p ?? b)?.subject ?? id,
      average: null,
      count: p?.count ?? 0,
      percent: p?.percent ?? null,
      ...previousPoints(b),
      // No threshold, nothing needed, no forecast by points: left out of the published subject.
      next_threshold: undefined,
      needed_for_next: undefined,
      forecast: undefined,
    };
  });
}
