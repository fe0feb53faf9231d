// The school year day by day: each figure as the grades and attendance features compute it (their series,
// src/features/grades/year.ts and attendanceYear) and as Home Assistant's statistics get it
// (src/outputs/homeassistant/statistics/year.ts), as it stood at the end of each day, worked out by hand
// here from a few grades and marks (weights, a semester's turn, a back-dated grade), and what is imported
// again when a day moved.
import { describe, expect, it } from 'vitest';
import { yearStatistics as statisticsOf } from '../../../../src/outputs/homeassistant/statistics/year.js';
import { importsOf } from '../../../../src/outputs/homeassistant/statistics/statistics.js';
import { keptDays } from '../../../../src/outputs/homeassistant/statistics/imported.js';
import { averagesYear, type AveragesYearInput } from '../../../../src/features/grades/year.js';
import { attendanceYear } from '../../../../src/features/attendance/attendance.js';
import { yearSeries } from '../../../../src/engine/series.js';
import type { AttendanceInput } from '../../../../src/rules/attendance.js';
import type { Language } from '../../../../src/config/language.js';
import type { Grade } from '../../../../src/portal/schemas/grades.js';
import type { Attendance } from '../../../../src/portal/schemas/attendance.js';
import type { Names } from '../../../../src/rules/names.js';

const SUBJECTS: Record<string, string> = { '1': 'Matematyka', '2': 'Język polski' };
const names: Names = {
  subject: (id) => (id === undefined ? null : (SUBJECTS[id] ?? null)),
  teacher: () => null,
  teacherByLid: () => null,
  room: () => null,
};
const grade = (Id: string, Subject: string, value: string, Date: string, Category = 'c1'): Grade =>
  ({ Id, Subject, Grade: value, Date, Category, Comments: [] }) as unknown as Grade;
const mark = (Id: string, Date: string, Type: string): Attendance => ({ Id, Date, Type }) as Attendance;

/** What the two features hold of a child's year: the grades and what averages them, the marks and their types. */
interface YearRecords {
  begins: string;
  grades: AveragesYearInput;
  attendance: Omit<AttendanceInput, 'semester'>;
}

function records(grades: Grade[], marks: Attendance[] = []): YearRecords {
  return {
    begins: '2026-09-01',
    grades: {
      input: {
        grades,
        categories: [
          { Id: 'c1', Name: 'Kartkówka', Weight: 1, CountToTheAverage: true },
          { Id: 'c2', Name: 'Sprawdzian', Weight: 2, CountToTheAverage: true },
        ] as never,
        endFirstSemester: '2027-01-24',
        names,
      },
      slugs: { '1': 'matematyka', '2': 'jezyk_polski' },
    },
    attendance: {
      attendances: marks,
      types: [
        { Id: 'p', Name: 'Obecność', IsPresenceKind: true },
        { Id: 'a', Name: 'Nieobecność nieusprawiedliwiona', IsPresenceKind: false },
      ] as never,
      names,
      endFirstSemester: '2027-01-24',
    },
  };
}

/** Zofia's statistics up to `today`, from the series the grades and attendance features publish. */
function yearStatistics(child: string, r: YearRecords, today: string, language: Language) {
  const span = (endFirstSemester: string | undefined) => ({ begins: r.begins, endFirstSemester, today });
  return statisticsOf(child, {
    name: 'Zofia',
    series: {
      grades: yearSeries(() => averagesYear(r.grades, span(r.grades.input.endFirstSemester), language)),
      attendance: yearSeries(() => attendanceYear(r.attendance, span(r.attendance.endFirstSemester), language)),
    },
  });
}

const byId = (list: ReturnType<typeof yearStatistics>) => Object.fromEntries(list.map((s) => [s.metadata.statistic_id, s]));

