import { describe, expect, it } from 'vitest';
import { averages, DEFAULT_SCALE, gradeScale, gradeValue, subjectAverages } from '../../../src/rules/averages.js';
import { renderAverage } from '../../../src/features/grades/average.js';
import { renderNewestGrade } from '../../../src/features/grades/newest.js';
import { gradeItems, newestGrades } from '../../../src/rules/grades.js';
import { pointGradesResponse, pointCategoriesResponse } from '../../../src/portal/schemas/othergrades.js';
import { categories, gradingSystem, grades, names } from './fixtures.js';

describe('gradeValue', () => {
  const zero = { ...DEFAULT_SCALE, countZero: true };
  it.each([
    ['5', DEFAULT_SCALE, 5],
    ['4+', DEFAULT_SCALE, 4.5],
    ['4-', DEFAULT_SCALE, 3.75],
    [' 6 ', DEFAULT_SCALE, 6],
    ['6+', DEFAULT_SCALE, 6.5],
    ['1-', DEFAULT_SCALE, 0.75],
    ['0', DEFAULT_SCALE, undefined],
    ['0', zero, 0],
    ['0+', zero, undefined],
    ['0-', zero, undefined],
    ['85', DEFAULT_SCALE, undefined],
    ['7', DEFAULT_SCALE, undefined],
    ['+', DEFAULT_SCALE, undefined],
    ['-', DEFAULT_SCALE, undefined],
    ['np', DEFAULT_SCALE, undefined],
    ['bz', DEFAULT_SCALE, undefined],
    ['nk', DEFAULT_SCALE, undefined],
    ['uł', DEFAULT_SCALE, undefined],
    ['5++', DEFAULT_SCALE, undefined],
    ['4,5', DEFAULT_SCALE, undefined],
    [undefined, DEFAULT_SCALE, undefined],
  ])('%j reads as %#', (grade, scale, expected) => {
    expect(gradeValue(grade, scale)).toBe(expected);
  });
});

describe('gradeScale from GradingSystem', () => {
  it.each([
    [
      { countZero: false, plusValue: 0.5, minusValue: 0.25 },
      { plus: 0.5, minus: 0.25, countZero: false },
    ],
    [
      { countZero: true, plusValue: '0,75', minusValue: '-0.5' },
      { plus: 0.75, minus: 0.5, countZero: true },
    ],
    [
      { plusValue: -0.3, minusValue: 0.3 },
      { plus: 0.3, minus: 0.3, countZero: false },
    ],
    [{ plusValue: 'dużo', minusValue: null }, DEFAULT_SCALE],
    [{}, DEFAULT_SCALE],
    [{ GradingSystem: { countZero: 'true', plusValue: '1' } }, { plus: 1, minus: 0.25, countZero: true }],
  ])('%j', (raw, expected) => {
    expect(gradeScale(gradingSystem(raw))).toEqual(expected);
  });

  it('uses the defaults when the resource was refused', () => {
    expect(gradeScale(undefined)).toEqual({ plus: 0.5, minus: 0.25, countZero: false });
  });
});

