// The streaks of a school year and the achievements they unlock (interfaces 16.3 and 17.2), from what the
// bridge already reads: the grades of 1 to 6 (oldest first, by the days the portal gives them), the subjects'
// averages and the forecast report card, the attendance marks, the notes, the behaviour grades and the days the
// lucky number was the child's.
// - A good grade is a grade of 4 or more (4-, 4 and 4+ are fours; 6-, 6 and 6+ are sixes); a grade of 1 to 3
//   breaks the run; a mark that is no grade (np, +, bz, a point grade) neither adds nor breaks. Term grades are
//   no part of it; an early-years class's descriptive grades given as a number are.
// - A school day is a day the register holds an attendance mark of the child's (present, absent or late):
//   the days the school recorded, so weekends, holidays and free days never count.
// - A day with an absence (excused or not; a late is no absence) breaks the run of days without one; a late
//   breaks the run of days without one (`punctual`); a negative note breaks the run of days without one from
//   its day (a note on a Saturday: from Monday on).
// - A comeback is a grade the portal marks as the correction of a 1 or a 2 (1-, 2+ ...) that is a 4 or more.
// - A semester without a 1: once it has ended (the first on the portal's end of the first semester, the second
//   on its end of the school year), from 18:00 of its last day, with at least one grade and no 1 among its grades.
// - A full month: a calendar month that has ended, with at least one school day and no absence on any.
// - A subject star: a subject's average this semester of 5.0 or more (as shown, 2 decimals) on at least 5
//   grades; honours: the forecast report card's (an average of 4.75 and behaviour at least very good);
//   exemplary behaviour: a behaviour grade or proposal of "wzorowe". These three are states that may pass:
//   the day one was first seen is kept (`kept`), and it stays this year's achievement.
// - An achievement is the first time this school year a count was reached, or a thing (a subject, a corrected
//   grade, a semester, a month) was won, on the day it was. Each is one event candidate whose id names the
//   year, the kind and the count or the thing: the event memory fires it once a school year.
import type { NewsItem } from '../../rules/news.js';
import { textCompare } from '../../rules/order.js';
import { reaches } from '../../rules/averages.js';
import { addDays } from '../../util/time.js';

export const ACHIEVEMENT_KINDS = [
  'first_six',
  'good_grades',
  'no_absence',
  'no_negative_note',
  'sixes',
  'subject_star',
  'honours',
  'comeback',
  'semester_without_one',
  'full_month',
  'punctual',
  'praise',
  'exemplary_behaviour',
  'lucky',
] as const;
export type AchievementKind = (typeof ACHIEVEMENT_KINDS)[number];

/**
 * The counts at which a kind unlocks an achievement (first_six: the first 6 itself; honours and exemplary
 * behaviour: once). None for a kind of things, each its own achievement (a subject, a corrected grade, a
 * semester, a month): its count is how many this year, that one included (a semester's: the semester).
 */
export const ACHIEVEMENT_COUNTS: Readonly<Record<AchievementKind, readonly number[]>> = {
  first_six: [1],
  good_grades: [5, 10, 20],
  no_absence: [7, 30, 90],
  no_negative_note: [7, 30, 90],
  sixes: [5, 10, 25],
  subject_star: [],
  honours: [1],
  comeback: [],
  semester_without_one: [],
  full_month: [],
  punctual: [30],
  praise: [1, 3, 10],
  exemplary_behaviour: [1],
  lucky: [1, 3],
};

/** The kinds of a state that may pass (the day first seen is kept, not worked out again). */
export const KEPT_KINDS: readonly AchievementKind[] = ['subject_star', 'honours', 'exemplary_behaviour'];

/** One achievement: what, at which count, the day it was reached (YYYY-MM-DD), and its subject where it has one. */
export type Achievement = {
  kind: AchievementKind;
  count: number;
  date: string;
  /** Undefined for a kind without one: left out of the event and of `achievements`. */
  subject: string | undefined;
};

/**
 * An achievement and what it is of (`ref`: its count, or its thing: a subject, a grade's key, a month), which its
 * event id names; `quiet` once known to have been true already when the bridge first read its kind (record.ts).
 */
export type Unlocked = Achievement & { ref: string; quiet: boolean };

