// The achievement kinds of interface 17.2, each by its rule (pure): sixes, a subject star, honours, a comeback, a
// semester without a 1, a full month, punctual, praise, exemplary behaviour and the lucky number, each on its day
// with its count and progress; and the record beside the event memory (record.ts): a kind read the first time
// fires nothing, a state that passes stays with its first day, a new school year starts afresh.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { streaks, type StreakGrade, type StreaksInput, type Unlocked } from '../../../../src/features/streaks/rules.js';
import { AchievementRecord } from '../../../../src/features/streaks/record.js';
import { refuseUnreleasedData } from '../../../../src/app/unreleased-data.js';
import { silentLogger } from '../../../../src/util/log.js';
import { grades, input, YEAR } from './inputs.js';

const of = (i: StreaksInput, kind: string) =>
  streaks(i)
    .achievements.filter((a) => a.kind === kind)
    .map((a) => `${a.count} ${a.date}${a.subject === undefined ? '' : ` ${a.subject}`}`);
const progress = (i: StreaksInput, kind: string) => (streaks(i).progress as Record<string, unknown>)[kind];

/** The school days (Monday to Friday) from `from` to `to`. */
function weekdays(from: string, to: string): string[] {
  const days: string[] = [];
  for (const d = new Date(`${from}T12:00:00Z`); d.toISOString().slice(0, 10) <= to; d.setUTCDate(d.getUTCDate() + 1)) {
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) days.push(d.toISOString().slice(0, 10));
  }
  return days;
}

describe('sixes', () => {
  it('5, 10 and 25 sixes in the school year, on the day of the one that made it, whatever came between', () => {
    const list = grades(...Array.from({ length: 25 }, (_, i) => (i % 2 === 0 ? '6' : '6-')));
    expect(of(input({ grades: [...grades('1'), ...list.map((g) => ({ ...g, date: g.date!.replace('-11-', '-10-') }))] }), 'sixes')).toEqual([
      '5 2026-10-05',
      '10 2026-10-10',
      '25 2026-10-25',
    ]);
    // Four sixes and a 5: four of five, the next at five.
    expect(progress(input({ grades: grades('6', '6+', '5', '6', '6') }), 'sixes')).toEqual({ count: 4, next: 5 });
    // Last school year's do not count.
    expect(of(input({ grades: [{ shown: '6', date: '2026-06-20' }, ...grades('6', '6', '6', '6')] }), 'sixes')).toEqual([]);
  });
});

describe('a subject star', () => {
  const subject = (average: number | null, count: number) => [{ id: '77', subject: 'Fizyka', average, count }];

  it('is a subject’s average of 5.0 or more (as shown) on at least 5 grades, with its subject, on the day it is first seen', () => {
    expect(of(input({ subjects: subject(4.995, 5) }), 'subject_star')).toEqual(['1 2026-11-27 Fizyka']);
    expect(of(input({ subjects: subject(4.99, 8) }), 'subject_star')).toEqual([]);
    expect(of(input({ subjects: subject(6, 4) }), 'subject_star')).toEqual([]);
    expect(of(input({ subjects: subject(null, 0) }), 'subject_star')).toEqual([]);
  });

  it('stays with the day it was kept, after the average fell', () => {
    const kept: Unlocked[] = [{ kind: 'subject_star', count: 1, date: '2026-10-14', subject: 'Fizyka', ref: '77', quiet: false }];
    expect(of(input({ subjects: subject(4.2, 9), kept }), 'subject_star')).toEqual(['1 2026-10-14 Fizyka']);
    expect(of(input({ subjects: subject(5.5, 9), kept }), 'subject_star')).toEqual(['1 2026-10-14 Fizyka']);
  });
});

describe('honours', () => {
  it('comes on the day the forecast report card says honours; unknown or no is nothing', () => {
    expect(of(input({ honours: true }), 'honours')).toEqual(['1 2026-11-27']);
    expect(of(input({ honours: false }), 'honours')).toEqual([]);
    expect(of(input({ honours: null }), 'honours')).toEqual([]);
    expect(progress(input({ honours: false }), 'honours')).toEqual({ count: 0, next: 1 });
    expect(progress(input({ grades: null, honours: true }), 'honours')).toBeUndefined();
  });
});

