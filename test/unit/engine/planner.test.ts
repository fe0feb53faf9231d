// The planner as a table: for Ania's Wednesday (lessons 08:00-13:30, poll.interval 20 minutes,
// school_interval 5), what each copy is read for (`at`, `by`, `why`) and when the child's timer fires
// (`wake`). Each row is a rule of docs/polling.md ("When the timer fires") a reader can check.
import { describe, expect, it } from 'vitest';
import { plan, whyOf, type Day, type Wanted, type Watch } from '../../../src/engine/plan.js';
import { CHANGES } from '../../../src/engine/resources/change-feed.js';
import { GRADES } from '../../../src/engine/resources/grades.js';
import { IDENTITY } from '../../../src/engine/resources/identity.js';
import { LIBRARY } from '../../../src/features/library/resources.js';
import { GRADE_COMMENTS } from '../../../src/engine/resources/grades.js';
import { LUCKY } from '../../../src/features/lucky/resources.js';
import type { Known } from '../../../src/engine/schedule.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const WEDNESDAY = '2026-11-18';
const at = (hhmm: string, date = WEDNESDAY): number => Date.parse(`${date}T${hhmm}:00+01:00`);
const lessons = { date: WEDNESDAY, start: `${WEDNESDAY}T08:00:00+01:00`, end: `${WEDNESDAY}T13:30:00+01:00` };
const policy = { intervalMs: 20 * MIN, fastIntervalMs: 3 * MIN, schoolIntervalMs: 5 * MIN };
const grades: Wanted = { row: 'Grades', host: 'register', schedule: GRADES, fed: true };
const library: Wanted = { row: 'LibraryItems', host: 'register', schedule: LIBRARY };
const identity: Wanted = { row: 'Me', host: 'register', schedule: IDENTITY };
const comments: Wanted = { row: 'Grades/Comments', host: 'register', schedule: GRADE_COMMENTS };
const changeFeed: Wanted = { row: 'PushChanges', host: 'register', schedule: CHANGES };
const lucky: Wanted = { row: 'LuckyNumbers', host: 'register', schedule: LUCKY, fed: true };
const DAY = 24 * HOUR;
/** The change feed watching since 07:00, as it does (src/engine/resources/change-feed.ts). */
const WATCH: Watch = { since: at('07:00'), safetyMs: 8 * HOUR, lookupMs: 7 * DAY };
/** The same, watching since Monday. */
const SINCE_MONDAY: Watch = { ...WATCH, since: at('07:00', '2026-11-16') };

interface Case {
  now: number;
  wants: Wanted[];
  known: Record<string, Known>;
  watch?: Watch;
  day?: Partial<Day>;
}

function planned({ now, wants, known, watch, day = {} }: Case) {
  const answer = plan(wants, new Map(Object.entries(known)), watch, { lessons, policy, ...day }, now);
  const rows = Object.fromEntries(answer.rows.map((r) => [r.row, { at: r.at - now, by: r.by - now, why: whyOf(r) }]));
  return { rows, wake: answer.wake - now };
}

