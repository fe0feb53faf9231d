// The standing plan as the timetable feature reads it (features/timetable/standing.ts): what the plan leaves out (an
// entry naming no lesson, one on a Sunday, a repeat) is one log line for a copy read, not one at every pass.
import { describe, expect, it } from 'vitest';
import { splitSlots, standingOf } from '../../../../src/features/timetable/standing.js';
import { TIMETABLE_ENTRIES } from '../../../../src/features/timetable/resources.js';
import { LESSONS } from '../../../../src/engine/resources/lookups.js';
import type { Copies } from '../../../../src/engine/resource.js';
import type { SchoolDay } from '../../../../src/rules/schedule.js';
import { makeNames } from '../../../../src/rules/names.js';
import { LogSink } from '../../../helpers/faults.js';

const entry = (id: number, weekday: number, no: number, lesson?: string) => ({ Id: String(id), Lesson: lesson, DayOfTheWeek: weekday, LessonNo: no });
const plan = { TimetableEntries: [entry(1, 1, 1, '11'), entry(2, 1, 2), entry(3, 7, 1, '11'), entry(4, 1, 1, '11')] };
const copies = {
  peek: (res: unknown) => (res === TIMETABLE_ENTRIES ? plan : res === LESSONS ? { Lessons: [{ Id: '11', Subject: '1', Teacher: '7' }] } : undefined),
} as unknown as Copies;
const names = makeNames({ subjects: [{ Id: '1', Name: 'Matematyka' }] as never });
const monday: SchoolDay = { date: '2026-11-23', lessons: [], changes: [], freeDay: undefined, start: null, end: null };

describe('the standing plan’s entries left out', () => {
  it('are one log line for the copy read, however many passes compute it', () => {
    const logs = new LogSink();
    for (let pass = 0; pass < 3; pass++) standingOf(copies, [monday], names, 'pl', logs.logger('info'));
    const lines = logs.matching(/standing plan: entries naming no lesson/);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/"noLesson":1,"notTaught":1,"repeated":1,"entries":4/);
  });
});

describe('a slot the standing plan splits into groups', () => {
  const versioned = (id: number, no: number, lesson: string | undefined, from: string, to: string) => ({
    ...entry(id, 3, no, lesson),
    DateFrom: from,
    DateTo: to,
  });
  const over = (entries: unknown[]) =>
    splitSlots({ peek: (res: unknown) => (res === TIMETABLE_ENTRIES ? { TimetableEntries: entries } : undefined) } as unknown as Copies);

  it('is one with entries of two lessons valid that day; a repeat, an entry naming no lesson or one out of its dates is none', () => {
    const split = over([
      versioned(1, 3, '11', '2026-09-01', '2027-06-25'),
      versioned(2, 3, '12', '2026-09-01', '2027-06-25'),
      versioned(3, 4, '11', '2026-09-01', '2027-06-25'),
      versioned(4, 4, '11', '2026-09-01', '2027-06-25'),
      versioned(5, 4, undefined, '2026-09-01', '2027-06-25'),
      versioned(6, 5, '11', '2026-09-01', '2027-06-25'),
      versioned(7, 5, '12', '2026-09-01', '2026-11-30'),
    ]);
    // Wednesdays: 2026-11-25 and 2026-12-02.
    expect([3, 4, 5].map((no) => split?.('2026-11-25', no))).toEqual([true, false, true]);
    expect([3, 5].map((no) => split?.('2026-12-02', no))).toEqual([true, false]);
    expect(split?.('2026-11-26', 3)).toBe(false);
  });

  it('is not known before the plan is read', () => {
    expect(over(undefined as never)).toBeUndefined();
  });
});
