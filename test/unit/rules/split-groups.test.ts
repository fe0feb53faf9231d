// A split class's other group, told by the child's attendance marks (issue 36, item 8).
import { describe, expect, it } from 'vitest';
import { timetablesResponse } from '../../../src/portal/schemas/timetable.js';
import { schedule } from '../../../src/rules/schedule.js';
import { otherGroupLessons } from '../../../src/rules/timetable.js';
import { warsawInstant } from '../../../src/util/time.js';
import { BELL, lessonAt, names } from './fixtures.js';

const lesson = lessonAt(BELL);
const own = (no: number, subject: number, id: string) => lesson(no, subject, 10, 100, { Lesson: { Id: id } });

// Monday: English split in slot 2 (groups A 'a' and B 'b'); Tuesday: group B alone has a 3rd lesson.
const days = timetablesResponse.parse({
  Timetable: {
    '2026-03-09': [[own(1, 1, 'm')], [own(2, 5, 'a'), own(2, 5, 'b')]],
    '2026-03-10': [[own(1, 1, 'm')], [own(2, 2, 'p')], [own(3, 5, 'b')]],
  },
}).Timetable;

describe('otherGroupLessons', () => {
  it('is the lesson of a split slot the child has no mark of, once a lesson beside it has one', () => {
    expect([...otherGroupLessons(days, new Set(['m', 'a', 'p']))]).toEqual(['b']);
  });

  it('is nothing when the marks cannot tell the groups apart', () => {
    expect(otherGroupLessons(days, new Set())).toEqual(new Set());
    expect(otherGroupLessons(days, new Set(['m', 'p']))).toEqual(new Set());
  });
});

describe('schedule with the child’s marks', () => {
  const at = (date: string, time: string) => warsawInstant(date, time);

  it('ends the day with the child’s own last lesson and keeps only her group in a split slot', () => {
    const input = { days, free: {}, names, now: at('2026-03-10', '07:00') };
    const everyGroup = schedule(input);
    const hers = schedule({ ...input, attended: new Set(['m', 'a', 'p']) });
    expect(everyGroup.today.end).toBe(`2026-03-10T${BELL[3]![1]}:00+01:00`);
    expect(hers.today.end).toBe(`2026-03-10T${BELL[2]![1]}:00+01:00`);
    const monday = schedule({ ...input, now: at('2026-03-09', '07:00'), attended: new Set(['m', 'a', 'p']) });
    expect(monday.today.lessons?.map((l) => l.lessonNo)).toEqual([1, 2]);
  });
});
