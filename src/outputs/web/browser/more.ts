// What a card left out, opened on the tablet: every "+2" (and each box named in the footer) is a
// button, and a tap shows the whole list over the card, as it was drawn before the card gave way
// (fit.ts), in the page's dialog (dom.ts): a tap outside it, the close button, Escape or 20 seconds
// close it; nothing navigates away (a kiosk has no back button).
import type { BoardLabels } from '../../../i18n/board-text.js';
import { closeDialog, el, openDialog } from './dom.js';

/** A wall is read in passing: an opened list closes by itself. */
export const MORE_OPEN_MS = 20000;

/** Each list of a card as drawn whole, before the card gave way. */
const whole = new WeakMap<Element, Element>();

/** Keeps a copy of each list of the card as it is now (called before the card gives way). */
export function keepWhole(card: HTMLElement): void {
  card.querySelectorAll('ul, ol').forEach((l) => whole.set(l, l.cloneNode(true) as Element));
}

/** A button that opens `list()` whole over its card. */
export function moreButton(text: string, list: () => Element | null, labels: BoardLabels): HTMLButtonElement {
  const b = el('button', 'more-open', text);
  b.type = 'button';
  b.setAttribute('aria-haspopup', 'dialog');
  b.addEventListener('click', (e) => {
    e.stopPropagation();
    const l = list();
    if (l) openWhole(l, labels);
  });
  return b;
}

/** The heading over a list: its box's, or the day's for the lessons. */
function titleOf(list: Element): string {
  const box = list.closest('.box');
  const heading = box ? box.querySelector('h3') : list.closest('.day') && (list.closest('.day') as Element).querySelector('.day-title');
  return heading ? heading.textContent || '' : '';
}

function openWhole(list: Element, labels: BoardLabels): void {
  const card = list.closest('.child');
  const original = whole.get(list);
  if (!card || !original) return;
  const box = list.closest('.box');
  // Its box's classes (not "away") give the items their look; the lessons keep theirs.
  const cls = (box ? box.className.replace(/\b(away|none)\b/g, '') : 'day') + ' more-list';
  const timer = setTimeout(closeDialog, MORE_OPEN_MS);
  const panel = openDialog('more', el('h3', null, titleOf(list)), [el('section', cls, original.cloneNode(true))], labels.close, () =>
    clearTimeout(timer),
  );
  // Over the card it belongs to, as large as the card (a longer list scrolls inside).
  const r = card.getBoundingClientRect();
  panel.style.top = Math.max(0, r.top) + 'px';
  panel.style.left = r.left + 'px';
  panel.style.width = r.width + 'px';
  panel.style.maxHeight = Math.min(r.height, innerHeight - Math.max(0, r.top)) + 'px';
}
