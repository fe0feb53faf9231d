// The year's results as a parent reads them after the first semester ends: the half-year's averages
// beside the new semester's, the term grades under names of their own, `semester` always a number.
import { describe, expect, it } from 'vitest';
import { averages } from '../../../../src/rules/averages.js';
import { renderAverage } from '../../../../src/features/grades/average.js';
import { renderPointsAverage, renderSubjectAverage } from '../../../../src/features/grades/subject-averages.js';
import { pointCategoriesResponse, pointGradesResponse } from '../../../../src/portal/schemas/othergrades.js';
import { categories, grades, grading, names } from '../../rules/fixtures.js';

const MATHS = 1;
const POLISH = 2;
const END_FIRST = '2026-01-30';
const cats = categories([
  [1, 'Sprawdzian', 2],
  [2, 'Kartkówka', 1],
]);
const first = (date: string) => ({ Semester: 1, Date: date });
const second = (date: string) => ({ Semester: 2, Date: date });

/** Maths 4 (2) and 5 (1) in the first semester, its semester grade 4+ given on 29 January; Polish a 3; maths a 6 in February. */
const YEAR = grades([
  [1, '4', MATHS, 1, first('2026-01-12')],
  [2, '5', MATHS, 2, first('2026-01-20')],
  [3, '3', POLISH, 2, first('2026-01-14')],
  [4, '4', MATHS, undefined, { ...first('2026-01-22'), IsSemesterProposition: true }],
  // Given after the semester's end: the portal's Semester places it, not the date.
  [5, '4+', MATHS, undefined, { ...first('2026-01-29'), IsSemester: true }],
  [6, '3', POLISH, undefined, { ...second('2026-02-02'), IsSemester: true, Semester: 1 }],
  [7, '6', MATHS, 2, second('2026-02-03')],
]);

function inSemester(semester: 1 | 2, rows = YEAR) {
  return averages({ grades: rows, categories: cats, semester, endFirstSemester: END_FIRST, names });
}

describe('the first semester through the second', () => {
  it("keeps the half-year's mean and each subject's beside the new semester's", () => {
    const state = renderAverage(inSemester(2));
    // Only maths has a grade this semester; the first semester's mean is that of 4.33 and 3.
    expect(state.state).toBe('6.00');
    expect(state.attributes).toEqual({
      semester: 2,
      previous_semester: { semester: 1, average: 3.67, count: 3 },
      subjects: [
        // Graded in the first semester only: listed with its result, no average of its own yet.
        { subject: 'Język polski', average: null, count: 0, semester_grade: '3', previous_semester: { semester: 1, average: 3, count: 1 } },
        {
          subject: 'Matematyka',
          average: 6,
          count: 1,
          semester_proposal: '4',
          semester_grade: '4+',
          previous_semester: { semester: 1, average: 4.33, count: 2 },
        },
      ],
    });
  });

  it('gives each average_<subject> the first semester and its semester grade, the semester as a number', () => {
    const value = inSemester(2);
    const [polish, maths] = value.subjects;
    expect(renderSubjectAverage(polish!, value, grading({ grades: YEAR, categories: cats }, 2))).toEqual({
      state: null,
      attributes: {
        subject: 'Język polski',
        semester: 2,
        count: 0,
        grades: [],
        semester_grade: '3',
        previous_semester: { semester: 1, average: 3, count: 1 },
        next_threshold: null,
        needed_for_next: null,
        // Nothing counted this semester yet: no forecast, and to_next says why.
        forecast: null,
        trend: null,
        to_next: { reason: 'no_grades' },
      },
    });
    expect(renderSubjectAverage(maths!, value, grading({ grades: YEAR, categories: cats }, 2)).attributes).toMatchObject({
      semester: 2,
      count: 1,
      semester_grade: '4+',
      previous_semester: { semester: 1, average: 4.33, count: 2 },
    });
  });

  it('keeps `semester` the number 1 once the semester grade is given, the grade under its own name', () => {
    const value = inSemester(1);
    const maths = value.subjects.find((s) => s.subjectId === String(MATHS))!;
    const attributes = renderSubjectAverage(maths, value, grading({ grades: YEAR, categories: cats })).attributes;
    expect(attributes.semester).toBe(1);
    expect(attributes).toMatchObject({ semester_grade: '4+', semester_proposal: '4', count: 2 });
    // The first semester has no earlier one to carry.
    expect(attributes).not.toHaveProperty('previous_semester');
    expect(renderAverage(value).attributes).not.toHaveProperty('previous_semester');
    expect(renderAverage(value).attributes.subjects?.find((s) => s.subject === 'Matematyka')).toMatchObject({ semester_grade: '4+' });
  });

  it('keeps the final grades and the last averages through the summer', () => {
    const june = grades([
      [8, '5', MATHS, undefined, { ...second('2026-06-15'), IsFinalProposition: true }],
      [9, '5-', MATHS, undefined, { ...second('2026-06-22'), IsFinal: true }],
    ]);
    const value = inSemester(2, [...YEAR, ...june]);
    const maths = value.subjects.find((s) => s.subjectId === String(MATHS))!;
    expect(renderSubjectAverage(maths, value, grading({ grades: [...YEAR, ...june], categories: cats }, 2))).toMatchObject({
      state: '6.00',
      attributes: { semester: 2, semester_grade: '4+', final_proposal: '5', final_grade: '5-', previous_semester: { average: 4.33 } },
    });
    expect(renderAverage(value).attributes.subjects?.find((s) => s.subject === 'Matematyka')).toMatchObject({ final_grade: '5-' });
  });

  it("gives a subject graded in points only the first semester's percentage", () => {
    const pointCategories = pointCategoriesResponse.parse({ Categories: [{ Id: 1, Name: 'test', Weight: 1, ValueTo: 10 }] }).Categories;
    const pointGrades = pointGradesResponse.parse({
      Grades: [{ Id: 1, Grade: '8', GradeValue: 8, Category: { Id: 1 }, Subject: { Id: 3 }, Semester: 1, Date: '2026-01-15' }],
    }).Grades;
    const value = averages({ grades: [], semester: 2, endFirstSemester: END_FIRST, names, pointGrades, pointCategories });
    const state = renderPointsAverage({ subjectId: '3', subject: 'Wychowanie fizyczne', percent: null, count: 0 }, value, grading({}, 2));
    expect(state.state).toBeNull();
    expect(state.attributes).toMatchObject({ semester: 2, previous_semester: { semester: 1, percent: 80, count: 1 } });
    // In `average` too, listed while it has no point grade this semester.
    expect(renderAverage(value).attributes.subjects).toEqual([
      { subject: 'Wychowanie fizyczne', average: null, count: 0, percent: null, previous_semester: { semester: 1, percent: 80, count: 1 } },
    ]);
  });
});
