// The ages the declarations give their copies, by kind of moment (plan.ts). At night (22:00 to 06:00)
// nothing is read on its own, not even the unread counters (each read then would need a new messaging
// session, three requests): plan.ts's next moves whatever falls due then to 06:00, so the morning's
// first pass reads it (a family asleep reads nothing, and the night paid for a day of news in lessons).
import type { Age, Freshness } from '../schedule.js';
import { DAILY, DAY, HOUR, MINUTE } from '../../util/duration.js';

/** The units and the daily look the declarations also write their ages in (defined in util/duration.ts). */
export { DAILY, DAY, HOUR, MINUTE };

/** An age in lessons and the rest of the day; none at night (see above). */
export function byDay(age: Age): Freshness {
  return { lessons: age, day: age, night: Infinity };
}

/** What a family must hear of within minutes while lessons are on: `news` then, `normal` the rest of the day. */
export const NEWS: Freshness = { ...byDay('normal'), lessons: 'news' };
/** What changes while teachers work but is not news (attendance marks): `normal` by day. */
export const CORE: Freshness = byDay('normal');
/**
 * What a family reads as it comes (the unread counters): `fast` from 06:00 to 22:00 (evenings are when
 * teachers write), nothing at night: a message of the night is there with the morning's first pass.
 */
export const AWAKE: Freshness = byDay('fast');
/**
 * An hour: read once that old and within its eighth more (67.5 minutes), it falls on every third read
 * of what `interval` reads (20 minutes, 22.5 at most), so it needs no wake of its own.
 */
export const BY_THE_HOUR: Freshness = byDay(HOUR);
/** Lists that change a few times a term (meetings, a kindergarten's plan). */
export const RARE = 3 * HOUR - 5 * MINUTE;
/** What changes a few times a week or less (trips, a lending, the school's files) or only by a parent (justifications): morning and evening. */
export const SLOW = 12 * HOUR;
/** An optional list that was empty last time (a kind of grade the school does not use). */
export const WHILE_EMPTY = 6 * HOUR - 5 * MINUTE;
/** A lookup that lacks an id a record names is read again, but not more often than this. */
export const ON_MISS = 10 * MINUTE;
