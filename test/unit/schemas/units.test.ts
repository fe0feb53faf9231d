import { describe, expect, it } from 'vitest';
import { childUnit, unitsResponse } from '../../../src/portal/schemas/identity.js';

const settings = (point: boolean) => ({ StandardGradesEnabled: true, PointGradesEnabled: point, DescriptiveGradesEnabled: false });

describe('Units of a school complex (live-notes 10)', () => {
  const units = unitsResponse.parse({
    Units: [
      { Id: 2, GradesSettings: settings(false), LessonsRange: [{ From: '07:10', To: '07:55' }] },
      { Id: '1', GradesSettings: settings(true), LessonsRange: [null, { From: '08:00', To: '08:45', RawFrom: 28800, RawTo: 31500 }] },
    ],
  });

  it('keeps every unit with its own settings and bells (live-notes 56)', () => {
    expect(units).toEqual([
      { id: '2', standard: true, point: false, descriptive: false, bells: [{ no: 0, from: '07:10', to: '07:55' }] },
      { id: '1', standard: true, point: true, descriptive: false, bells: [{ no: 1, from: '08:00', to: '08:45' }] },
    ]);
  });

  it('takes the child’s unit, else the only one, else none (every kind is then read)', () => {
    expect(childUnit(units, '1')?.point).toBe(true);
    expect(childUnit(units, undefined)).toBeUndefined();
    expect(childUnit(units, '9')).toBeUndefined();
    const one = unitsResponse.parse({ Units: [{ Id: 5, GradesSettings: settings(false) }] });
    expect(childUnit(one, undefined)?.point).toBe(false);
  });

  it('reads a single Unit and a lone GradesSettings as the only unit', () => {
    expect(childUnit(unitsResponse.parse({ Unit: { Id: 3, GradesSettings: settings(true) } }), '3')?.point).toBe(true);
    expect(childUnit(unitsResponse.parse({ Something: { GradesSettings: settings(false) } }), '3')?.point).toBe(false);
  });
});
