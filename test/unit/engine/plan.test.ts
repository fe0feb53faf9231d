// The schedule's decision, as a table of days and moments: what is read now and what waits, for a
// child whose Wednesday has lessons from 08:00 to 13:30, by the resources' own declarations. The
// table is the documentation of next.
import { describe, expect, it } from 'vitest';
import { BEHAVIOUR_POINTS, GRADE_COMMENTS, GRADES, PARTIAL_GRADES, POINT_GRADES } from '../../../src/engine/resources/grades.js';
import { NOTES } from '../../../src/features/notes/resources.js';
import { HOMEWORKS } from '../../../src/engine/resources/school.js';
import { IDENTITY } from '../../../src/engine/resources/identity.js';
import { LUCKY } from '../../../src/features/lucky/resources.js';
import { LIBRARY } from '../../../src/features/library/resources.js';
import { REALIZATIONS } from '../../../src/features/lessons-held/resources.js';
import { TIMETABLE } from '../../../src/engine/resources/timetable.js';
import { byDay } from '../../../src/engine/resources/ages.js';
import { INBOX, MAILBOX, UNREAD } from '../../../src/engine/resources/messaging.js';
import { warsawInstant } from '../../../src/util/time.js';
import { next, whyOf } from '../../../src/engine/plan.js';
import { isSchoolDay, momentOf, nightEndsAt, nextMomentAt, type SchoolDayTimes } from '../../../src/engine/moments.js';
import { CHANGE_FEED_HOURS } from '../../../src/engine/resources/change-feed.js';
import { type Known, type Moment, type Schedule } from '../../../src/engine/schedule.js';

const MIN = 60_000;
const at = (date: string, hhmm: string): number => Date.parse(`${date}T${hhmm}:00+01:00`);
const WEDNESDAY = '2026-11-18';
const day: SchoolDayTimes = { date: WEDNESDAY, start: `${WEDNESDAY}T08:00:00+01:00`, end: `${WEDNESDAY}T13:30:00+01:00` };
const intervals = { news: 5 * MIN, normal: 20 * MIN, fast: 3 * MIN };

describe("the kind of moment, from the child's own day", () => {
  it.each([
    ['a lesson hour', WEDNESDAY, '09:10', day, 'lessons'],
    ['a break', WEDNESDAY, '10:40', day, 'lessons'],
    ['an hour after the last lesson', WEDNESDAY, '14:29', day, 'lessons'],
    ['after school', WEDNESDAY, '14:30', day, 'day'],
    ['the evening', WEDNESDAY, '19:00', day, 'day'],
    ['before the first lesson', WEDNESDAY, '07:15', day, 'day'],
    ['a school day before 07:00', WEDNESDAY, '06:40', day, 'day'],
    ['a school day after 21:00', WEDNESDAY, '21:30', day, 'day'],
    ['a weekend at 06:40', '2026-11-21', '06:40', undefined, 'day'],
    ['the night', WEDNESDAY, '23:30', day, 'night'],
    ['a free day (no lessons in the timetable)', WEDNESDAY, '10:00', { ...day, start: null, end: null }, 'day'],
    ['a weekend', '2026-11-21', '10:00', undefined, 'day'],
    ['the holidays (a weekday of the winter break)', '2027-01-20', '10:00', { date: '2027-01-20', start: null, end: null }, 'day'],
    ['a weekday, timetable not known yet', WEDNESDAY, '10:00', undefined, 'lessons'],
    ['lessons a timetable puts before 07:00 (07:00 at the earliest)', WEDNESDAY, '06:50', { ...day, start: `${WEDNESDAY}T06:30:00+01:00` }, 'day'],
  ] as [string, string, string, SchoolDayTimes | undefined, Moment][])('%s is %s', (_what, date, time, today, expected) => {
    expect(momentOf(at(date, time), today)).toBe(expected);
  });

  it('names the next change of moment to the minute: the first lesson, the hour after the last, the night', () => {
    expect(nextMomentAt(at(WEDNESDAY, '06:40'), day)).toBe(at(WEDNESDAY, '08:00'));
    expect(nextMomentAt(at(WEDNESDAY, '07:10'), day)).toBe(at(WEDNESDAY, '08:00'));
    expect(nextMomentAt(at(WEDNESDAY, '12:00'), day)).toBe(at(WEDNESDAY, '14:30'));
    expect(nextMomentAt(at(WEDNESDAY, '19:00'), day)).toBe(at(WEDNESDAY, '22:00'));
  });

  it("names the change feed's hours too when asked (07:00 and 21:00 of a school day), not on a weekend", () => {
    expect(nextMomentAt(at(WEDNESDAY, '06:40'), day, CHANGE_FEED_HOURS)).toBe(at(WEDNESDAY, '07:00'));
    expect(nextMomentAt(at(WEDNESDAY, '19:00'), day, CHANGE_FEED_HOURS)).toBe(at(WEDNESDAY, '21:00'));
    expect(nextMomentAt(at('2026-11-21', '12:00'), undefined, CHANGE_FEED_HOURS)).toBe(at('2026-11-21', '22:00'));
  });

  it.each([
    ['a weekday', WEDNESDAY, day, true],
    ['a weekday whose timetable is not known yet', WEDNESDAY, undefined, true],
    ['a free day', WEDNESDAY, { ...day, start: null, end: null }, false],
    ['a Saturday', '2026-11-21', undefined, false],
  ] as [string, string, SchoolDayTimes | undefined, boolean][])('%s is a school day: %s', (_what, date, today, expected) => {
    expect(isSchoolDay(at(date, '10:00'), today)).toBe(expected);
  });
});

