// The fetch plan's decision, as a table of days and moments: what is read now and what waits, for a
// child whose Wednesday has lessons from 08:00 to 13:30. The table is the documentation of nextFetch.
import { describe, expect, it } from 'vitest';
import { GRADES_PLAN } from '../../../src/features/grades.js';
import { AGENDA_PLAN } from '../../../src/features/agenda.js';
import { TIMETABLE_PLAN } from '../../../src/features/timetable.js';
import { REALIZATIONS_ROW } from '../../../src/features/lessons-held.js';
import { INBOX_LIST_ROW, MAILBOX_LIST_ROW, UNREAD_ROW } from '../../../src/features/messages.js';
import { LUCKY_ROW } from '../../../src/features/lucky.js';
import { IDENTITY_ROW } from '../../../src/feature-kit/identity.js';
import { momentOf, nextFetch, nextMomentAt, readBy, type Known, type Moment, type PlanRow, type SchoolDayTimes } from '../../../src/feature-kit/plan.js';

const MIN = 60_000;
const at = (date: string, hhmm: string): number => Date.parse(`${date}T${hhmm}:00+01:00`);
const WEDNESDAY = '2026-11-18';
const day: SchoolDayTimes = { date: WEDNESDAY, start: `${WEDNESDAY}T08:00:00+01:00`, end: `${WEDNESDAY}T13:30:00+01:00` };
const intervals = { news: 4 * MIN, normal: 20 * MIN, fast: 3 * MIN };

describe('the kind of moment, from the child\'s own day', () => {
  it.each([
    ['a lesson hour', WEDNESDAY, '09:10', day, 'lessons'],
    ['a break', WEDNESDAY, '10:40', day, 'lessons'],
    ['an hour after the last lesson', WEDNESDAY, '14:29', day, 'lessons'],
    ['after school', WEDNESDAY, '14:30', day, 'afternoon'],
    ['the evening', WEDNESDAY, '19:00', day, 'evening'],
    ['before the first lesson', WEDNESDAY, '07:15', day, 'morning'],
    ['the night', WEDNESDAY, '23:30', day, 'night'],
    ['a free day (no lessons in the timetable)', WEDNESDAY, '10:00', { ...day, start: null, end: null }, 'holiday'],
    ['a weekend', '2026-11-21', '10:00', undefined, 'weekend'],
    ['the holidays (a weekday of the winter break)', '2027-01-20', '10:00', { date: '2027-01-20', start: null, end: null }, 'holiday'],
    ['a weekday, timetable not known yet', WEDNESDAY, '10:00', undefined, 'lessons'],
  ] as [string, string, string, SchoolDayTimes | undefined, Moment][])('%s is %s', (_what, date, time, today, expected) => {
    expect(momentOf(at(date, time), today)).toBe(expected);
  });

  it('names the next change of moment to the minute: the first lesson after a quiet morning', () => {
    expect(nextMomentAt(at(WEDNESDAY, '06:40'), day)).toBe(at(WEDNESDAY, '08:00'));
    expect(nextMomentAt(at(WEDNESDAY, '12:00'), day)).toBe(at(WEDNESDAY, '14:30'));
  });
});

/** The decision for a row at a moment, with the copy read `ago` minutes before. */
function decide(row: PlanRow, moment: Moment, ago: number | undefined, known: Known = {}) {
  const now = at(WEDNESDAY, '10:00');
  const decision = nextFetch(row, { now, moment, intervals }, { fetchedAt: ago === undefined ? undefined : now - ago * MIN, ...known });
  // When it may be read at the latest is readBy's table, below.
  if (!decision.fetch) delete decision.slack;
  return decision;
}
const wait = (minutesFromNow: number) => ({ fetch: false, at: at(WEDNESDAY, '10:00') + minutesFromNow * MIN });