describe('the planner: each copy, and the wake', () => {
  it.each<[string, Case, { rows: Record<string, { at: number; by: number; why: string }>; wake: number }]>([
    [
      'grades in a lesson, read 2 minutes ago: at the news age, no slack; the wake is then',
      { now: at('09:10'), wants: [grades], known: { Grades: { readAt: at('09:08') } } },
      { rows: { Grades: { at: 3 * MIN, by: 3 * MIN, why: 'age: lessons 5 min' } }, wake: 3 * MIN },
    ],
    [
      'grades the change feed vouches for (read since its registration): its safety age of 8 hours, an eighth more by; the wake: six intervals at most',
      { now: at('09:10'), wants: [grades], known: { Grades: { readAt: at('09:08') } }, watch: WATCH },
      { rows: { Grades: { at: 8 * HOUR - 2 * MIN, by: 8 * HOUR - 2 * MIN + HOUR, why: 'age: feed safety 8 h' } }, wake: 6 * 20 * MIN },
    ],
    [
      'grades read before the change feed watched keep their own age',
      { now: at('09:10'), wants: [grades], known: { Grades: { readAt: at('06:50') } }, watch: WATCH },
      { rows: { Grades: { at: 0, by: 0, why: 'age: lessons 5 min' } }, wake: MIN },
    ],
    [
      'a copy due now that the pass did not read: the wake waits a minute, not a loop',
      { now: at('09:10'), wants: [grades], known: { Grades: { readAt: at('09:00') } } },
      { rows: { Grades: { at: 0, by: 0, why: 'age: lessons 5 min' } }, wake: MIN },
    ],
    [
      'the register backing off until 09:17: grades due now are read from then, and nothing wakes the child before',
      { now: at('09:10'), wants: [grades], known: { Grades: { readAt: at('09:00') } }, day: { retryAt: new Map([['register', at('09:17')]]) } },
      { rows: { Grades: { at: 7 * MIN, by: 7 * MIN, why: 'age: lessons 5 min' } }, wake: 7 * MIN },
    ],
    [
      'a slow list after school: its slack (an eighth of 12 hours) lets it ride with a pass; the wake: six intervals at most',
      { now: at('15:00'), wants: [library], known: { LibraryItems: { readAt: at('07:00') } } },
      { rows: { LibraryItems: { at: 4 * HOUR, by: 4 * HOUR + 90 * MIN, why: 'age: day 12 h' } }, wake: 2 * HOUR },
    ],
    [
      'the same list read at 18:00: at 06:00 the next morning (12 hours), by 07:30; the wake: six intervals at most',
      { now: at('18:30'), wants: [library], known: { LibraryItems: { readAt: at('18:00') } } },
      { rows: { LibraryItems: { at: 11.5 * HOUR, by: 13 * HOUR, why: 'age: day 12 h' } }, wake: 2 * HOUR },
    ],
    [
      'a list falling due at 22:00 (read at 10:00, a day age of 12 hours) is moved by the night to 06:00, and its why says so',
      { now: at('21:00'), wants: [library], known: { LibraryItems: { readAt: at('10:00') } } },
      { rows: { LibraryItems: { at: 9 * HOUR, by: 9 * HOUR, why: 'age: day 12 h; night: at 06:00' } }, wake: HOUR },
    ],
    [
      'the night: grades have no age then (the morning reads them by its own), the identity of a new day waits for 06:00',
      { now: at('23:00'), wants: [grades, identity], known: { Grades: { readAt: at('21:30') }, Me: { readAt: at('06:05') } } },
      {
        rows: {
          Grades: { at: Infinity, by: Infinity, why: 'age: night never' },
          Me: { at: 7 * HOUR, by: 7 * HOUR, why: 'new day' },
        },
        wake: 2 * HOUR,
      },
    ],
    [
      "a new grade names a comment the lookup (read 2 minutes ago) lacks: read now, in the pass, before the grade's event fires",
      { now: at('09:10'), wants: [comments], known: { 'Grades/Comments': { readAt: at('09:08'), missing: 'new' } } },
      { rows: { 'Grades/Comments': { at: 0, by: 0, why: 'missing' } }, wake: MIN },
    ],
    [
      "a lookup the change feed watches, read yesterday morning: not read this morning (a record naming an id it lacks reads it); a renamed teacher's look a week on",
      { now: at('09:10'), wants: [comments], known: { 'Grades/Comments': { readAt: at('06:00', '2026-11-17') } }, watch: SINCE_MONDAY },
      {
        rows: {
          'Grades/Comments': {
            at: 7 * DAY - 27 * HOUR - 10 * MIN,
            by: 7 * DAY - 27 * HOUR - 10 * MIN + 21 * HOUR,
            why: 'age: change feed lookup 7 d',
          },
        },
        wake: 6 * 20 * MIN,
      },
    ],
    [
      'the same lookup without the change feed: its daily age, read now',
      { now: at('09:10'), wants: [comments], known: { 'Grades/Comments': { readAt: at('06:00', '2026-11-17') } } },
      { rows: { 'Grades/Comments': { at: 0, by: 0, why: 'age: lessons 1 d' } }, wake: MIN },
    ],
    [
      'a lookup the change feed watches that lacks an id a new record names: read now, in the pass',
      {
        now: at('09:10'),
        wants: [comments],
        known: { 'Grades/Comments': { readAt: at('06:00', '2026-11-17'), missing: 'new' } },
        watch: SINCE_MONDAY,
      },
      { rows: { 'Grades/Comments': { at: 0, by: 0, why: 'missing' } }, wake: MIN },
    ],
    [
      "the lucky number the change feed watches, today's known (settled until 11:00, its hourly look for the next): not read again today; the change feed names the next draw, the morning reads the new day's",
      { now: at('10:00'), wants: [lucky], known: { LuckyNumbers: { readAt: at('10:00'), settledUntil: at('11:00') } }, watch: WATCH },
      { rows: { LuckyNumbers: { at: 20 * HOUR, by: 20 * HOUR, why: 'settled' } }, wake: 2 * HOUR },
    ],
    [
      "the lucky number the change feed watches, the next school day's known at 15:00 (settled until its day's 06:00): not read that morning either",
      {
        now: at('06:00', '2026-11-19'),
        wants: [lucky],
        known: { LuckyNumbers: { readAt: at('15:00'), settledUntil: at('06:00', '2026-11-19') } },
        watch: WATCH,
      },
      { rows: { LuckyNumbers: { at: DAY, by: DAY, why: 'settled' } }, wake: 2 * HOUR },
    ],
    [
      'the lucky number the change feed watches, once the morning after has come: read (its safety age long passed)',
      { now: at('06:00', '2026-11-19'), wants: [lucky], known: { LuckyNumbers: { readAt: at('10:00'), settledUntil: at('11:00') } }, watch: WATCH },
      { rows: { LuckyNumbers: { at: 0, by: 0, why: 'age: feed safety 8 h' } }, wake: MIN },
    ],
    [
      "the lucky number the change feed watches at a school without it, read at the morning's pass (settled a little under a day): asked the next morning",
      {
        now: at('06:00'),
        wants: [lucky],
        known: { LuckyNumbers: { readAt: at('06:00'), settledUntil: at('05:50', '2026-11-19') } },
        watch: SINCE_MONDAY,
      },
      { rows: { LuckyNumbers: { at: DAY, by: DAY, why: 'settled' } }, wake: 2 * HOUR },
    ],
    [
      'the lucky number without the change feed, settled until 11:00: its hourly look then',
      { now: at('10:00'), wants: [{ ...lucky, fed: false }], known: { LuckyNumbers: { readAt: at('10:00'), settledUntil: at('11:00') } } },
      { rows: { LuckyNumbers: { at: HOUR, by: HOUR, why: 'settled' } }, wake: HOUR },
    ],
    [
      'an id still missing after the read made for it: asked for again once the copy is 10 minutes old, not before',
      { now: at('09:10'), wants: [comments], known: { 'Grades/Comments': { readAt: at('09:08'), missing: 'asked' } } },
      { rows: { 'Grades/Comments': { at: 8 * MIN, by: 8 * MIN, why: 'missing' } }, wake: 8 * MIN },
    ],
    [
      'a refresh reads grades now, at night too; a want named twice is one row',
      { now: at('23:00'), wants: [grades, grades], known: { Grades: { readAt: at('22:50') } }, day: { pass: { asked: true } } },
      { rows: { Grades: { at: 0, by: 0, why: 'asked' } }, wake: MIN },
    ],
    [
      "the change feed before its hours (a school day's 07:00 to 21:00): at `interval`, and the wake at 07:00, when its age becomes school_interval",
      { now: at('06:50'), wants: [changeFeed], known: { PushChanges: { readAt: at('06:45') } } },
      { rows: { PushChanges: { at: 20 * MIN - 5 * MIN, by: 20 * MIN - 5 * MIN + 150_000, why: 'age: day 20 min' } }, wake: 10 * MIN },
    ],
    [
      'the change feed in its hours, outside lessons: at school_interval, no slack',
      { now: at('16:00'), wants: [changeFeed], known: { PushChanges: { readAt: at('15:58') } } },
      { rows: { PushChanges: { at: 3 * MIN, by: 3 * MIN, why: 'age: 07:00-21:00 5 min' } }, wake: 3 * MIN },
    ],
    [
      "the change feed on a Saturday at noon: at `interval`, its hours are a school day's",
      { now: at('12:00', '2026-11-21'), wants: [changeFeed], known: { PushChanges: { readAt: at('11:58', '2026-11-21') } } },
      { rows: { PushChanges: { at: 18 * MIN, by: 18 * MIN + 150_000, why: 'age: day 20 min' } }, wake: 18 * MIN + 150_000 },
    ],
  ])('%s', (_what, input, expected) => {
    expect(planned(input)).toEqual(expected);
  });
});