/** The decision for a resource at a moment, with the copy read `ago` minutes before: read now and why, or from when. */
function decide(res: Schedule, moment: Moment, ago: number | undefined, known: Known = {}) {
  const now = at(WEDNESDAY, '10:00');
  const when = next(res, { readAt: ago === undefined ? undefined : now - ago * MIN, ...known }, { now, moment, intervals });
  // When it may be read at the latest (`by`) is the table below.
  return when.at <= now ? { read: true, why: whyOf(when) } : { read: false, at: when.at };
}
const NOW = at(WEDNESDAY, '10:00');
const wait = (minutesFromNow: number) => ({ read: false, at: NOW + minutesFromNow * MIN });
const read = (why: string) => ({ read: true, why });

describe('next: read now, or from when', () => {
  it.each([
    ['grades, a lesson hour, read 4 minutes ago', GRADES, 'lessons', 4, {}, wait(1)],
    ['grades, a lesson hour, read 5 minutes ago', GRADES, 'lessons', 5, {}, read('age: lessons 5 min')],
    ['grades, after school, read 5 minutes ago', GRADES, 'day', 5, {}, wait(15)],
    ['grades, the night, read 5 hours ago: nothing is read at night for its age alone', GRADES, 'night', 300, {}, wait(Infinity)],
    ['grades, a weekend, read 20 minutes ago', GRADES, 'day', 20, {}, read('age: day 20 min')],
    ['grades, never read', GRADES, 'night', undefined, {}, read('no copy')],
    ["the library (not at a start), a start's first pass: the next pass", LIBRARY, 'lessons', undefined, { startPass: true }, wait(Infinity)],
    [
      "next week ahead of need, never read, a start's first pass: read in it (interface 18.2)",
      TIMETABLE,
      'lessons',
      undefined,
      { ahead: true, startPass: true },
      read('no copy'),
    ],
    [
      "next week ahead of need, read an hour ago, a start's first pass: its day's age",
      TIMETABLE,
      'lessons',
      60,
      { ahead: true, startPass: true, signal: 'same' },
      wait(24 * 60 - 10 - 60),
    ],
    ['the library, never read, after the start', LIBRARY, 'lessons', undefined, {}, read('no copy')],
    ['grades, a refresh at night', GRADES, 'night', 1, { asked: 'refresh' }, read('asked')],
    ['grades the change feed named', GRADES, 'night', 1, { signal: 'changed' }, read('signal')],
    ['a test list vouched for by the class calendar, a lesson hour', HOMEWORKS, 'lessons', 30, { signal: 'same' }, wait(30)],
    ['a test list whose calendar ids changed', HOMEWORKS, 'lessons', 1, { signal: 'changed' }, read('signal')],
    ['a test list, the calendar failed (no signal): the usual age', HOMEWORKS, 'lessons', 5, { signal: 'none' }, read('age: lessons 5 min')],
    ['a test list, a refresh trusts no signal', HOMEWORKS, 'lessons', 5, { signal: 'same', asked: 'refresh' }, read('age: lessons 5 min')],
    ['lessons held, a break', REALIZATIONS, 'lessons', 30, {}, wait(90)],
    ['lessons held, two hours on', REALIZATIONS, 'lessons', 120, {}, read('age: lessons 2 h')],
    ['lessons held, the holidays', REALIZATIONS, 'day', 120, {}, wait(24 * 60 - 10 - 120)],
    ['lessons held, a refresh keeps the copy', REALIZATIONS, 'day', 120, { asked: 'refresh' }, wait(24 * 60 - 10 - 120)],
    // A refresh reads every list of records a family hears of by the declarations' default, a lookup not.
    ['notes read 10 minutes ago, a refresh', NOTES, 'lessons', 10, { asked: 'refresh' }, read('asked')],
    ['behaviour read 10 minutes ago, a refresh', BEHAVIOUR_POINTS, 'lessons', 10, { asked: 'refresh' }, read('asked')],
    ['partial grades read a minute ago, a refresh', PARTIAL_GRADES, 'lessons', 1, { asked: 'refresh' }, read('asked')],
    ['a lookup, a refresh keeps the copy', GRADE_COMMENTS, 'lessons', 10, { asked: 'refresh' }, wait(24 * 60 - 10 - 10)],
    ['next week for the feeds alone (ahead of need): once a day', TIMETABLE, 'day', 60, { ahead: true, signal: 'same' }, wait(24 * 60 - 10 - 60)],
    ['next week for the feeds alone, the night: never by age', TIMETABLE, 'night', 10 * 60, { ahead: true }, wait(Infinity)],
    ['next week when the next school day falls in it: news', TIMETABLE, 'lessons', 5, { signal: 'none' }, read('age: lessons 5 min')],
    ['an empty list of point grades waits 6 hours', POINT_GRADES, 'lessons', 60, { empty: true }, wait(6 * 60 - 5 - 60)],
    [
      'a refused module waits out its refusal, even on a refresh',
      GRADES,
      'lessons',
      undefined,
      { refusedUntil: at(WEDNESDAY, '11:00'), asked: 'refresh' },
      wait(60),
    ],
    ['lessons held, whose last read failed: at the next look', REALIZATIONS, 'night', 30, { failedAt: NOW - 30 * MIN }, read('failed')],
    [
      'a refused module whose last read failed still waits out its refusal',
      GRADES,
      'lessons',
      30,
      { refusedUntil: at(WEDNESDAY, '11:00'), failedAt: NOW },
      wait(60),
    ],
    ['a copy from the future (the clock set back)', GRADES, 'lessons', -60, {}, read('age: lessons 5 min')],
    ['the lucky number, settled until 11:00: never by age', LUCKY, 'lessons', 60, { settledUntil: at(WEDNESDAY, '11:00') }, wait(60)],
    [
      'the lucky number, settled, whose refresh failed: not before it is due',
      LUCKY,
      'lessons',
      60,
      { settledUntil: at(WEDNESDAY, '11:00'), failedAt: NOW },
      wait(60),
    ],
    ['the lucky number, settled, past its time: its age', LUCKY, 'lessons', 60, { settledUntil: at(WEDNESDAY, '09:59') }, read('age: lessons 3 min')],
    ['the lucky number, settled, a refresh reads it', LUCKY, 'lessons', 1, { settledUntil: at(WEDNESDAY, '11:00'), asked: 'refresh' }, read('asked')],
  ] as [string, Schedule, Moment, number | undefined, Known, unknown][])('%s', (_what, res, moment, ago, known, expected) => {
    expect(decide(res, moment, ago, known)).toEqual(expected);
  });
});

