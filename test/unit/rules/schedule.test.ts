import { describe, expect, it } from 'vitest';
import { classFreeDaysResponse, classFreeDayTypesResponse, schoolFreeDaysResponse } from '../../../src/portal/schemas/calendar.js';
import { substitutionsResponse, timetablesResponse } from '../../../src/portal/schemas/timetable.js';
import { changesOn, planChanges } from '../../../src/rules/plan-changes.js';
import { schedule, type ScheduleInput } from '../../../src/rules/schedule.js';
import { renderTimetable } from '../../../src/features/timetable/timetable.js';
import { freeDays, nextSchoolDay, timetableWeeks, type SchoolCalendar } from '../../../src/rules/schooldays.js';
import { mergeTimetables } from '../../../src/rules/timetable.js';
import { warsawInstant } from '../../../src/util/time.js';
import { BELL, lessonAt, names } from './fixtures.js';

const lesson = lessonAt(BELL);

const plainDay = (count: number) => Array.from({ length: count }, (_, i) => [lesson(i + 1, 1, 10, 100)]);

const thisWeek = timetablesResponse.parse({
  Timetable: {
    '2026-03-09': plainDay(2),
    '2026-03-10': [
      [lesson(1, 1, 10, 100)],
      [
        lesson(2, 2, 12, null, {
          IsSubstitutionClass: true,
          OrgDate: '2026-03-10',
          OrgLessonNo: '2',
          OrgSubject: { Id: '1' },
          OrgTeacher: { Id: '10' },
          OrgClassroom: { Id: '100' },
        }),
      ],
      [lesson(3, 3, 10, 101, { IsCanceled: true })],
      [lesson(4, 1, 10, 101, { IsSubstitutionClass: true, OrgSubject: { Id: '1' }, OrgTeacher: { Id: '10' }, OrgClassroom: { Id: '100' } })],
      [],
      [lesson(6, 2, 12, 100), lesson(6, 3, 10, 101)],
    ],
    '2026-03-11': plainDay(4),
    '2026-03-12': plainDay(5),
    '2026-03-13': plainDay(5),
    '2026-03-14': [],
    '2026-03-15': [],
  },
}).Timetable;

const substitutions = substitutionsResponse.parse({
  Substitutions: [
    { Id: 1, OrgDate: '2026-03-10', OrgLessonNo: '3', OrgSubject: { Id: 3 }, OrgTeacher: { Id: 10 }, IsCancelled: true },
    { Id: 2, OrgDate: '2026-03-12', OrgLessonNo: '4', OrgSubject: { Id: 1 }, OrgTeacher: { Id: 10 }, OrgClassroomSymbol: '12', IsCancelled: true },
    { Id: 3, OrgDate: '2026-02-02', OrgLessonNo: '1', OrgSubject: { Id: 1 }, IsCancelled: true },
    {
      Id: 4,
      OrgDate: '2026-03-10',
      OrgLessonNo: '2',
      OrgSubject: { Id: 1 },
      OrgTeacher: { Id: 10 },
      OrgClassroomSymbol: '12',
      Date: '2026-03-10',
      LessonNo: '2',
      Subject: { Id: 2 },
      Teacher: { Id: 12 },
      ClassroomSymbol: '14',
      IsCancelled: false,
      IsShifted: false,
    },
  ],
}).Substitutions;

const free = {
  schoolFreeDays: schoolFreeDaysResponse.parse({
    SchoolFreeDays: [{ Id: 1, Name: 'Dzień Edukacji', DateFrom: '2026-03-13', DateTo: '2026-03-13' }],
  }).SchoolFreeDays,
  classFreeDays: classFreeDaysResponse.parse({
    ClassFreeDays: [
      { Id: 1, Class: { Id: '77' }, Type: { Id: 5 }, DateFrom: '2026-03-11', DateTo: '2026-03-11' },
      { Id: 2, Class: { Id: '77' }, Type: { Id: 6 }, DateFrom: '2026-03-12', DateTo: '2026-03-12', LessonNoFrom: 1, LessonNoTo: 2 },
      { Id: 3, Class: { Id: '78' }, Type: { Id: 5 }, DateFrom: '2026-03-12', DateTo: '2026-03-12' },
    ],
  }).ClassFreeDays,
  classFreeDayTypes: classFreeDayTypesResponse.parse({
    Types: [
      { Id: 5, Name: 'Rekolekcje' },
      { Id: 6, Name: 'Wyjście klasowe' },
    ],
  }).Types,
  classId: '77',
};

