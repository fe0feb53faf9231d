// The calendar feeds feature, normal tier: no request and no entity of its own. After the timetable
// and the agenda have polled, it turns their outputs into the entries of the child's three calendar
// feeds (interface 6.5), which the web server renders (src/web/feeds.ts).
import { feedEntries, type FeedEntries } from '../school/calendar-feeds.js';
import type { FeedName } from '../school/calendar-feeds.js';
import type { Source, SourceContext, SourceResult } from '../feature-kit/source.js';
import { feature, type FeatureAccess } from './feature.js';

export const calendarFeeds = feature({
  name: 'calendar_feeds',
  tier: 'normal',
  inputs: ['timetable', 'agenda'],
  entities: [],
  create: (access) => new CalendarFeedsState(access),
});

/** Which part of the entries each feed shows. */
const PARTS = { lessons: 'lessons', agenda: 'agenda', 'free-days': 'freeDays' } as const satisfies Record<FeedName, keyof FeedEntries>;

/** One feed's entries and when they last changed (ms): the feed's Last-Modified. */
export interface FeedContent<K extends FeedName = FeedName> {
  entries: FeedEntries[(typeof PARTS)[K]];
  changedAt: number;
}

export class CalendarFeedsState implements Source {
  private readonly contents = new Map<FeedName, { content: FeedContent; text: string }>();
  /** Rendered texts by feed and language, kept until the feed's content changes. */
  private readonly rendered = new Map<string, { changedAt: number; body: string }>();

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
    for (const name of Object.keys(PARTS) as FeedName[]) this.update(name, entries[PARTS[name]], ctx.now);
    return Promise.resolve({ states: {} });
  }

  /** A feed's entries as last computed; undefined before the first poll. */
  content<K extends FeedName>(name: K): FeedContent<K> | undefined {
    return this.contents.get(name)?.content as FeedContent<K> | undefined;
  }

  /** The child's first name for the calendars' names (the login before the identity is known). */
  childName(): string {
    return this.access.identity()?.firstName || this.access.childId();
  }

  /**
   * A feed's text in one language, made by `render` only when the content changed since the last
   * call (a calendar app asks every few minutes; the content changes a few times a day).
   */
  rendering(name: FeedName, language: string, render: () => string): string | undefined {
    const content = this.content(name);
    if (content === undefined) return undefined;
    const key = `${name}|${language}`;
    const kept = this.rendered.get(key);
    if (kept?.changedAt === content.changedAt) return kept.body;
    const body = render();
    this.rendered.set(key, { changedAt: content.changedAt, body });
    return body;
  }

  /** Keeps the entries, moving changedAt only when they differ from the last ones. */
  private update(name: FeedName, entries: FeedContent['entries'], now: number): void {
    const text = JSON.stringify(entries);
    if (this.contents.get(name)?.text === text) return;
    this.contents.set(name, { content: { entries, changedAt: now }, text });
  }
}
