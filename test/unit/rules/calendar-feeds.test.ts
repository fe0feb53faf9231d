// The calendar feeds' entries from the timetable's days (each slot as the timetable says it), the agenda and the free
// days: what a family sees in its calendar app, with bad data (cancelled, substituted, split classes, missing subjects).
import { describe, expect, it } from 'vitest';
import { substitutionsResponse, timetablesResponse } from '../../../src/portal/schemas/timetable.js';
import { schoolFreeDaysResponse, classFreeDaysResponse } from '../../../src/portal/schemas/calendar.js';
import { schoolDays } from '../../../src/rules/schedule.js';
import { freeDays } from '../../../src/rules/schooldays.js';
import { agendaEntries, calendarFeedDates, calendarFeedEntries, freeDayEntries, lessonEntries } from '../../../src/rules/calendar-feeds.js';
import type { AgendaItem } from '../../../src/rules/agenda.js';
import type { HomeworkItem } from '../../../src/rules/homework.js';
import { BELL, lessonAt, names } from './fixtures.js';
import { slotFacts } from '../../../src/features/timetable/day.js';

const lesson = lessonAt(BELL);

const MONDAY = '2026-03-09';

/** Monday: maths, a cancelled PE lesson, Polish substituted by maths; Tuesday: a split class (two groups). */
function timetable(tuesdayGroup2: Record<string, unknown> = {}) {
  return timetablesResponse.parse({
    Timetable: {
      '2026-03-09': [
        [lesson(1, 1, 10, 100)],
        [lesson(2, 3, 10, 101, { IsCanceled: true })],
        [
          lesson(3, 1, 12, null, {
            IsSubstitutionClass: true,
            OrgSubject: { Id: '2' },
            OrgTeacher: { Id: '10' },
            OrgClassroom: { Id: '100' },
          }),
        ],
      ],
      '2026-03-10': [[lesson(1, 2, 10, 100), lesson(1, 2, 12, 101, tuesdayGroup2)]],
      '2026-03-11': [],
    },
  }).Timetable;
}

const noFree = { schoolFreeDays: [], classFreeDays: [], classId: '7' };
const days = (tt = timetable(), substitutions = substitutionsResponse.parse({ Substitutions: [] }).Substitutions) =>
  schoolDays({ days: tt, substitutions, free: noFree, names }, calendarFeedDates(MONDAY));

describe('lessons feed entries', () => {
  it('keeps a cancelled lesson, marked, and shows a substitution with what was planned', () => {
    const monday = lessonEntries(days(), 'ania', slotFacts).filter((l) => l.when.date === MONDAY);
    expect(monday.map((l) => [l.uid, l.when, l.subject, l.change])).toEqual([
      ['lesson-2026-03-09-1.ania@dziennik2mqtt', { date: MONDAY, from: '08:00', to: '08:45' }, 'Matematyka', null],
      ['lesson-2026-03-09-2.ania@dziennik2mqtt', { date: MONDAY, from: '08:55', to: '09:40' }, 'Wychowanie fizyczne', 'cancelled'],
      ['lesson-2026-03-09-3.ania@dziennik2mqtt', { date: MONDAY, from: '09:50', to: '10:35' }, 'Matematyka', 'substitution'],
    ]);
    expect(monday[2]).toMatchObject({
      teacher: 'Jan Kowalski',
      original_subject: 'Język polski',
      original_teacher: 'Anna Nowak',
      original_room: '12',
    });
    expect(monday[0]!.original_subject).toBeUndefined();
  });

  it('gives a split class one event for its slot, as every screen shows it, whose UID a substitution of a group keeps', () => {
    const tuesday = (list: ReturnType<typeof lessonEntries>) => list.filter((l) => l.when.date === '2026-03-10');
    const before = tuesday(lessonEntries(days(), 'ania', slotFacts));
    expect(before.map((l) => [l.uid, l.teacher, l.room, l.change])).toEqual([
      ['lesson-2026-03-10-1.ania@dziennik2mqtt', 'Anna Nowak / Jan Kowalski', '12 / Sala gimnastyczna', null],
    ]);
    const substituted = timetable({ IsSubstitutionClass: true, Teacher: { Id: '10' }, OrgSubject: { Id: '2' }, OrgTeacher: { Id: '12' } });
    const after = tuesday(lessonEntries(days(substituted), 'ania', slotFacts));
    expect(after.map((l) => l.uid)).toEqual(before.map((l) => l.uid));
    expect(after[0]).toMatchObject({ teacher: 'Anna Nowak', change: 'substitution' });
    // One group's lesson cancelled, the other's held: the slot is not cancelled (slotChange), as on the board.
    const halfOff = tuesday(lessonEntries(days(timetable({ IsCanceled: true })), 'ania', slotFacts));
    expect(halfOff.map((l) => [l.uid, l.change])).toEqual([['lesson-2026-03-10-1.ania@dziennik2mqtt', null]]);
  });

  it('has no entry for a week the timetable does not cover, or for a day without lessons', () => {
    const entries = lessonEntries(days(), 'ania', slotFacts);
    expect(entries.filter((l) => l.when.date >= '2026-03-11')).toEqual([]);
    expect(lessonEntries(days(timetablesResponse.parse({ Timetable: {} }).Timetable), 'ania', slotFacts)).toEqual([]);
  });

  it('covers Monday to Sunday of this and next week', () => {
    expect(calendarFeedDates(MONDAY)).toHaveLength(14);
    expect(calendarFeedDates(MONDAY).at(-1)).toBe('2026-03-22');
  });
});

