// What the streaks' rule tests share: the school year, a day in it, the grades of November and an input of the rule.
import type { StreakGrade, StreaksInput } from '../../../../src/features/streaks/rules.js';

export const YEAR = '2026-09-01';
export const TODAY = '2026-11-27';

/** The grades in order, each on its own day of November. */
export const grades = (...shown: string[]): StreakGrade[] => shown.map((s, i) => ({ shown: s, date: `2026-11-${String(i + 1).padStart(2, '0')}` }));

/** The rule's input on TODAY: nothing but what `over` gives. */
export const input = (over: Partial<StreaksInput> = {}): StreaksInput => ({
  grades: [],
  markedDays: [],
  absenceDays: [],
  negativeNoteDays: [],
  yearStart: YEAR,
  today: TODAY,
  ...over,
});