const at = (date: string, time: string) => warsawInstant(date, time);
/** The schedule as the timetable feature publishes it: its states, its events, the next school day. */
const timetableAt = (input: ScheduleInput) => {
  const result = schedule(input);
  return { states: renderTimetable(result), events: result.events, nextSchoolDay: result.nextSchoolDay };
};
const run = (now: number, days = thisWeek) => timetableAt({ days, substitutions, free, names, now });

describe('plan changes', () => {
  const result = run(at('2026-03-10', '09:10'));

  it('merges the timetable and Calendars/Substitutions, one change per lesson', () => {
    expect(result.states.plan_changes_today).toEqual({
      state: '3',
      attributes: {
        date: '2026-03-10',
        changes: [
          {
            lesson_no: 2,
            hours: '08:55-09:40',
            kind: 'substitution',
            subject: 'Język polski',
            teacher: 'Jan Kowalski',
            room: '14',
            original_date: '2026-03-10',
            original_lesson_no: 2,
            original_hours: '08:55-09:40',
            original_subject: 'Matematyka',
            original_teacher: 'Anna Nowak',
            original_room: '12',
            note: null,
            // The change as its slot's note says it (the school's own `note` apart).
            words: 'substitution · instead of Matematyka · room 14 · was room 12',
          },
          {
            lesson_no: 3,
            hours: '09:50-10:35',
            kind: 'cancelled',
            subject: 'Wychowanie fizyczne',
            teacher: 'Anna Nowak',
            room: 'Sala gimnastyczna',
            original_date: '2026-03-10',
            original_lesson_no: 3,
            original_hours: '09:50-10:35',
            original_subject: 'Wychowanie fizyczne',
            original_teacher: 'Anna Nowak',
            original_room: 'Sala gimnastyczna',
            note: null,
            words: 'cancelled',
          },
          expect.objectContaining({ lesson_no: 4, kind: 'room_change', room: 'Sala gimnastyczna', original_room: '12' }),
        ],
      },
    });
  });

  it('reports the next school day (here Thursday), with hours from the bell schedule', () => {
    expect(result.states.plan_changes_tomorrow).toEqual({
      state: '1',
      attributes: {
        date: '2026-03-12',
        changes: [expect.objectContaining({ lesson_no: 4, hours: '10:45-11:30', kind: 'cancelled', subject: 'Matematyka', room: '12' })],
      },
    });
  });

  it('fires plan_change events from today on, with stable ids', () => {
    expect(result.events.map((e) => e.id)).toEqual([
      'plan:2026-03-10:2:substitution',
      'plan:2026-03-10:3:cancelled',
      'plan:2026-03-10:4:room_change',
      'plan:2026-03-12:4:cancelled',
    ]);
    // The event gate adds event_type (the kind the feature files them under); demo-life checks it end to end.
    expect(result.events[0]?.payload).toMatchObject({ date: '2026-03-10', kind: 'substitution' });
    expect(result.events[0]?.payload).not.toHaveProperty('event_type');
  });

  it('shows a shifted lesson on its new day and in its old slot', () => {
    const shifted = substitutionsResponse.parse({
      Substitutions: [
        { Id: 9, OrgDate: '2026-03-09', OrgLessonNo: 2, OrgSubject: { Id: 1 }, Date: '2026-03-12', LessonNo: 6, Subject: { Id: 1 }, IsShifted: true },
      ],
    }).Substitutions;
    const changes = planChanges({ days: thisWeek, substitutions: shifted, names });
    expect(changesOn(changes, '2026-03-12')).toEqual([
      expect.objectContaining({ lesson_no: 6, kind: 'shifted', original_date: '2026-03-09', original_lesson_no: 2 }),
    ]);
    // On the day it leaves it still says where it goes; original_* say where it was (interface 7.2).
    expect(changesOn(changes, '2026-03-09')).toEqual([
      expect.objectContaining({
        date: '2026-03-12',
        lesson_no: 6,
        kind: 'shifted',
        original_date: '2026-03-09',
        original_lesson_no: 2,
        original_hours: '08:55-09:40',
      }),
    ]);
  });

  it("takes a lesson's later entry in the year's list as the school's word, and the timetable's over both", () => {
    // Listed newest first: a substitution of Friday's lesson 3 (Id 7), then cancelled after all (Id 8).
    const twice = substitutionsResponse.parse({
      Substitutions: [
        { Id: 8, OrgDate: '2026-03-20', OrgLessonNo: 3, OrgSubject: { Id: 1 }, OrgTeacher: { Id: 10 }, IsCancelled: true },
        { Id: 7, OrgDate: '2026-03-20', OrgLessonNo: 3, OrgSubject: { Id: 1 }, OrgTeacher: { Id: 10 }, Subject: { Id: 2 }, Teacher: { Id: 12 } },
      ],
    }).Substitutions;
    const kinds = (days: Parameters<typeof planChanges>[0]['days']) =>
      planChanges({ days, substitutions: twice, names }).map((c) => [c.date, c.lesson_no, c.kind]);
    expect(kinds({})).toEqual([['2026-03-20', 3, 'cancelled']]);
    const held = timetablesResponse.parse({
      Timetable: {
        '2026-03-20': [
          [],
          [],
          [],
          [
            lesson(3, 2, 12, null, {
              IsSubstitutionClass: true,
              OrgDate: '2026-03-20',
              OrgLessonNo: '3',
              OrgSubject: { Id: '1' },
              OrgTeacher: { Id: '10' },
            }),
          ],
        ],
      },
    }).Timetable;
    expect(kinds(held)).toEqual([['2026-03-20', 3, 'substitution']]);
  });
});

