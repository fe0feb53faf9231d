// The calendar feeds feature: no request and no entity of its own. After the timetable,
// the agenda and the grades (the year's term grades, their one list) have polled, it turns their outputs into the content of the child's three calendar
// feeds (interface 6.5), which the account runner publishes and the web server renders (src/outputs/web/calendar-feeds.ts).
// What the feeds last held is kept in data_dir: a restart serves it until a read replaces it, and the
// days a pass did not read (next week, in a start's first pass) keep their lessons. A child whose account has
// no agenda (a kindergarten child's) has no agenda feed: not served, linked or made in Home Assistant (17.3).
import { FEED_NAMES, FEED_PARTS, feedEntries, keepUncovered, sortedEntries, type FeedContents, type FeedName } from '../../rules/calendar-feeds.js';
import { KeptFeeds } from './kept-feeds.js';
import { slotFacts } from '../timetable/day.js';
import { homeworkUpcomingEntity, upcomingTestsEntity } from '../agenda/entities.js';
import type { EntityDef } from '../kit/entities.js';
import type { Source, SourceContext, SourceResult } from '../../engine/source.js';
import { feature, type FeatureAccess, type FeatureState } from '../feature.js';

export const calendarFeeds = feature({
  name: 'calendar_feeds',
  inputs: ['timetable', 'agenda', 'grades'],
  entities: [],
  create: (access) => new CalendarFeedsState(access),
});

/**
 * Whether a child's device declares the agenda (its tests or its homework): what its agenda feed and its homework
 * list in Home Assistant stand on. A kindergarten child's account has neither list (live-notes 58).
 */
export function declaresAgenda(entities: readonly Pick<EntityDef, 'key'>[]): boolean {
  return entities.some((e) => e.key === homeworkUpcomingEntity.key || e.key === upcomingTestsEntity.key);
}

/** The calendar feeds a child has: each of them, the agenda's only where its device declares the agenda. */
export function offeredCalendarFeeds(agenda: boolean): FeedName[] {
  return FEED_NAMES.filter((name) => agenda || name !== 'agenda');
}

type FeedsAccess = Pick<FeatureAccess, 'identity' | 'childId'> & Partial<Pick<FeatureAccess, 'dataDir' | 'account' | 'log'>>;

/** Makes every feed again from its inputs at each poll; keeps the last ones for the next start. */
export class CalendarFeedsState implements Source, FeatureState {
  private readonly store: KeptFeeds | undefined;
  private last: FeedContents | undefined;

  constructor(private readonly access: FeedsAccess) {
    this.store = access.dataDir === undefined || access.account === undefined ? undefined : new KeptFeeds(access.dataDir, access.account.login);
  }

  async prepare(): Promise<void> {
    this.last = await this.store?.load((error) =>
      this.access.log?.warn({ err: error.message }, 'the kept calendar feeds could not be read back; they fill at the first read'),
    );
  }

  /** The feeds the last run served (published before the first read), undefined on a first start. */
  restoredFeeds(): FeedContents | undefined {
    return this.last;
  }

  poll(ctx: SourceContext): Promise<SourceResult> {
    const timetable = ctx.inputs.timetable;
    const agenda = ctx.inputs.agenda;
    // Before the timetable's first good poll there is nothing new to show; an empty feed would wrongly
    // tell a calendar that every lesson is gone (the kept feeds stand meanwhile).
    if (timetable === undefined) return Promise.resolve({});
    const entries = feedEntries({
      child: this.access.childId(),
      days: timetable.fortnight,
      agenda: agenda?.items ?? [],
      homework: agenda?.homework ?? [],
      terms: ctx.inputs.grades?.terms ?? [],
      free: timetable.freeDays,
      slot: slotFacts,
    });
    // Before the grades' first computation of this run (a start leaves them for later) the term grades the feed had stay.
    const kept = ctx.inputs.grades?.terms === undefined ? (this.last?.agenda?.entries ?? []).filter((e) => e.kind === 'term_grade') : [];
    // The login's id before the identity is known.
    const child = this.access.identity()?.firstName || this.access.childId();
    const feeds: FeedContents = {
      lessons: {
        child,
        entries: keepUncovered(entries[FEED_PARTS.lessons], this.last?.lessons?.entries, timetable.fortnight, timetable.extraUnread),
      },
      agenda: { child, entries: kept.length === 0 ? entries[FEED_PARTS.agenda] : sortedEntries([...entries[FEED_PARTS.agenda], ...kept]) },
      'free-days': { child, entries: entries[FEED_PARTS['free-days']] },
    };
    this.last = feeds;
    void this.store
      ?.save(feeds)
      .catch((error: Error) => this.access.log?.warn({ err: error.message }, 'could not keep the calendar feeds for the next start'));
    return Promise.resolve({ feeds });
  }
}
