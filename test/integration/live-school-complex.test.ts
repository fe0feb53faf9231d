// A school complex (live-notes 10), against the real bridge and broker: Units lists another school's
// unit first, without point grades; Ania's own unit (Users/<id>.Unit.Id) has them, so they are read.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const school = simulatedSchool('2026-11-18T09:10:00+01:00');
const reads = (endpoint: string): number => school.sim.count({ path: `/gateway/api/2.0/${endpoint}` });

describe('several units', () => {
  it('reads the kinds of grade the child’s own unit uses, not the first unit’s', async () => {
    school.sim.account(ANIA.login).schoolComplex = true;
    const h = await school.firstPasses(['last_update', 'average_informatyka']);
    expect(reads('Units')).toBe(1);
    expect(reads('PointGrades')).toBe(1);
    expect(reads('DescriptiveGrades')).toBe(1);
    // Informatyka is graded in points only (9.5 of 10 and 17 of 20 points).
    expect(h.state('ania', 'average_informatyka')).toBe('6.00');
    expect(h.state('ania', 'problem')).toBe('OFF');
  });

  it('leaves out what the child’s unit switched off', async () => {
    const account = school.sim.account(ANIA.login);
    account.schoolComplex = true;
    account.unitId = 2; // the lyceum, which uses neither point nor descriptive grades
    const h = await school.firstPasses(['last_update', 'school']);
    expect(reads('Units')).toBe(1);
    // The bells are the child's unit's LessonsRange, which has no lesson 0 (position 0 a placeholder), not the other school's.
    expect((h.attributes('ania', 'school') as { bells: unknown[] }).bells.slice(0, 2)).toEqual([
      { no: 1, from: '07:10', to: '07:55' },
      { no: 2, from: '08:00', to: '08:45' },
    ]);
    expect(reads('Grades')).toBe(1);
    expect(reads('PointGrades')).toBe(0);
    expect(reads('DescriptiveGrades')).toBe(0);
  });
});