/** A grade as the streak reads it, in the order the grades feature hands them (oldest first). */
export interface StreakGrade {
  /** The grade as shown ('4+', '2', 'np'). */
  shown: string | null;
  /** YYYY-MM-DD, or null when the portal gives none. */
  date: string | null;
  /** Its key (`grade:<id>`), and the key of the grade it corrects when the portal marks it as a correction. */
  key?: string;
  improves?: string;
  subject?: string | null;
}

/** A subject's average this semester, as the `average_<subject>` sensor shows it. */
export interface StarSubject {
  id: string;
  subject: string;
  average: number | null;
  /** The grades it is made of. */
  count: number;
}

/** A behaviour grade or proposal, with its day (null: none given). */
export interface StreakConduct {
  exemplary: boolean;
  date: string | null;
}

export interface StreaksInput {
  /** The grades in the order they came; null when the account has none (a kindergarten). */
  grades: readonly StreakGrade[] | null;
  /** Every day with an attendance mark; null when the account has no attendance. */
  markedDays: readonly string[] | null;
  /** The days of the absences (lates left out). */
  absenceDays: readonly string[];
  /** The days of the lates (absent: not known). */
  lateDays?: readonly string[];
  /** The days of the negative notes; null when the account has no notes. */
  negativeNoteDays: readonly string[] | null;
  /** The days of the positive notes (null or absent: none for the account). */
  positiveNoteDays?: readonly string[] | null;
  /** The subjects' averages this semester (absent: not known). */
  subjects?: readonly StarSubject[];
  /** The forecast report card's honours (null or absent: not known). */
  honours?: boolean | null;
  /** The year's behaviour grades and proposals (null or absent: none for the account). */
  conduct?: readonly StreakConduct[] | null;
  /** The days the lucky number was the child's (absent: the school's lucky number is not known). */
  luckyDays?: readonly string[];
  /** The portal's last day of the first semester and of the school year (absent: not given). */
  semester1End?: string;
  yearEnd?: string;
  /** The achievements of a state that may pass, kept since they were first seen this year. */
  kept?: readonly Unlocked[];
  /** The first day of the school year running. */
  yearStart: string;
  today: string;
  /** The time of day now (HH:MM, Warsaw); a semester's last day ends it from SEMESTER_CLOSES. Midnight when not given. */
  time?: string;
}

/**
 * From this hour a semester's last day counts as its end: its lessons are over and the day's grades in, so the
 * family hears of a semester without a 1 that evening, not the morning after (for the school year's second, a
 * holiday).
 */
export const SEMESTER_CLOSES = '18:00';

/** How far a kind is: its count now and the count of its next achievement (null: none to come this year, or each thing counts alone). */
export type Progress = { count: number; next: number | null };

/** What the sensor shows: each run now (null: unknown, or none for this account), the year's achievements, oldest first, and each kind's progress. */
export interface Streaks {
  goodGrades: number | null;
  daysWithoutAbsence: number | null;
  daysWithoutNegativeNote: number | null;
  achievements: Unlocked[];
  /** The kinds the account has, in ACHIEVEMENT_KINDS' order. */
  progress: Partial<Record<AchievementKind, Progress>>;
}

/** The whole number of a grade of the scale 1 to 6 ('4-' is a 4), or null for a mark that is no such grade. */
export function gradeNumber(shown: string | null): number | null {
  const m = /^([1-6])\s*[+-]?$/.exec(shown?.trim() ?? '');
  return m ? Number(m[1]) : null;
}

/** Records the first time a count of each kind was reached, and each thing won. */
class Unlocks {
  readonly list: Unlocked[] = [];
  private readonly done = new Set<string>();

  reach(kind: AchievementKind, run: number, date: string): void {
    for (const count of ACHIEVEMENT_COUNTS[kind])
      if (run >= count) this.win({ kind, count, date, ref: String(count), subject: undefined, quiet: false });
  }

  /** A thing won (its `ref` says which), once: the first call for it stands. */
  win(a: Unlocked): void {
    const key = `${a.kind}:${a.ref}`;
    if (this.done.has(key)) return;
    this.done.add(key);
    this.list.push(a);
  }

  /** How many of a kind this year. */
  count(kind: AchievementKind): number {
    return this.list.filter((a) => a.kind === kind).length;
  }

  /** A kind's progress: `count` now, `next` its first count not reached this year. */
  progress(kind: AchievementKind, count: number): Progress {
    return { count, next: ACHIEVEMENT_COUNTS[kind].find((c) => !this.done.has(`${kind}:${c}`)) ?? null };
  }
}

