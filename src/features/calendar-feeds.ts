// The calendar feeds feature, normal tier: no request and no entity of its own. After the timetable
// and the agenda have polled, it turns their outputs into the content of the child's three calendar
// feeds (interface 6.5), which the account runner publishes and the web server renders (src/web/feeds.ts).
import { FEED_PARTS, feedEntries, type FeedContents } from '../school/calendar-feeds.js';
import type { Source, SourceContext, SourceResult } from '../feature-kit/source.js';
import { feature, type FeatureAccess } from './feature.js';

export const calendarFeeds = feature({
  name: 'calendar_feeds',
  tier: 'normal',
  inputs: ['timetable', 'agenda'],
  entities: [],
  create: (access) => new CalendarFeedsState(access),
});

/** Keeps nothing between polls: each poll makes every feed again from its inputs. */
export class CalendarFeedsState implements Source {
  constructor(private readonly access: Pick<FeatureAccess, 'identity' | 'childId'>) {}

  poll(ctx: SourceContext): Promise<SourceResult> {
    const timetable = ctx.inputs.timetable;
    const agenda = ctx.inputs.agenda;
    // Before the timetable's first good poll there is nothing to show; an empty feed would wrongly
    // tell a calendar that every lesson is gone.
    if (timetable === undefined) return Promise.resolve({ states: {} });
    const entries = feedEntries({
      child: this.access.childId(),
      days: timetable.fortnight,
      agenda: agenda?.items ?? [],
      homework: agenda?.homework ?? [],
      free: timetable.freeDays,
    });
    // The login's id before the identity is known.
    const child = this.access.identity()?.firstName || this.access.childId();
    const feeds: FeedContents = {
      lessons: { child, entries: entries[FEED_PARTS.lessons] },
      agenda: { child, entries: entries[FEED_PARTS.agenda] },
      'free-days': { child, entries: entries[FEED_PARTS['free-days']] },
    };
    return Promise.resolve({ states: {}, feeds });
  }
}
