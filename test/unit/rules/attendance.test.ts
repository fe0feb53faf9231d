import { describe, expect, it } from 'vitest';
import { attendancesResponse, attendanceTypesResponse, justificationsResponse } from '../../../src/portal/schemas/attendance.js';
import { lessonsResponse } from '../../../src/portal/schemas/lookups.js';
import { attendanceOf, classifyType, justificationStatus, type AttendanceInput } from '../../../src/rules/attendance.js';
import { renderAbsencesUnexcused, renderAttendance } from '../../../src/features/attendance/attendance.js';
import { names } from './fixtures.js';
import { SeenStore } from '../../../src/once/memory.js';

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

const absencesUnexcused = (i: AttendanceInput, language: 'pl' | 'en' | 'uk' = 'pl') => renderAbsencesUnexcused(attendanceOf(i).semester, language);
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
      justifications: { count: 2, by_status: { accepted: 1, pending: 1 } },
      unexcused: [
        { date: '2026-03-06', lesson_no: 3, subject: 'Język polski' },
        { date: '2026-03-03', lesson_no: 2, subject: 'Język polski' },
        { date: '2026-03-03', lesson_no: 1, subject: 'Matematyka' },
      ],
    });
  });

  it("says each justification's status as a key and in words of the language, the portal's `accept` accepted", () => {
    const latest = (language: 'pl' | 'en' | 'uk') =>
      (absencesUnexcused(input, language).attributes?.justifications?.latest ?? []).map((j) => [j.status, j.status_name]);
    expect(latest('pl')).toEqual([
      ['pending', 'czeka na decyzję'],
      ['accepted', 'przyjęte'],
    ]);
    expect(latest('en')).toEqual([
      ['pending', 'awaiting a decision'],
      ['accepted', 'accepted'],
    ]);
    expect(latest('uk')[1]).toEqual(['accepted', 'прийнято']);
    expect(['accept', 'Accepted', 'reject', 'rejected', 'odrzucone', 'new', '', undefined].map(justificationStatus)).toEqual([
      'accepted',
      'accepted',
      'rejected',
      'rejected',
      'rejected',
      'pending',
      'pending',
      'pending',
    ]);
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

describe('justification decisions', () => {
  const decided = (list: unknown[]) => attendanceOf({ ...input, justifications: justificationsResponse.parse({ data: list }).data }).decisions;

  it('one per decided excuse, keyed by its status, with the absence marks it covers: of its lessons, else of its days', () => {
    const decisions = decided([
      // By its days: the two absences of 3 March (lesson 1, and t4 of Język polski).
      { id: 7, postDate: '2026-03-04 07:00:00', justificationStatus: 'accept', dateFrom: '2026-03-03', dateTo: '2026-03-03', justifiedAbsences: 2 },
      // By the lesson it names: the 6 March absence at lesson 3 only (lesson 4 of that day is a release, no absence).
      {
        id: 8,
        postDate: '2026-03-07 07:00:00',
        justificationStatus: 'reject',
        dateFrom: '2026-03-06',
        dateTo: '2026-03-06',
        lessons: [
          { number: 3, date: '2026-03-06' },
          { number: 4, date: '2026-03-06' },
        ],
      },
      { id: 9, postDate: '2026-03-08 07:00:00', justificationStatus: 'new', dateFrom: '2026-03-05', dateTo: '2026-03-05' },
    ]);
    expect(decisions).toEqual([
      {
        id: 'justification:7:accepted',
        payload: {
          id: '7',
          status: 'accepted',
          from: '2026-03-03',
          to: '2026-03-03',
          absences: [
            { date: '2026-03-03', lesson_no: 1, subject: 'Matematyka' },
            { date: '2026-03-03', lesson_no: 2, subject: 'Język polski' },
          ],
          justified: 2,
          posted: '2026-03-04T07:00:00+01:00',
        },
      },
      {
        id: 'justification:8:rejected',
        payload: {
          id: '8',
          status: 'rejected',
          from: '2026-03-06',
          to: '2026-03-06',
          absences: [{ date: '2026-03-06', lesson_no: 3, subject: 'Język polski' }],
          justified: null,
          posted: '2026-03-07T07:00:00+01:00',
        },
      },
    ]);
  });

  it('fires once when the school decides, never for an excuse already decided at the first read', () => {
    const seen = new SeenStore('/nonexistent', 'ania');
    const take = (status: string) =>
      seen.take(
        'justification',
        decided([{ id: 5, postDate: '2026-03-07 07:00:00', justificationStatus: status, dateFrom: '2026-03-06', dateTo: '2026-03-06' }]),
        false,
      ).news;
    const other = { id: 4, postDate: '2026-03-01 07:00:00', justificationStatus: 'accept', dateFrom: '2026-03-02', dateTo: '2026-03-02' };
    // The first read: one decided long ago is remembered, not fired.
    expect(seen.take('justification', decided([other]), false).news).toEqual([]);
    expect(take('pending')).toEqual([]);
    expect(take('accept').map((d) => d.payload.status)).toEqual(['accepted']);
    expect(take('accept')).toEqual([]);
  });
});