const item = (over: Partial<AgendaItem>): AgendaItem => ({
  key: 'agenda:1',
  kind: 'test',
  date: MONDAY,
  until: null,
  time: null,
  time_to: null,
  subject: 'Matematyka',
  category: 'Sprawdzian',
  content: 'Ułamki',
  teacher: 'Anna Nowak',
  ...over,
});

const homework = (over: Partial<HomeworkItem>): HomeworkItem => ({
  key: 'homework:5',
  subject: 'Matematyka',
  topic: 'Ułamki',
  text: 'Zadania 1-5',
  teacher: 'Anna Nowak',
  assigned: '2026-03-02',
  due: MONDAY,
  attachments: [],
  done: null,
  ...over,
});

describe('agenda feed entries', () => {
  it("times a test at its hour, else at its subject's lesson that day, else all day", () => {
    const entries = agendaEntries({
      child: 'ania',
      days: days(),
      agenda: [
        item({ key: 'agenda:1', time: '08:55' }),
        item({ key: 'agenda:2', date: '2026-03-10', subject: 'Matematyka' }),
        item({ key: 'agenda:3', date: '2026-03-10', subject: 'Język polski', kind: 'quiz', category: 'Kartkówka' }),
      ],
      homework: [homework({})],
    });
    expect(entries.map((e) => [e.uid, e.kind, e.when])).toEqual([
      ['homework-5.ania@dziennik2mqtt', 'homework', { date: MONDAY, from: '08:00', to: '08:45' }],
      ['agenda-1.ania@dziennik2mqtt', 'test', { date: MONDAY, from: '08:55', to: '09:40' }],
      ['agenda-2.ania@dziennik2mqtt', 'test', { date: '2026-03-10', last: '2026-03-10' }],
      ['agenda-3.ania@dziennik2mqtt', 'quiz', { date: '2026-03-10', from: '08:00', to: '08:45' }],
    ]);
  });

  it('keeps a test without a subject, and the UID of a test whose date and text were edited', () => {
    const [before] = agendaEntries({ child: 'ania', days: days(), agenda: [item({ subject: null })], homework: [] });
    expect(before).toMatchObject({ kind: 'test', subject: null, text: 'Ułamki', when: { date: MONDAY, last: MONDAY } });
    const [edited] = agendaEntries({
      child: 'ania',
      days: days(),
      agenda: [item({ date: '2026-03-16', content: 'Ułamki i procenty' })],
      homework: [],
    });
    expect(edited!.uid).toBe(before!.uid);
  });

  it('spans a trip of several days over them, whole days, not one lesson on its first day', () => {
    const trip = item({ key: 'trip:9', kind: 'trip', subject: null, date: MONDAY, until: '2026-03-11', time: '08:00', content: 'Zakopane' });
    const [entry] = agendaEntries({ child: 'ania', days: days(), agenda: [trip], homework: [] });
    expect(entry).toMatchObject({ kind: 'trip', when: { date: MONDAY, last: '2026-03-11' } });
  });

  it('leaves out homework without a due date', () => {
    expect(agendaEntries({ child: 'ania', days: [], agenda: [], homework: [homework({ due: null })] })).toEqual([]);
  });
});

describe('free days calendar feed entries', () => {
  it("spans a free day of several days, whole days, the class's only for its own class", () => {
    const free = freeDays({
      schoolFreeDays: schoolFreeDaysResponse.parse({
        SchoolFreeDays: [{ Id: 4, Name: 'Ferie zimowe', DateFrom: '2026-02-16', DateTo: '2026-03-01' }],
      }).SchoolFreeDays,
      classFreeDays: classFreeDaysResponse.parse({
        ClassFreeDays: [
          { Id: 9, Class: { Id: 7 }, Type: { Id: 1 }, DateFrom: '2026-03-12', DateTo: '2026-03-12', LessonNoFrom: 3, LessonNoTo: 6 },
          { Id: 10, Class: { Id: 8 }, Type: { Id: 1 }, DateFrom: '2026-03-13', DateTo: '2026-03-13' },
        ],
      }).ClassFreeDays,
      classId: '7',
    });
    expect(freeDayEntries(free, 'ania')).toEqual([
      {
        uid: 'free-school-4.ania@dziennik2mqtt',
        when: { date: '2026-02-16', last: '2026-03-01' },
        name: 'Ferie zimowe',
        scope: 'school',
        lessons: null,
      },
      {
        uid: 'free-class-9.ania@dziennik2mqtt',
        when: { date: '2026-03-12', last: '2026-03-12' },
        name: null,
        scope: 'class',
        lessons: { from: 3, to: 6 },
      },
    ]);
  });

  it('makes every calendar feed empty, not broken, for a child with nothing known', () => {
    expect(calendarFeedEntries({ child: 'ania', days: [], agenda: [], homework: [], free: [], slot: slotFacts })).toEqual({
      lessons: [],
      agenda: [],
      freeDays: [],
    });
  });
});