describe('the year day by day', () => {
  it("each day's figure as it stood at that day's end, by the sensors' rule (weights, the mean of the subjects)", () => {
    const year = byId(
      yearStatistics(
        'zofia',
        records(
          [grade('1', '1', '5', '2026-09-08'), grade('2', '1', '3', '2026-09-10', 'c2'), grade('3', '2', '4+', '2026-09-09')],
          [mark('m1', '2026-09-08', 'p'), mark('m2', '2026-09-08', 'a'), mark('m3', '2026-09-09', 'p'), mark('m4', '2026-09-09', 'p')],
        ),
        '2026-09-11',
        'pl',
      ),
    );
    expect(Object.keys(year).sort()).toEqual([
      'dziennik2mqtt:zofia_attendance',
      'dziennik2mqtt:zofia_average',
      'dziennik2mqtt:zofia_average_jezyk_polski',
      'dziennik2mqtt:zofia_average_matematyka',
    ]);
    // Maths: 5 alone, then (5 + 2 * 3) / 3 = 3.67; Polish 4.5 from the 9th; the mean of the two: 4.75, then 4.08 (3.666… + 4.5) / 2.
    expect(year['dziennik2mqtt:zofia_average_matematyka']?.days).toEqual({
      '2026-09-08': 5,
      '2026-09-09': 5,
      '2026-09-10': 3.67,
      '2026-09-11': 3.67,
    });
    expect(year['dziennik2mqtt:zofia_average_jezyk_polski']?.days).toEqual({ '2026-09-09': 4.5, '2026-09-10': 4.5, '2026-09-11': 4.5 });
    expect(year['dziennik2mqtt:zofia_average']?.days).toEqual({ '2026-09-08': 5, '2026-09-09': 4.75, '2026-09-10': 4.08, '2026-09-11': 4.08 });
    // Present at 1 of 2, then 3 of 4.
    expect(year['dziennik2mqtt:zofia_attendance']?.days).toEqual({ '2026-09-08': 50, '2026-09-09': 75, '2026-09-10': 75, '2026-09-11': 75 });
    expect(year['dziennik2mqtt:zofia_average_jezyk_polski']?.metadata).toEqual({
      statistic_id: 'dziennik2mqtt:zofia_average_jezyk_polski',
      name: 'Zofia – średnia: Język polski',
      source: 'dziennik2mqtt',
      unit_of_measurement: null,
      has_sum: false,
      mean_type: 1,
      unit_class: null,
    });
    expect(year['dziennik2mqtt:zofia_attendance']?.metadata).toMatchObject({ name: 'Zofia – frekwencja', unit_of_measurement: '%' });
  });

  it("starts again at the second semester's first day: the first one's grades no longer count", () => {
    const year = byId(yearStatistics('zofia', records([grade('1', '1', '5', '2027-01-20'), grade('2', '1', '2', '2027-01-26')]), '2027-01-27', 'en'));
    // The 25th: a new semester with no grade yet, no row; the 26th the 2 alone.
    expect(year['dziennik2mqtt:zofia_average_matematyka']?.days).toEqual({
      '2027-01-20': 5,
      '2027-01-21': 5,
      '2027-01-22': 5,
      '2027-01-23': 5,
      '2027-01-24': 5,
      '2027-01-26': 2,
      '2027-01-27': 2,
    });
    expect(year['dziennik2mqtt:zofia_average']?.metadata.name).toBe('Zofia – average');
  });

  it('imports only the days that moved: a back-dated grade from its day on, nothing when the year is as kept', () => {
    const grades = [grade('1', '1', '5', '2026-09-08'), grade('2', '1', '3', '2026-09-14')];
    const first = yearStatistics('zofia', records(grades), '2026-09-15', 'pl');
    const kept = {
      statistics: Object.fromEntries(first.map((s) => [s.metadata.statistic_id, keptDays(s.days, s.metadata.name, s.metadata.unit_of_measurement)!])),
    };
    expect(importsOf(first, kept)).toEqual([]);
    const later = yearStatistics('zofia', records([...grades, grade('3', '1', '1', '2026-09-11')]), '2026-09-15', 'pl');
    const imports = importsOf(later, kept);
    expect(imports.map((i) => i.metadata.statistic_id)).toEqual(['dziennik2mqtt:zofia_average', 'dziennik2mqtt:zofia_average_matematyka']);
    // From the 11th (local midnight) on: (5 + 1) / 2 = 3, then (5 + 1 + 3) / 3 = 3 on the 14th.
    expect(imports[1]?.stats).toEqual(
      ['2026-09-11', '2026-09-12', '2026-09-13', '2026-09-14', '2026-09-15'].map((day) => ({
        start: `${day}T00:00:00+02:00`,
        mean: 3,
        min: 3,
        max: 3,
      })),
    );
    // A new name (the family's language changed): the whole statistic again.
    const english = yearStatistics('zofia', records(grades), '2026-09-15', 'en');
    expect(importsOf(english, kept).map((i) => i.stats.length)).toEqual([8, 8]);
  });
});