describe('by when the scheduler reads a copy: once due, at most an eighth of its age later (next(...).by)', () => {
  const by = (res: Schedule, moment: Moment, ago: number | undefined, known: Known = {}) =>
    (next(res, { readAt: ago === undefined ? undefined : NOW - ago * MIN, ...known }, { now: NOW, moment, intervals }).by - NOW) / MIN;
  it.each([
    [
      'grades, a lesson hour, read 4 minutes ago: due in 1 and read then, never later (news is never older than school_interval)',
      GRADES,
      'lessons',
      4,
      {},
      1,
    ],
    ['grades, after school, read 5 minutes ago: due in 15, read within 17.5', GRADES, 'day', 5, {}, 17.5],
    ['grades, the night: not by age', GRADES, 'night', 60, {}, Infinity],
    ['the unread counters, the evening, read a minute ago: exactly every fast_interval', UNREAD, 'day', 1, {}, 2],
    ['the unread counters, the night: not for their age', UNREAD, 'night', 0, {}, Infinity],
    ['grades never read: due now', GRADES, 'lessons', undefined, {}, 0],
    ['the library (not at a start), never read: with the next pass, waking none of its own', LIBRARY, 'lessons', undefined, {}, Infinity],
    ['next week ahead of need, never read: due now, as in a start (interface 18.2)', TIMETABLE, 'lessons', undefined, { ahead: true }, 0],
    ['grades whose last read failed a minute ago: looked at again within the news age', GRADES, 'lessons', 1, { failedAt: NOW - MIN }, 4],
    ['grades whose last read failed, the night: within `interval`, not a night later', GRADES, 'night', 60, { failedAt: NOW }, 20],
    ['a refused module: when its refusal ends, not later', GRADES, 'lessons', undefined, { refusedUntil: at(WEDNESDAY, '11:00') }, 60],
    ['the lucky number, settled until 11:00: then, not later', LUCKY, 'lessons', 60, { settledUntil: at(WEDNESDAY, '11:00') }, 60],
    ['a test list, the class calendar failed (no signal): as news, at 5 exactly', HOMEWORKS, 'lessons', 0, { signal: 'none' }, 5],
    ['a test list the calendar vouches for: an hour, within 67.5 minutes', HOMEWORKS, 'lessons', 0, { signal: 'same' }, 67.5],
    ['a test list whose calendar ids changed: now', HOMEWORKS, 'lessons', 1, { signal: 'changed' }, 0],
  ] as [string, Schedule, Moment, number | undefined, Known, number][])('%s', (_what, res, moment, ago, known, minutes) => {
    expect(by(res, moment, ago, known)).toBe(minutes);
  });
});

