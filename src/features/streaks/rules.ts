// The streaks of a school year and the achievements they unlock (interface 16.3), from what the bridge
// already reads: the grades of 1 to 6 (oldest first, by the days the portal gives them), the attendance
// marks and the notes.
// - A good grade is a grade of 4 or more (4-, 4 and 4+ are fours); a grade of 1 to 3 breaks the run; a
//   mark that is no grade (np, +, bz, a point grade) neither adds nor breaks. Term grades are no part of it;
//   an early-years class's descriptive grades given as a number are.
// - A school day is a day the register holds an attendance mark of the child's (present, absent or late):
//   the days the school recorded, so weekends, holidays and free days never count.
// - A day with an absence (excused or not; a late is no absence) breaks the run of days without one; a
//   negative note breaks the run of days without one from its day (a note on a Saturday: from Monday on).
// - An achievement is the first time this school year a run reached one of its counts, on the day it did.
//   Each is one event candidate whose id names the year, the kind and the count: the event memory fires it
//   once a school year, and a kind's first read only records (nothing fires for what was already true).
import type { NewsItem } from '../../rules/news.js';
import { textCompare } from '../../rules/order.js';

export const ACHIEVEMENT_KINDS = ['first_six', 'good_grades', 'no_absence', 'no_negative_note'] as const;
export type AchievementKind = (typeof ACHIEVEMENT_KINDS)[number];

/** The counts at which a run unlocks an achievement (first_six: the first 6 itself). */
export const ACHIEVEMENT_COUNTS: Readonly<Record<AchievementKind, readonly number[]>> = {
  first_six: [1],
  good_grades: [5, 10, 20],
  no_absence: [7, 30, 90],
  no_negative_note: [7, 30, 90],
};

/** One achievement: what, at which count, and the day it was reached (YYYY-MM-DD). */
export type Achievement = {
  kind: AchievementKind;
  count: number;
  date: string;
};

/** A grade as the streak reads it, in the order the grades feature hands them (oldest first). */
export interface StreakGrade {
  /** The grade as shown ('4+', '2', 'np'). */
  shown: string | null;
  /** YYYY-MM-DD, or null when the portal gives none. */
  date: string | null;
}

export interface StreaksInput {
  /** The grades in the order they came; null when the account has none (a kindergarten). */
  grades: readonly StreakGrade[] | null;
  /** Every day with an attendance mark; null when the account has no attendance. */
  markedDays: readonly string[] | null;
  /** The days of the absences (lates left out). */
  absenceDays: readonly string[];
  /** The days of the negative notes; null when the account has no notes. */
  negativeNoteDays: readonly string[] | null;
  /** The first day of the school year running. */
  yearStart: string;
  today: string;
}

/** What the sensor shows: each run now (null: unknown, or none for this account) and the year's achievements, oldest first. */
export interface Streaks {
  goodGrades: number | null;
  daysWithoutAbsence: number | null;
  daysWithoutNegativeNote: number | null;
  achievements: Achievement[];
}

/** The whole number of a grade of the scale 1 to 6 ('4-' is a 4), or null for a mark that is no such grade. */
export function gradeNumber(shown: string | null): number | null {
  const m = /^([1-6])\s*[+-]?$/.exec(shown?.trim() ?? '');
  return m ? Number(m[1]) : null;
}

/** Records the first time a run reached each of its kind's counts. */
class Unlocks {
  readonly list: Achievement[] = [];
  private readonly done = new Set<string>();

  reach(kind: AchievementKind, run: number, date: string): void {
    for (const count of ACHIEVEMENT_COUNTS[kind]) {
      const key = `${kind}:${count}`;
      if (run >= count && !this.done.has(key)) {
        this.done.add(key);
        this.list.push({ kind, count, date });
      }
    }
  }
}

function gradeRun(grades: readonly StreakGrade[], input: StreaksInput, unlocks: Unlocks): number {
  let run = 0;
  for (const g of grades) {
    const n = gradeNumber(g.shown);
    const date = g.date ?? input.today;
    if (n === null || date < input.yearStart || date > input.today) continue;
    if (n === 6) unlocks.reach('first_six', 1, date);
    run = n >= 4 ? run + 1 : 0;
    unlocks.reach('good_grades', run, date);
  }
  return run;
}

/** The run of school days after the last day that breaks it: a breaking day that is a school day does not count. */
function dayRun(kind: AchievementKind, days: readonly string[], breaks: readonly string[], unlocks: Unlocks): number {
  const broken = [...new Set(breaks)].sort();
  let run = 0;
  let b = 0;
  for (const day of days) {
    let hit = false;
    while (b < broken.length && (broken[b] as string) <= day) {
      // A break on this very day leaves the day out; one since the day before starts the run again here.
      hit = hit || broken[b] === day;
      run = 0;
      b++;
    }
    if (hit) continue;
    run++;
    unlocks.reach(kind, run, day);
  }
  return run;
}

/** The runs now and the year's achievements. */
export function streaks(input: StreaksInput): Streaks {
  const unlocks = new Unlocks();
  const goodGrades = input.grades ? gradeRun(input.grades, input, unlocks) : null;
  const schoolDays = input.markedDays === null ? null : [...new Set(input.markedDays)].filter((d) => d >= input.yearStart && d <= input.today).sort();
  const inYear = (days: readonly string[]): string[] => days.filter((d) => d >= input.yearStart);
  const daysWithoutAbsence = schoolDays === null ? null : dayRun('no_absence', schoolDays, inYear(input.absenceDays), unlocks);
  const daysWithoutNegativeNote =
    schoolDays === null || input.negativeNoteDays === null ? null : dayRun('no_negative_note', schoolDays, inYear(input.negativeNoteDays), unlocks);
  const order = (a: Achievement, b: Achievement): number =>
    textCompare(a.date, b.date) || ACHIEVEMENT_KINDS.indexOf(a.kind) - ACHIEVEMENT_KINDS.indexOf(b.kind) || a.count - b.count;
  return { goodGrades, daysWithoutAbsence, daysWithoutNegativeNote, achievements: unlocks.list.sort(order) };
}

/** What an `achievement` event carries. */
export type AchievementPayload = Achievement;

/** One candidate per achievement, its id naming the school year: each fires once a year, and never at a kind's first read. */
export function achievementEvents(s: Streaks, yearStart: string): NewsItem<AchievementPayload>[] {
  return s.achievements.map((a) => ({ id: `achievement:${yearStart}:${a.kind}:${a.count}`, payload: { ...a } }));
}
