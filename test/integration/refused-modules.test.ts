// Only what the account has (issue 59, items 3; interface 12.2), against the real bridge, the simulated
// portal and the real broker: a child whose modules the portal refuses (403, 404, 200 Status Disabled)
// shows no made-up value (a count of a refused list is None, never 0; a flag of a missing module is None,
// never OFF), and a module refused for a day leaves discovery, to come back when it answers.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, type ModuleStatus } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson.
const NOW = '2026-11-18T09:10:00+01:00';

const school = simulatedSchool(NOW);

/** The modules a preschool child's account lacks (live-notes 33), each refused in one of the portal's ways. */
const REFUSED: Record<string, ModuleStatus> = {
  Grades: 403,
  PointGrades: 403,
  BaseTextGrades: 404,
  DescriptiveGrades: 403,
  'BehaviourGrades/Points': 'disabled',
  HomeWorks: 403,
  HomeWorkAssignments: 'disabled',
  SchoolNotices: 404,
  Timetables: 403,
};

function refuse(on: boolean): void {
  const account = school.sim.account(ANIA.login);
  for (const [endpoint, status] of Object.entries(REFUSED)) account.setModuleStatus(endpoint, on ? status : null);
  account.setLuckyForm(on ? 'disabled' : 'object');
}

describe('a child whose modules the portal refuses', () => {
  it('shows no made-up value: the counts of refused lists and the flags of missing modules are None', async () => {
    refuse(true);
    const h = await school.polled(['last_update', 'homework_due', 'upcoming_tests', 'grade_at_risk', 'lucky_today', 'unread_notices']);
    for (const key of [
      'homework_due',
      'upcoming_tests',
      'unread_notices',
      'grade_at_risk',
      'lucky_today',
      'at_school',
      'behaviour',
      'newest_grade',
      'average',
    ])
      expect([key, h.state('ania', key)]).toEqual([key, 'None']);
    // What the account has is read as ever.
    expect(Number(h.state('ania', 'unread_messages'))).toBeGreaterThanOrEqual(0);
    expect(h.state('ania', 'problem')).toBe('OFF');
  });
});
