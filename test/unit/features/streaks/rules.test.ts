// The streaks' rules (interface 16.3): which grades make and break the good-grades streak, that only school
// days count for the runs without an absence and a negative note, the day each achievement comes, and that the
// event memory fires each once a school year and nothing at a first read.
import { describe, expect, it } from 'vitest';
import { achievementEvents, gradeNumber, streaks, type StreakGrade, type StreaksInput } from '../../../../src/features/streaks/rules.js';
import { grades, input } from './inputs.js';
import { SeenStore } from '../../../../src/once/memory.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The school days (Monday to Friday) from `from` on, `n` of them. */
function weekdays(from: string, n: number): string[] {
  const days: string[] = [];
  for (const d = new Date(`${from}T12:00:00Z`); days.length < n; d.setUTCDate(d.getUTCDate() + 1)) {
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) days.push(d.toISOString().slice(0, 10));
  }
  return days;
}

const kinds = (i: StreaksInput) => streaks(i).achievements.map((a) => `${a.kind} ${a.count} ${a.date}`);

describe('the good-grades streak', () => {
  it.each([
    ['4-, 4 and 4+ are fours', ['4-', '4', '4+', '5', '6'], 5],
    ['a grade below 4 breaks it', ['5', '5', '3+', '4'], 1],
    ['a 1 breaks it', ['6', '1'], 0],
    ['a mark that is no grade neither adds nor breaks', ['5', 'np', '+', '4', 'bz', '0'], 2],
    ['nothing yet', [], 0],
  ])('%s', (_, shown, run) => {
    expect(streaks(input({ grades: grades(...shown) })).goodGrades).toBe(run);
  });

  it('takes the grades in the order given, not by their dates', () => {
    // The 2 is dated earliest but comes last: it breaks the run now.
    const list: StreakGrade[] = [
      { shown: '5', date: '2026-11-10' },
      { shown: '5', date: '2026-11-11' },
      { shown: '2', date: '2026-11-02' },
    ];
    expect(streaks(input({ grades: list })).goodGrades).toBe(0);
  });

  it('leaves out last school year’s grades', () => {
    const list: StreakGrade[] = [
      { shown: '6', date: '2026-06-20' },
      { shown: '5', date: '2026-09-10' },
    ];
    const s = streaks(input({ grades: list }));
    expect(s.goodGrades).toBe(1);
    expect(s.achievements).toEqual([]);
  });

  it('is none for an account without grades (a kindergarten)', () => {
    expect(streaks(input({ grades: null })).goodGrades).toBeNull();
  });

  it('reads grades as numbers only on the scale of 1 to 6', () => {
    expect([gradeNumber('4-'), gradeNumber(' 6+ '), gradeNumber('np'), gradeNumber('7'), gradeNumber('0'), gradeNumber(null)]).toEqual([
      4,
      6,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('the achievements', () => {
  it('a first 6 comes on its day, once, however many sixes follow', () => {
    expect(kinds(input({ grades: grades('3', '6-', '6') }))).toEqual(['first_six 1 2026-11-02']);
  });

  it('5, 10 and 20 good grades in a row, each on the day of the grade that made it', () => {
    const twenty = grades(...Array.from({ length: 20 }, () => '5'));
    expect(kinds(input({ grades: twenty }))).toEqual(['good_grades 5 2026-11-05', 'good_grades 10 2026-11-10', 'good_grades 20 2026-11-20']);
  });

  it('a broken run keeps what it reached, and reaching it again adds nothing', () => {
    const list = grades('5', '5', '5', '5', '5', '2', '5', '5', '5', '5', '5');
    const s = streaks(input({ grades: list }));
    expect(s.goodGrades).toBe(5);
    expect(kinds(input({ grades: list }))).toEqual(['good_grades 5 2026-11-05']);
  });

  it('four good grades are no achievement', () => {
    expect(kinds(input({ grades: grades('5', '5', '5', '5') }))).toEqual([]);
  });

  it('counts only school days for the days without an absence: 7 of them over a weekend', () => {
    // Monday 2 November to Tuesday 10 November: seven school days, nine calendar days.
    const days = weekdays('2026-11-02', 7);
    expect(days.at(-1)).toBe('2026-11-10');
    const s = streaks(input({ markedDays: days }));
    expect(s.daysWithoutAbsence).toBe(7);
    expect(kinds(input({ markedDays: days }))).toEqual(['no_absence 7 2026-11-10', 'no_negative_note 7 2026-11-10']);
    expect(kinds(input({ markedDays: days.slice(0, 6) }))).toEqual([]);
  });

  it('a day with an absence is left out and starts the run again', () => {
    const days = weekdays('2026-11-02', 10);
    const s = streaks(input({ markedDays: days, absenceDays: [days[3]!] }));
    expect(s.daysWithoutAbsence).toBe(6);
    expect(s.daysWithoutNegativeNote).toBe(10);
  });

  it('a negative note on a Saturday starts the run again from Monday', () => {
    const days = weekdays('2026-11-02', 10);
    // Saturday 7 November: the five days before it are gone, Monday 9 November is the first again.
    const s = streaks(input({ markedDays: days, negativeNoteDays: ['2026-11-07'] }));
    expect(s.daysWithoutNegativeNote).toBe(5);
    expect(s.daysWithoutAbsence).toBe(10);
  });

  it('30 and 90 school days', () => {
    const days = weekdays('2026-09-01', 90);
    const s = streaks(input({ markedDays: days, today: days.at(-1)! }));
    expect(s.achievements.filter((a) => a.kind === 'no_absence').map((a) => [a.count, a.date])).toEqual([
      [7, days[6]],
      [30, days[29]],
      [90, days[89]],
    ]);
  });

  it('has no runs of days for an account without attendance, nor of notes without notes', () => {
    const s = streaks(input({ markedDays: null }));
    expect([s.daysWithoutAbsence, s.daysWithoutNegativeNote]).toEqual([null, null]);
    expect(streaks(input({ markedDays: weekdays('2026-11-02', 3), negativeNoteDays: null })).daysWithoutNegativeNote).toBeNull();
  });
});

describe('the achievement events', () => {
  const memory = () => new SeenStore(mkdtempSync(join(tmpdir(), 'streaks-')), 'zofia');
  const fired = (seen: SeenStore, i: StreaksInput) =>
    seen.take('achievement', achievementEvents(streaks(i).achievements, i.yearStart), false).news.map((e) => `${e.payload.kind} ${e.payload.count}`);

  it('fire nothing at the first read, then each once', () => {
    const seen = memory();
    // Already true at the first start: a 6 and five good grades.
    expect(fired(seen, input({ grades: grades('6', '5', '5', '5', '5') }))).toEqual([]);
    // A sixth good grade: nothing new; up to ten: one event.
    expect(fired(seen, input({ grades: grades('6', '5', '5', '5', '5', '5') }))).toEqual([]);
    expect(fired(seen, input({ grades: grades('6', ...Array.from({ length: 9 }, () => '5')) }))).toEqual(['good_grades 10']);
    expect(fired(seen, input({ grades: grades('6', ...Array.from({ length: 9 }, () => '5')) }))).toEqual([]);
  });

  it('a first 6 after the first read fires once, and a broken run reaching 5 again does not fire again', () => {
    const seen = memory();
    expect(fired(seen, input({ grades: grades('4') }))).toEqual([]);
    expect(fired(seen, input({ grades: grades('4', '6') }))).toEqual(['first_six 1']);
    expect(fired(seen, input({ grades: grades('4', '6', '5', '5', '5') }))).toEqual(['good_grades 5']);
    expect(fired(seen, input({ grades: grades('4', '6', '5', '5', '5', '1', '5', '5', '5', '5', '5') }))).toEqual([]);
  });

  it('fire again in the next school year', () => {
    const seen = memory();
    expect(fired(seen, input({ grades: [] }))).toEqual([]);
    expect(fired(seen, input({ grades: grades('6') }))).toEqual(['first_six 1']);
    const next = input({ grades: [{ shown: '6', date: '2027-09-15' }], yearStart: '2027-09-01', today: '2027-09-20' });
    expect(fired(seen, next)).toEqual(['first_six 1']);
  });
});
