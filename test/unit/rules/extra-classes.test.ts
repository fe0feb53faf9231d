// Extra classes merged into the day (live-notes 42-46), as a table: each row an item of OtherActivitiesRegister and
// what the day shows of it. Through the real schema, schedule() and the timetable's render, as the feature computes them.
import { describe, expect, it } from 'vitest';
import { otherActivitiesResponse, timetablesResponse } from '../../../src/portal/schemas/timetable.js';
import { schedule } from '../../../src/rules/schedule.js';
import { lessonEntries } from '../../../src/rules/calendar-feeds.js';
import { renderTimetable } from '../../../src/features/timetable/timetable.js';
import { slotFacts } from '../../../src/features/timetable/day.js';
import { warsawInstant } from '../../../src/util/time.js';
import { BELL, lessonAt, names } from './fixtures.js';

const lesson = lessonAt(BELL);
const TUESDAY = '2026-03-10';
const days = timetablesResponse.parse({
  Timetable: {
    '2026-03-09': [[lesson(5, 1, 10, 100)]],
    // Lesson 4 is cancelled in the plan; an extra class at its hour is no change of it.
    [TUESDAY]: [[lesson(1, 1, 10, 100)], [lesson(2, 2, 12, 100)], [lesson(3, 3, 10, 101)], [lesson(4, 2, 12, 100, { IsCanceled: true })]],
  },
}).Timetable;

const item = (date: string, startTime: string, title: string, more: Record<string, unknown> = {}) => ({
  status: 'ACTUAL',
  date,
  startTime,
  endTime: `${String(Number(startTime.slice(0, 2)) + 1).padStart(2, '0')}${startTime.slice(2)}`,
  title,
  teacherName: 'Zieliński Tomasz',
  classroom: { name: 'Sala 22', symbol: '22' },
  ...more,
});
const slot = (no: number | null, from: string, subject: string, more: Record<string, unknown> = {}) => ({
  no,
  from,
  to: `${String(Number(from.slice(0, 2)) + 1).padStart(2, '0')}${from.slice(2)}`,
  subject,
  teacher: 'Tomasz Zieliński',
  room: '22',
  change: null,
  extra: true,
  // An extra class says so in its note, as every screen prints it (the bridge's language here: English).
  note: 'extra class',
  ...more,
});

// [what the row shows, the item, the slot the day shows of it (null: none)]
const ROWS: [string, Record<string, unknown>, Record<string, unknown> | null][] = [
  ['before the lessons, at no lesson hour: no number, first', item(TUESDAY, '07:10', 'Wyrównawcze'), slot(null, '07:10', 'Wyrównawcze')],
  [
    "at a cancelled lesson's hour: its number, a slot of its own, no change",
    item(TUESDAY, '10:45', 'Chór', { classroom: { name: 'Aula' } }),
    slot(4, '10:45', 'Chór', { room: 'Aula' }),
  ],
  ["at the hour of a lesson of another day: that lesson's number", item(TUESDAY, '11:50', 'Szachy'), slot(5, '11:50', 'Szachy')],
  [
    'cancelled: a cancelled lesson',
    item(TUESDAY, '14:00', 'Koło', { status: 'CANCELLED' }),
    slot(null, '14:00', 'Koło', {
      change: 'cancelled',
      original_subject: 'Koło',
      original_teacher: 'Tomasz Zieliński',
      original_room: '22',
      note: 'extra class · cancelled',
    }),
  ],
  ['the start and title of a lesson the day holds: left out', item(TUESDAY, '08:00', 'matematyka'), null],
  ['without a start: left out', item(TUESDAY, '', 'Bez godziny'), null],
  ['on a day the timetable does not cover: not shown', item('2026-03-20', '14:00', 'Piątek'), null],
];

const extra = otherActivitiesResponse.parse({ data: ROWS.map(([, raw]) => raw) }).data;
const at = (time: string) => schedule({ days, free: {}, names, extra, now: warsawInstant(TUESDAY, time) });
const regular = (no: number, subject: string, teacher: string, room: string, change: string | null = null) => ({
  no,
  from: BELL[no]![0],
  to: BELL[no]![1],
  subject,
  teacher,
  room,
  change,
  note: null,
});

