// The board's "Calendars" control: each card's footer opens an overlay with the child's three feed
// addresses (copy, `webcal://`), so an add-on user who missed the first-start lines finds them in the
// sidebar. Here: the feed links of the model and the page's access block. The overlay itself:
// src/outputs/web/browser/calendars.ts, its style calendars.css beside it (bundled into the board's style sheet).
import { CALENDAR_TEXT } from '../../i18n/calendar-text.js';
import type { Language } from '../../config/language.js';
import { FEED_NAMES, type FeedName } from '../../rules/calendar-feeds.js';
import { feedKey } from './token.js';
import type { ChildView, WebRequest } from './types.js';

/** What the page needs to make a feed address a calendar app can open. */
export interface BoardFeedAccess {
  /** The token in force (a getter: a rotation counts at once); the page gets only the feeds' keys derived from it. */
  token: string;
  /** The bridge's own port (http.port): the feeds are never reached through ingress. */
  port: number;
}

/**
 * Each feed of a child as the board lists it (those the child has: `ChildView.calendarFeeds`): the calendar's name
 * ("Ania – lekcje") and its path, relative to the bridge's root, without its key (`calendar/ania/lessons.ics`).
 */
export function feedLinks(child: ChildView, name: string, language: Language): { title: string; path: string }[] {
  const words = CALENDAR_TEXT[language].feeds;
  return (child.calendarFeeds ?? FEED_NAMES).map((feed) => ({ title: `${name} – ${words[feed]}`, path: feedPath(child.id, feed) }));
}

const feedPath = (childId: string, feed: FeedName): string => `calendar/${encodeURIComponent(childId)}/${feed}.ics`;

/**
 * The page's access block: each feed's own key (never the token) and the port, only in the page itself
 * (never in `api/board` or the event stream, which a display of someone's own may read and keep), and
 * only for a page asked for with `?token=` or through ingress: a cookie read off a tablet gives no
 * feed address. Undefined otherwise (the cards then offer no calendars).
 */
export function feedAccessJson(access: BoardFeedAccess, req: WebRequest, children: readonly ChildView[]): string | undefined {
  if (req.via !== 'query' && req.via !== 'ingress') return undefined;
  const token = access.token;
  const keys: Record<string, string> = {};
  for (const child of children) {
    for (const feed of child.calendarFeeds ?? FEED_NAMES) keys[feedPath(child.id, feed)] = feedKey(token, child.id, feed);
  }
  // Through ingress the page's host is Home Assistant's (the add-on's host) and its port is Home
  // Assistant's: the feeds need the bridge's port. Opened directly, the page's own address is the bridge's.
  return JSON.stringify({ keys, port: access.port, ingress: req.ingressPath !== '' });
}
