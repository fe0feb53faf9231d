// The grades feature: newest_grade and average, rendered from the school rules (grade_at_risk and the
// per-subject averages are in subject-averages.test.ts).
import { describe, expect, it } from 'vitest';
import { grades as gradesFeature, renderAverage, renderNewestGrade } from '../../../src/features/grades.js';
import { averages } from '../../../src/school/averages.js';
import type { GradeItem } from '../../../src/school/grade-item.js';
import { newestGrades } from '../../../src/school/grades.js';
import { entityTable } from '../../helpers/entities.js';
import { grades, names } from '../school/fixtures.js';

const grade = (key: string, shown: string, date: string, details: GradeItem['details'] = {}): GradeItem => ({
  key,
  kind: 'grade',
  shown,
  subject: 'Matematyka',
  category: 'Sprawdzian',
  weight: 3,
  teacher: 'Jan Kowalski',
  date,
  added: `${date} 10:00:00`,
  comment: null,
  semester: 1,
  details,
});

describe('grades feature', () => {
  it('declares newest_grade, average, the grade event and grade_at_risk, with average_<subject> as its example', () => {
    expect(entityTable(gradesFeature.entities)).toEqual([
      ['newest_grade', 'sensor', true],
      ['average', 'sensor', true],
      ['grade', 'event', false],
      ['grade_at_risk', 'binary_sensor', true],
    ]);
    expect(gradesFeature.dynamicExamples?.map((e) => e.key)).toEqual(['average_<subject>']);
  });

  it('shows the newest grade with its fields and details, the latest few beside', () => {
    const state = renderNewestGrade(newestGrades([grade('grade:1', '4', '2026-11-18'), grade('grade:2', '5+', '2026-11-20', { improves: 'grade:1' })]));
    expect(state.state).toBe('5+');
    expect(state.attributes).toMatchObject({ grade: '5+', subject: 'Matematyka', weight: 3, improves: 'grade:1', added: '2026-11-20 10:00:00' });
    expect(state.attributes.recent).toEqual([
      { grade: '5+', subject: 'Matematyka', kind: 'grade', date: '2026-11-20' },
      { grade: '4', subject: 'Matematyka', kind: 'grade', date: '2026-11-18' },
    ]);
    expect(renderNewestGrade({ newest: undefined, recent: [] })).toEqual({ state: null, attributes: { recent: [] } });
  });

  it('renders the average with 2 decimals and each subject beside', () => {
    const state = renderAverage(averages({ grades: grades([[1, '6', 1], [2, '4-', 1]]), semester: 1, names }));
    expect(state.state).toBe('4.88');
    expect(state.attributes.semester).toBe(1);
    expect(state.attributes.subjects?.[0]).toMatchObject({ average: 4.88, count: 2 });
    expect(state.attributes).not.toHaveProperty('points');
  });
});
