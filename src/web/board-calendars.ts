// The board's "Calendars" control: each card's footer opens an overlay with the child's three feed
// addresses (copy, `webcal://`), so an add-on user who missed the first-start lines finds them in the
// sidebar. Here: the feed links of the model and the page's access block. The overlay itself:
// src/web/browser/calendars.ts, its style calendars.css beside it (bundled into the board's style sheet).
import { calendarText } from '../i18n/calendar-text.js';
import type { Language } from '../config/language.js';
import { FEED_NAMES } from '../school/calendar-feeds.js';
import type { WebRequest } from './types.js';

/** What the page needs to make a feed address a calendar app can open. */
export interface BoardFeedAccess {
  token: string;
  /** The bridge's own port (http.port): the feeds are never reached through ingress. */
  port: number;
}

/** One feed of a child as the board lists it: the calendar's name ("Ania – lekcje") and its path. */
export interface BoardFeedLink {
  title: string;
  /** Relative to the bridge's root, without the token: `calendar/ania/lessons.ics`. */
  path: string;
}

export function feedLinks(childId: string, name: string, language: Language): BoardFeedLink[] {
  const words = calendarText(language).feeds;
  return FEED_NAMES.map((feed) => ({ title: `${name} – ${words[feed]}`, path: `calendar/${encodeURIComponent(childId)}/${feed}.ics` }));
}

/**
 * The page's access block: the token and the port, only in the page itself (never in `api/board`
 * or the event stream, which a display of someone's own may read and keep). The server has let this
 * request in, so whoever reads the page already holds the token or came through Home Assistant.
 */
export function feedAccessJson(access: BoardFeedAccess, req: WebRequest): string {
  // Through ingress the page's host is Home Assistant's (the add-on's host) and its port is Home
  // Assistant's: the feeds need the bridge's port. Opened directly, the page's own address is the bridge's.
  return JSON.stringify({ token: access.token, port: access.port, ingress: req.ingressPath !== '' });
}
