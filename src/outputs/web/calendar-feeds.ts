// The calendar feeds of interface 6.5: the route answering `/calendar/<child>/<name>.ics` from what
// the bridge holds, and a calendar feed's text rendered from the content the web server's memory kept.
import type { Language } from '../../config/language.js';
import { calendarFeedText, type CalendarFeedDocument } from './calendar-ics.js';
import { CALENDAR_FEED_PARTS, type CalendarFeedContent, type CalendarFeedEntries, type CalendarFeedName } from '../../rules/calendar-feeds.js';
import { calendarFeedOf } from './request.js';
import type { CalendarFeedSource, Route, WebData, WebResponse } from './types.js';

const notFound: WebResponse = { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not found\n' };

const notYet: WebResponse = {
  status: 503,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '60' },
  body: 'The calendar is not read yet; ask again in a minute.\n',
};

/**
 * GET/HEAD `/calendar/<child>/<name>.ics`: the calendar feed as the bridge holds it now (what the last run served,
 * after a restart, until a read replaces it); 503 with Retry-After before anything is known; 404 for an
 * unknown child or calendar feed.
 */
export function calendarFeedRoute(data: WebData): Route {
  return (req) => {
    if (req.segments[0] !== 'calendar') return undefined;
    const named = calendarFeedOf(req.segments);
    if (named === undefined) return notFound;
    const calendarFeed = data.calendarFeedSource(named.child, named.name);
    if (calendarFeed === undefined) return notFound;
    // Known, but nothing read yet (a first start): a calendar app asks again, it never gets an empty calendar to wipe the days with.
    if (calendarFeed === null) return notYet;
    return { status: 200, headers: { 'content-type': 'text/calendar; charset=utf-8' }, body: calendarFeed.body, modifiedAt: calendarFeed.modifiedAt };
  };
}

/** A calendar feed as the web server's memory keeps it: the content last published and when it last changed (ms). */
export interface KeptCalendarFeed<K extends CalendarFeedName = CalendarFeedName> {
  content: CalendarFeedContent<K>;
  changedAt: number;
}

/**
 * The calendar feeds' texts, each made from a kept calendar feed only once per language: a calendar app asks every few
 * minutes, the content changes a few times a day (and a new content is a new KeptCalendarFeed).
 */
export class CalendarFeedTexts {
  private readonly made = new WeakMap<KeptCalendarFeed, Map<Language, Buffer>>();

  /** `render` is the iCalendar writer (a test counts its calls). */
  constructor(private readonly render: (calendarFeed: CalendarFeedDocument) => string = calendarFeedText) {}

  /** One calendar feed in `language`; null before its first content (never an empty calendar, which would wipe the child's days). */
  source<K extends CalendarFeedName>(kept: KeptCalendarFeed<K> | undefined, name: K, language: Language): CalendarFeedSource | null {
    if (kept === undefined) return null;
    let texts = this.made.get(kept);
    if (texts === undefined) {
      texts = new Map();
      this.made.set(kept, texts);
    }
    let body = texts.get(language);
    if (body === undefined) {
      const entries = { ...NO_ENTRIES, [CALENDAR_FEED_PARTS[name]]: kept.content.entries };
      // Kept as the bytes sent: no 40 KB copy made for each ask, and UTF-8 holds the Polish letters in
      // fewer bytes than the string would.
      body = Buffer.from(this.render({ name, child: kept.content.child, entries, changedAt: kept.changedAt, language }), 'utf8');
      texts.set(language, body);
    }
    return { body, modifiedAt: kept.changedAt };
  }
}

const NO_ENTRIES: CalendarFeedEntries = { lessons: [], agenda: [], freeDays: [] };
