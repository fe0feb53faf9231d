// The school's own averages (live-notes 12), against the real bridge and broker: added to each
// average_<subject> (0 left out) and beside ours on `average`, read with the grades at their cadence;
// a school without them (Status Disabled) is asked once a day and stays quiet.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const MATHS = 5012;
const school = simulatedSchool('2026-11-18T09:10:00+01:00');
const reads = (endpoint: string): number => school.sim.count({ path: `/gateway/api/2.0/${endpoint}` });

describe('Grades/Averages', () => {
  it('adds the school’s averages to average_<subject> and to average, read with the grades', async () => {
    school.sim.account(ANIA.login).setSchoolAverages({ [MATHS]: [4.29, 0, 4.26] });
    const h = await school.firstPasses(['last_update', 'average_matematyka']);
    const maths = h.attributes('ania', 'average_matematyka')!;
    expect(h.state('ania', 'average_matematyka')).toBe('4.62');
    expect(maths).toMatchObject({ school_semester1: 4.29, school_year: 4.26 });
    expect(maths).not.toHaveProperty('school_semester2'); // 0: none yet
    expect(h.attributes('ania', 'average_historia')).not.toHaveProperty('school_semester1');
    const subjects = h.attributes('ania', 'average')!.subjects as { subject: string; average: number; school?: number }[];
    expect(subjects.find((s) => s.subject === 'Matematyka')).toMatchObject({ average: 4.62, school: 4.29 });

    // The fetch plan reads the school's averages at the core freshness (every 20 minutes), not at the
    // grades' few minutes while lessons are on: an hour holds three or four reads of them.
    await h.advanceMinutes(60);
    expect(reads('Grades/Averages')).toBeGreaterThanOrEqual(3);
    expect(reads('Grades/Averages')).toBeLessThanOrEqual(Math.min(5, reads('Grades')));

    school.sim.account(ANIA.login).setSchoolAverages({ [MATHS]: [4.5, 0, 4.4] });
    await h.advanceMinutes(20);
    expect(h.attributes('ania', 'average_matematyka')).toMatchObject({ school_semester1: 4.5, school_year: 4.4 });
    expect(h.state('ania', 'problem')).toBe('OFF');
  });

  it('asks a school without averages (Status Disabled) once a day, problem OFF', async () => {
    const h = await school.firstPasses(['last_update', 'average_matematyka']);
    await h.advanceMinutes(3 * 60);
    expect(reads('Grades/Averages')).toBe(1);
    expect(reads('Grades')).toBeGreaterThan(5);
    expect(h.attributes('ania', 'average_matematyka')).not.toHaveProperty('school_semester1');
    expect(h.state('ania', 'problem')).toBe('OFF');
  });
});
