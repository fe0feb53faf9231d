// The board's "Calendars" control: each card's footer opens an overlay with the child's three feed
// addresses (copy, `webcal://`), so an add-on user who missed the first-start lines finds them in the
// sidebar. Here: the feed links of the model, the page's access block, and the overlay's CSS (joined
// into board.css: the CSP allows nothing inline). The overlay itself: src/web/browser/calendars.ts.
import { calendarText } from '../i18n/calendar-text.js';
import type { Language } from '../config/language.js';
import { FEED_NAMES } from '../school/calendar-feeds.js';
import { feedKey } from './token.js';
import type { WebRequest } from './types.js';

/** What the page needs to make a feed address a calendar app can open. */
export interface BoardFeedAccess {
  /** The token in force (a getter: a rotation counts at once); the page gets only the feeds' keys derived from it. */
  token: string;
  /** The bridge's own port (http.port): the feeds are never reached through ingress. */
  port: number;
}

/** One feed of a child as the board lists it: the calendar's name ("Ania – lekcje") and its path. */
export interface BoardFeedLink {
  title: string;
  /** Relative to the bridge's root, without its key: `calendar/ania/lessons.ics`. */
  path: string;
}

export function feedLinks(childId: string, name: string, language: Language): BoardFeedLink[] {
  const words = calendarText(language).feeds;
  return FEED_NAMES.map((feed) => ({ title: `${name} – ${words[feed]}`, path: `calendar/${encodeURIComponent(childId)}/${feed}.ics` }));
}

/**
 * The page's access block: each feed's own key (never the token) and the port, only in the page itself
 * (never in `api/board` or the event stream, which a display of someone's own may read and keep), and
 * only for a page asked for with `?token=` or through ingress: a cookie read off a tablet gives no
 * feed address. Undefined otherwise (the cards then offer no calendars).
 */
export function feedAccessJson(access: BoardFeedAccess, req: WebRequest, childIds: readonly string[]): string | undefined {
  if (req.via !== 'query' && req.via !== 'ingress') return undefined;
  const token = access.token;
  const keys: Record<string, string> = {};
  for (const child of childIds) {
    for (const feed of FEED_NAMES) keys[`calendar/${encodeURIComponent(child)}/${feed}.ics`] = feedKey(token, child, feed);
  }
  // Through ingress the page's host is Home Assistant's (the add-on's host) and its port is Home
  // Assistant's: the feeds need the bridge's port. Opened directly, the page's own address is the bridge's.
  return JSON.stringify({ keys, port: access.port, ingress: req.ingressPath !== '' });
}

export const CALENDARS_CSS = `
.foot { display: flex; align-items: baseline; gap: 8px; }
.foot .updated { margin-left: auto; }
/* The padding makes a finger-sized target; the negative margin keeps the footer's height unchanged. */
.cal-open { font: inherit; color: var(--muted); background: none; border: 0; padding: 8px 10px; margin: -8px -10px; text-decoration: underline; text-underline-offset: 2px; cursor: pointer; }
.cal-overlay { position: fixed; top: 0; right: 0; bottom: 0; left: 0; z-index: 10; display: flex; align-items: center; justify-content: center; padding: 12px; background: rgba(0, 0, 0, .5); }
.cal-box { background: var(--card); color: var(--ink); border-radius: 14px; padding: 14px 18px 18px; width: 100%; max-width: 44em; max-height: 100%; overflow: auto; box-shadow: 0 10px 40px rgba(0, 0, 0, .35); font-size: 16px; }
.cal-head { display: flex; align-items: center; justify-content: space-between; gap: 12px; }
.cal-head h2 { font-size: 1.35em; }
.cal-close { font: inherit; font-size: 1.8em; line-height: 1; color: var(--muted); background: none; border: 0; padding: 2px 10px; margin-right: -10px; cursor: pointer; }
.cal-help { color: var(--muted); margin: 4px 0 14px; }
.cal-feeds { display: grid; gap: 14px; }
.cal-feed h3 { font-size: 1em; margin-bottom: 4px; }
.cal-url { display: block; font-family: ui-monospace, "DejaVu Sans Mono", "Noto Sans Mono", monospace; font-size: .85em; background: var(--bg); border: 1px solid var(--line); border-radius: 8px; padding: .45em .6em; overflow-wrap: anywhere; -webkit-user-select: all; user-select: all; }
.cal-actions { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; margin-top: 6px; }
.cal-copy { font: inherit; min-width: 8em; padding: .35em 1em; border: 1px solid var(--now); border-radius: 8px; background: var(--now-bg); color: var(--now); font-weight: 600; cursor: pointer; }
.cal-webcal { color: var(--now); }
`;
