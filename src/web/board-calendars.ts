// The board's "Calendars" control: each card's footer opens an overlay with the child's three feed
// addresses (copy, `webcal://`), so an add-on user who missed the first-start lines finds them in the
// sidebar. Here: the feed links of the model, the page's access block, and the overlay's CSS and
// script (joined into board.css and board.js: the CSP allows nothing inline).
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

/**
 * Runs inside board.js's function, with its `el`, `board` and `labels`: `calendarsButton(child)` makes
 * a card's control (null without the access block). The overlay lives outside the board, so closed it
 * takes no room and a redraw of the cards leaves it open.
 */
export const CALENDARS_SCRIPT = String.raw`
  var feedAccess = (function () {
    var block = document.getElementById('feed-access');
    return block ? JSON.parse(block.textContent) : null;
  })();
  var overlay = null;
  var overlayChild = null;

  // A calendar app cannot log in to Home Assistant: through ingress the feeds go to the bridge's own
  // port on the same host (the add-on maps it); opened directly, the page's own address is the bridge.
  function feedBase() {
    if (feedAccess.ingress) return 'http://' + location.hostname + ':' + feedAccess.port + '/';
    return new URL('.', location.href).href;
  }

  function calendarsButton(c) {
    if (!feedAccess || !c.feeds || !c.feeds.length) return null;
    var b = el('button', 'cal-open', labels.calendars);
    b.type = 'button';
    b.setAttribute('data-child', c.id);
    b.setAttribute('aria-haspopup', 'dialog');
    b.addEventListener('click', function () { openCalendars(c); });
    return b;
  }

  function openCalendars(c) {
    closeCalendars();
    var base = feedBase();
    var rows = c.feeds.map(function (f) {
      var address = base + f.path + '?token=' + encodeURIComponent(feedAccess.token);
      var code = el('code', 'cal-url', address);
      var copy = el('button', 'cal-copy', labels.copy);
      copy.type = 'button';
      copy.addEventListener('click', function () { copyAddress(address, code, copy); });
      var subscribe = el('a', 'cal-webcal', labels.subscribe);
      subscribe.href = address.replace(/^https?:/, 'webcal:');
      return el('li', 'cal-feed', [el('h3', null, f.title), code, el('div', 'cal-actions', [copy, subscribe])]);
    });
    var close = el('button', 'cal-close', '\u00d7');
    close.type = 'button';
    close.setAttribute('aria-label', labels.close);
    close.addEventListener('click', closeCalendars);
    var box = el('div', 'cal-box', [
      el('div', 'cal-head', [el('h2', null, labels.calendars + ': ' + c.name), close]),
      el('p', 'cal-help', labels.calendarsHelp),
      el('ul', 'cal-feeds', rows),
    ]);
    box.setAttribute('role', 'dialog');
    box.setAttribute('aria-modal', 'true');
    box.setAttribute('aria-label', labels.calendars + ': ' + c.name);
    overlay = el('div', 'cal-overlay', box);
    overlay.addEventListener('click', function (e) { if (e.target === overlay) closeCalendars(); });
    document.body.appendChild(overlay);
    overlayChild = c.id;
    close.focus();
  }

  function closeCalendars() {
    if (!overlay) return;
    overlay.parentNode.removeChild(overlay);
    overlay = null;
    // The cards may have been drawn anew meanwhile: back to this child's control as it is now.
    var openers = board.querySelectorAll('.cal-open');
    for (var i = 0; i < openers.length; i++) if (openers[i].getAttribute('data-child') === overlayChild) openers[i].focus();
  }

  document.addEventListener('keydown', function (e) {
    if (overlay && (e.key === 'Escape' || e.key === 'Esc')) closeCalendars();
  });

  // The Clipboard API exists only in a secure context (https, localhost); a tablet on the home network
  // opens http://192.168...: there the address is selected and copied the old way, and stays
  // selected for a long press when even that is refused.
  function copyAddress(address, code, button) {
    function done() {
      button.textContent = labels.copied;
      setTimeout(function () { button.textContent = labels.copy; }, 2000);
    }
    function bySelection() {
      var range = document.createRange();
      range.selectNodeContents(code);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      try {
        if (document.execCommand('copy')) done();
      } catch (e) { /* left selected */ }
    }
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(address).then(done, bySelection);
    else bySelection();
  }
`;