describe('subject averages (spec 2.5)', () => {
  const cats = categories([
    [1, 'sprawdzian', 3],
    [2, 'kartkówka', '1,5'],
    [3, 'aktywność', 1, false],
    [4, 'odpowiedź', 'waga'],
    [5, 'praca domowa', '2'],
    [6, 'bez wagi', 0],
  ]);
  const avg = (rows: Parameters<typeof grades>[0], system?: unknown) =>
    subjectAverages({
      grades: grades(rows),
      categories: cats,
      gradingSystem: system === undefined ? undefined : gradingSystem(system),
      semester: 1,
      names,
    });

  it.each<[string, Parameters<typeof grades>[0], unknown, number | null, number]>([
    [
      'a 6 and a 4- average 4.875',
      [
        [1, '6', 1],
        [2, '4-', 1],
      ],
      undefined,
      4.875,
      2,
    ],
    [
      'weight 3 and weight 1,5',
      [
        [1, '6', 1, 1],
        [2, '3', 1, 2],
      ],
      undefined,
      (6 * 3 + 3 * 1.5) / 4.5,
      2,
    ],
    [
      'a numeric-string weight',
      [
        [1, '5', 1, 5],
        [2, '2', 1],
      ],
      undefined,
      (5 * 2 + 2) / 3,
      2,
    ],
    [
      'a non-numeric weight counts 1',
      [
        [1, '5', 1, 4],
        [2, '2', 1],
      ],
      undefined,
      3.5,
      2,
    ],
    [
      'CountToTheAverage false is left out',
      [
        [1, '1', 1, 3],
        [2, '5', 1],
      ],
      undefined,
      5,
      1,
    ],
    ['only a bare + has no average', [[1, '+', 1, 3]], undefined, null, 0],
    [
      'marks and stray numbers are not grades',
      [
        [1, 'np', 1],
        [2, '85', 1],
        [3, '-', 1],
        [4, '4', 1],
      ],
      undefined,
      4,
      1,
    ],
    [
      '0 is no grade without countZero',
      [
        [1, '0', 1],
        [2, '4', 1],
      ],
      { countZero: false },
      4,
      1,
    ],
    [
      '0 counts with countZero',
      [
        [1, '0', 1],
        [2, '4', 1],
      ],
      { countZero: true },
      2,
      2,
    ],
    [
      '0+ never counts',
      [
        [1, '0+', 1],
        [2, '4', 1],
      ],
      { countZero: true },
      4,
      1,
    ],
    [
      'sizes from GradingSystem strings',
      [
        [1, '4+', 1],
        [2, '4-', 1],
      ],
      { plusValue: '0,3', minusValue: '0,3' },
      4,
      2,
    ],
    [
      'weight 0 adds nothing',
      [
        [1, '1', 1, 6],
        [2, '5', 1],
      ],
      undefined,
      5,
      1,
    ],
    [
      'a category not in the lookup counts 1',
      [
        [1, '6', 1, 99],
        [2, '4', 1],
      ],
      undefined,
      5,
      2,
    ],
    [
      'a correction counts next to the grade it improves',
      [
        [1, '1', 1, 1],
        [2, '4', 1, 1, { Improvement: { Id: 1 } }],
      ],
      undefined,
      2.5,
      2,
    ],
    [
      'a semester grade is not averaged',
      [
        [1, '5', 1],
        [2, '2', 1, undefined, { IsSemester: true }],
      ],
      undefined,
      5,
      1,
    ],
    [
      'another semester is left out',
      [
        [1, '5', 1],
        [2, '1', 1, undefined, { Semester: 2 }],
      ],
      undefined,
      5,
      1,
    ],
  ])('%s', (_name, rows, system, average, count) => {
    const [subject] = avg(rows, system);
    expect(subject?.count).toBe(count);
    if (average === null) expect(subject?.average).toBeNull();
    else expect(subject?.average).toBeCloseTo(average, 10);
  });
});

describe('a subject average as one value', () => {
  it('carries the grades it is made of and the semester proposal beside them', () => {
    const [subject] = subjectAverages({
      grades: grades([
        [1, '6', 1, 1],
        [2, '4-', 1],
        [3, 'np', 1],
        [4, ' 5 ', 1, undefined, { IsSemesterProposition: true }],
      ]),
      categories: categories([[1, 'sprawdzian', 3]]),
      semester: 1,
      names,
    });
    expect(subject).toMatchObject({
      subject: 'Matematyka',
      count: 2,
      grades: [
        { id: '1', grade: '6', value: 6, weight: 3, date: '2026-01-10' },
        { id: '2', grade: '4-', value: 3.75, weight: 1, date: '2026-01-10' },
      ],
      weighted: 6 * 3 + 3.75,
      weights: 4,
      periods: { semester_proposal: '5' },
    });
    expect(subject?.average).toBeCloseTo((6 * 3 + 3.75) / 4, 10);
  });
});