describe('a comeback', () => {
  const list = (original: string, correction: string): StreakGrade[] => [
    { shown: original, date: '2026-10-05', key: 'grade:1', subject: 'Matematyka' },
    { shown: '5', date: '2026-10-07', key: 'grade:2', subject: 'Polski' },
    { shown: correction, date: '2026-10-20', key: 'grade:3', subject: 'Matematyka', improves: 'grade:1' },
  ];

  it('is a 1 or a 2 the portal marks as corrected to a 4 or more, on the correction’s day, with its subject', () => {
    expect(of(input({ grades: list('1', '4-') }), 'comeback')).toEqual(['1 2026-10-20 Matematyka']);
    expect(of(input({ grades: list('2+', '6') }), 'comeback')).toEqual(['1 2026-10-20 Matematyka']);
    expect(of(input({ grades: list('2', '3+') }), 'comeback')).toEqual([]);
    expect(of(input({ grades: list('3', '5') }), 'comeback')).toEqual([]);
    // A later grade that corrects nothing is no comeback.
    expect(of(input({ grades: list('1', '5').map(({ improves: _, ...g }) => g) }), 'comeback')).toEqual([]);
  });
});

describe('a semester without a 1', () => {
  const ends = { semester1End: '2027-01-24', yearEnd: '2027-06-25' };

  it('comes when the semester has ended (from 18:00 of its last day) with grades and no 1, dated its last day', () => {
    const first = [
      { shown: '2', date: '2026-10-01' },
      { shown: '5', date: '2027-01-20' },
    ];
    expect(of(input({ grades: first, ...ends, today: '2027-01-24' }), 'semester_without_one')).toEqual([]);
    // Its last day's evening ends it: the family hears of it that day.
    expect(of(input({ grades: first, ...ends, today: '2027-01-24', time: '17:59' }), 'semester_without_one')).toEqual([]);
    expect(of(input({ grades: first, ...ends, today: '2027-01-24', time: '18:00' }), 'semester_without_one')).toEqual(['1 2027-01-24']);
    expect(of(input({ grades: first, ...ends, today: '2027-01-25' }), 'semester_without_one')).toEqual(['1 2027-01-24']);
    expect(progress(input({ grades: first, ...ends, today: '2027-01-25' }), 'semester_without_one')).toEqual({ count: 1, next: 2 });
    // A 1 in it (1+ too): none, and none to come this semester.
    const one = [...first, { shown: '1+', date: '2026-12-01' }];
    expect(of(input({ grades: one, ...ends, today: '2027-02-01' }), 'semester_without_one')).toEqual([]);
    expect(progress(input({ grades: one, ...ends, today: '2026-12-02' }), 'semester_without_one')).toEqual({ count: 0, next: null });
    // No grade at all: nothing to be proud of.
    expect(of(input({ grades: [], ...ends, today: '2027-02-01' }), 'semester_without_one')).toEqual([]);
  });

  it('the second ends on the school year’s end; without the portal’s dates none comes', () => {
    const second = [
      { shown: '1', date: '2026-10-01' },
      { shown: '4', date: '2027-03-01' },
    ];
    expect(of(input({ grades: second, ...ends, yearStart: YEAR, today: '2027-06-26' }), 'semester_without_one')).toEqual(['2 2027-06-25']);
    expect(of(input({ grades: second, yearStart: YEAR, today: '2027-06-26' }), 'semester_without_one')).toEqual([]);
  });
});

describe('a full month', () => {
  it('is a calendar month ended, its every school day without an absence (a late is none), dated its last day', () => {
    const days = weekdays('2026-09-01', '2026-11-26');
    const i = input({ markedDays: days, absenceDays: ['2026-09-15'], lateDays: ['2026-10-05'] });
    // September had an absence, October none, November has not ended.
    expect(of(i, 'full_month')).toEqual(['1 2026-10-31']);
    expect(progress(i, 'full_month')).toEqual({ count: 1, next: 2 });
    expect(progress({ ...i, absenceDays: ['2026-09-15', '2026-11-03'] }, 'full_month')).toEqual({ count: 1, next: null });
    // A month without a school day is no full month.
    expect(
      of(input({ markedDays: weekdays('2026-09-01', '2026-09-30').concat(weekdays('2026-11-02', '2026-11-26')), today: '2026-12-01' }), 'full_month'),
    ).toEqual(['1 2026-09-30', '2 2026-11-30']);
  });
});

describe('punctual', () => {
  it('is 30 school days without being late, on the 30th', () => {
    const days = weekdays('2026-09-01', '2026-11-26');
    expect(of(input({ markedDays: days, lateDays: [days[4]!] }), 'punctual')).toEqual([`30 ${days[34]}`]);
    expect(progress(input({ markedDays: days, lateDays: [days.at(-3)!] }), 'punctual')).toEqual({ count: 2, next: null });
    // Not known without the lates.
    expect(progress(input({ markedDays: days }), 'punctual')).toBeUndefined();
  });
});

