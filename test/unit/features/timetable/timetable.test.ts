// The timetable feature: its entities, and the day's lessons (timetable_today/tomorrow), the lesson in progress, at_school, the instants at
// which they move, and free_day events: rendered from one Schedule.
import { describe, expect, it } from 'vitest';
import { classFreeDaysResponse, schoolFreeDaysResponse } from '../../../../src/portal/schemas/calendar.js';
import { timetablesResponse } from '../../../../src/portal/schemas/timetable.js';
import { schedule, type ScheduleInput } from '../../../../src/rules/schedule.js';
import { freeDayEvents, freeDays } from '../../../../src/rules/schooldays.js';
import { renderTimetable, timetable } from '../../../../src/features/timetable/timetable.js';
import { type planChange } from '../../../../src/features/timetable/entities.js';
import type { Events } from '../../../../src/features/kit/contract.js';
import type { SlotOut } from '../../../../src/features/timetable/day.js';
import { warsawInstant } from '../../../../src/util/time.js';
import { lessonAt, names } from '../../rules/fixtures.js';
import { entityTable } from '../../../helpers/entities.js';

// Lesson 3 follows lesson 2 without a break: a boundary that is both an end and a start.
const BELL: Record<number, [string, string]> = { 1: ['08:00', '08:45'], 2: ['08:55', '09:40'], 3: ['09:40', '10:25'], 4: ['10:45', '11:30'] };
const lesson = lessonAt(BELL);

const days = timetablesResponse.parse({
  Timetable: {
    '2026-03-09': [[lesson(1, 1, 10, 100)]],
    '2026-03-10': [
      [lesson(1, 1, 10, 100)],
      [lesson(2, 2, 12, null, { IsSubstitutionClass: true, OrgSubject: { Id: '1' }, OrgTeacher: { Id: '10' }, OrgClassroom: { Id: '100' } })],
      [lesson(3, 3, 10, 101)],
      // A split class: three groups in one period.
      [lesson(4, 1, 10, 100), lesson(4, 2, 12, 101), lesson(4, 3, 10, null, { IsCanceled: true })],
    ],
    '2026-03-11': [[lesson(1, 3, 10, 101, { IsCanceled: true })], [lesson(2, 1, 10, 100)]],
    '2026-03-12': [[lesson(1, 1, 10, 100)]],
    '2026-03-13': [[lesson(1, 1, 10, 100)]],
    '2026-03-14': [],
    '2026-03-15': [],
  },
}).Timetable;

const free = {
  schoolFreeDays: schoolFreeDaysResponse.parse({ SchoolFreeDays: [{ Id: 1, Name: 'Dzień Edukacji', DateFrom: '2026-03-13', DateTo: '2026-03-13' }] })
    .SchoolFreeDays,
  classFreeDays: classFreeDaysResponse.parse({
    ClassFreeDays: [
      { Id: 1, Class: { Id: '77' }, DateFrom: '2026-03-12', DateTo: '2026-03-12', LessonNoFrom: 1, LessonNoTo: 1 },
      { Id: 2, Class: { Id: '78' }, DateFrom: '2026-03-11', DateTo: '2026-03-11' },
      { Id: 3, Class: { Id: '77' }, DateFrom: '2026-02-02', DateTo: '2026-02-02' },
    ],
  }).ClassFreeDays,
  classId: '77',
};

const at = (date: string, time: string) => warsawInstant(date, time);
const input = (now: number): ScheduleInput => ({ days, free, names, now });
const statesAt = (date: string, time: string) => renderTimetable(schedule(input(at(date, time))));

