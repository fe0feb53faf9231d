// The school sensor (interfaces 14.1, 15.2): the class as the school writes it, with the school, its address, head
// teacher, e-mail and phone, the tutor, the child's number, the year's dates and the bells: the school's LessonsRange
// by position, else the hours the timetable read shows most often for each lesson number.
import { describe, expect, it } from 'vitest';
import { renderSchool, schoolYear, schoolYearEvents } from '../../../../src/features/school-year/school-year.js';
import { timetablesResponse } from '../../../../src/portal/schemas/timetable.js';
import { lessonsRange, schoolResponse } from '../../../../src/portal/schemas/identity.js';
import { schoolBells } from '../../../../src/rules/timetable.js';
import type { Identity } from '../../../../src/engine/identity.js';
import { entityTable } from '../../../helpers/entities.js';

const identity: Identity = {
  firstName: 'Ania',
  lastName: 'Kowalska',
  userId: '1843210',
  className: '7b',
  schoolName: 'Szkoła Podstawowa nr 12',
  schoolAddress: 'Leśna 7, 05-090 Zielonki',
  headTeacher: 'Barbara Krawczyk',
  schoolEmail: 'sekretariat@sp12.example.pl',
  schoolPhone: '22 100 20 30',
  registerNumber: '12',
  schoolYearBegin: '2026-09-01',
  semester1End: '2027-01-29',
  schoolYearEnd: '2027-06-25',
  fetchedAt: 0,
};

const lesson = (no: number, from: string, to: string) => [{ LessonNo: String(no), HourFrom: from, HourTo: to }];
// Three days: the second lesson is shortened on one of them (an assembly), the first one 7:10 on every day.
const days = timetablesResponse.parse({
  Timetable: {
    '2026-11-16': [lesson(1, '07:10', '07:55'), lesson(2, '08:00', '08:45')],
    '2026-11-17': [lesson(1, '07:10', '07:55'), lesson(2, '08:00', '08:30'), [], lesson(4, '09:50', '10:35')],
    '2026-11-18': [lesson(1, '07:10', '07:55'), lesson(2, '08:00', '08:45')],
  },
}).Timetable;

const NONE = { school: null, address: null, head_teacher: null, email: null, phone: null, register_number: null, school_year: null, bells: [] };

describe('school', () => {
  it('is declared beside the school_year event', () => {
    expect(entityTable(schoolYear.entities)).toEqual([
      ['school', 'sensor', true],
      ['school_year', 'event', false],
    ]);
  });

  it("is the class, with the school, head teacher, tutor, number, year and, without LessonsRange, each lesson number's most frequent hours", () => {
    const bells = schoolBells([], days);
    expect(renderSchool(identity, 'Anna Nowak', schoolYearEvents(identity, 'Anna Nowak')[0]?.payload, { bells })).toEqual({
      state: '7b',
      attributes: {
        school: 'Szkoła Podstawowa nr 12',
        address: 'Leśna 7, 05-090 Zielonki',
        head_teacher: 'Barbara Krawczyk',
        email: 'sekretariat@sp12.example.pl',
        phone: '22 100 20 30',
        tutor: 'Anna Nowak',
        register_number: '12',
        school_year: { begins: '2026-09-01', first_semester_ends: '2027-01-29', ends: '2027-06-25' },
        bells: [
          { no: 1, from: '07:10', to: '07:55' },
          { no: 2, from: '08:00', to: '08:45' },
          { no: 4, from: '09:50', to: '10:35' },
        ],
      },
    });
  });

  it('says nothing made up where the portal says nothing: no class, no year, no timetable', () => {
    const bare: Identity = { firstName: 'Zofia', lastName: 'Kowalska', userId: '1843378', fetchedAt: 0 };
    expect(renderSchool(bare, null, undefined, undefined)).toEqual({
      state: null,
      attributes: { ...NONE, tutor: null },
    });
    // A kindergarten child: her group's name stands for the class; her blocks have no lesson numbers, so no bells.
    expect(renderSchool(bare, null, undefined, { bells: [], group: { name: 'Biedronki', tutor: 'Ewa Lis, Jan Lis' } })).toEqual({
      state: 'Biedronki',
      attributes: { ...NONE, tutor: 'Ewa Lis, Jan Lis' },
    });
  });
});

describe("the school's record as the live portal answers it (live-notes 55-57)", () => {
  const record = {
    Name: 'Szkoła Podstawowa nr 12',
    BuildingNumber: 7,
    ApartmentNumber: '2',
    PostCode: '05-090',
    Email: 'sekretariat@sp12.example.pl',
    PhoneNumber: '22 100 20 30',
    NameHeadTeacher: 'Barbara',
    SurnameHeadTeacher: 'Krawczyk',
  };

  it('reads the street and the town in capitals, as public clients do, and in lower case, as the spec writes them', () => {
    for (const [street, town] of [
      ['Street', 'Town'],
      ['street', 'town'],
    ] as const) {
      const school = schoolResponse.parse({ School: { ...record, [street]: 'Leśna', [town]: 'Zielonki' } }).School;
      expect(school).toMatchObject({ Street: 'Leśna', Town: 'Zielonki', NameHeadTeacher: 'Barbara', Email: 'sekretariat@sp12.example.pl' });
    }
  });

  it('takes the bells from LessonsRange by position: position N is lesson N, a placeholder at 0 is no lesson', () => {
    const range = [
      { From: '00:00', To: '00:00', RawFrom: 0, RawTo: 0 },
      { From: '08:00', To: '08:45', RawFrom: 28800, RawTo: 31500 },
      { From: '8:55', To: '9:40', RawFrom: null, RawTo: null },
      null,
      { From: '10:50', To: '11:35' },
    ];
    const bells = [
      { no: 1, from: '08:00', to: '08:45' },
      { no: 2, from: '08:55', to: '09:40' },
      { no: 4, from: '10:50', to: '11:35' },
    ];
    expect(lessonsRange(range)).toEqual(bells);
    expect(lessonsRange([{ From: '07:10', To: '07:55' }])).toEqual([{ no: 0, from: '07:10', to: '07:55' }]);
    // The school's own list wins over the plan's most frequent hours; an empty one leaves them.
    expect(schoolBells(bells, days)).toEqual(bells);
    expect(schoolBells([], days).map((b) => b.no)).toEqual([1, 2, 4]);
  });
});