describe('nextFetch: fetch now, or when', () => {
  const grades = GRADES_PLAN.grades;
  const homeWorks = AGENDA_PLAN.homeWorks;
  it.each([
    ['grades, a lesson hour, read 3 minutes ago', grades, 'lessons', 3, {}, wait(1)],
    ['grades, a lesson hour, read 4 minutes ago', grades, 'lessons', 4, {}, { fetch: true, why: 'age' }],
    ['grades, after school, read 4 minutes ago', grades, 'afternoon', 4, {}, wait(16)],
    ['grades, the night, read an hour ago', grades, 'night', 60, {}, wait(60)],
    ['grades, a weekend, read 20 minutes ago', grades, 'weekend', 20, {}, { fetch: true, why: 'age' }],
    ['grades, never read', grades, 'night', undefined, {}, { fetch: true, why: 'no copy' }],
    ['grades, a refresh at night', grades, 'night', 1, { refresh: true }, { fetch: true, why: 'refresh' }],
    ['a test list vouched for by the class calendar, a lesson hour', homeWorks, 'lessons', 30, { signal: 'same' }, wait(30)],
    ['a test list whose calendar ids changed', homeWorks, 'lessons', 1, { signal: 'changed' }, { fetch: true, why: 'signal' }],
    ['a test list, the calendar failed (no signal): the usual age', homeWorks, 'lessons', 4, { signal: 'none' }, { fetch: true, why: 'age' }],
    ['a test list, a refresh trusts no signal', homeWorks, 'lessons', 4, { signal: 'same', refresh: true }, { fetch: true, why: 'age' }],
    ['lessons held, a break', REALIZATIONS_ROW, 'lessons', 30, {}, wait(30)],
    ['lessons held, the holidays', REALIZATIONS_ROW, 'holiday', 120, {}, wait(24 * 60 - 10 - 120)],
    ['lessons held, a refresh keeps the copy', REALIZATIONS_ROW, 'weekend', 120, { refresh: true }, wait(24 * 60 - 10 - 120)],
    ['next week for the feeds, the night: never by age', TIMETABLE_PLAN.feedWeek, 'night', 10 * 60, {}, wait(Infinity)],
    ['an empty list of point grades waits 6 hours', GRADES_PLAN.point, 'lessons', 60, { empty: true }, wait(6 * 60 - 5 - 60)],
    ['a refused module waits out its refusal, even on a refresh', grades, 'lessons', undefined, { refusedUntil: at(WEDNESDAY, '11:00'), refresh: true }, wait(60)],
    ['a command that needs it now', REALIZATIONS_ROW, 'night', 1, { now: true }, { fetch: true, why: 'asked' }],
    ['lessons held, read a day ago at most, whose last read failed: at the next look', REALIZATIONS_ROW, 'night', 30, { failed: true }, { fetch: true, why: 'failed' }],
    ['a refused module whose last read failed still waits out its refusal', grades, 'lessons', 30, { refusedUntil: at(WEDNESDAY, '11:00'), failed: true }, wait(60)],
    ['a copy from the future (the clock set back)', grades, 'lessons', -60, {}, { fetch: true, why: 'age' }],
    ['the lucky number, settled until tomorrow 06:00: never by age', LUCKY_ROW, 'lessons', 60, { settledUntil: at(WEDNESDAY, '11:00') }, wait(60)],
    ['the lucky number, settled, whose refresh failed: not before it is due', LUCKY_ROW, 'lessons', 60, { settledUntil: at(WEDNESDAY, '11:00'), failed: true }, wait(60)],
    ['the lucky number, settled, past its time: the row\'s age', LUCKY_ROW, 'lessons', 60, { settledUntil: at(WEDNESDAY, '09:59') }, { fetch: true, why: 'age' }],
    ['the lucky number, settled, a refresh reads it', LUCKY_ROW, 'lessons', 1, { settledUntil: at(WEDNESDAY, '11:00'), refresh: true }, { fetch: true, why: 'refresh' }],
  ] as [string, PlanRow, Moment, number | undefined, Known, unknown][])('%s', (_what, row, moment, ago, known, expected) => {
    expect(decide(row, moment, ago, known)).toEqual(expected);
  });
});

