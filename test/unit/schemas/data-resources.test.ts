import { describe, expect, it } from 'vitest';
import { schoolTripsResponse, homeworkAssignmentsResponse } from '../../../src/portal/schemas/agenda.js';
import { attendancesResponse, justificationsResponse } from '../../../src/portal/schemas/attendance.js';
import { behaviourTypesResponse, behaviourPointsResponse } from '../../../src/portal/schemas/behaviour.js';
import { calendarMonthResponse, classFreeDaysResponse } from '../../../src/portal/schemas/calendar.js';
import { descriptiveGradesResponse } from '../../../src/portal/schemas/descriptive.js';
import { toBool, toIdList, toNumber, toText } from '../../../src/portal/schemas/fields.js';
import { gradeCategoriesResponse, gradesResponse } from '../../../src/portal/schemas/grades.js';
import { ebiblioLendingsResponse } from '../../../src/portal/schemas/library.js';
import { authSubjectsResponse, subjectsResponse } from '../../../src/portal/schemas/lookups.js';
import { partialGradesResponse } from '../../../src/portal/schemas/partial.js';
import { substitutionsResponse, timetablesResponse } from '../../../src/portal/schemas/timetable.js';

describe('field readers', () => {
  it.each([
    [5, 5],
    ['5', 5],
    ['1,5', 1.5],
    [' 2.25 ', 2.25],
    ['-0,5', -0.5],
    ['', undefined],
    ['1,5,5', undefined],
    ['waga', undefined],
    [true, undefined],
    [null, undefined],
    [Number.NaN, undefined],
  ])('toNumber(%j) = %j', (raw, expected) => expect(toNumber(raw)).toBe(expected));

  it.each([
    [true, true],
    [false, false],
    [1, true],
    ['0', false],
    ['true', true],
    ['yes', undefined],
    [null, undefined],
  ])('toBool(%j) = %j', (raw, expected) => expect(toBool(raw)).toBe(expected));

  it.each([
    ['abc', 'abc'],
    [12, '12'],
    ['   ', undefined],
    [false, undefined],
    [{ a: 1 }, undefined],
  ])('toText(%j) = %j', (raw, expected) => expect(toText(raw)).toBe(expected));

  it.each([
    [
      [{ Id: 1, Url: 'x' }, { Id: '2' }],
      ['1', '2'],
    ],
    [
      [3, '4', null, { Id: null }],
      ['3', '4'],
    ],
    [{ Id: 7 }, ['7']],
    [undefined, []],
  ])('toIdList(%j) = %j', (raw, expected) => expect(toIdList(raw)).toEqual(expected));
});

describe('Grades', () => {
  it('normalises ids, keeps extra fields and reads comments of either form', () => {
    const [a, b] = gradesResponse.parse({
      Grades: [
        { Id: 1, Grade: '5+', Subject: { Id: '3', Url: 'u' }, Comments: [{ Id: 9, Url: 'u' }], Extra: 'x' },
        { Id: '2', Grade: 4, Subject: { Id: 3 }, Comments: [9, '10'], Semester: '2', Improvement: { Id: 1 } },
      ],
      Resources: {},
      Url: 'x',
    }).Grades;
    expect(a).toMatchObject({ Id: '1', Grade: '5+', Subject: '3', Comments: ['9'], Extra: 'x' });
    expect(b).toMatchObject({ Id: '2', Grade: '4', Semester: 2, Comments: ['9', '10'], Improvement: '1' });
  });

  it('skips records whose Id is not a usable number', () => {
    const list = gradesResponse.parse({
      Grades: [{ Id: 'abc' }, { Id: null }, { Grade: '5' }, { Id: 1.5 }, 'junk', { Id: ' 7 ', Grade: '3' }],
    }).Grades;
    expect(list.map((g) => g.Id)).toEqual(['7']);
  });

  it('reads a field of the wrong type as missing instead of dropping the grade', () => {
    const [g] = gradesResponse.parse({ Grades: [{ Id: 1, Grade: true, Subject: false, Semester: 'x' }] }).Grades;
    expect(g).toMatchObject({ Id: '1', Grade: undefined, Subject: undefined, Semester: undefined });
  });

  it('fails without its root key, so the last good data is kept', () => {
    expect(gradesResponse.safeParse({ Status: 'Disabled' }).success).toBe(false);
  });

  it('reads category weights as numbers or numeric strings', () => {
    const list = gradeCategoriesResponse.parse({
      Categories: [
        { Id: 1, Name: 'a', Weight: 2, CountToTheAverage: true },
        { Id: 2, Name: 'b', Weight: '1,5', CountToTheAverage: 'false' },
        { Id: 3, Name: 'c', Weight: 'duża', CountToTheAverage: null },
      ],
    }).Categories;
    expect(list.map((c) => [c.Weight, c.CountToTheAverage])).toEqual([
      [2, true],
      [1.5, false],
      [undefined, undefined],
    ]);
  });
});