describe('timetable feature', () => {
  it("declares the day's entities, in the order of the interface", () => {
    expect(entityTable(timetable.entities)).toEqual([
      ['plan_changes_today', 'sensor', true],
      ['plan_changes_tomorrow', 'sensor', true],
      ['school_day_today', 'binary_sensor', true],
      ['school_day_tomorrow', 'binary_sensor', true],
      ['lessons_start_today', 'sensor', false],
      ['lessons_end_today', 'sensor', false],
      ['lessons_start_tomorrow', 'sensor', false],
      ['lessons_end_tomorrow', 'sensor', false],
      ['next_lesson', 'sensor', true],
      ['plan_change', 'event', false],
      ['timetable_today', 'sensor', true],
      ['timetable_tomorrow', 'sensor', true],
      ['current_lesson', 'sensor', true],
      ['at_school', 'binary_sensor', false],
      ['free_day', 'event', false],
    ]);
  });
});

describe('timetable_today and timetable_tomorrow', () => {
  const states = statesAt('2026-03-10', '09:10');

  it('lists every period with its change; the count leaves the cancelled one out', () => {
    expect(states.timetable_today?.state).toBe('4');
    const lessons = states.timetable_today?.attributes?.lessons as SlotOut[];
    expect(lessons[0]).toEqual({
      no: 1,
      from: '08:00',
      to: '08:45',
      subject: 'Matematyka',
      teacher: 'Anna Nowak',
      room: '12',
      change: null,
      note: null,
    });
    expect(lessons[1]).toEqual({
      no: 2,
      from: '08:55',
      to: '09:40',
      subject: 'Język polski',
      teacher: 'Jan Kowalski',
      room: null,
      change: 'substitution',
      original_subject: 'Matematyka',
      original_teacher: 'Anna Nowak',
      original_room: '12',
      // Its change in words, as the board and the dashboard print it (a substitute's room unknown: no "was room").
      note: 'substitution · instead of Matematyka',
    });
    expect(states.timetable_today?.attributes?.date).toBe('2026-03-10');
  });

  it('shows a slot with three groups as one slot, joined with " / ", each group in `groups`', () => {
    const lessons = states.timetable_today?.attributes?.lessons as SlotOut[];
    expect(lessons).toHaveLength(4);
    expect(lessons[3]).toEqual({
      no: 4,
      from: '10:45',
      to: '11:30',
      subject: 'Matematyka / Język polski / Wychowanie fizyczne',
      teacher: 'Anna Nowak / Jan Kowalski',
      room: '12 / Sala gimnastyczna',
      // Two groups still have the lesson: the slot is not cancelled; the third group's is marked.
      change: null,
      note: null,
      groups: [
        { subject: 'Matematyka', teacher: 'Anna Nowak', room: '12', change: null },
        { subject: 'Język polski', teacher: 'Jan Kowalski', room: 'Sala gimnastyczna', change: null },
        {
          subject: 'Wychowanie fizyczne',
          teacher: 'Anna Nowak',
          room: null,
          change: 'cancelled',
          original_subject: 'Wychowanie fizyczne',
          original_teacher: 'Anna Nowak',
          original_room: null,
        },
      ],
    });
  });

  it('tomorrow is the next school day: a cancelled lesson listed, marked and not counted', () => {
    expect(states.timetable_tomorrow?.state).toBe('1');
    expect(states.timetable_tomorrow?.attributes?.date).toBe('2026-03-11');
    const lessons = states.timetable_tomorrow?.attributes?.lessons as SlotOut[];
    expect(lessons.map((l) => [l.no, l.subject, l.change])).toEqual([
      [1, 'Wychowanie fizyczne', 'cancelled'],
      [2, 'Matematyka', null],
    ]);
  });

  it('a lesson freed by a class free day is marked cancelled; a day the timetable lacks is unknown', () => {
    const thursday = statesAt('2026-03-12', '07:00').timetable_today;
    expect(thursday?.state).toBe('0');
    expect((thursday!.attributes!.lessons as SlotOut[])[0]).toMatchObject({ no: 1, change: 'cancelled' });
    // Friday is a school free day, the weekend has no lessons, and the next week is not fetched.
    expect(statesAt('2026-03-12', '07:00').timetable_tomorrow).toEqual({ state: null, attributes: { date: null, hours: null, lessons: [] } });
  });
});

