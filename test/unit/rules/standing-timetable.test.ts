// How a day differs from the standing weekly plan (rules/standing-timetable.ts): another teacher and another subject
// in a slot, a split class's other group left aside, and a weekday of the plan without any lesson (a day off by its
// name, or every lesson cancelled); a weekend or a day not read tells nothing.
import { describe, expect, it } from 'vitest';
import { standingDifferences, type StandingSlot } from '../../../src/rules/standing-timetable.js';
import type { SchoolDay, ScheduledLesson } from '../../../src/rules/schedule.js';

const MONDAY = '2026-11-23';
const lesson = (no: number, subject: string, teacher: string, room: string, more: Partial<ScheduledLesson> = {}): ScheduledLesson =>
  ({
    date: MONDAY,
    lessonNo: no,
    from: null,
    to: null,
    subject,
    teacher,
    room,
    cancelled: false,
    substitution: false,
    note: null,
    org: null,
    moved: null,
    takesPlace: true,
    change: null,
    ...more,
  }) as ScheduledLesson;
const day = (lessons: ScheduledLesson[] | undefined, more: Partial<SchoolDay> = {}): SchoolDay => ({
  date: MONDAY,
  lessons,
  changes: [],
  freeDay: undefined,
  start: null,
  end: null,
  ...more,
});
const PLAN: StandingSlot[] = [
  { no: 1, subject: 'Matematyka', teacher: 'Piotr Wiśniewski', room: '22' },
  { no: 2, subject: 'Język angielski', teacher: 'Katarzyna Wójcik', room: '14' },
  { no: 2, subject: 'Informatyka', teacher: 'Marek Kozłowski', room: '21' },
];
const slots = () => PLAN;

describe('a day against the standing plan', () => {
  it('tells another teacher and another subject, and leaves a split class’s other group aside', () => {
    const lessons = [
      lesson(1, 'Matematyka', 'Agnieszka Mazur', '22'),
      lesson(2, 'Język angielski', 'Katarzyna Wójcik', '14'),
      lesson(3, 'Historia', 'Magdalena Lewandowska', '12'),
    ];
    expect(standingDifferences([day(lessons)], slots)).toEqual([
      { date: MONDAY, no: 1, kind: 'teacher', was: 'Piotr Wiśniewski', now: 'Agnieszka Mazur' },
      { date: MONDAY, no: 3, kind: 'added', was: null, now: 'Historia' },
    ]);
    const swapped = [lesson(1, 'Fizyka', 'Piotr Wiśniewski', '22'), lesson(2, 'Informatyka', 'Marek Kozłowski', '21')];
    expect(standingDifferences([day(swapped)], slots)).toEqual([{ date: MONDAY, no: 1, kind: 'subject', was: 'Matematyka', now: 'Fizyka' }]);
  });

  it('tells a weekday without lessons once, with the day off’s name', () => {
    const cancelled = [lesson(1, 'Matematyka', 'Piotr Wiśniewski', '22', { takesPlace: false, cancelled: true })];
    expect(standingDifferences([day(cancelled)], slots)).toEqual([{ date: MONDAY, no: null, kind: 'no_lessons', was: '2', now: null }]);
    const free = day([], { freeDay: { from: MONDAY, to: MONDAY, name: 'Dzień dyrektorski' } as SchoolDay['freeDay'] });
    expect(standingDifferences([free], slots)).toEqual([{ date: MONDAY, no: null, kind: 'no_lessons', was: '2', now: 'Dzień dyrektorski' }]);
  });

  it('tells nothing of a day not read, nor of a day the plan has no lessons on', () => {
    expect(standingDifferences([day(undefined)], slots)).toEqual([]);
    expect(standingDifferences([day([lesson(1, 'Matematyka', 'Piotr Wiśniewski', '22')])], () => [])).toEqual([]);
  });
});
