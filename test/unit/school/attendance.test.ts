import { describe, expect, it } from 'vitest';
import { attendancesResponse, attendanceTypesResponse, justificationsResponse } from '../../../src/portal/schemas/attendance.js';
import { lessonsResponse } from '../../../src/portal/schemas/lookups.js';
import { attendanceOf, classifyType, type AttendanceInput } from '../../../src/school/attendance.js';
import { renderAbsencesUnexcused, renderAttendance } from '../../../src/features/attendance/attendance.js';
import { names } from './fixtures.js';

describe('attendance types, read by name and IsPresenceKind only', () => {
  it.each([
    ['Nieobecność', false, { absence: true, excused: false, late: false }],
    ['Nieobecność uspr.', false, { absence: true, excused: true, late: false }],
    ['Nieobecność usprawiedliwiona', false, { absence: true, excused: true, late: false }],
    ['Nieobecność nieuspr.', false, { absence: true, excused: false, late: false }],
    ['nieusprawiedliwiona', false, { absence: true, excused: false, late: false }],
    ['Spóźnienie', true, { absence: false, excused: false, late: true }],
    ['spóźn.', true, { absence: false, excused: false, late: true }],
    ['Spoznienie', true, { absence: false, excused: false, late: true }],
    ['Zwolnienie', true, { absence: false, excused: false, late: false }],
    ['Obecność', true, { absence: false, excused: false, late: false }],
    ['Pobyt w sanatorium', true, { absence: false, excused: false, late: false }],
    ['Zwolnienie lekarskie (uspr.)', true, { absence: false, excused: false, late: false }],
  ])('%s (presence %s)', (Name, IsPresenceKind, expected) => {
    expect(classifyType({ Name, IsPresenceKind })).toEqual(expected);
  });
});

const types = attendanceTypesResponse.parse({
  Types: [
    { Id: 1, Name: 'Nieobecność', Short: 'nb', IsPresenceKind: false },
    { Id: 2, Name: 'Spóźnienie', Short: 'sp', IsPresenceKind: true },
    { Id: 3, Name: 'Nieobecność uspr.', Short: 'u', IsPresenceKind: false },
    { Id: 4, Name: 'Zwolnienie', Short: 'zw', IsPresenceKind: true },
    { Id: 100, Name: 'Obecność', Short: 'ob', IsPresenceKind: true },
    // A school's own absence type with an id nobody could hard-code.
    { Id: 1685, Name: 'Wagary', Short: 'wg', IsPresenceKind: false },
  ],
}).Types;

const lessons = lessonsResponse.parse({
  Lessons: [
    { Id: 500, Subject: { Id: 1 }, Teacher: { Id: 10 } },
    { Id: 501, Subject: { Id: 2 }, Teacher: { Id: 12 } },
  ],
}).Lessons;

const mark = (Id: number | string, type: number, Date: string, LessonNo: number, lesson = 500, Semester = 2) => ({
  Id,
  Type: { Id: type },
  Lesson: { Id: lesson },
  Date,
  LessonNo: String(LessonNo),
  Semester,
});

const attendances = attendancesResponse.parse({
  Attendances: [
    mark(1, 100, '2026-03-02', 1),
    mark(2, 100, '2026-03-02', 2),
    mark(3, 1, '2026-03-03', 1),
    mark('t4', 1, '2026-03-03', 2, 501),
    mark(5, 3, '2026-03-04', 1),
    mark(6, 2, '2026-03-05', 1),
    mark(7, 1685, '2026-03-06', 3, 501),
    mark(8, 4, '2026-03-06', 4),
    mark(9, 100, '2026-03-06', 5),
    mark(10, 999, '2026-03-06', 6),
    mark(11, 1, '2025-12-01', 1, 500, 1),
  ],
}).Attendances;

