// The portal's change feed (live-notes 28-32) as the resource it is read as: one small list of the
// records added, edited or deleted since the last acknowledgement, for a device registered per child.
// Read at the news age from 07:00 to 21:00 on school days, at `interval` otherwise by day, not at night.
import { ChangeFeed, type FeedRead } from '../portal/change-feed.js';
import { ConnectionError, FeedDeviceLostError, FeedInvalidError, FeedRefusedError } from '../portal/errors.js';
import type { Freshness } from '../feature-kit/schedule.js';
import { ownFailure, type Resource } from '../feature-kit/resource.js';
import { byDay, HOUR } from './ages.js';

const FEED_AGES: Freshness = { ...byDay('normal'), lessons: 'news', morning: 'news', afternoon: 'news', evening: 'news' };

/**
 * With the feed on, a list of the register it names is read for its age alone no more often than this:
 * the feed is a signal, not the truth (changes can go missing, live-notes 32), and this slow read is
 * how one that went missing still arrives. Eight hours by day (the night reads nothing for its age
 * alone): the morning's first pass and the afternoon; a change the feed lost in the evening comes the
 * next morning.
 */
export const FEED_SAFETY = 8 * HOUR;

const FEED_FAILURES = [ConnectionError, FeedDeviceLostError, FeedInvalidError, FeedRefusedError];

/** The changes listed for the device (the key): a failure of the feed is the feed's, never the register's. */
export const CHANGES: Resource<FeedRead> = {
  name: 'PushChanges',
  host: 'register',
  endpoints: ['PushChanges'],
  fresh: FEED_AGES,
  whenAsked: 'read',
  leads: true,
  note: "the portal's change feed: read while a device is registered for the child; a change named reads its lists at once",
  async read({ gateway }, device) {
    try {
      return await new ChangeFeed({ gateway, account: 'feed' }).changes(device ?? '');
    } catch (error) {
      // The portal down, the device forgotten, the feed refused: the lists are read at their own ages
      // until it answers again (ChildFeed judges the cause); a dead session stays the account's.
      if (!(error instanceof Error) || !FEED_FAILURES.some((kind) => error instanceof kind)) throw error;
      throw ownFailure(error, 'change feed', { resource: 'PushChanges' });
    }
  },
};