describe('by when the scheduler reads a copy: once due, at most an eighth of its age later (readBy)', () => {
  const grades = GRADES_PLAN.grades;
  const now = at(WEDNESDAY, '10:00');
  const by = (row: PlanRow, moment: Moment, ago: number | undefined, known: Known = {}) =>
    (readBy(row, { now, moment, intervals }, { fetchedAt: ago === undefined ? undefined : now - ago * MIN, ...known }) - now) / MIN;
  it.each([
    ['grades, a lesson hour, read 3 minutes ago: due in 1 and read then, never later (news is never older than school_interval)', grades, 'lessons', 3, {}, 1],
    ['grades, after school, read 4 minutes ago: due in 16, read within 18.5', grades, 'afternoon', 4, {}, 18.5],
    ['grades, the night, read an hour ago: due in 60, read within 75', grades, 'night', 60, {}, 75],
    ['the unread counters, the evening, read a minute ago: exactly every fast_interval', UNREAD_ROW, 'evening', 1, {}, 2],
    ['the unread counters, the night: hourly, read within 67.5 minutes', UNREAD_ROW, 'night', 0, {}, 67.5],
    ['grades never read (the pass that just ended could not): after the row\'s age, not at once', grades, 'lessons', undefined, {}, 4],
    ['grades whose last read failed: looked at again after the row\'s age', grades, 'afternoon', 1, { failed: true }, 20],
    ['a refused module: when its refusal ends, not later', grades, 'lessons', undefined, { refusedUntil: at(WEDNESDAY, '11:00') }, 60],
    ['the lucky number, settled until 11:00: then, not later', LUCKY_ROW, 'lessons', 60, { settledUntil: at(WEDNESDAY, '11:00') }, 60],
    ['next week for the feeds at night: never by age', TIMETABLE_PLAN.feedWeek, 'night', 60, {}, Infinity],
    ['a test list, the class calendar failed (no signal): as news, at 4 exactly', AGENDA_PLAN.homeWorks, 'lessons', 0, { signal: 'none' }, 4],
    ['a test list the calendar vouches for: an hour, within 67.5 minutes', AGENDA_PLAN.homeWorks, 'lessons', 0, { signal: 'same' }, 67.5],
    ['a test list the calendar vouches for, at night: its own 2 hours, never the calendar\'s shorter hour', AGENDA_PLAN.homeWorks, 'night', 0, { signal: 'same' }, 135],
    ['a test list whose calendar ids changed, not read by the pass that just ended: after news\' age', AGENDA_PLAN.homeWorks, 'lessons', 1, { signal: 'changed' }, 4],
    ['a command needing it now, not read by the pass: after the row\'s age', REALIZATIONS_ROW, 'night', 1, { now: true }, 24 * 60 - 10],
  ] as [string, PlanRow, Moment, number | undefined, Known, number][])('%s', (_what, row, moment, ago, known, minutes) => {
    expect(by(row, moment, ago, known)).toBe(minutes);
  });
});

describe('the inbox and the other mailboxes (issue 47: the inbox list\'s age decided)', () => {
  it.each([
    ['the inbox, lessons, read 50 minutes ago, its counter the same', INBOX_LIST_ROW, 'lessons', 50, { signal: 'same' }, wait(10)],
    ['the inbox, lessons, read an hour ago, its counter the same', INBOX_LIST_ROW, 'lessons', 60, { signal: 'same' }, { fetch: true, why: 'age' }],
    ['the inbox, the evening, read 61 minutes ago', INBOX_LIST_ROW, 'evening', 61, { signal: 'same' }, { fetch: true, why: 'age' }],
    ['the inbox, the night, read 5 hours ago, its counter the same', INBOX_LIST_ROW, 'night', 300, { signal: 'same' }, wait(Infinity)],
    ['the inbox, the night, its counter moved', INBOX_LIST_ROW, 'night', 300, { signal: 'changed' }, { fetch: true, why: 'signal' }],
    ['another mailbox, a day old, its counter the same', MAILBOX_LIST_ROW, 'lessons', 24 * 60, { signal: 'same' }, wait(Infinity)],
    ['another mailbox, its counter moved', MAILBOX_LIST_ROW, 'night', 24 * 60, { signal: 'changed' }, { fetch: true, why: 'signal' }],
    ['a mailbox that answered 404, its refusal for 6 more hours', MAILBOX_LIST_ROW, 'lessons', undefined, { refusedUntil: at(WEDNESDAY, '16:00') }, wait(6 * 60)],
  ] as [string, PlanRow, Moment, number | undefined, Known, unknown][])('%s', (_what, row, moment, ago, known, expected) => {
    expect(decide(row, moment, ago, known)).toEqual(expected);
  });
});

describe("the child's identity, a row of its own", () => {
  it.each([
    ['read 23 hours ago', 23 * 60, false],
    ['read a day ago', 24 * 60, true],
    ['never read', undefined, true],
    ['read "in the future" (a clock that ran ahead)', -60, true],
  ] as [string, number | undefined, boolean][])('%s: read now %s', (_what, ago, fetch) => {
    expect(decide(IDENTITY_ROW, 'night', ago).fetch).toBe(fetch);
    expect(decide(IDENTITY_ROW, 'lessons', ago).fetch).toBe(fetch);
  });
});

