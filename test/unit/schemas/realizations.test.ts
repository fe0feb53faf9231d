// Realizations read leniently: ids normalised, extra fields kept, a bad record skipped, a lesson
// joined to its subject through Lessons.
import { describe, expect, it } from 'vitest';
import { lessonsResponse } from '../../../src/portal/schemas/lookups.js';
import { realizationsResponse } from '../../../src/portal/schemas/realizations.js';

const held = {
  Id: 't5000161',
  Lesson: { Id: 8402, Url: 'https://x/Lessons/8402' },
  LessonNo: '1',
  Date: '2026-11-20',
  Topic: 'Równania z jedną niewiadomą',
  IsTrip: false,
  CountInStatistics: true,
  CountInRPN: true,
  AddedBy: { Id: 162002, Url: 'https://x/Users/162002' },
  Extra: 'kept',
};

describe('Realizations', () => {
  it('normalises ids and numbers and keeps unknown fields', () => {
    const [r] = realizationsResponse.parse({ Realizations: [held], Resources: {} }).Realizations;
    expect(r).toEqual({
      Id: 't5000161',
      Lesson: '8402',
      LessonNo: 1,
      Date: '2026-11-20',
      Topic: 'Równania z jedną niewiadomą',
      IsTrip: false,
      CountInStatistics: true,
      CountInRPN: true,
      AddedBy: '162002',
      Extra: 'kept',
    });
  });

  it('skips a record without an id or a date instead of failing the list', () => {
    const list = realizationsResponse.parse({
      Realizations: [
        { ...held, Id: '' },
        { ...held, Id: null },
        { ...held, Date: 'wczoraj' },
        { ...held, Date: undefined },
        'junk',
        null,
        { ...held, Id: 5000162, Date: '2026-11-19 10:35:00' },
      ],
    }).Realizations;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ Id: '5000162', Date: '2026-11-19' });
  });

  it('reads an empty topic as missing, a huge one whole and a pasted one on one line', () => {
    const huge = 'ą'.repeat(5000);
    const list = realizationsResponse.parse({
      Realizations: [
        { ...held, Topic: '' },
        { ...held, Topic: '   ' },
        { ...held, Topic: null },
        { ...held, Topic: huge },
        { ...held, Topic: 'Pan Tadeusz\r\n  – inwokacja ' },
        { ...held, Topic: 12, IsTrip: 'yes', LessonNo: 'x', Lesson: false },
      ],
    }).Realizations;
    expect(list.map((r) => r.Topic)).toEqual([undefined, undefined, undefined, huge, 'Pan Tadeusz – inwokacja', '12']);
    expect(list[5]).toMatchObject({ IsTrip: undefined, LessonNo: undefined, Lesson: undefined });
  });

  it('joins a lesson to its subject through Lessons; an unknown lesson finds none', () => {
    const lessons = lessonsResponse.parse({
      Lessons: [{ Id: 8402, Subject: { Id: 5012 }, Teacher: { Id: '162002' }, Class: { Id: 7104 } }, { Id: 'x' }],
    }).Lessons;
    const subjectOf = new Map(lessons.map((l) => [l.Id, l.Subject]));
    const list = realizationsResponse.parse({ Realizations: [held, { ...held, Id: 't2', Lesson: { Id: 999999 } }] }).Realizations;
    expect(list.map((r) => subjectOf.get(r.Lesson ?? ''))).toEqual(['5012', undefined]);
    expect(lessons).toHaveLength(1);
  });

  it('refuses an answer without the Realizations list, as the other readers do, and reads an empty one as empty', () => {
    expect(realizationsResponse.safeParse({}).success).toBe(false);
    expect(realizationsResponse.parse({ Realizations: [] }).Realizations).toEqual([]);
  });
});