describe('average sensor', () => {
  const cats = categories([[1, 'sprawdzian', 2]]);

  it('is the mean of subject averages with 2 decimals, and lists every subject', () => {
    const state = renderAverage(
      averages({
        grades: grades([
          [1, '6', 1],
          [2, '4-', 1],
          [3, '5', 2, 1],
          [4, '3', 2],
          [5, '+', 3],
        ]),
        categories: cats,
        semester: 1,
        names,
      }),
    );
    // Matematyka 4.875, Język polski (5*2+3)/3 = 4.333...; mean 4.604...
    expect(state.state).toBe('4.60');
    expect(state.attributes).toEqual({
      semester: 1,
      subjects: [
        { subject: 'Język polski', average: 4.33, count: 2 },
        { subject: 'Matematyka', average: 4.88, count: 2 },
        { subject: 'Wychowanie fizyczne', average: null, count: 0 },
      ],
    });
  });

  it('a 6 with a 4- shows 4.88', () => {
    expect(
      renderAverage(
        averages({
          grades: grades([
            [1, '6', 1],
            [2, '4-', 1],
          ]),
          semester: 1,
          names,
        }),
      ).state,
    ).toBe('4.88');
  });

  it('is unknown with no averageable grade', () => {
    expect(renderAverage(averages({ grades: grades([[1, 'np', 1]]), semester: 1, names })).state).toBeNull();
    expect(renderAverage(averages({ grades: [], semester: 1, names })).state).toBeNull();
  });

  it('uses EndFirstSemester for grades without a Semester', () => {
    const rows = grades([
      [1, '2', 1, undefined, { Semester: null, Date: '2026-01-20' }],
      [2, '6', 1, undefined, { Semester: null, Date: '2026-02-02' }],
    ]);
    const first = renderAverage(averages({ grades: rows, semester: 1, endFirstSemester: '2026-01-25', names }));
    const second = renderAverage(averages({ grades: rows, semester: 2, endFirstSemester: '2026-01-25', names }));
    expect([first.state, second.state]).toEqual(['2.00', '6.00']);
  });

  it('adds weighted point percentages per subject', () => {
    const pointCategories = pointCategoriesResponse.parse({
      Categories: [
        { Id: 1, Name: 'test', Weight: 2, ValueTo: 10 },
        { Id: 2, Name: 'kartkówka', Weight: 1, ValueTo: '20' },
      ],
    }).Categories;
    const pointGrades = pointGradesResponse.parse({
      Grades: [
        { Id: 1, Grade: '9.5/10', GradeValue: 9.5, Category: { Id: 1 }, Subject: { Id: 1 }, Semester: 1 },
        { Id: 2, Grade: '10/20', GradeValue: '10', Category: { Id: 2 }, Subject: { Id: 1 }, Semester: 1 },
      ],
    }).Grades;
    const state = renderAverage(averages({ grades: [], semester: 1, names, pointGrades, pointCategories }));
    // (9.5*2 + 10) / (10*2 + 20) = 72.5 %
    expect(state.attributes?.points).toEqual([{ subject: 'Matematyka', percent: 72.5, count: 2 }]);
    // Graded in points only: listed among the subjects by its percentage, its point grades counted.
    expect(state.attributes?.subjects).toEqual([{ subject: 'Matematyka', average: null, count: 2, percent: 72.5 }]);
  });

  it('counts a point grade given only as text as it is shown (live-notes 37)', () => {
    const pointCategories = pointCategoriesResponse.parse({ Categories: [{ Id: 1, Name: 'kartkówka', Weight: 1, ValueTo: 10 }] }).Categories;
    const pointGrades = pointGradesResponse.parse({
      Grades: [
        { Id: 1, Grade: '8', GradeValue: 8, Category: { Id: 1 }, Subject: { Id: 1 }, Semester: 1, AddDate: '2026-10-01 09:00:00' },
        // No numeric value: its text reads 5.5 points of 10.
        { Id: 2, Grade: '5,5', Category: { Id: 1 }, Subject: { Id: 1 }, Semester: 1, AddDate: '2026-10-08 09:00:00' },
        // Neither a value nor a number in the text: not counted.
        { Id: 3, Grade: 'zw.', Category: { Id: 1 }, Subject: { Id: 1 }, Semester: 1, AddDate: '2026-10-02 09:00:00' },
      ],
    }).Grades;
    const state = renderAverage(averages({ grades: [], semester: 1, names, pointGrades, pointCategories }));
    // (8 + 5.5) / (10 + 10) = 67.5 %; without the text grade it would be 80 %.
    expect(state.attributes?.points).toEqual([{ subject: 'Matematyka', percent: 67.5, count: 2 }]);
    // newest_grade shows the same grade as the average counts it.
    const newest = renderNewestGrade(newestGrades(gradeItems({ pointGrades, pointCategories }, names)), { language: 'pl', scale: DEFAULT_SCALE });
    expect(newest.state).toBe('5,5/10 pkt');
    expect(newest.attributes).toMatchObject({ points: 5.5, max_points: 10, percent: 55 });
  });

  it("carries each subject's proposed and given term grades and, with the thresholds, what the next one needs", () => {
    const rows = grades([
      [1, '4', 1],
      [2, '3', 1],
      [3, '4', 1, undefined, { IsSemesterProposition: true }],
    ]);
    const state = renderAverage(averages({ grades: rows, semester: 1, names }), [], {
      thresholds: [1.75, 2.75, 3.75, 4.75, 5.5],
      today: '2026-01-12',
    });
    // 4 and 3: 3.5; (7 + g) / 3 reaches 3.75 with a 4+ (4.5): 11.5 / 3 = 3.83; a 4 makes 3.67, a 5 (whole grades) 4.00.
    expect(state.attributes?.subjects).toEqual([
      {
        subject: 'Matematyka',
        average: 3.5,
        count: 2,
        semester_proposal: '4',
        next_threshold: 3.75,
        needed_for_next: '4+',
        forecast: '3',
        trend: null,
        to_next: { grade: '5', count: 1 },
      },
    ]);
    // The report card: one subject forecast a 3; no honours, none at risk.
    expect(state.attributes).toMatchObject({ forecast_average: 3, honours: false, at_risk: [] });
  });
});
