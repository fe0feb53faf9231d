// The calendar feeds feature: no request and no entity of its own. After the timetable,
// the agenda and the grades (the year's term grades, their one list) have read, it turns their outputs into the content of the child's three
// calendar feeds (interface 6.5), which the account runner publishes and the web server renders (src/outputs/web/calendar-feeds.ts).
// What the calendar feeds last held is kept in data_dir: a restart serves it until a read replaces it, and the
// days a pass did not read (next week, in a start's first pass) keep their lessons. A child whose account has
// no agenda (a kindergarten child's) has no agenda calendar feed: not served, linked or made in Home Assistant (17.3).
import {
  CALENDAR_FEED_NAMES,
  CALENDAR_FEED_PARTS,
  calendarFeedEntries,
  keepUncovered,
  sortedEntries,
  type CalendarFeedContents,
  type CalendarFeedName,
} from '../../rules/calendar-feeds.js';
import { KeptCalendarFeeds } from './kept-calendar-feeds.js';
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
 * Whether a child's device declares the agenda (its tests or its homework): what its agenda calendar feed and its
 * homework list in Home Assistant stand on. A kindergarten child's account has neither list (live-notes 58).
 */
export function declaresAgenda(entities: readonly Pick<EntityDef, 'key'>[]): boolean {
  return entities.some((e) => e.key === homeworkUpcomingEntity.key || e.key === upcomingTestsEntity.key);
}

/** The calendar feeds a child has: each of them, the agenda's only where its device declares the agenda. */
export function offeredCalendarFeeds(agenda: boolean): CalendarFeedName[] {
  return CALENDAR_FEED_NAMES.filter((name) => agenda || name !== 'agenda');
}

type CalendarFeedsAccess = Pick<FeatureAccess, 'identity' | 'childId'> & Partial<Pick<FeatureAccess, 'dataDir' | 'account' | 'log'>>;

/** Makes every calendar feed again from its inputs at each pass; keeps the last ones for the next start. */
export class CalendarFeedsState implements Source, FeatureState {
  private readonly store: KeptCalendarFeeds | undefined;
  private last: CalendarFeedContents | undefined;

  constructor(private readonly access: CalendarFeedsAccess) {
    this.store =
      access.dataDir === undefined || access.account === undefined ? undefined : new KeptCalendarFeeds(access.dataDir, access.account.login);
  }

  async prepare(): Promise<void> {
    this.last = await this.store?.load((error) =>
      this.access.log?.warn({ err: error.message }, 'the kept calendar feeds could not be read back; they fill at the first read'),
    );
  }

  /** The calendar feeds the last run served (published before the first read), undefined on a first start. */
  restoredCalendarFeeds(): CalendarFeedContents | undefined {
    return this.last;
  }

  compute(ctx: SourceContext): Promise<SourceResult> {
    const timetable = ctx.inputs.timetable;
    const agenda = ctx.inputs.agenda;
    // Before the timetable's first good pass there is nothing new to show; an empty calendar feed would wrongly
    // tell a calendar that every lesson is gone (the kept calendar feeds stand meanwhile).
    if (timetable === undefined) return Promise.resolve({});
    const entries = calendarFeedEntries({
      child: this.access.childId(),
      days: timetable.fortnight,
      agenda: agenda?.items ?? [],
      homework: agenda?.homework ?? [],
      terms: ctx.inputs.grades?.terms ?? [],
      free: timetable.freeDays,
      slot: slotFacts,
    });
    // Before the grades' first computation of this run (a start leaves them for later) the term grades the calendar feed had stay.
    const kept = ctx.inputs.grades?.terms === undefined ? (this.last?.agenda?.entries ?? []).filter((e) => e.kind === 'term_grade') : [];
    // The login's id before the identity is known.
    const child = this.access.identity()?.firstName || this.access.childId();
    const calendarFeeds: CalendarFeedContents = {
      lessons: {
        child,
        entries: keepUncovered(entries[CALENDAR_FEED_PARTS.lessons], this.last?.lessons?.entries, timetable.fortnight, timetable.extraUnread),
      },
      agenda: {
        child,
        entries: kept.length === 0 ? entries[CALENDAR_FEED_PARTS.agenda] : sortedEntries([...entries[CALENDAR_FEED_PARTS.agenda], ...kept]),
      },
      'free-days': { child, entries: entries[CALENDAR_FEED_PARTS['free-days']] },
    };
    this.last = calendarFeeds;
    void this.store
      ?.save(calendarFeeds)
      .catch((error: Error) => this.access.log?.warn({ err: error.message }, 'could not keep the calendar feeds for the next start'));
    return Promise.resolve({ calendarFeeds });
  }
}