describe('string-id kinds (spec 2.1.3)', () => {
  it('keeps t-prefixed attendance ids and numeric ones', () => {
    const list = attendancesResponse.parse({
      Attendances: [{ Id: 't123', Type: { Id: 1 } }, { Id: 5, Type: { Id: '2' } }, { Id: '' }, { Id: null }],
    }).Attendances;
    expect(list.map((a) => [a.Id, a.Type])).toEqual([
      ['t123', '1'],
      ['5', '2'],
    ]);
  });

  it('keeps the behaviour types 1 to 6 given as strings', () => {
    const types = behaviourTypesResponse.parse({ Types: [{ Id: '1', Name: 'wzorowe', Shortcut: 'wz' }] }).Types;
    expect(types[0]?.Id).toBe('1');
  });

  it('keeps the string class ids of ClassFreeDays', () => {
    const [d] = classFreeDaysResponse.parse({
      ClassFreeDays: [
        { Id: 1, Class: { Id: '77', Url: 'x' }, Type: { Id: 2 }, DateFrom: '2026-03-10', DateTo: '2026-03-10', LessonNoFrom: '1', LessonNoTo: '3' },
      ],
    }).ClassFreeDays;
    expect(d).toMatchObject({ Class: '77', Type: '2', LessonNoFrom: 1, LessonNoTo: 3 });
  });
});

describe('envelopes and camelCase resources', () => {
  it('reads Justifications in the lowercase envelope', () => {
    const parsed = justificationsResponse.parse({
      status: 'ok',
      message: '',
      data: [
        {
          id: 4,
          messageFromParent: 'choroba',
          postDate: '2026-03-02 08:00:00',
          justificationStatus: 'accept',
          dateFrom: '2026-02-27',
          dateTo: '2026-02-27',
          lessons: [],
          justifiedAbsences: 6,
          attachment: false,
          notifiedTeachers: [{ name: 'Anna Nowak' }],
        },
      ],
    });
    expect(parsed.data[0]).toMatchObject({ id: '4', justifiedAbsences: 6, notifiedTeachers: [{ name: 'Anna Nowak' }] });
  });

  it('reads SchoolTrips under Data', () => {
    const trips = schoolTripsResponse.parse({
      Data: [{ id: 3, destination: 'Kraków', termFrom: '2026-05-10 08:00:00', termTo: '2026-05-10 18:00:00' }],
    }).Data;
    expect(trips[0]).toMatchObject({ id: '3', destination: 'Kraków' });
  });

  it('reads EbiblioLendings flat', () => {
    const parsed = ebiblioLendingsResponse.parse({
      lastSynchronizationTimestamp: 1767225600,
      lendings: [{ identifier: 'uuid-1', type: 'BOOK', title: 'Pan Tadeusz', dueDate: '2026-03-01', isExtendable: true }],
    });
    expect(parsed.lendings[0]).toMatchObject({ identifier: 'uuid-1', title: 'Pan Tadeusz', isExtendable: true });
  });

  it('reads HomeWorkAssignments with the portal spelling of its files', () => {
    const [h] = homeworkAssignmentsResponse.parse({
      HomeWorkAssignments: [
        { Id: 1, Teacher: { Id: 10 }, HomeworkAssigmentFiles: [{ Id: 5, Name: 'karta.pdf', Url: 'x' }], StudentsWhoMarkedAsDone: [{ Id: 50 }] },
      ],
    }).HomeWorkAssignments;
    expect(h).toMatchObject({ HomeworkAssigmentFiles: [{ Id: '5', Name: 'karta.pdf' }], StudentsWhoMarkedAsDone: ['50'] });
  });
});

describe('Auth/Subjects', () => {
  it.each([
    ['the live list under data', { data: [{ identifier: 'LID-S-1', numericIdentifier: 123, name: 'Matematyka', type: 'x' }] }],
    ['the spec form keyed by LID', { 'LID-S-1': { numericIdentifier: '123', name: 'Matematyka' }, Url: 'x', Resources: {} }],
    ['keyed by LID under data', { data: { 'LID-S-1': { identifier: 'LID-S-1', numericIdentifier: 123, name: 'Matematyka' } } }],
  ])('%s', (_name, raw) => {
    expect(authSubjectsResponse.parse(raw).subjects).toEqual([{ identifier: 'LID-S-1', numericIdentifier: '123', name: 'Matematyka' }]);
  });
});

