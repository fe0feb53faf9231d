// The calendar feeds of interface 6.5: the route answering `/calendar/<child>/<name>.ics` from what
// the bridge holds, and the feed of one child (the App's WebData.feed) rendered from its entries.
import type { CalendarFeedsState } from '../features/calendar-feeds.js';
import type { Language } from '../config/language.js';
import { feedText } from './feed-ics.js';
import { FEED_NAMES, type FeedName } from '../school/calendar-feeds.js';
import type { FeedSource, Route, WebData, WebResponse } from './types.js';

const notFound: WebResponse = { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not found\n' };

/** The feed a file name stands for (`lessons.ics` -> lessons); undefined for any other name. */
function feedName(file: string): FeedName | undefined {
  return FEED_NAMES.find((name) => `${name}.ics` === file);
}

/** GET/HEAD `/calendar/<child>/<name>.ics`: the feed as the bridge holds it now; 404 for an unknown child or feed. */
export function feedRoutes(data: WebData): Route[] {
  const calendar: Route = (req) => {
    if (req.segments[0] !== 'calendar') return undefined;
    const [, child, file] = req.segments;
    const name = file === undefined ? undefined : feedName(file);
    if (req.segments.length !== 3 || child === undefined || name === undefined) return notFound;
    const feed = data.feed(child, name);
    if (feed === undefined) return notFound;
    return { status: 200, headers: { 'content-type': 'text/calendar; charset=utf-8' }, body: feed.body, modifiedAt: feed.modifiedAt };
  };
  return [calendar];
}

/**
 * One feed of the child whose feeds these are, rendered in `language` and kept until its entries
 * change; undefined when the account does not run the feeds (no state). Before the first poll it is an empty
 * calendar (a subscribed phone keeps asking and gets the lessons once they are known).
 */
export function calendarFeed(state: CalendarFeedsState | undefined, name: FeedName, language: Language): FeedSource | undefined {
  if (state === undefined) return undefined;
  const content = state.content(name);
  const entries = { lessons: [], agenda: [], freeDays: [], ...(content ? { [partOf(name)]: content.entries } : {}) };
  const changedAt = content?.changedAt ?? 0;
  const render = (): string => feedText({ name, child: state.childName(), entries, changedAt, language });
  const body = state.rendering(name, language, render) ?? render();
  return { body, modifiedAt: changedAt };
}

function partOf(name: FeedName): 'lessons' | 'agenda' | 'freeDays' {
  return name === 'free-days' ? 'freeDays' : name;
}