describe('extra classes in the day', () => {
  it.each(ROWS)('%s', (_, _raw, shown) => {
    const lessons = renderTimetable(at('07:00')).timetable_today!.attributes.lessons ?? [];
    const extras = lessons.filter((l) => l.extra);
    if (shown === null) expect(extras).not.toContainEqual(expect.objectContaining({ subject: _raw.title }));
    else expect(extras).toContainEqual(shown);
  });

  it('stands between the lessons by start time, counted when held, in the day’s span too; the school day and changes are the plan’s', () => {
    const states = renderTimetable(at('07:00'));
    expect(states.timetable_today?.attributes.lessons!.map((l) => [l.no, l.from, l.subject, l.change, l.extra ?? false])).toEqual([
      [null, '07:10', 'Wyrównawcze', null, true],
      [1, '08:00', 'Matematyka', null, false],
      [2, '08:55', 'Język polski', null, false],
      [3, '09:50', 'Wychowanie fizyczne', null, false],
      [4, '10:45', 'Język polski', 'cancelled', false],
      [4, '10:45', 'Chór', null, true],
      [5, '11:50', 'Szachy', null, true],
      [null, '14:00', 'Koło', 'cancelled', true],
    ]);
    expect(states.timetable_today?.attributes.lessons![1]).toEqual(regular(1, 'Matematyka', 'Anna Nowak', '12'));
    expect(states.timetable_today?.state).toBe('6');
    // The day a parent lives: from the extra class at 07:10 to the end of Szachy (12:50), six lessons; every screen says so.
    expect(states.school_day_today).toMatchObject({ state: 'ON', attributes: { lessons: 6 } });
    expect([states.lessons_start_today?.state, states.lessons_end_today?.state]).toEqual(['2026-03-10T07:10:00+01:00', '2026-03-10T12:50:00+01:00']);
    expect(states.timetable_today?.attributes.hours).toEqual({ from: '07:10', to: '12:50' });
    expect(states.plan_changes_today?.attributes.changes!.map((c) => [c.lesson_no, c.kind])).toEqual([[4, 'cancelled']]);
    expect(states.next_lesson).toMatchObject({ state: 'Wyrównawcze', attributes: { lesson_no: null, time: '07:10', extra: true } });
  });

  it('is the next lesson and the lesson in progress in its hour, a cancelled one neither', () => {
    const during = renderTimetable(at('11:00'));
    expect(during.current_lesson).toMatchObject({ state: 'Chór', attributes: { no: 4, change: null, extra: true } });
    expect(during.next_lesson).toMatchObject({ state: 'Chór', attributes: { lesson_no: 4, room: 'Aula', extra: true } });
    // As published (JSON): an ordinary lesson's `extra` is undefined, left out.
    expect(JSON.parse(JSON.stringify(renderTimetable(at('09:00')).next_lesson!.attributes))).not.toHaveProperty('extra');
    expect(renderTimetable(at('13:00')).next_lesson!.state).toBeNull();
  });

  it('stands in the lessons feed marked extra, a cancelled one cancelled, by its start and title', () => {
    const entries = lessonEntries([at('07:00').today], 'ania', slotFacts).filter((e) => e.extra);
    expect(entries.map((e) => [e.uid, e.lessonNo, e.change])).toEqual([
      ['extra-2026-03-10-0710-Wyr-wnawcze.ania@dziennik2mqtt', null, null],
      ['extra-2026-03-10-1045-Ch-r.ania@dziennik2mqtt', 4, null],
      ['extra-2026-03-10-1150-Szachy.ania@dziennik2mqtt', 5, null],
      ['extra-2026-03-10-1400-Ko-o.ania@dziennik2mqtt', null, 'cancelled'],
    ]);
  });

  it('leaves the plan as it is for an answer without data or with no items', () => {
    for (const answer of [{}, { data: null }, { data: [] }, { Status: 'Ok' }]) {
      const none = otherActivitiesResponse.parse(answer).data;
      const states = renderTimetable(schedule({ days, free: {}, names, extra: none, now: warsawInstant(TUESDAY, '07:00') }));
      expect(states.timetable_today?.attributes.lessons!.map((l) => l.no)).toEqual([1, 2, 3, 4]);
    }
  });
});