const justifications = justificationsResponse.parse({
  status: 'ok',
  data: [
    { id: 1, postDate: '2026-03-05 07:00:00', justificationStatus: 'accept', dateFrom: '2026-03-04', dateTo: '2026-03-04', justifiedAbsences: 1 },
    { id: 2, postDate: '2026-03-07 07:00:00', justificationStatus: 'pending', dateFrom: '2026-03-06', dateTo: '2026-03-06', justifiedAbsences: 1 },
    { id: 3, postDate: '2025-12-02 07:00:00', justificationStatus: 'accept', dateFrom: '2025-12-01', dateTo: '2025-12-01' },
  ],
}).data;

const input = { attendances, types, lessons, justifications, names, semester: 2 as const, endFirstSemester: '2026-01-25' };

const absencesUnexcused = (i: AttendanceInput) => renderAbsencesUnexcused(attendanceOf(i).semester);
/** The events as the event gate fires them: their fields with the event type first. */
const absenceEvents = (i: AttendanceInput) =>
  attendanceOf(i).events.map((e) => ({ id: e.id, payload: { event_type: 'absence', ...e.payload } as Record<string, unknown> }));

describe('absences_unexcused', () => {
  it('counts unexcused absences of the semester, with the rest as attributes', () => {
    const state = absencesUnexcused(input);
    // Semester 2, known types: 9 marks; absences 3 (nb), t4 (nb), 5 (uspr.), 7 (wagary) = 4.
    expect(state.state).toBe('3');
    expect(state.attributes).toMatchObject({
      semester: 2,
      excused: 1,
      late: 1,
      absences: 4,
      marks: 9,
      attendance_percent: 55.6,
      justifications: { count: 2, by_status: { accept: 1, pending: 1 } },
      unexcused: [
        { date: '2026-03-06', lesson_no: 3, subject: 'Język polski' },
        { date: '2026-03-03', lesson_no: 2, subject: 'Język polski' },
        { date: '2026-03-03', lesson_no: 1, subject: 'Matematyka' },
      ],
    });
  });

  it('is 0 with no absences and unknown percentage without marks', () => {
    const state = absencesUnexcused({ ...input, attendances: [] });
    expect(state.state).toBe('0');
    expect(state.attributes?.attendance_percent).toBeNull();
  });
});

describe('attendance', () => {
  it("is the share of the semester's lessons present at (late counts as present), each subject's lowest first", () => {
    expect(renderAttendance(attendanceOf(input).semester)).toEqual({
      state: '55.6',
      attributes: {
        // Język polski: two absences (one of a school's own type); Matematyka: 7 marks, an absence, an excused one, a late arrival.
        by_subject: [
          { subject: 'Język polski', lessons: 2, present: 0, absent: 2, late: 0, excused: 0, percent: 0 },
          { subject: 'Matematyka', lessons: 7, present: 5, absent: 2, late: 1, excused: 1, percent: 71.4 },
        ],
        unexcused: 3,
      },
    });
  });

  it('is unknown (None), not 0, before the semester has a mark', () => {
    expect(renderAttendance(attendanceOf({ ...input, attendances: [] }).semester)).toEqual({
      state: null,
      attributes: { by_subject: [], unexcused: 0 },
    });
  });
});

describe('absence events', () => {
  it('fires for every absence and lateness, with the subject through Lessons', () => {
    const events = absenceEvents(input);
    expect(events.map((e) => e.id)).toEqual(['absence:7', 'absence:6', 'absence:5', 'absence:t4', 'absence:3', 'absence:11']);
    expect(events.find((e) => e.id === 'absence:6')?.payload).toEqual({
      event_type: 'absence',
      id: '6',
      date: '2026-03-05',
      lesson_no: 1,
      subject: 'Matematyka',
      teacher: 'Anna Nowak',
      type: 'Spóźnienie',
      kind: 'late',
    });
    expect(events.find((e) => e.id === 'absence:5')?.payload.kind).toBe('excused');
  });
});
