// The grades feature: newest_grade and average, rendered from the school rules (grade_at_risk and the
// per-subject averages are in subject-averages.test.ts).
import { describe, expect, it } from 'vitest';
import { grades as gradesFeature, type gradeEvent } from '../../../../src/features/grades/grades.js';
import { renderAverage } from '../../../../src/features/grades/average.js';
import { renderNewestGrade } from '../../../../src/features/grades/newest.js';
import type { Events, Tracked } from '../../../../src/features/kit/contract.js';
import { averages } from '../../../../src/rules/averages.js';
import type { GradeItem } from '../../../../src/rules/grade-item.js';
import { gradeEvents, newestGrades } from '../../../../src/rules/grades.js';
import { entityTable } from '../../../helpers/entities.js';
import { grades, names } from '../../rules/fixtures.js';

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
  it('declares newest_grade, average, the grade event, grade_at_risk and the forecast_changed event, with average_<subject> as its example', () => {
    expect(entityTable(gradesFeature.entities)).toEqual([
      ['newest_grade', 'sensor', true],
      ['average', 'sensor', true],
      ['grade', 'event', false],
      ['grade_at_risk', 'binary_sensor', true],
      ['forecast_changed', 'event', false],
    ]);
    expect(gradesFeature.dynamicExamples?.map((e) => e.key)).toEqual(['average_<subject>']);
  });

  it('shows the newest grade with its fields and details, the latest few beside with their teachers and comments', () => {
    const state = renderNewestGrade(
      newestGrades([
        { ...grade('grade:1', '4', '2026-11-18'), comment: 'Kartkówka z ułamków' },
        grade('grade:2', '5+', '2026-11-20', { improves: 'grade:1' }),
      ]),
    );
    expect(state.state).toBe('5+');
    expect(state.attributes).toMatchObject({ grade: '5+', subject: 'Matematyka', weight: 3, improves: 'grade:1', added: '2026-11-20 10:00:00' });
    expect(state.attributes.recent).toEqual([
      { grade: '5+', subject: 'Matematyka', kind: 'grade', date: '2026-11-20', teacher: 'Jan Kowalski', comment: null, forecast: null },
      {
        grade: '4',
        subject: 'Matematyka',
        kind: 'grade',
        date: '2026-11-18',
        teacher: 'Jan Kowalski',
        comment: 'Kartkówka z ułamków',
        forecast: null,
      },
    ]);
    expect(renderNewestGrade({ newest: undefined, recent: [], proposals: [], described: [] })).toEqual({ state: null, attributes: { recent: [] } });
  });

  it('lists the proposed semester and final grades apart, newest first, never among the grades', () => {
    const proposal = grade('grade:3', '4', '2026-11-19', { period: 'semester_proposal' });
    const items = [grade('grade:1', '5', '2026-11-20'), proposal, grade('grade:4', '3', '2026-11-21', { period: 'semester' })];
    const attributes = renderNewestGrade(newestGrades(items)).attributes;
    expect(attributes.proposals).toEqual([{ grade: '4', subject: 'Matematyka', period: 'semester_proposal', date: '2026-11-19' }]);
    // The board and the dashboard list `recent` as grades: a proposal there stood twice on the board. A term grade is
    // no new grade either (interface 15.2): it stands on its subject.
    expect(attributes.recent?.map((g) => g.grade)).toEqual(['5']);
  });

  it("gives each of the latest grades its subject's forecast, as `average` computes it, for every screen to print", () => {
    const items = [
      grade('grade:1', '5', '2026-11-20'),
      { ...grade('grade:2', '2', '2026-11-19'), subject: 'Historia' },
      { ...grade('grade:3', '4', '2026-11-18'), subject: null },
    ];
    const subjects = [
      { subject: 'Matematyka', forecast: '3' },
      { subject: 'Historia', forecast: null },
    ];
    const state = renderNewestGrade(newestGrades(items), { language: 'pl', scale: averages({ grades: [], semester: 1, names }).scale }, subjects);
    expect(state.attributes.recent?.map((g) => [g.subject, g.forecast])).toEqual([
      ['Matematyka', '3'],
      ['Historia', null],
      [null, null],
    ]);
  });

  it('never tells a proposal or a term grade as the newest grade nor among the latest (issue 80)', () => {
    const commented = { ...grade('grade:1', '5', '2026-11-20'), comment: 'Świetna praca klasowa' };
    const later = [
      grade('grade:2', '+4', '2026-11-21', { period: 'semester_proposal' }),
      grade('grade:3', '4', '2026-11-22', { period: 'semester' }),
      grade('grade:4', '5', '2026-11-23', { period: 'final_proposal' }),
      grade('grade:5', '5', '2026-11-24', { period: 'final' }),
    ];
    const state = renderNewestGrade(newestGrades([commented, ...later]));
    expect([state.state, state.attributes.comment]).toEqual(['5', 'Świetna praca klasowa']);
    expect(state.attributes.recent?.map((r) => r.grade)).toEqual(['5']);
    expect(state.attributes.proposals?.map((p) => [p.grade, p.period])).toEqual([
      ['5', 'final_proposal'],
      ['+4', 'semester_proposal'],
    ]);
    // The event of each still says its period.
    expect(gradeEvents(later).map((e) => e.payload.period)).toEqual(['semester_proposal', 'semester', 'final_proposal', 'final']);
  });

  it('fires grade events with the fields the grade entity declares, and compares only the fields it names', () => {
    const events: Events<typeof gradeEvent> = { grade: gradeEvents([grade('grade:2', '5+', '2026-11-20', { improves: 'grade:1' })]) };
    const payload = events.grade?.[0]?.payload;
    expect(payload).toMatchObject({ id: 'grade:2', grade: '5+', subject: 'Matematyka', category: 'Sprawdzian', weight: 3, improves: 'grade:1' });
    expect(payload).not.toHaveProperty('previous');
    // An automation reads what the grades feature publishes; a name it does not publish fails to compile.
    // @ts-expect-error -- misspelled: the field is subject
    expect(payload?.subjcet).toBeUndefined();
    // @ts-expect-error -- the weight follows the category: an edit never sends it in `previous`
    expect(payload?.previous?.weight).toBeUndefined();
    // @ts-expect-error -- misspelled: a grade's edit compares its comment
    const misspelled: Tracked<typeof gradeEvent> = { grade: { fields: ['coment'], reads: {} } };
    expect(misspelled.grade?.fields).not.toContain('comment');
  });

  it('renders the average with 2 decimals and each subject beside', () => {
    const state = renderAverage(
      averages({
        grades: grades([
          [1, '6', 1],
          [2, '4-', 1],
        ]),
        semester: 1,
        names,
      }),
    );
    expect(state.state).toBe('4.88');
    expect(state.attributes.semester).toBe(1);
    expect(state.attributes.subjects?.[0]).toMatchObject({ average: 4.88, count: 2 });
    expect(state.attributes).not.toHaveProperty('points');
  });
});