describe('praise', () => {
  it('1, 3 and 10 positive notes this school year, on the day of each', () => {
    const notes = ['2026-06-01', '2026-09-10', '2026-09-20', '2026-10-01', '2026-11-30'];
    expect(of(input({ positiveNoteDays: notes }), 'praise')).toEqual(['1 2026-09-10', '3 2026-10-01']);
    expect(progress(input({ positiveNoteDays: notes }), 'praise')).toEqual({ count: 3, next: 10 });
    expect(progress(input({ positiveNoteDays: null }), 'praise')).toBeUndefined();
  });
});

describe('exemplary behaviour', () => {
  it('is a behaviour grade or proposal of "wzorowe" this school year, on its day', () => {
    const conduct = [
      { exemplary: false, date: '2026-10-01' },
      { exemplary: true, date: '2026-11-20' },
      { exemplary: true, date: '2026-06-20' },
    ];
    expect(of(input({ conduct }), 'exemplary_behaviour')).toEqual(['1 2026-11-20']);
    expect(of(input({ conduct: conduct.slice(0, 1) }), 'exemplary_behaviour')).toEqual([]);
    expect(progress(input({ conduct: null }), 'exemplary_behaviour')).toBeUndefined();
  });
});

describe('the lucky number', () => {
  it('1 and 3 days it was the child’s, each on its day (one still to come counts on it)', () => {
    const days = ['2026-06-10', '2026-09-14', '2026-10-02', '2026-11-27', '2026-11-30'];
    expect(of(input({ luckyDays: days }), 'lucky')).toEqual(['1 2026-09-14', '3 2026-11-27']);
    expect(progress(input({ luckyDays: days.slice(0, 3) }), 'lucky')).toEqual({ count: 2, next: 3 });
    expect(progress(input({}), 'lucky')).toBeUndefined();
  });
});

describe('the record beside the event memory', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'achievements-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));
  const star: Unlocked = { kind: 'subject_star', count: 1, date: '2026-10-14', subject: 'Fizyka', ref: '77', quiet: false };
  const six: Unlocked = { kind: 'sixes', count: 5, date: '2026-10-20', ref: '5', subject: undefined, quiet: false };
  const praise: Unlocked = { kind: 'praise', count: 1, date: '2026-11-02', ref: '1', subject: undefined, quiet: false };

  it('lets nothing a kind shows at its first read fire, then what comes; across a restart', async () => {
    const record = new AchievementRecord(dataDir, 'ania@example.com', silentLogger());
    await record.load();
    // Praise is not ready yet (say its list is unknown): it is not read, so nothing of it is primed.
    expect(record.take(YEAR, [star, six], ['subject_star', 'sixes'])).toEqual({
      listed: [
        { ...star, quiet: true },
        { ...six, quiet: true },
      ],
      news: [],
    });
    expect(record.take(YEAR, [star, six, praise], ['subject_star', 'sixes', 'praise']).news).toEqual([]);
    const ten: Unlocked = { kind: 'sixes', count: 10, date: '2026-11-20', ref: '10', subject: undefined, quiet: false };
    const taken = record.take(YEAR, [star, six, praise, ten], ['subject_star', 'sixes', 'praise']);
    expect(taken.news).toEqual([ten]);
    expect(taken.listed.map((a) => a.quiet === true)).toEqual([true, true, true, false]);
    await record.save();
    const again = new AchievementRecord(dataDir, 'ania@example.com', silentLogger());
    await again.load();
    // Kept as the file has it, without `quiet` (take() marks it).
    const { quiet: _, ...kept } = star;
    expect(again.of(YEAR).kept).toEqual([kept]);
    expect(again.take(YEAR, [star, six, praise, ten], ['subject_star', 'sixes', 'praise']).news).toEqual([ten]);
    // The data folder is one a release reads.
    await expect(refuseUnreleasedData(dataDir)).resolves.toBeUndefined();
  });

  it('starts a new school year with the kinds it read and nothing else', async () => {
    const record = new AchievementRecord(dataDir, 'ania', silentLogger());
    record.take(YEAR, [star], ['subject_star']);
    record.luckyOn(YEAR, '2026-11-27');
    record.luckyOn(YEAR, '2026-08-30');
    expect(record.of(YEAR).lucky).toEqual(['2026-11-27']);
    const next = '2027-09-01';
    const newStar = { ...star, date: '2027-10-01' };
    expect(record.of(next)).toEqual({ year: next, kinds: ['subject_star'], quiet: [], kept: [], lucky: [] });
    expect(record.take(next, [newStar], ['subject_star']).news).toEqual([newStar]);
  });
});
