// Which semester a day and a grade belong to: the class's EndFirstSemester within its own school year,
// the grade's own Semester before any date, and an ended year's dates never placing the new year's days.
import { describe, expect, it } from 'vitest';
import { recordSemester, semesterOf } from '../../../src/rules/semester.js';

describe('the semester of a day', () => {
  it.each([
    ['the last day of the first semester', '2027-01-29', '2027-01-29', 1],
    ['the Monday after it', '2027-02-01', '2027-01-29', 2],
    ['a school whose first semester ends mid-February', '2027-02-10', '2027-02-12', 1],
    ['the summer belongs to the ended year', '2027-07-15', '2027-01-29', 2],
    // The portal still answers the ended year on the first days of September (live-notes 39).
    ['1 September, the portal still answering the ended year', '2027-09-01', '2027-01-29', 1],
    ['a week later, still the ended year', '2027-09-08', '2027-01-29', 1],
    ['1 February, before the year was ever read', '2027-02-01', undefined, 2],
  ] as [string, string, string | undefined, 1 | 2][])('%s: %s', (_what, date, end, expected) => {
    expect(semesterOf(date, end)).toBe(expected);
  });
});

describe("a grade's semester", () => {
  it("is the portal's own Semester, not a guess from its date", () => {
    expect(recordSemester(1, '2027-02-03', '2027-01-29')).toBe(1);
    expect(recordSemester(2, '2027-01-10', '2027-01-29')).toBe(2);
  });

  it("is the new year's first one for a September grade without one while the portal answers the ended year", () => {
    expect(recordSemester(undefined, '2027-09-02', '2027-01-29')).toBe(1);
  });
});
