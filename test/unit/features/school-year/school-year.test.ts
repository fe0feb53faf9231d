// The school sensor (interface 14.1): the class as the school writes it, with the school, its address, the tutor,
// the child's number, the year's dates and the bells the timetable read shows most often for each lesson number.
import { describe, expect, it } from 'vitest';
import { renderSchool, schoolYear, schoolYearEvents } from '../../../../src/features/school-year/school-year.js';
import { timetablesResponse } from '../../../../src/portal/schemas/timetable.js';
import type { Identity } from '../../../../src/feature-kit/identity.js';
import { entityTable } from '../../../helpers/entities.js';

const identity: Identity = {
  firstName: 'Ania',
  lastName: 'Kowalska',
  userId: '1843210',
  className: '7b',
  schoolName: 'Szkoła Podstawowa nr 12',
  schoolAddress: 'Leśna 7, 05-090 Zielonki',
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

describe('school', () => {
  it('is declared beside the school_year event', () => {
    expect(entityTable(schoolYear.entities)).toEqual([
      ['school', 'sensor', true],
      ['school_year', 'event', false],
    ]);
  });

  it("is the class, with the school, tutor, number, year and each lesson number's most frequent hours", () => {
    expect(renderSchool(identity, 'Anna Nowak', schoolYearEvents(identity, 'Anna Nowak')[0]?.payload, { days })).toEqual({
      state: '7b',
      attributes: {
        school: 'Szkoła Podstawowa nr 12',
        address: 'Leśna 7, 05-090 Zielonki',
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
      attributes: { school: null, address: null, tutor: null, register_number: null, school_year: null, bells: [] },
    });
    // A kindergarten child: her group's name stands for the class; her blocks have no lesson numbers, so no bells.
    expect(renderSchool(bare, null, undefined, { days: {}, group: { name: 'Biedronki', tutor: 'Ewa Lis, Jan Lis' } })).toEqual({
      state: 'Biedronki',
      attributes: { school: null, address: null, tutor: 'Ewa Lis, Jan Lis', register_number: null, school_year: null, bells: [] },
    });
  });
});