/** The grades of this school year up to today, each with its number and day. */
function yearGrades(grades: readonly StreakGrade[], input: StreaksInput) {
  return grades.flatMap((g) => {
    const n = gradeNumber(g.shown);
    const date = g.date ?? input.today;
    return n === null || date < input.yearStart || date > input.today ? [] : [{ ...g, n, date }];
  });
}

/** The good-grades run now, the sixes, the comebacks and the semesters without a 1. */
function gradeKinds(grades: readonly StreakGrade[], input: StreaksInput, unlocks: Unlocks, progress: Streaks['progress']): number {
  const counted = yearGrades(grades, input);
  let run = 0;
  let sixes = 0;
  const byKey = new Map(counted.flatMap((g) => (g.key === undefined ? [] : [[g.key, g.n] as const])));
  for (const g of counted) {
    if (g.n === 6) {
      sixes++;
      unlocks.reach('first_six', 1, g.date);
      unlocks.reach('sixes', sixes, g.date);
    }
    run = g.n >= 4 ? run + 1 : 0;
    unlocks.reach('good_grades', run, g.date);
    const corrected = g.improves === undefined ? undefined : byKey.get(g.improves);
    if (corrected !== undefined && corrected <= 2 && g.n >= 4 && g.key !== undefined)
      unlocks.win({
        kind: 'comeback',
        count: unlocks.count('comeback') + 1,
        date: g.date,
        ref: g.key,
        subject: g.subject || undefined,
        quiet: false,
      });
  }
  // The semesters: the first to its end, the second from the day after to the end of the year.
  const first = input.semester1End?.slice(0, 10);
  const semesters = [
    { no: 1, from: input.yearStart, to: first },
    { no: 2, from: first === undefined ? undefined : addDays(first, 1), to: input.yearEnd?.slice(0, 10) },
  ];
  let running: number | null = null;
  for (const s of semesters) {
    if (s.from === undefined || s.to === undefined || input.today < s.from) continue;
    const own = counted.filter((g) => g.date >= (s.from as string) && g.date <= (s.to as string));
    const clean = own.every((g) => g.n !== 1);
    const ended = input.today > s.to || (input.today === s.to && (input.time ?? '00:00') >= SEMESTER_CLOSES);
    if (ended && own.length > 0 && clean)
      unlocks.win({ kind: 'semester_without_one', count: s.no, date: s.to, ref: String(s.no), subject: undefined, quiet: false });
    if (!ended && clean) running = s.no;
  }
  progress.first_six = unlocks.progress('first_six', Math.min(sixes, 1));
  progress.good_grades = unlocks.progress('good_grades', run);
  progress.sixes = unlocks.progress('sixes', sixes);
  progress.comeback = { count: unlocks.count('comeback'), next: null };
  progress.semester_without_one = { count: unlocks.count('semester_without_one'), next: running };
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

/** The calendar months that ended with school days and no absence on any; progress `next` while the month running has none yet. */
function fullMonths(schoolDays: readonly string[], absences: readonly string[], today: string, unlocks: Unlocks): Progress {
  const absent = new Set(absences);
  const months = new Map<string, boolean>();
  for (const day of schoolDays) {
    const month = day.slice(0, 7);
    months.set(month, (months.get(month) ?? true) && !absent.has(day));
  }
  const now = today.slice(0, 7);
  for (const [month, clean] of months) {
    if (!clean || month >= now) continue;
    // The month's last day: the day before the next month's first.
    const next = addDays(`${month}-28`, 4).slice(0, 7);
    unlocks.win({
      kind: 'full_month',
      count: unlocks.count('full_month') + 1,
      date: addDays(`${next}-01`, -1),
      ref: month,
      subject: undefined,
      quiet: false,
    });
  }
  const running = ![...absent].some((d) => d.startsWith(now) && d <= today);
  const count = unlocks.count('full_month');
  return { count, next: running ? count + 1 : null };
}

/** Each of the days counted in turn (a note, a lucky day): the count of this year's up to today. */
function tally(kind: AchievementKind, days: readonly string[], input: StreaksInput, unlocks: Unlocks): Progress {
  const counted = days.filter((d) => d >= input.yearStart && d <= input.today).sort();
  counted.forEach((day, i) => unlocks.reach(kind, i + 1, day));
  return unlocks.progress(kind, counted.length);
}

/** The states that may pass: what was kept stands with its day, what is true now and new comes today. */
function stateKinds(input: StreaksInput, unlocks: Unlocks, progress: Streaks['progress']): void {
  for (const a of input.kept ?? []) unlocks.win(a);
  const today = input.today;
  if (input.subjects !== undefined) {
    for (const s of input.subjects)
      if (s.average !== null && s.count >= 5 && reaches(s.average, 5))
        unlocks.win({ kind: 'subject_star', count: unlocks.count('subject_star') + 1, date: today, ref: s.id, subject: s.subject, quiet: false });
    progress.subject_star = { count: unlocks.count('subject_star'), next: null };
  }
  if (input.grades !== null) {
    if (input.honours === true) unlocks.reach('honours', 1, today);
    progress.honours = unlocks.progress('honours', input.honours === true ? 1 : 0);
  }
  if (input.conduct != null) {
    const exemplary = input.conduct.filter((c) => c.exemplary && (c.date === null || (c.date >= input.yearStart && c.date <= today)));
    const first = exemplary.map((c) => c.date ?? today).sort()[0];
    if (first !== undefined) unlocks.reach('exemplary_behaviour', 1, first);
    progress.exemplary_behaviour = unlocks.progress('exemplary_behaviour', exemplary.length > 0 ? 1 : 0);
  }
}

/** The runs now, the year's achievements and each kind's progress. */
export function streaks(input: StreaksInput): Streaks {
  const unlocks = new Unlocks();
  const progress: Streaks['progress'] = {};
  const goodGrades = input.grades ? gradeKinds(input.grades, input, unlocks, progress) : null;
  const schoolDays = input.markedDays === null ? null : [...new Set(input.markedDays)].filter((d) => d >= input.yearStart && d <= input.today).sort();
  const inYear = (days: readonly string[]): string[] => days.filter((d) => d >= input.yearStart);
  let daysWithoutAbsence: number | null = null;
  let daysWithoutNegativeNote: number | null = null;
  if (schoolDays !== null) {
    daysWithoutAbsence = dayRun('no_absence', schoolDays, inYear(input.absenceDays), unlocks);
    progress.no_absence = unlocks.progress('no_absence', daysWithoutAbsence);
    progress.full_month = fullMonths(schoolDays, inYear(input.absenceDays), input.today, unlocks);
    if (input.lateDays !== undefined)
      progress.punctual = unlocks.progress('punctual', dayRun('punctual', schoolDays, inYear(input.lateDays), unlocks));
    if (input.negativeNoteDays !== null) {
      daysWithoutNegativeNote = dayRun('no_negative_note', schoolDays, inYear(input.negativeNoteDays), unlocks);
      progress.no_negative_note = unlocks.progress('no_negative_note', daysWithoutNegativeNote);
    }
  }
  if (input.positiveNoteDays != null) progress.praise = tally('praise', input.positiveNoteDays, input, unlocks);
  stateKinds(input, unlocks, progress);
  if (input.luckyDays !== undefined) progress.lucky = tally('lucky', input.luckyDays, input, unlocks);
  const rank = (k: AchievementKind): number => ACHIEVEMENT_KINDS.indexOf(k);
  const order = (a: Achievement, b: Achievement): number => textCompare(a.date, b.date) || rank(a.kind) - rank(b.kind) || a.count - b.count;
  const ordered = Object.fromEntries(ACHIEVEMENT_KINDS.flatMap((k) => (progress[k] === undefined ? [] : [[k, progress[k]]])));
  return { goodGrades, daysWithoutAbsence, daysWithoutNegativeNote, achievements: unlocks.list.sort(order), progress: ordered };
}

/** What an `achievement` event carries. */
export type AchievementPayload = Achievement;

/** An achievement's id in the event memory: the school year, the kind and its count or thing. */
export const achievementId = (a: Unlocked, yearStart: string): string => `achievement:${yearStart}:${a.kind}:${a.ref}`;

/**
 * One candidate per achievement, its id naming the school year: each fires once a year. One already true when its
 * kind was first read goes as `quiet`: the event memory keeps it as such, never tells it (record.ts rebuilds from it).
 */
export function achievementEvents(list: readonly Unlocked[], yearStart: string): NewsItem<AchievementPayload>[] {
  return list.map((a) => ({ id: achievementId(a, yearStart), payload: shownAchievement(a), ...(a.quiet ? { quiet: true as const } : {}) }));
}

/** An achievement as an event publishes it: what it is of left out. */
export function shownAchievement({ ref: _, quiet: __, ...a }: Unlocked): Achievement {
  return a;
}
