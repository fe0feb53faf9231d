// The forecast of the grades feature (interface 14.2, live-notes 47-51): the grade a subject's average
// gives by grading.thresholds, where it was heading these two weeks, how many grades of one value lift it
// a grade; and the report card the forecasts make (their mean, honours, the subjects at risk). Pure: the
// averages' figures and the day in, what `average` and `average_<subject>` publish out.
import { nextThreshold, reaches, type SubjectAverage, round2 } from '../../rules/averages.js';
import { atLeastVeryGood, type Behaviour } from '../../rules/behaviour.js';
import { addDays } from '../../util/time.js';

/** Where a subject's average heads: against its value 14 days earlier, by 0.1 or more. */
export type Trend = 'up' | 'down' | 'steady';

/** How far back the trend looks. */
const TREND_DAYS = 14;
/** The change of an average that is a trend, not noise. */
const TREND_STEP = 0.1;
/** The most grades `to_next` offers: more is nothing a family plans for. */
const TO_NEXT_MAX = 3;

/** The grade an average gives: 1 and one more for every threshold it reaches; null while nothing counts. */
export function forecastGrade(average: number | null, thresholds: readonly number[]): string | null {
  return average === null ? null : String(1 + thresholds.filter((t) => reaches(average, t)).length);
}

/** What lifts a forecast a grade: `{grade, count}`, or why nothing is said (`top`, `out_of_reach`, `no_grades`). */
export type ToNext = { grade: string; count: number } | { reason: 'top' | 'out_of_reach' | 'no_grades' };

/**
 * The fewest grades of weight 1 of one value that lift the average to the next threshold, of them the
 * lowest value (whole grades, live-notes 50: a 5 of weight 3 and a 3 give 4.50, one 6 makes it 4.80); else why
 * not: at the top, beyond TO_NEXT_MAX grades, or nothing counted yet.
 */
export function toNext(weighted: number, weights: number, thresholds: readonly number[]): ToNext {
  if (weights <= 0) return { reason: 'no_grades' };
  const next = nextThreshold(weighted / weights, thresholds);
  if (next === null) return { reason: 'top' };
  for (let count = 1; count <= TO_NEXT_MAX; count++) {
    for (let grade = 1; grade <= 6; grade++) {
      if (reaches((weighted + count * grade) / (weights + count), next)) return { grade: String(grade), count };
    }
  }
  return { reason: 'out_of_reach' };
}

/** The average against its value 14 days before today (the grades dated up to then); null when either has none. */
export function trendOf(grades: readonly { value: number; weight: number; date: string | undefined }[], today: string): Trend | null {
  const since = addDays(today, -TREND_DAYS);
  const mean = (list: typeof grades): number | null => {
    const weights = list.reduce((sum, g) => sum + g.weight, 0);
    return weights > 0 ? list.reduce((sum, g) => sum + g.value * g.weight, 0) / weights : null;
  };
  const now = mean(grades);
  const before = mean(grades.filter((g) => g.date === undefined || g.date <= since));
  if (now === null || before === null) return null;
  const change = round2(now) - round2(before);
  return change >= TREND_STEP - 1e-9 ? 'up' : change <= -TREND_STEP + 1e-9 ? 'down' : 'steady';
}

/** What a subject's average is heading for: `forecast` as written ("5"), `trend`, and `to_next` (ToNext), the grades to the next one. */
export function subjectForecast(s: SubjectAverage, thresholds: readonly number[], today: string) {
  return { forecast: forecastGrade(s.average, thresholds), trend: trendOf(s.grades, today), to_next: toNext(s.weighted, s.weights, thresholds) };
}

/** The mean of a report card that gives a certificate with distinction (the statute's rule). */
const HONOURS_MEAN = 4.75;

/**
 * The report card from each subject's forecast and the behaviour grade (the year's, else the semester's,
 * a proposal standing for its grade). Honours is false below the mean whatever the behaviour; null with no
 * forecast (a school of descriptive grades only) or, above the mean, while no behaviour grade is known.
 */
export function reportCard(subjects: readonly { subject: string; forecast: string | null }[], conduct: Behaviour | null) {
  const forecasts = subjects.flatMap((s) => (s.forecast === null ? [] : [Number(s.forecast)]));
  const mean = forecasts.length === 0 ? null : round2(forecasts.reduce((a, b) => a + b, 0) / forecasts.length);
  const mark = conduct && (conduct.final ?? conduct.finalProposal ?? conduct.semester ?? conduct.semesterProposal);
  const good = mark ? atLeastVeryGood(mark) : null;
  return {
    // The mean of the subjects' forecasts, 2 decimals; null while no subject has one.
    forecast_average: mean,
    // A certificate with distinction: a mean of 4.75 and behaviour at least "bardzo dobre"; null when either is not known.
    honours: mean === null ? null : mean < HONOURS_MEAN - 1e-9 ? false : good,
    // The subjects forecast a 1.
    at_risk: subjects.filter((s) => s.forecast === '1').map((s) => s.subject),
  };
}
