// The year's results against the simulated portal and the real broker, on the days a parent looks for
// them: the semester grade given in late January, the first week of February (the half-year's averages
// still readable beside the new semester's), and the summer (the final grades and the last averages).
// The grades are this file's own (the school's 2025/26 year: the first semester ends on 30 January).
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// Ids in the simulator's school fixture.
const POLISH = 5011;
const MATHS = 5012;
const TEST = 301; // Sprawdzian, weight 3
const SHORT_TEST = 302; // Kartkówka, weight 2
const ORAL = 303; // Odpowiedź ustna, weight 1
const TERM = 307; // Ocena śródroczna

type Period = 'IsSemester' | 'IsSemesterProposition' | 'IsFinal' | 'IsFinalProposition';

/** One record of Grades as the portal answers it; `semester` is the portal's own Semester field. */
function grade(id: number, subject: number, category: number, value: string, date: string, semester: 1 | 2, period?: Period) {
  return {
    Id: id,
    Subject: `@Subjects/${subject}`,
    Student: '@Users/1843210',
    Category: `@Grades/Categories/${category}`,
    AddedBy: '@Users/162001',
    Grade: value,
    Date: date,
    AddDate: `${date} 12:00:00`,
    Semester: semester,
    IsConstituent: period === undefined,
    IsSemester: period === 'IsSemester',
    IsSemesterProposition: period === 'IsSemesterProposition',
    IsFinal: period === 'IsFinal',
    IsFinalProposition: period === 'IsFinalProposition',
  };
}

// The first semester: maths 4 (3) and 5 (1), 17 / 4 = 4.25; Polish 3 (2) and 2 (1), 8 / 3 = 2.67; their mean 3.46.
const FIRST_SEMESTER = [
  grade(1, MATHS, TEST, '4', '2026-01-12', 1),
  grade(2, MATHS, ORAL, '5', '2026-01-20', 1),
  grade(3, POLISH, SHORT_TEST, '3', '2026-01-14', 1),
  grade(4, POLISH, ORAL, '2', '2026-01-21', 1),
];
const MATHS_TERM = grade(5, MATHS, TERM, '4+', '2026-01-29', 1, 'IsSemester');
// Polish's semester grade is entered after the semester's end: the portal's Semester says where it belongs.
const POLISH_TERM = grade(6, POLISH, TERM, '3', '2026-02-02', 1, 'IsSemester');
const FEBRUARY = [grade(7, MATHS, ORAL, '6', '2026-02-03', 2)];
// The second semester's end: maths 5 (3) beside February's 6 (1), 21 / 4 = 5.25; the final grade 5-.
const JUNE = [
  grade(8, MATHS, TEST, '5', '2026-06-01', 2),
  grade(9, MATHS, TERM, '5', '2026-06-12', 2, 'IsFinalProposition'),
  grade(10, MATHS, TERM, '5-', '2026-06-24', 2, 'IsFinal'),
  grade(11, POLISH, TERM, '3+', '2026-06-24', 2, 'IsFinal'),
];

// A Thursday in the last week of the first semester, during the second lesson.
const school = simulatedSchool('2026-01-29T09:10:00+01:00');

/** Ania's grades are these alone (no point grades), from the next read of the lists on. */
function gradesAre(records: readonly ReturnType<typeof grade>[]): void {
  school.sim.account(ANIA.login).setResource('Grades', { Grades: records });
  school.sim.account(ANIA.login).setResource('PointGrades', { Grades: [] });
}

async function started() {
  return school.firstPasses(['average', 'average_matematyka', 'average_jezyk_polski']);
}

describe('the year of averages', () => {
  it('keeps `semester` the number 1 when the semester grade is given, the grade beside it', async () => {
    gradesAre(FIRST_SEMESTER);
    const h = await started();
    expect(h.attributes('ania', 'average_matematyka')).toMatchObject({ semester: 1, count: 2 });
    gradesAre([...FIRST_SEMESTER, MATHS_TERM]);
    await h.advanceUntil(() => h.attributes('ania', 'average_matematyka')?.semester_grade !== undefined, 'the semester grade', 120);
    expect(h.state('ania', 'average_matematyka')).toBe('4.25');
    expect(h.attributes('ania', 'average_matematyka')).toMatchObject({ semester: 1, semester_grade: '4+', count: 2 });
    const subjects = (h.attributes('ania', 'average') as { subjects: Record<string, unknown>[] }).subjects;
    expect(subjects.find((s) => s.subject === 'Matematyka')).toMatchObject({ average: 4.25, semester_grade: '4+' });
  });

  it("shows the first semester's results through February beside the new semester's", async () => {
    await school.reopen('2026-02-04T09:10:00+01:00');
    gradesAre([...FIRST_SEMESTER, MATHS_TERM, POLISH_TERM, ...FEBRUARY]);
    const h = await started();
    expect(h.state('ania', 'average')).toBe('6.00');
    expect(h.attributes('ania', 'average')).toMatchObject({ semester: 2, previous_semester: { semester: 1, average: 3.46, count: 4 } });
    expect(h.state('ania', 'average_matematyka')).toBe('6.00');
    expect(h.attributes('ania', 'average_matematyka')).toMatchObject({
      semester: 2,
      count: 1,
      semester_grade: '4+',
      previous_semester: { semester: 1, average: 4.25, count: 2 },
    });
    // No grade yet this semester: no average of its own, the half-year's result readable beside.
    expect(h.state('ania', 'average_jezyk_polski')).toBe('None');
    expect(h.attributes('ania', 'average_jezyk_polski')).toMatchObject({
      semester: 2,
      count: 0,
      semester_grade: '3',
      previous_semester: { semester: 1, average: 2.67, count: 2 },
    });
    const subjects = (h.attributes('ania', 'average') as { subjects: Record<string, unknown>[] }).subjects;
    expect(subjects.find((s) => s.subject === 'Język polski')).toMatchObject({
      average: null,
      semester_grade: '3',
      previous_semester: { semester: 1, average: 2.67, count: 2 },
    });
  });

  it('keeps the final grades and the last averages from the last school day to 31 August', async () => {
    const year = [...FIRST_SEMESTER, MATHS_TERM, POLISH_TERM, ...FEBRUARY, ...JUNE];
    for (const moment of ['2026-07-15T10:00:00+02:00', '2026-08-31T18:00:00+02:00']) {
      await school.reopen(moment);
      gradesAre(year);
      const h = await started();
      expect(h.state('ania', 'average_matematyka')).toBe('5.25');
      expect(h.attributes('ania', 'average_matematyka')).toMatchObject({
        semester: 2,
        semester_grade: '4+',
        final_proposal: '5',
        final_grade: '5-',
        previous_semester: { semester: 1, average: 4.25, count: 2 },
      });
      expect(h.attributes('ania', 'average_jezyk_polski')).toMatchObject({ semester: 2, semester_grade: '3', final_grade: '3+' });
      expect(h.state('ania', 'average')).toBe('5.25');
      expect(h.attributes('ania', 'average')).toMatchObject({ semester: 2, previous_semester: { semester: 1, average: 3.46, count: 4 } });
    }
  });
});
