// What a card says it left out when it gave way (fit.ts): a list's "+2" at the end its items left from
// ("+1 za nami" above the lessons), and for a box whose every item went, its name and count in the card's
// footer ("Sprawdziany +3 · Szkoła +4"), rather than a heading over nothing. Each is a button that
// opens the whole list over the card (more.ts).
import type { BoardLabels } from '../../../i18n/board-text.js';
import { el } from './dom.js';
import { moreButton } from './more.js';

export type End = 'first' | 'last';

/** The "+2" line a list keeps at the end its items left from; made (with its button) when labels are given and it is missing. */
export function moreLine(list: Element, end: End, make: BoardLabels | null): HTMLElement | null {
  const found = list.querySelector<HTMLElement>(`:scope > li.more[data-end="${end}"]`);
  if (found || !make) return found || null;
  const line = el('li', 'more');
  line.setAttribute('data-end', end);
  line.setAttribute('data-count', '0');
  line.appendChild(moreButton('', () => line.parentElement, make));
  list.insertBefore(line, end === 'first' ? list.firstChild : null);
  return line;
}

/** Counts a list item taken from its list (by 1) or put back (by -1); anything else is not counted. */
export function recount(card: HTMLElement, el: Element, list: Node, end: End, by: number, labels: BoardLabels): void {
  const l = list as Element;
  if (el.tagName !== 'LI' || (l.tagName !== 'UL' && l.tagName !== 'OL')) return;
  const line = moreLine(l, end, by > 0 ? labels : null);
  if (line) {
    const n = Number(line.getAttribute('data-count')) + by;
    if (n <= 0) l.removeChild(line);
    else {
      line.setAttribute('data-count', String(n));
      // Lessons left out from the top are the ones over: say so, else "+1" would read as one more lesson.
      (line.firstChild as HTMLElement).textContent =
        end === 'first' && l.classList.contains('lessons') ? '+' + n + ' ' + labels.lessonsOver : '+' + n;
    }
  }
  const box = l.closest('.box');
  if (!box) return;
  box.classList.toggle('away', !l.querySelector(':scope > .item'));
  summary(card, labels);
}

/** The words naming the boxes that went whole, each with its count, in the card's footer (where it has none, after its lists). */
function summary(card: HTMLElement, labels: BoardLabels): void {
  const away = Array.prototype.slice.call(card.querySelectorAll('.box.away')) as Element[];
  let line = card.querySelector('.left-out');
  if (away.length === 0) {
    if (line && line.parentNode) line.parentNode.removeChild(line);
    return;
  }
  if (!line) {
    const foot = card.querySelector('.foot');
    line = el(foot ? 'span' : 'p', 'left-out');
    if (foot) foot.insertBefore(line, foot.querySelector('.updated'));
    else (card.querySelector('.info') || card).appendChild(line);
  }
  while (line.firstChild) line.removeChild(line.firstChild);
  away.forEach((box, i) => {
    let n = 0;
    box.querySelectorAll('li.more').forEach((m) => (n += Number(m.getAttribute('data-count'))));
    if (i > 0) (line as Element).appendChild(document.createTextNode(' · '));
    (line as Element).appendChild(moreButton((box.getAttribute('data-name') || '') + ' +' + n, () => box.querySelector('ul'), labels));
  });
}