describe("timetable_today's standing_differences", () => {
  it('tells the differences from today on: a day gone by is no news, and the card of them would show nothing', () => {
    const difference = (date: string) => ({ date, no: 1, kind: 'room' as const, was: '100', now: '101', words: 'sala 101 zamiast 100' });
    const standing = ['2026-03-09', '2026-03-10', '2026-03-12'].map(difference);
    const today = (out: ReturnType<typeof renderTimetable>) => out.timetable_today?.attributes.standing_differences?.map((d) => d.date);
    expect(today(renderTimetable(schedule(input(at('2026-03-10', '09:10'))), 'pl', true, standing))).toEqual(['2026-03-10', '2026-03-12']);
    // Known and none ahead: an empty list, which the dashboard's card reads as nothing to show.
    expect(today(renderTimetable(schedule(input(at('2026-03-13', '09:10'))), 'pl', true, standing))).toEqual([]);
    // Not read yet stays unknown.
    expect(renderTimetable(schedule(input(at('2026-03-10', '09:10'))), 'pl', true, null).timetable_today?.attributes.standing_differences).toBeNull();
  });
});

describe('current_lesson and at_school', () => {
  it('current_lesson is the slot in progress, None in a break and outside lessons', () => {
    expect(statesAt('2026-03-10', '07:59').current_lesson?.state).toBeNull();
    expect(statesAt('2026-03-10', '08:00').current_lesson).toEqual({
      state: 'Matematyka',
      attributes: { no: 1, from: '08:00', to: '08:45', room: '12', teacher: 'Anna Nowak', change: null, row: 0 },
    });
    expect(statesAt('2026-03-10', '08:50').current_lesson?.state).toBeNull();
    expect(statesAt('2026-03-10', '09:39').current_lesson?.attributes).toMatchObject({ no: 2, change: 'substitution' });
    expect(statesAt('2026-03-10', '09:40').current_lesson?.state).toBe('Wychowanie fizyczne');
    // The split slot: the groups that take place.
    expect(statesAt('2026-03-10', '11:00').current_lesson?.state).toBe('Matematyka / Język polski');
    expect(statesAt('2026-03-10', '11:30').current_lesson?.state).toBeNull();
  });

  it('at_school is ON from the first start to the last end, with the changes', () => {
    expect(statesAt('2026-03-10', '07:59').at_school?.state).toBe('OFF');
    expect(statesAt('2026-03-10', '08:50').at_school?.state).toBe('ON');
    expect(statesAt('2026-03-10', '11:29').at_school?.state).toBe('ON');
    expect(statesAt('2026-03-10', '11:30').at_school?.state).toBe('OFF');
    // Wednesday's first lesson is cancelled: the day starts with the second.
    expect(statesAt('2026-03-11', '08:30').at_school?.state).toBe('OFF');
    expect(statesAt('2026-03-11', '09:00').at_school?.state).toBe('ON');
    expect(statesAt('2026-03-14', '10:00').at_school?.state).toBe('OFF');
  });

  it('names the instants ahead at which they move: each start and end of a lesson taking place', () => {
    const { boundaries } = schedule(input(at('2026-03-10', '09:10')));
    expect(boundaries).toEqual([at('2026-03-10', '09:40'), at('2026-03-10', '10:25'), at('2026-03-10', '10:45'), at('2026-03-10', '11:30')]);
    expect(schedule(input(at('2026-03-10', '12:00'))).boundaries).toEqual([]);
  });
});

