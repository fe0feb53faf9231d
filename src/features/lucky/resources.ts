// The portal resource only the lucky feature reads: the lucky number.
import { luckyNumberResponse } from '../../portal/schemas/identity.js';
import { registerResource } from '../../engine/resource.js';
import { byDay, DAILY } from '../../engine/resources/ages.js';
import { warsawDate } from '../../util/time.js';
import { luckySettledUntil, pickLucky } from './rules.js';

/** Asked only until today's or the next school day's number is known (its own rule, rules.ts; with the change feed, engine/plan.ts). */
export const LUCKY = registerResource({
  endpoint: 'LuckyNumbers',
  schema: luckyNumberResponse,
  fresh: byDay('fast'),
  // A school may start the lucky number any morning: a person's refresh asks, refused or not.
  whenAsked: 'read refused',
  refusedForMs: DAILY,
  settled: (read, now) => luckySettledUntil(pickLucky(read.entries, warsawDate(now)), now, read.inUse),
  changeFeed: true,
  // The school's number, not the child's: one child's read is its school's other children's too.
  school: true,
  note: "only until today's or the next school day's number is known, then hourly between 06:00 and 21:00 (with the change feed: when it names a new draw, and the morning after); hourly while the one shown is over a week old (the summer); one child's read is every child's of its school",
});