describe('PartialGrades', () => {
  it('ignores booleans where text belongs and reads the quirks of spec 4.5', () => {
    const parsed = partialGradesResponse.parse({
      data: [
        {
          gradeId: 'LID-G-1',
          subjectId: 'LID-S-1',
          area: { id: 'a', name: 'Czytanie' },
          scaleValue: { id: 1, value: 0 },
          content: 'Ładnie',
          comments: 'Brawo',
        },
        { gradeId: 'LID-G-2', subjectId: true, scaleValue: { value: false }, comments: [{ text: 'a' }, 'b', 3] },
        { gradeId: 'LID-G-3', subjectId: 123, scaleValue: '5' },
        { gradeId: '' },
        { subjectId: 'x' },
      ],
      pagination: { limit: 50, page: 1, total: '3' },
    });
    expect(parsed.data.map((g) => [g.gradeId, g.subjectId, g.scaleValue, g.comments])).toEqual([
      ['LID-G-1', { lid: 'LID-S-1' }, '0', ['Brawo']],
      ['LID-G-2', undefined, undefined, ['a', 'b', '3']],
      ['LID-G-3', { id: '123' }, '5', []],
    ]);
    expect(parsed.pagination).toEqual({ limit: 50, page: 1, total: 3 });
  });

  it('accepts an answer without pagination', () => {
    expect(partialGradesResponse.parse({ data: [], pagination: false }).pagination).toBeUndefined();
  });
});

describe('Timetables', () => {
  it('reads days of slots, empty slots and split classes', () => {
    const parsed = timetablesResponse.parse({
      Timetable: {
        '2026-03-09': [
          [{ LessonNo: '1', HourFrom: '08:00', HourTo: '08:45', Subject: { Id: '1', Name: 'Matematyka' }, IsCanceled: false }],
          [],
          [
            { LessonNo: '3', Subject: { Id: '2' }, Teacher: { Id: '10', FirstName: 'Anna', LastName: 'Nowak' } },
            { LessonNo: '3', Subject: { Id: '3' } },
          ],
          null,
        ],
        '2026-03-14': [],
      },
    });
    const day = parsed.Timetable['2026-03-09']!;
    expect(day.map((s) => s.length)).toEqual([1, 0, 2, 0]);
    expect(day[0]![0]).toMatchObject({ LessonNo: 1, Subject: { id: '1', name: 'Matematyka' }, IsCanceled: false });
    expect(day[2]![0]!.Teacher).toEqual({ id: '10', firstName: 'Anna', lastName: 'Nowak' });
  });

  it('reads Calendars/Substitutions with string lesson numbers', () => {
    const [s] = substitutionsResponse.parse({
      Substitutions: [{ Id: 1, OrgDate: '2026-03-10', OrgLessonNo: '2', OrgSubject: { Id: 1 }, IsCancelled: true }],
    }).Substitutions;
    expect(s).toMatchObject({ Id: '1', OrgLessonNo: 2, OrgSubject: '1', IsCancelled: true });
  });
});

describe('other grade resources', () => {
  it('keeps Map and Grade of descriptive grades apart', () => {
    const [g] = descriptiveGradesResponse.parse({
      Grades: [{ Id: 1, Map: '6', Grade: 3, RealGradeValue: '6', Skill: { Id: 4 }, Comments: [{ Id: 2 }] }],
    }).Grades;
    expect(g).toMatchObject({ Map: '6', Grade: '3', Skill: '4', Comments: ['2'] });
  });

  it('reads a classic-scale behaviour grade', () => {
    const [g] = behaviourPointsResponse.parse({
      Grades: [{ Id: 1, ShortName: '', Text: '', BehaviourGrade: { Id: '2' }, Semester: 1 }],
    }).Grades;
    expect(g).toMatchObject({ ShortName: undefined, BehaviourGrade: '2' });
    expect(g?.Value).toBeUndefined();
  });

  it('reads lookup subjects', () => {
    expect(subjectsResponse.parse({ Subjects: [{ Id: '1', Name: 'Matematyka' }] }).Subjects[0]?.Id).toBe('1');
  });
});

describe('calendar and module lists', () => {
  it('reads the id lists of a calendar month', () => {
    const parsed = calendarMonthResponse.parse({
      Calendar: { HomeWorks: [{ Id: 1, Url: 'x' }, 2], Substitutions: [], Pages: { Prev: 'a', Next: 'b' } },
    });
    expect(parsed.Calendar).toMatchObject({ HomeWorks: ['1', '2'], Substitutions: [], Pages: { Prev: 'a' } });
    // A kind the answer lacks is unknown, not empty: it must not pass for "nothing changed".
    expect(parsed.Calendar.SchoolFreeDays).toBeUndefined();
  });
});
