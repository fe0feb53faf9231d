// The card's "Calendars" control and its overlay: the child's three calendar feed addresses, each to copy or
// to open as `webcal://`. The page carries the access block (each calendar feed's own key, port, ingress) only
// when the cards offer calendars and it was opened with the token or through ingress
// (src/outputs/web/board-calendars.ts). The overlay is the page's dialog (dom.ts).
import type { BoardLabels } from '../../../i18n/board-text.js';
import type { BoardChild } from '../board-model.js';
import { dataBlock, el, openDialog } from './dom.js';

interface CalendarFeedAccess {
  /** Each calendar feed's path (`calendar/ania/lessons.ics`) to its key, which opens that calendar feed alone. */
  keys: Record<string, string>;
  port: number;
  ingress: boolean;
}

let access: CalendarFeedAccess | null | undefined;

function calendarFeedAccess(): CalendarFeedAccess | null {
  if (access === undefined) access = dataBlock<CalendarFeedAccess>('feed-access');
  return access;
}

// A calendar app cannot log in to Home Assistant: through ingress the calendar feeds go to the bridge's own
// port on the same host (the add-on maps it); opened directly, the page's own address is the bridge.
function calendarFeedBase(a: CalendarFeedAccess): string {
  return a.ingress ? 'http://' + location.hostname + ':' + a.port + '/' : new URL('.', location.href).href;
}

/** A card's control; null without the access block or calendar feeds. */
export function calendarsButton(c: BoardChild, labels: BoardLabels): HTMLElement | null {
  const a = calendarFeedAccess();
  if (!a || !c.calendarFeeds || !c.calendarFeeds.length) return null;
  const b = el('button', 'cal-open', labels.calendars);
  b.type = 'button';
  b.setAttribute('data-child', c.id);
  b.setAttribute('aria-haspopup', 'dialog');
  b.addEventListener('click', () => openCalendars(c, a, labels));
  return b;
}

function openCalendars(c: BoardChild, a: CalendarFeedAccess, labels: BoardLabels): void {
  const base = calendarFeedBase(a);
  const rows = c.calendarFeeds
    .filter((f) => a.keys[f.path] !== undefined)
    .map((f) => {
      const address = base + f.path + '?key=' + encodeURIComponent(a.keys[f.path]!);
      const code = el('code', 'cal-url', address);
      const copy = el('button', 'cal-copy', labels.copy);
      copy.type = 'button';
      copy.addEventListener('click', () => copyAddress(address, code, copy, labels));
      const subscribe = el('a', 'cal-webcal', labels.subscribe);
      subscribe.href = address.replace(/^https?:/, 'webcal:');
      return el('li', 'cal-feed', [el('h3', null, f.title), code, el('div', 'cal-actions', [copy, subscribe])]);
    });
  const content = [el('p', 'cal-help', labels.calendarsHelp), el('ul', 'cal-feeds', rows)];
  openDialog('cal', el('h2', null, labels.calendars + ': ' + c.name), content, labels.close, () => {
    // The cards may have been drawn anew meanwhile: back to this child's control as it is now.
    document.querySelector<HTMLElement>(`#board .cal-open[data-child="${CSS.escape(c.id)}"]`)?.focus();
  });
}

// The Clipboard API exists only in a secure context (https, localhost); a tablet on the home network
// opens http://192.168...: there the address is selected and copied the old way, and stays
// selected for a long press when even that is refused.
function copyAddress(address: string, code: HTMLElement, button: HTMLElement, labels: BoardLabels): void {
  const done = (): void => {
    button.textContent = labels.copied;
    setTimeout(() => {
      button.textContent = labels.copy;
    }, 2000);
  };
  const bySelection = (): void => {
    const range = document.createRange();
    range.selectNodeContents(code);
    const selection = window.getSelection();
    if (!selection) return;
    selection.removeAllRanges();
    selection.addRange(range);
    try {
      if (document.execCommand('copy')) done();
    } catch {
      /* left selected */
    }
  };
  // Old browsers have no navigator.clipboard at all (the DOM types say it is always there).
  const clipboard = navigator.clipboard as Clipboard | undefined;
  if (clipboard && clipboard.writeText) clipboard.writeText(address).then(done, bySelection);
  else bySelection();
}