describe('a day as one value', () => {
  it('holds every lesson of the timetable with whether it takes place and the change to its slot', () => {
    const { today } = schedule({ days: thisWeek, substitutions, free, names, now: at('2026-03-10', '09:10') });
    const slot = (no: number) => today.lessons?.filter((l) => l.lessonNo === no);
    expect(slot(2)).toEqual([
      expect.objectContaining({ subject: 'Język polski', takesPlace: true, change: expect.objectContaining({ kind: 'substitution', room: '14' }) }),
    ]);
    expect(slot(3)).toEqual([expect.objectContaining({ takesPlace: false, change: expect.objectContaining({ kind: 'cancelled' }) })]);
    expect(slot(1)).toEqual([expect.objectContaining({ takesPlace: true, change: null })]);
    expect(today.changes.map((c) => c.lesson_no)).toEqual([2, 3, 4]);
  });

  it('a class free day keeps its lessons, none taking place; a day the timetable lacks has none known', () => {
    const { tomorrow } = schedule({ days: thisWeek, substitutions, free, names, now: at('2026-03-10', '09:10') });
    expect(tomorrow.lessons?.length).toBeGreaterThan(0);
    expect(tomorrow.lessons?.some((l) => l.takesPlace)).toBe(false);
    expect(tomorrow.freeDay?.name).toBe('Rekolekcje');
    const sunday = schedule({ days: thisWeek, substitutions, free, names, now: at('2026-03-15', '20:00') });
    expect(sunday.tomorrow.lessons).toBeUndefined();
    expect(sunday.next).toBeNull();
  });
});

