// What the change feed should have named between two reads of a list: a record that came or went, by id.
import { describe, expect, it } from 'vitest';
import { recordsCameOrWent } from '../../../../src/engine/change-feed/child.js';

const grades = (...ids: (string | number)[]) => ({ Grades: ids.map((Id) => ({ Id, Grade: '5', Date: '2026-11-18' })) });

describe('recordsCameOrWent', () => {
  it('is a record added, or one deleted, whatever the id type', () => {
    expect(recordsCameOrWent(grades(1, 2), grades(1, 2, 3))).toBe(true);
    expect(recordsCameOrWent(grades('1', '2'), grades('1'))).toBe(true);
    expect(recordsCameOrWent(grades(1, 2), grades(1, 3))).toBe(true);
  });

  it('is not an edit in place, nor the same records in another order', () => {
    const moved = {
      Grades: [
        { Id: 2, Grade: '4', Date: '2026-11-19' },
        { Id: 1, Grade: '5', Date: '2026-11-19' },
      ],
    };
    expect(recordsCameOrWent(grades(1, 2), moved)).toBe(false);
  });

  it('tells nothing of a list without record ids (the lucky number, a plan)', () => {
    expect(recordsCameOrWent({ LuckyNumber: { LuckyNumber: 4 } }, { LuckyNumber: { LuckyNumber: 9 } })).toBe(false);
    expect(recordsCameOrWent({ Timetable: { '2026-11-18': [] } }, { Timetable: { '2026-11-19': [] } })).toBe(false);
  });

  it('is the first record of a list that was empty, or the last one gone', () => {
    expect(recordsCameOrWent(grades(), grades(7))).toBe(true);
    expect(recordsCameOrWent(grades(7), grades())).toBe(true);
  });
});
