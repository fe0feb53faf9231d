// The portal's change feed (live-notes 28-32) as the resource it is read as: one small list of the
// records added, edited or deleted since the last acknowledgement, for a device registered per child.
import { ChangeFeed, CHANGES_MAX, type ChangeFeedRead } from '../../portal/change-feed.js';
import { ConnectionError, ChangeFeedDeviceLostError, ChangeFeedInvalidError, ChangeFeedRefusedError } from '../../portal/errors.js';
import { ownFailure, type Resource } from '../resource.js';
import { DAY, HOUR, NEWS } from './ages.js';
import { SCHOOL_HOURS } from '../moments.js';

/**
 * The change feed's one rule, what the planner applies (plan.ts): PushChanges is read at the news age in lessons
 * and in its hours, a school's (SCHOOL_HOURS: 07:00 to 21:00) on a school day, at `interval` otherwise by day, not at night; while it
 * watches (since its device's registration), a list it names is read for its age alone no more often than
 * its safety age, `feed safety` (8 hours by day: the morning's first pass and the afternoon's), within an
 * eighth more (9 hours) as any age in hours. The change feed is a signal, not the truth (changes can go missing,
 * live-notes 32): this slow read is how one that went missing still arrives; one lost in the evening comes
 * the next morning. A configured interval gives way to it; a longer age (a daily lookup) stays.
 */
export const CHANGE_FEED_HOURS = `${SCHOOL_HOURS.from}-${SCHOOL_HOURS.to}`;
export const CHANGE_FEED_SAFETY = 8 * HOUR;
/**
 * A lookup while the change feed watches: a record the change feed names comes within minutes, and an id in it
 * the lookup lacks reads the lookup at once (`missing`), so the morning's read of each lookup tells nothing new
 * but a renamed teacher, subject or category, which keeps its id and which the change feed never names: that is
 * read weekly.
 */
export const CHANGE_FEED_LOOKUP = 7 * DAY;

const CHANGE_FEED_FAILURES = [ConnectionError, ChangeFeedDeviceLostError, ChangeFeedInvalidError, ChangeFeedRefusedError];

/** The changes listed for the device (the key): a failure of the change feed is the change feed's, never the register's. */
export const CHANGES: Resource<ChangeFeedRead> = {
  name: 'PushChanges',
  host: 'register',
  endpoints: ['PushChanges'],
  fresh: NEWS,
  hours: CHANGE_FEED_HOURS,
  whenAsked: 'read',
  leads: true,
  note: "the portal's change feed: read while a device is registered for the child; a change named reads its lists at once",
  async read({ gateway, cut }, device) {
    try {
      const told = (at: string, listed: number) => cut?.('PushChanges', at, listed, CHANGES_MAX);
      return await new ChangeFeed({ gateway, account: 'feed' }).changes(device ?? '', told);
    } catch (error) {
      // The portal down, the device forgotten, the change feed refused: the lists are read at their own ages
      // until it answers again (ChildChangeFeed judges the cause); a dead session stays the account's.
      if (!(error instanceof Error) || !CHANGE_FEED_FAILURES.some((kind) => error instanceof kind)) throw error;
      throw ownFailure(error, 'change feed', { resource: 'PushChanges' });
    }
  },
};