describe('school days and lesson times', () => {
  it('today: ON, first and last lesson without the cancelled ones, the lesson going on now', () => {
    const { states } = run(at('2026-03-10', '09:10'));
    expect(states.school_day_today?.state).toBe('ON');
    expect(states.lessons_start_today?.state).toBe('2026-03-10T08:00:00+01:00');
    expect(states.lessons_end_today?.state).toBe('2026-03-10T13:25:00+01:00');
    expect(states.next_lesson).toEqual({
      state: 'Język polski',
      attributes: {
        date: '2026-03-10',
        lesson_no: 2,
        // The second of the day's rows (the board marks the first over by it).
        row: 1,
        time: '08:55',
        end: '09:40',
        start: '2026-03-10T08:55:00+01:00',
        // The timetable gives the substitute lesson no room; Calendars/Substitutions does.
        room: '14',
        teacher: 'Jan Kowalski',
        substitution: true,
        change: 'substitution',
      },
    });
  });

  it('school_day_tomorrow is the calendar day: OFF for the class free day, named after its type', () => {
    const { states } = run(at('2026-03-10', '09:10'));
    expect(states.school_day_tomorrow).toEqual({
      state: 'OFF',
      attributes: { date: '2026-03-11', lessons: 0, free_day: 'Rekolekcje' },
    });
  });

  it('lessons_*_tomorrow use the next school day; a partial free day removes only its lessons', () => {
    const { states, nextSchoolDay } = run(at('2026-03-10', '09:10'));
    expect(nextSchoolDay).toBe('2026-03-12');
    expect(states.lessons_start_tomorrow?.state).toBe('2026-03-12T09:50:00+01:00');
    expect(states.lessons_end_tomorrow?.state).toBe('2026-03-12T12:35:00+01:00');
  });

  it("skips cancelled lessons when looking for the next lesson, the next school day's first after today's; split groups are shown together", () => {
    expect(run(at('2026-03-10', '09:45')).states.next_lesson?.state).toBe('Matematyka');
    const split = run(at('2026-03-10', '12:00')).states.next_lesson;
    expect(split?.state).toBe('Język polski / Wychowanie fizyczne');
    expect(split?.attributes?.room).toBe('12 / Sala gimnastyczna');
    // Once today's lessons are over: the next school day's first (Wednesday is a class free day).
    expect(run(at('2026-03-10', '13:30')).states.next_lesson).toMatchObject({ attributes: { date: '2026-03-12', time: '09:50' } });
    // Before it: today's first.
    expect(run(at('2026-03-10', '07:00')).states.next_lesson).toMatchObject({ attributes: { date: '2026-03-10', time: '08:00' } });
  });

  it('a school free day is OFF; a day the timetable does not cover is unknown', () => {
    const { states } = run(at('2026-03-12', '20:00'));
    expect(states.school_day_tomorrow?.state).toBe('OFF');
    expect(states.school_day_tomorrow?.attributes?.free_day).toBe('Dzień Edukacji');
    const sunday = run(at('2026-03-15', '20:00'));
    expect(sunday.states.school_day_tomorrow?.state).toBeNull();
    expect(sunday.states.lessons_start_tomorrow?.state).toBeNull();
    expect(sunday.states.plan_changes_tomorrow?.state).toBeNull();
  });

  it('ignores class free days when the class is not known (better an alarm too many)', () => {
    const { states } = timetableAt({ days: thisWeek, free: { ...free, classId: undefined }, names, now: at('2026-03-10', '09:10') });
    expect(states.school_day_tomorrow?.state).toBe('ON');
  });

  it('uses summer time offsets', () => {
    const days = timetablesResponse.parse({ Timetable: { '2026-06-01': plainDay(3) } }).Timetable;
    const { states } = timetableAt({ days, free: {}, names, now: at('2026-06-01', '07:00') });
    expect(states.lessons_start_today?.state).toBe('2026-06-01T08:00:00+02:00');
  });

  it('merges weeks; a full week is found across the weekend', () => {
    const next = timetablesResponse.parse({ Timetable: { '2026-03-16': plainDay(3), '2026-03-17': plainDay(3) } }).Timetable;
    const days = mergeTimetables(thisWeek, undefined, next);
    const friday = timetableAt({ days, substitutions, free, names, now: at('2026-03-12', '15:00') });
    expect(friday.nextSchoolDay).toBe('2026-03-16');
    expect(friday.states.lessons_start_tomorrow?.state).toBe('2026-03-16T08:00:00+01:00');
  });
});

describe('which timetable weeks to fetch', () => {
  const cal: SchoolCalendar = { days: thisWeek, names, free: freeDays(free) };
  it.each<[string, SchoolCalendar | undefined, string[]]>([
    ['2026-03-10', undefined, ['2026-03-09']],
    ['2026-03-10', cal, ['2026-03-09']],
    ['2026-03-12', cal, ['2026-03-09', '2026-03-16']],
    ['2026-03-13', cal, ['2026-03-09', '2026-03-16']],
    ['2026-03-15', undefined, ['2026-03-09', '2026-03-16']],
  ])('on %s', (today, calendar, weeks) => {
    expect(timetableWeeks(today, calendar)).toEqual(weeks);
  });

  it('cannot name the next school day past the weeks fetched', () => {
    expect(nextSchoolDay(cal, '2026-03-12')).toBeNull();
  });
});