describe('the inbox and the other mailboxes', () => {
  it.each([
    ['the inbox, lessons, read 50 minutes ago, its counter the same', INBOX, 'lessons', 50, { signal: 'same' }, wait(4 * 60 - 50)],
    ['the inbox, lessons, read four hours ago, its counter the same', INBOX, 'lessons', 4 * 60, { signal: 'same' }, read('age: lessons 4 h')],
    ['the inbox, the evening, read 241 minutes ago', INBOX, 'day', 241, { signal: 'same' }, read('age: day 4 h')],
    ['the inbox, the night, read 5 hours ago, its counter the same', INBOX, 'night', 300, { signal: 'same' }, wait(Infinity)],
    ['the inbox, the night, its counter moved', INBOX, 'night', 300, { signal: 'changed' }, read('signal')],
    ['another mailbox, a day old, its counter the same', MAILBOX, 'lessons', 24 * 60, { signal: 'same' }, wait(Infinity)],
    ['another mailbox, its counter moved', MAILBOX, 'night', 24 * 60, { signal: 'changed' }, read('signal')],
    [
      'a mailbox that answered 404, its refusal for 6 more hours',
      MAILBOX,
      'lessons',
      undefined,
      { refusedUntil: at(WEDNESDAY, '16:00') },
      wait(6 * 60),
    ],
  ] as [string, Schedule, Moment, number | undefined, Known, unknown][])('%s', (_what, res, moment, ago, known, expected) => {
    expect(decide(res, moment, ago, known)).toEqual(expected);
  });
});

describe("the child's identity, a resource of its own: of the day", () => {
  it.each([
    ['read at 07:00 today', 3 * 60, false],
    ['read at 05:00 today (a start in the night)', 5 * 60, true],
    ['read at 11:00 yesterday, 23 hours ago', 23 * 60, true],
    ['never read', undefined, true],
    ['read "in the future" (a clock that ran ahead)', -60, true],
  ] as [string, number | undefined, boolean][])('%s: read at the first pass from 06:00: %s', (_what, ago, read) => {
    expect(decide(IDENTITY, 'lessons', ago).read).toBe(read);
  });

  it('a copy of the evening is read at the first pass of the next day from 06:00, not a day after it was read', () => {
    const evening = at(WEDNESDAY, '21:30');
    const when = next(IDENTITY, { readAt: evening }, { now: evening, moment: 'day', intervals });
    expect(when).toEqual({ at: at('2026-11-19', '06:00'), by: at('2026-11-19', '06:00'), why: 'new day' });
  });

  it.each([
    ['the last day of the first semester', '2027-01-29'],
    ['the last school day', '2027-06-25'],
    ['1 September, a Wednesday', '2027-09-01'],
  ])('%s: a copy of the day before is read at its first pass from 06:00', (_what, date) => {
    // Summer time in June and September: the wall clock's own instants.
    const six = warsawInstant(date, '06:00');
    const before = six - 9 * 60 * MIN;
    expect(next(IDENTITY, { readAt: before }, { now: six, moment: 'day', intervals }).why).toBe('new day');
    expect(next(IDENTITY, { readAt: before }, { now: six - MIN, moment: 'night', intervals }).at).toBe(six);
  });

  it('a refresh reads it (the class and tutor as the portal has them now)', () => {
    expect(decide(IDENTITY, 'lessons', 10, { asked: 'refresh' })).toEqual(read('asked'));
  });
});

