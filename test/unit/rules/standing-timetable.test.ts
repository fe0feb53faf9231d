// How a day differs from the standing weekly plan (rules/standing-timetable.ts): another teacher and another subject
// in a slot, a split class's other group left aside, and a weekday of the plan without any lesson (a day off by its
// name, or every lesson cancelled); a weekend or a day not read tells nothing. A split class's lesson is held against its
// own group's entry (interface 19.1); the plan's entries are read once by weekday, an entry naming no lesson, on a day
// never taught or repeated left out and counted (19.2).
import { describe, expect, it } from 'vitest';
import { MAX_STANDING_DIFFERENCES, standingDifferences, standingTimetable, type StandingSlot } from '../../../src/rules/standing-timetable.js';
import { makeNames } from '../../../src/rules/names.js';
import type { TimetableEntry } from '../../../src/portal/schemas/timetable.js';
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

describe('a split class against its own group’s entry', () => {
  // PE in lesson 5 for two groups: the child's group with Tomasz Zieliński in SG2, the other with Anna Nowak in SG.
  const SPLIT: StandingSlot[] = [
    { no: 5, subject: 'Wychowanie fizyczne', teacher: 'Anna Nowak', room: 'SG', entry: '51', lesson: '901' },
    { no: 5, subject: 'Wychowanie fizyczne', teacher: 'Tomasz Zieliński', room: 'SG2', entry: '52', lesson: '902' },
  ];
  const pe = (teacher: string, room: string, more: Partial<ScheduledLesson> = {}) => lesson(5, 'Wychowanie fizyczne', teacher, room, more);

  it('tells nothing of the child’s group held as planned, whether the lesson names its entry or not', () => {
    expect(standingDifferences([day([pe('Tomasz Zieliński', 'SG2')])], () => SPLIT)).toEqual([]);
    expect(standingDifferences([day([pe('Tomasz Zieliński', 'SG2', { entryId: '52', lessonId: '902' })])], () => SPLIT)).toEqual([]);
    // Both groups in the slot, each as planned: nothing.
    expect(standingDifferences([day([pe('Anna Nowak', 'SG'), pe('Tomasz Zieliński', 'SG2')])], () => SPLIT)).toEqual([]);
  });

  it('tells a substitute and a room against the group’s own teacher and room, not the other group’s', () => {
    const substitute = pe('Ewa Dąbrowska', 'SG2', { entryId: '52', org: { teacher: 'Tomasz Zieliński' } as ScheduledLesson['org'] });
    expect(standingDifferences([day([substitute])], () => SPLIT)).toEqual([
      { date: MONDAY, no: 5, kind: 'teacher', was: 'Tomasz Zieliński', now: 'Ewa Dąbrowska' },
    ]);
    expect(standingDifferences([day([pe('Tomasz Zieliński', '105', { lessonId: '902' })])], () => SPLIT)).toEqual([
      { date: MONDAY, no: 5, kind: 'room', was: 'SG2', now: '105' },
    ]);
  });
});

describe('the standing plan read from its entries', () => {
  const names = makeNames({
    subjects: [
      { Id: '1', Name: 'Matematyka' },
      { Id: '2', Name: 'Język polski' },
    ] as never,
    users: [{ Id: '7', FirstName: 'Piotr', LastName: 'Wiśniewski' }] as never,
  });
  const lessons = new Map([
    ['11', { Subject: '1', Teacher: '7' }],
    ['12', { Subject: '2', Teacher: '7' }],
  ]);
  const entry = (id: number, weekday: number, no: number, lessonId: string | undefined): TimetableEntry =>
    ({ Id: String(id), Lesson: lessonId, DayOfTheWeek: weekday, LessonNo: no, DateFrom: '2026-09-01', DateTo: '2027-06-26' }) as TimetableEntry;
  const weekdays = (weekday: number) => weekday >= 1 && weekday <= 5;

  it('leaves out an entry naming no lesson, one on a Sunday and a repeated one, and counts them', () => {
    const entries = [entry(1, 1, 1, '11'), entry(2, 1, 2, undefined), entry(3, 1, 3, '99'), entry(4, 7, 1, '12'), entry(5, 1, 1, '11')];
    const plan = standingTimetable(entries, lessons, names, weekdays);
    expect(plan.dropped).toEqual({ noLesson: 2, notTaught: 1, repeated: 1 });
    expect(plan.slots(MONDAY).map((s) => `${s.no} ${s.subject}`)).toEqual(['1 Matematyka']);
    // Polish in lesson 2 is an added lesson, never "Język polski instead of " a lesson the entry does not name.
    const held = [lesson(1, 'Matematyka', 'Piotr Wiśniewski', '22'), lesson(2, 'Język polski', 'Piotr Wiśniewski', '22')];
    expect(standingDifferences([day(held)], plan.slots)).toEqual([{ date: MONDAY, no: 2, kind: 'added', was: null, now: 'Język polski' }]);
    expect(standingDifferences([day([], { date: '2026-11-29' })], plan.slots)).toEqual([]);
  });

  it('reads 28,000 entries and 5,000 repeats on one weekday into one slot each, every difference told once', () => {
    const entries = Array.from({ length: 28_000 }, (_, i) => entry(i + 1, 1, i + 1, '11'));
    const repeats = entries.slice(0, 5_000).map((e) => ({ ...e, Id: `${e.Id}-again` }));
    const plan = standingTimetable([...entries, ...repeats], lessons, names, weekdays);
    expect(plan.dropped.repeated).toBe(5_000);
    const monday = [day([lesson(1, 'Matematyka', 'Piotr Wiśniewski', '22')])];
    // Lesson 1 held as planned; each of the other 27,999 missing once, never with its subject repeated.
    const differences = standingDifferences(monday, plan.slots, Infinity);
    expect(differences).toHaveLength(27_999);
    expect(new Set(differences.map((d) => d.was))).toEqual(new Set(['Matematyka']));
    // Told up to the cap, the nearest first.
    expect(standingDifferences(monday, plan.slots).map((d) => d.no)).toEqual(differences.slice(0, MAX_STANDING_DIFFERENCES).map((d) => d.no));
  });
});
