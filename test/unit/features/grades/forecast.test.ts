// The forecast against tables (interface 14.2, live-notes 47-51): the grade an average gives, the fewest
// grades of one value to the next, the trend of two weeks, the report card and honours.
import { describe, expect, it } from 'vitest';
import { forecastGrade, reportCard, toNext, trendOf } from '../../../../src/features/grades/forecast.js';
import { DEFAULT_GRADE_THRESHOLDS } from '../../../../src/config/schema.js';
import type { Behaviour, BehaviourMark } from '../../../../src/rules/behaviour.js';

const T = DEFAULT_GRADE_THRESHOLDS;

describe('forecastGrade', () => {
  it.each([
    [null, null],
    [1, '1'],
    [1.74, '1'],
    [1.75, '2'],
    [2.75, '3'],
    [3.745, '4'], // shown 3.75, as needed_for_next compares
    [4.5, '4'],
    [4.75, '5'],
    [5.49, '5'],
    [5.5, '6'],
    [6, '6'],
  ])('%s gives %s', (average, grade) => {
    expect(forecastGrade(average, T)).toBe(grade);
  });

  it("follows the school's thresholds", () => {
    expect(forecastGrade(4.5, [1.5, 2.5, 3.5, 4.5, 5.5])).toBe('5');
  });
});

describe('toNext', () => {
  it.each([
    // live-notes 50: a 5 of weight 3 and a 3 of weight 1 (4.50, a 4): one 6 lifts it to 4.80, a 5.
    ['5 (3) and 3 (1)', 18, 4, { grade: '6', count: 1 }],
    // 4.00 of weight 3: one 6 gives 4.50, two 4.80 (a 5 twice only 4.40): interface 14.2's example.
    ['4.00 of weight 3', 12, 3, { grade: '6', count: 2 }],
    // 4.00 of weight 6: three 6s give 4.67, short of 4.75.
    ['4.00 of weight 6', 24, 6, { reason: 'out_of_reach' }],
    // 3.00 of 2: to 3.75 one 5 (3.67) is not enough, one 6 (4.00) is.
    ['3.00 of weight 2', 6, 2, { grade: '6', count: 1 }],
    // 3.50 of weight 2: one 4 gives 3.67, one 5 gives 4.00: the lowest value of the fewest.
    ['3.50 of weight 2', 7, 2, { grade: '5', count: 1 }],
    // 2.00 of weight 10: three 6s give 2.92, past 2.75.
    ['2.00 of weight 10', 20, 10, { grade: '6', count: 3 }],
    // 1.00 of weight 20: three 6s give 1.65, short of 1.75.
    ['1.00 of weight 20', 20, 20, { reason: 'out_of_reach' }],
    ['at the top', 11.5, 2, { reason: 'top' }],
    ['nothing counted', 0, 0, { reason: 'no_grades' }],
  ])('%s', (_, weighted, weights, expected) => {
    expect(toNext(weighted, weights, T)).toEqual(expected);
  });

  it('lifts the forecast by exactly the grades it names, and no fewer', () => {
    for (const [weighted, weights] of [
      [18, 4],
      [12, 3],
      [7, 2],
      [20, 10],
    ] as const) {
      const next = toNext(weighted, weights, T) as { grade: string; count: number };
      const g = Number(next.grade);
      const after = (count: number, value: number) => forecastGrade((weighted + count * value) / (weights + count), T);
      const now = Number(forecastGrade(weighted / weights, T));
      expect(after(next.count, g)).toBe(String(now + 1));
      expect(after(next.count, g - 1)).toBe(String(now));
      if (next.count > 1) expect(after(next.count - 1, 6)).toBe(String(now));
    }
  });
});

describe('trendOf', () => {
  const today = '2026-11-25';
  const grade = (value: number, date: string, weight = 1) => ({ value, weight, date });
  it.each([
    ['up by the new grades', [grade(3, '2026-11-01'), grade(5, '2026-11-20')], 'up'],
    ['down by the new grades', [grade(5, '2026-11-01'), grade(3, '2026-11-20')], 'down'],
    ['steady under 0.1', [grade(4, '2026-11-01'), grade(4, '2026-11-05', 20), grade(5, '2026-11-24', 0.1)], 'steady'],
    ['steady with nothing new', [grade(4, '2026-11-01')], 'steady'],
    // The grade of the day 14 days back counts in the earlier average.
    ['the 14th day back counts as earlier', [grade(3, '2026-11-11'), grade(3, '2026-11-12')], 'steady'],
    ['none to compare: all grades new', [grade(5, '2026-11-20')], null],
    ['none at all', [], null],
  ] as const)('%s', (_, grades, trend) => {
    expect(trendOf(grades, today)).toBe(trend);
  });

  it('counts by weight: a 6 of weight 1 against a 3 of weight 9 moves the average 0.3', () => {
    expect(trendOf([grade(3, '2026-11-01', 9), grade(6, '2026-11-24')], today)).toBe('up');
  });
});

describe('reportCard', () => {
  const mark = (grade: string, short: string | null, over: Partial<BehaviourMark> = {}): BehaviourMark => ({
    grade,
    short,
    period: 'semester',
    proposal: false,
    semester: 1,
    date: '2026-01-20',
    teacher: null,
    category: null,
    ...over,
  });
  const conduct = (over: Partial<Behaviour>): Behaviour => ({
    newest: null,
    semester: null,
    semesterProposal: null,
    final: null,
    finalProposal: null,
    points: null,
    currentSemester: 1,
    ...over,
  });
  const subjects = (...forecasts: (string | null)[]) => forecasts.map((forecast, i) => ({ subject: `s${i}`, forecast }));

  it('is the plain mean of the forecasts with 2 decimals, the subjects forecast a 1 at risk', () => {
    expect(reportCard(subjects('5', '4', '1', null), null)).toEqual({ forecast_average: 3.33, honours: false, at_risk: ['s2'] });
    expect(reportCard(subjects(null), null)).toEqual({ forecast_average: null, honours: null, at_risk: [] });
  });

  it.each([
    ['a mean of 4.75 and "bardzo dobre"', subjects('5', '5', '5', '4'), { semester: mark('bardzo dobre', 'bdb') }, true],
    ['"wzorowe" proposed', subjects('6', '5'), { semesterProposal: mark('wzorowe', null, { proposal: true }) }, true],
    ["the year's grade before the semester's", subjects('6', '5'), { final: mark('dobre', 'db'), semester: mark('wzorowe', 'wz') }, false],
    ['"dobre"', subjects('6', '5'), { semester: mark('dobre', 'db') }, false],
    ['under 4.75', subjects('5', '5', '4', '4'), { semester: mark('wzorowe', 'wz') }, false],
    ['no behaviour grade yet', subjects('6', '6'), {}, null],
  ] as const)('honours: %s', (_, subjects, behaviour, honours) => {
    expect(reportCard(subjects, conduct(behaviour)).honours).toBe(honours);
  });
});
