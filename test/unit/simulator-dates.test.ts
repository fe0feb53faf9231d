// The simulator's own calendar arithmetic and fixture token expansion.
import { describe, expect, it } from 'vitest';
import { addWeekdays, schoolYearOf, semesterOf, warsawNow } from '../../src/simulator/dates.js';
import { evalDate, expand } from '../../src/simulator/expand.js';

const ctx = { today: '2026-11-21', nowMs: Date.parse('2026-11-21T10:00:00Z'), api: 'http://h/gateway/api/2.0', base: 'http://h' };

describe('dates', () => {
  it('moves by weekdays over weekends', () => {
    expect(addWeekdays('2026-11-20', 1)).toBe('2026-11-23');
    expect(addWeekdays('2026-11-21', 0)).toBe('2026-11-23');
    expect(addWeekdays('2026-11-21', -1)).toBe('2026-11-20');
    expect(addWeekdays('2026-11-23', -5)).toBe('2026-11-16');
  });

  it('knows the school year and its semesters', () => {
    expect(schoolYearOf('2026-11-21')).toEqual({ start: '2026-09-01', semester1End: '2027-01-29', end: '2027-06-25' });
    expect(schoolYearOf('2027-07-15').start).toBe('2026-09-01');
    expect(semesterOf('2027-01-29')).toBe(1);
    expect(semesterOf('2027-02-01')).toBe(2);
  });

  it('gives the Warsaw date and time, across the change of day', () => {
    expect(warsawNow(Date.parse('2026-11-20T23:30:00Z'))).toEqual({ date: '2026-11-21', time: '00:30:00' });
    expect(warsawNow(Date.parse('2026-07-01T21:59:00Z'))).toEqual({ date: '2026-07-01', time: '23:59:00' });
  });
});

describe('fixture expansion', () => {
  it('evaluates date expressions', () => {
    expect(evalDate('today-3', '2026-11-21')).toBe('2026-11-18');
    expect(evalDate('monday+1', '2026-11-21')).toBe('2026-11-17');
    expect(evalDate('weekday-2', '2026-11-21')).toBe('2026-11-19');
    expect(evalDate('sy:02-16', '2026-11-21')).toBe('2027-02-16');
    expect(evalDate('sy:10-14', '2027-03-01')).toBe('2026-10-14');
    expect(evalDate('sem1end-3', '2026-11-21')).toBe('2027-01-26');
    expect(() => evalDate('tomorrow', '2026-11-21')).toThrow(/bad date expression/);
  });

  it('keeps the records where the last school day left them over the summer, as nobody enters anything then', () => {
    // The year ends on Friday 25 June 2027: a grade of "two weekdays ago" stays the 23rd's all summer.
    for (const today of ['2027-06-28', '2027-07-15', '2027-08-31']) expect(evalDate('weekday-2', today)).toBe('2027-06-23');
    expect(evalDate('weekday-2', '2027-06-25')).toBe('2027-06-23');
    // 1 September begins the new year's records; a held account's day still wins.
    expect(evalDate('weekday-1', '2027-09-01')).toBe('2027-08-31');
    expect(evalDate('weekday-2', '2027-07-15', '2027-06-10')).toBe('2027-06-08');
  });

  it('expands tokens inside strings, whole numeric tokens, references and named values', () => {
    const out = expand(
      {
        AddDate: '{{today-1}} 10:15:00',
        Semester: '{{sem(today)}}',
        Synced: '{{epoch-60}}',
        Subject: '@Subjects/5011',
        Notice: '@SchoolNotices/LID-NBOARD-NOTICE-ab12',
        Me: '{{childLid}}',
        Plain: 'e-mail: @someone',
        List: ['{{yearstart}}'],
      },
      { ...ctx, vars: { childLid: 'LID-X' } },
    );
    expect(out).toEqual({
      AddDate: '2026-11-20 10:15:00',
      Semester: 1,
      Synced: Math.floor(ctx.nowMs / 1000) - 60,
      Subject: { Id: 5011, Url: 'http://h/gateway/api/2.0/Subjects/5011' },
      Notice: { Id: 'LID-NBOARD-NOTICE-ab12', Url: 'http://h/gateway/api/2.0/SchoolNotices/LID-NBOARD-NOTICE-ab12' },
      Me: 'LID-X',
      Plain: 'e-mail: @someone',
      List: ['2026-09-01'],
    });
  });
});
