// The attendance feature: absences_unexcused, rendered from the school rule's semester summary.
import { describe, expect, it } from 'vitest';
import { attendance, renderAbsencesUnexcused } from '../../../../src/features/attendance/attendance.js';
import { entityTable } from '../../../helpers/entities.js';

describe('attendance feature', () => {
  it('declares absences_unexcused and the absence event', () => {
    expect(entityTable(attendance.entities)).toEqual([
      ['absences_unexcused', 'sensor', true],
      ['attendance', 'sensor', true],
      ['absence', 'event', false],
      ['justification', 'event', false],
    ]);
  });

  it('counts the unexcused absences, the rest of the semester beside by its published names', () => {
    const state = renderAbsencesUnexcused(
      {
        semester: 1,
        unexcused: [{ date: '2026-11-18', lessonNo: 3, subject: 'Matematyka' }],
        excused: 4,
        late: 1,
        absences: 5,
        marks: 200,
        attendancePercent: 97.5,
        justifications: {
          count: 1,
          byStatus: { accepted: 1 },
          latest: [{ posted: '2026-11-18T07:42:10+01:00', from: '2026-11-17', to: '2026-11-17', status: 'accepted', absences: 4 }],
        },
        bySubject: [],
      },
      'pl',
    );
    expect(state.state).toBe('1');
    expect(state.attributes).toEqual({
      semester: 1,
      excused: 4,
      late: 1,
      absences: 5,
      marks: 200,
      attendance_percent: 97.5,
      // The status a key for automations, its words beside in the family's language.
      justifications: {
        count: 1,
        by_status: { accepted: 1 },
        latest: [
          { posted: '2026-11-18T07:42:10+01:00', from: '2026-11-17', to: '2026-11-17', status: 'accepted', status_name: 'przyjęte', absences: 4 },
        ],
      },
      unexcused: [{ date: '2026-11-18', lesson_no: 3, subject: 'Matematyka' }],
    });
  });
});