describe('free_day events', () => {
  it("one per free day not over yet, the class ones only for the child's class, the school's too", () => {
    const items = freeDayEvents(freeDays(free), '2026-03-10');
    expect(items).toEqual([
      {
        id: 'school:2026-03-13:2026-03-13:all',
        payload: { name: 'Dzień Edukacji', scope: 'school', from: '2026-03-13', to: '2026-03-13', lessons_from: null, lessons_to: null },
      },
      {
        id: 'class:2026-03-12:2026-03-12:1-1',
        payload: { name: null, scope: 'class', from: '2026-03-12', to: '2026-03-12', lessons_from: 1, lessons_to: 1 },
      },
    ]);
  });
});

describe('plan_change events', () => {
  it("carry the change's fields by the names the plan_change entity declares", () => {
    const events: Events<typeof planChange> = { plan_change: schedule(input(at('2026-03-10', '07:00'))).events };
    const substitution = events.plan_change?.find((e) => e.payload.kind === 'substitution')?.payload;
    expect(substitution).toMatchObject({ date: '2026-03-10', lesson_no: 2, hours: '08:55-09:40', original_lesson_no: 2 });
    // An automation reads what the timetable publishes; a name it does not publish fails to compile.
    // @ts-expect-error -- misspelled: the field is lesson_no
    expect(substitution?.lesson_nr).toBeUndefined();
    // @ts-expect-error -- misspelled: the field is original_subject
    expect(substitution?.orginal_subject).toBeUndefined();
    // @ts-expect-error -- misspelled: the event is plan_change
    const misspelled: Events<typeof planChange> = { plan_changes: [] };
    expect(misspelled).not.toHaveProperty('plan_change');
  });
});

describe('bad data', () => {
  it('a lesson of an unknown subject, teacher and room shows what is known (in progress: "Lekcja 1"); a day of empty slots counts none', () => {
    const odd = timetablesResponse.parse({
      Timetable: {
        '2026-03-10': [[lesson(1, 999, 998, 997)], [], [lesson(3, 1, 10, 100, { IsCanceled: true })]],
      },
    }).Timetable;
    const states = renderTimetable(schedule({ days: odd, free: {}, names, now: at('2026-03-10', '08:10') }));
    expect(states.timetable_today?.state).toBe('1');
    const [first, cancelled] = states.timetable_today!.attributes!.lessons as SlotOut[];
    expect(first).toEqual({ no: 1, from: '08:00', to: '08:45', subject: null, teacher: null, room: null, change: null, note: null });
    expect(cancelled).toMatchObject({ no: 3, subject: 'Matematyka', change: 'cancelled' });
    // A lesson in progress never reads as no lesson: it is named by its number in the bridge's language.
    expect(states.current_lesson).toEqual({
      state: 'Lesson 1',
      attributes: { no: 1, from: '08:00', to: '08:45', room: null, teacher: null, change: null, row: 0 },
    });
    expect(renderTimetable(schedule({ days: odd, free: {}, names, now: at('2026-03-10', '08:10') }), 'pl').current_lesson?.state).toBe('Lekcja 1');
    expect(states.at_school?.state).toBe('ON');
  });
});

describe('the standing plan’s differences on timetable_today', () => {
  it('keeps them within the one attribute cap, however many a hostile plan makes', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({
      date: '2026-03-10',
      no: i + 1,
      kind: 'missing' as const,
      was: 'Matematyka, Język polski, Wychowanie fizyczne',
      now: null,
      words: 'brak lekcji: Matematyka, Język polski, Wychowanie fizyczne (jest w stałym planie)',
    }));
    const today = renderTimetable(schedule(input(at('2026-03-10', '09:10'))), 'pl', true, many).timetable_today!;
    expect(Buffer.byteLength(JSON.stringify(today.attributes))).toBeLessThanOrEqual(16_000);
    // The nearest differences kept, the rest counted; the day's lessons still there.
    expect(today.attributes.standing_differences?.[0]?.no).toBe(1);
    expect(today.attributes.lessons?.length).toBeGreaterThan(0);
    expect(today.attributes).toMatchObject({ truncated: true });
  });
});
