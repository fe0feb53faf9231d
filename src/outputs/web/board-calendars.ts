// The board's "Calendars" control: each card's footer opens an overlay with the child's three calendar feed
// addresses (copy, `webcal://`), so an add-on user who missed the first-start lines finds them in the
// sidebar. Here: the calendar feed links of the model and the page's access block. The overlay itself:
// src/outputs/web/browser/calendars.ts, its style calendars.css beside it (bundled into the board's style sheet).
import { CALENDAR_TEXT } from '../../i18n/calendar-text.js';
import type { Language } from '../../config/language.js';
import { CALENDAR_FEED_NAMES, type CalendarFeedName } from '../../rules/calendar-feeds.js';
import { calendarFeedKey } from './token.js';
import type { ChildView, WebRequest } from './types.js';

/** What the page needs to make a calendar feed address a calendar app can open. */
export interface BoardCalendarFeedAccess {
  /** The token in force (a getter: a rotation counts at once); the page gets only the calendar feeds' keys derived from it. */
  token: string;
  /** The bridge's own port (http.port): the calendar feeds are never reached through ingress. */
  port: number;
}

/**
 * Each calendar feed of a child as the board lists it (those the child has: `ChildView.calendarFeeds`): the
 * calendar's name ("Ania – lekcje") and its path, relative to the bridge's root, without its key
 * (`calendar/ania/lessons.ics`).
 */
export function calendarFeedLinks(child: ChildView, name: string, language: Language): { title: string; path: string }[] {
  const words = CALENDAR_TEXT[language].calendarFeeds;
  return (child.calendarFeeds ?? CALENDAR_FEED_NAMES).map((calendarFeed) => ({
    title: `${name} – ${words[calendarFeed]}`,
    path: calendarFeedPath(child.id, calendarFeed),
  }));
}

const calendarFeedPath = (childId: string, calendarFeed: CalendarFeedName): string => `calendar/${encodeURIComponent(childId)}/${calendarFeed}.ics`;

/**
 * The page's access block: each calendar feed's own key (never the token) and the port, only in the page itself
 * (never in `api/board` or the event stream, which a display of someone's own may read and keep), and
 * only for a page asked for with `?token=` or through ingress: a cookie read off a tablet gives no
 * calendar feed address. Undefined otherwise (the cards then offer no calendars).
 */
export function calendarFeedAccessJson(access: BoardCalendarFeedAccess, req: WebRequest, children: readonly ChildView[]): string | undefined {
  if (req.via !== 'query' && req.via !== 'ingress') return undefined;
  const token = access.token;
  const keys: Record<string, string> = {};
  for (const child of children) {
    for (const calendarFeed of child.calendarFeeds ?? CALENDAR_FEED_NAMES)
      keys[calendarFeedPath(child.id, calendarFeed)] = calendarFeedKey(token, child.id, calendarFeed);
  }
  // Through ingress the page's host is Home Assistant's (the add-on's host) and its port is Home
  // Assistant's: the calendar feeds need the bridge's port. Opened directly, the page's own address is the bridge's.
  return JSON.stringify({ keys, port: access.port, ingress: req.ingressPath !== '' });
}
