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
    ]);
  });

  it('counts the unexcused absences, the rest of the semester beside by its published names', () => {
    const state = renderAbsencesUnexcused({
      semester: 1,
      unexcused: [{ date: '2026-11-18', lessonNo: 3, subject: 'Matematyka' }],
      excused: 4,
      late: 1,
      absences: 5,
      marks: 200,
      attendancePercent: 97.5,
      justifications: { count: 1, byStatus: { accepted: 1 }, latest: [] },
      bySubject: [],
    });
    expect(state.state).toBe('1');
    expect(state.attributes).toEqual({
      semester: 1,
      excused: 4,
      late: 1,
      absences: 5,
      marks: 200,
      attendance_percent: 97.5,
      justifications: { count: 1, by_status: { accepted: 1 }, latest: [] },
      unexcused: [{ date: '2026-11-18', lesson_no: 3, subject: 'Matematyka' }],
    });
  });
});