describe('the night reads nothing on its own: what falls due between 22:00 and 06:00 waits for 06:00', () => {
  const THURSDAY_06 = at('2026-11-19', '06:00');
  const nightly = (res: Schedule, hhmm: string, known: Known) => {
    const now = at(WEDNESDAY, hhmm) + (hhmm < '12:00' ? 24 * 60 * MIN : 0);
    return next(res, known, { now, moment: momentOf(now, day), intervals });
  };
  it.each([
    ["the portal's refusal (a school without averages) ending at midnight", GRADES, '23:50', { refusedUntil: at('2026-11-19', '00:00') }],
    ['a list never read, riding along with a pass at 02:00', LIBRARY, '02:00', {}],
    ['next week for the feeds, riding along at 02:00', TIMETABLE, '02:00', { ahead: true }],
    ['a read that failed at 23:10', GRADES, '23:20', { readAt: at(WEDNESDAY, '21:00'), failedAt: at(WEDNESDAY, '23:10') }],
    ['a copy read at 21:50, due at 22:10 by its age', GRADES, '21:55', { readAt: at(WEDNESDAY, '21:50') }],
  ] as [string, Schedule, string, Known][])('%s', (_what, res, hhmm, known) => {
    const when = nightly(res, hhmm, known);
    expect(when.at).toBe(THURSDAY_06);
    expect(when.by).toBeGreaterThanOrEqual(THURSDAY_06);
  });

  it("reads at night what a start's first pass, a refresh or the bridge's own change asks for", () => {
    expect(nightly(LIBRARY, '23:30', { startPass: true }).at).toBe(Infinity);
    expect(nightly(GRADES, '23:30', { startPass: true }).at).toBe(at(WEDNESDAY, '23:30'));
    expect(nightly(GRADES, '23:30', { readAt: at(WEDNESDAY, '21:00'), asked: 'refresh' }).at).toBe(at(WEDNESDAY, '23:30'));
    expect(nightly(GRADES, '23:30', { readAt: at(WEDNESDAY, '21:00'), signal: 'changed' }).why).toBe('signal');
  });

  it('ends the night at 06:00 on the Warsaw clock, the days the clocks change included', () => {
    for (const [night, morning] of [
      ['2026-03-29T01:30:00+01:00', '2026-03-29T06:00:00+02:00'],
      ['2026-10-25T02:30:00+01:00', '2026-10-25T06:00:00+01:00'],
      ['2026-10-24T23:00:00+02:00', '2026-10-25T06:00:00+01:00'],
    ] as [string, string][])
      expect(nightEndsAt(Date.parse(night))).toBe(Date.parse(morning));
    expect(nightEndsAt(at(WEDNESDAY, '21:59'))).toBeUndefined();
  });

  it('ends each night at its own morning, however many nights are asked about and in what order', () => {
    // The evening and the early hours of 40 nights, forth and back: a night asked again (the planner asks many times a pass) ends as it did.
    const nights = Array.from({ length: 40 }, (_, n) => Date.parse('2026-11-02T23:00:00+01:00') + n * 86_400_000);
    for (const evening of [...nights, ...nights.reverse()]) {
      const morning = evening + 7 * 3_600_000;
      expect(nightEndsAt(evening)).toBe(morning);
      expect(nightEndsAt(evening + 5 * 3_600_000 + 59 * 60_000)).toBe(morning);
      expect(nightEndsAt(morning)).toBeUndefined();
    }
  });
});

describe('a daily read keeps its hour on the days the clocks change', () => {
  const DAILY_LIST: Schedule = { name: 'a daily list', fresh: byDay(24 * 60 * MIN), whenAsked: 'keep' };
  const dueAfter = (readAt: string) => {
    const read = Date.parse(readAt);
    return next(DAILY_LIST, { readAt: read }, { now: read, moment: 'day', intervals }).at;
  };
  it.each([
    [
      'read at 21:00 on the last Saturday of March: 21:00 on the Sunday (23 hours on), not 22:00, the night',
      '2026-03-28T21:00:00+01:00',
      '2026-03-29T21:00:00+02:00',
    ],
    ['read at 21:00 on the last Saturday of October: 21:00 on the Sunday (25 hours on)', '2026-10-24T21:00:00+02:00', '2026-10-25T21:00:00+01:00'],
    ['read at 21:00 on an ordinary Saturday: 24 hours on', '2026-11-21T21:00:00+01:00', '2026-11-22T21:00:00+01:00'],
  ])('%s', (_what, readAt, due) => {
    expect(dueAfter(readAt)).toBe(Date.parse(due));
  });
});
