// On a tablet the whole card must fit the screen, with no line cut in half: the card gives way from the
// end of its news order (news-order.ts), each time the least news that makes room (on a card of two
// columns, in the column that is too long), and a list counts what it left out ("+2", "+1 za nami",
// left-out.ts). So an unread message or the newest grade goes only when nothing less news is left that
// could give way in its place.
import type { BoardLabels } from '../../../i18n/board-text.js';
import { moreLine, recount, type End } from './left-out.js';
import { keepWhole } from './more.js';
import { NEWS_ORDER, type NewsPart } from './news-order.js';

interface Taken {
  el: Element;
  parent: Node;
  /** Its next sibling when it was taken: it goes back before it. */
  next: Node | null;
  part: NewsPart;
}

/** The boxes that clip what they hold on a card in two columns (the card clips too). */
const CLIPPING = '.plan, .info';

/** How many pixels of content the card and its clipping boxes hide (0: everything shows whole). */
function hidden(card: HTMLElement): number {
  let sum = 0;
  [card, ...(Array.prototype.slice.call(card.querySelectorAll(CLIPPING)) as HTMLElement[])].forEach((b) => {
    const overflow = getComputedStyle(b).overflowY;
    // A pixel of rounding is no cut line.
    if (overflow === 'hidden' || overflow === 'clip') sum += Math.max(0, b.scrollHeight - b.clientHeight - 1);
  });
  return sum;
}

/** Each part with the card's elements it takes, in the card's order; an element goes to the first part naming it. */
function claims(card: HTMLElement): Array<{ part: NewsPart; items: Element[] }> {
  const claimed: Element[] = [];
  return NEWS_ORDER.map((part) => {
    const free = (Array.prototype.slice.call(card.querySelectorAll(part.items)) as Element[]).filter((e) => claimed.indexOf(e) < 0);
    const items = part.first === undefined ? free : free.slice(0, part.first);
    items.forEach((e) => claimed.push(e));
    return { part, items };
  });
}

function take(card: HTMLElement, el: Element, part: NewsPart, labels: BoardLabels): Taken {
  const t: Taken = { el, parent: el.parentNode as Node, next: el.nextSibling, part };
  t.parent.removeChild(el);
  recount(card, el, t.parent, endOf(part), 1, labels);
  return t;
}

function putBack(card: HTMLElement, t: Taken, labels: BoardLabels): void {
  // The sibling it stood before may be away itself: then at its end of the list, inside its "+2".
  const first = endOf(t.part) === 'first' ? moreLine(t.parent as Element, 'first', null) : null;
  const atEnd = first ? first.nextSibling : endOf(t.part) === 'first' ? t.parent.firstChild : moreLine(t.parent as Element, 'last', null);
  const before = t.next && t.next.parentNode === t.parent ? t.next : atEnd;
  t.parent.insertBefore(t.el, before);
  recount(card, t.el, t.parent, endOf(t.part), -1, labels);
}

const endOf = (part: NewsPart): End => (part.from === 'first' ? 'first' : 'last');

/** Whether a box shows less than it holds. */
function over(box: Element | null): boolean {
  return !!box && box.scrollHeight > box.clientHeight + 1;
}

/**
 * Whether taking an element away could make room: anything, while the card itself is too long; else only
 * what stands in the column that is (the timetable, or the news and the lists below them, which .info ends).
 */
function couldHelp(card: HTMLElement, el: Element): boolean {
  if (over(card)) return true;
  const at = el.parentElement;
  if (!at) return false;
  if (at.closest('.plan')) return over(card.querySelector('.plan'));
  return !!at.closest('.news, .info') && over(card.querySelector('.info'));
}

export function fit(card: HTMLElement, labels: BoardLabels): void {
  // A phone scrolls: only a card the screen clips has to fit.
  if (getComputedStyle(card).overflowY !== 'hidden' || hidden(card) === 0) return;
  // What the "+2" buttons open: each list whole, as drawn.
  keepWhole(card);
  // Every element that may give way, the least news first.
  const order: Array<{ el: Element; part: NewsPart }> = [];
  const parts = claims(card);
  for (let p = parts.length - 1; p >= 0; p--) {
    const { part, items } = parts[p] as { part: NewsPart; items: Element[] };
    if (part.stays) continue;
    (part.from === 'first' ? items : items.slice().reverse()).forEach((el) => order.push({ el, part }));
  }
  // Take away the least news, one by one, until the card hides nothing (or nothing left could help); a
  // box beside a longer one (a trip beside the tests) makes room only together with it.
  const taken: Taken[] = [];
  for (let i = 0; i < order.length && hidden(card) > 0; i++) {
    const { el, part } = order[i] as { el: Element; part: NewsPart };
    if (card.contains(el) && couldHelp(card, el)) taken.push(take(card, el, part, labels));
  }
  refill(card, taken, order, labels);
}

/**
 * Back, the most news first, whatever fits now: what a round took to make room for one element may
 * have room once a later round took another (a box gives way only when it does not fit: no blank
 * space above a "+2"). Something less news comes back only into room too small for what is more news.
 */
function refill(card: HTMLElement, taken: Taken[], order: ReadonlyArray<{ el: Element }>, labels: BoardLabels): void {
  const rank = (t: Taken): number => order.findIndex((o) => o.el === t.el);
  let out = taken.sort((a, b) => rank(b) - rank(a));
  // Again while a round brought something back: a box that came back beside a taller one may have given
  // up the footer line its "+N" took, room for something more news that found none the round before.
  for (let back = true; back && out.length > 0; ) {
    const base = hidden(card);
    // A list stays whole up to its "+2": once one of its items has no room, none beyond it comes back.
    const blocked: Array<{ list: Node; end: End }> = [];
    const still: Taken[] = [];
    for (const t of out) {
      if (blocked.some((b) => b.list === t.parent && b.end === endOf(t.part))) {
        still.push(t);
        continue;
      }
      putBack(card, t, labels);
      if (hidden(card) <= base) continue;
      still.push(take(card, t.el, t.part, labels));
      blocked.push({ list: t.parent, end: endOf(t.part) });
    }
    back = still.length < out.length;
    out = still;
  }
}
