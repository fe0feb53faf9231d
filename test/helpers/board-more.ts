// What the family board's browser tests check of what a card left out (issue 58): every "+N" opens the
// whole list over the card and closes again without the page going anywhere; no "+N" stands under room
// its next item would have fitted in; no change's detail is cut. (Browser code as text: the project's
// TypeScript knows Node, not the DOM.)
import type { Page } from 'playwright-core';

/**
 * For each "+N" line of every card: the item that went next to it (read from the whole list its button
 * opens) put back where it stood, as the card's own fitting would put it back (a "+1" line goes with
 * it; a box whose every item went shows again). If the card then hides nothing, that item had room: a
 * problem. Everything is put back as it was after each try.
 */
const ROOM_ABOVE_MORE = `(() => {
  const hidden = (card) => {
    let sum = 0;
    for (const b of [card, ...card.querySelectorAll('.plan, .info')]) {
      const o = getComputedStyle(b).overflowY;
      if (o === 'hidden' || o === 'clip') sum += Math.max(0, b.scrollHeight - b.clientHeight - 1);
    }
    return sum;
  };
  const problems = [];
  for (const card of document.querySelectorAll('.child')) {
    const name = card.querySelector('h2').textContent;
    for (const line of [...card.querySelectorAll('li.more')]) {
      const list = line.parentElement;
      const end = line.getAttribute('data-end');
      line.querySelector('button').click();
      const opened = document.querySelector('.more-box .more-list > ul, .more-box .more-list > ol');
      const whole = opened ? [...opened.children] : [];
      document.querySelector('.more-close').click();
      const shown = [...list.children].filter((c) => !c.classList.contains('more')).map((c) => c.textContent);
      const missing = whole.filter((c) => !shown.includes(c.textContent));
      // The one that went last: next to the shown ones at the "+N" line's end.
      const back = end === 'first' ? missing.filter((c) => whole.indexOf(c) < whole.findIndex((w) => shown.includes(w.textContent))).pop() : missing[0];
      if (!back) { problems.push(name + ': a "+N" whose list opens without what went'); continue; }
      const box = list.closest('.box');
      const away = box && box.classList.contains('away');
      const item = back.cloneNode(true);
      if (end === 'first') list.insertBefore(item, line.nextSibling); else list.insertBefore(item, line);
      const one = Number(line.getAttribute('data-count')) === 1;
      const next = line.nextSibling;
      if (one) list.removeChild(line);
      if (away) box.classList.remove('away');
      const h = hidden(card);
      if (away) box.classList.add('away');
      if (one) list.insertBefore(line, next);
      list.removeChild(item);
      if (h === 0) problems.push(name + ': room above "' + line.textContent + '" for "' + back.textContent.trim() + '"');
    }
  }
  return problems;
})()`;

export function roomAboveMore(page: Page): Promise<string[]> {
  return page.evaluate(ROOM_ABOVE_MORE) as Promise<string[]>;
}

/** A change's detail ("zastépstwo · zamiast: …") that does not show whole: wider or taller than its box. */
const CUT_DETAILS = `[...document.querySelectorAll('.child .lesson .note, .child .next-change .note')]
  .filter((n) => n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1 || getComputedStyle(n).textOverflow === 'ellipsis' && getComputedStyle(n).whiteSpace === 'nowrap')
  .map((n) => n.closest('.child').querySelector('h2').textContent + ': "' + n.textContent + '"')`;

export function cutDetails(page: Page): Promise<string[]> {
  return page.evaluate(CUT_DETAILS) as Promise<string[]>;
}

export interface OpenedMore {
  card: string;
  /** The button's words: "+2", "+1 za nami", "Sprawdziany +3". */
  button: string;
  /** The items of its list the card shows, and what its "+N" lines count. */
  shown: number;
  counted: number;
  /** The items of the list opened over the card. */
  opened: number;
  /** Whether the opened list stood over the card it belongs to. */
  overCard: boolean;
  /** Whether a tap outside it closed it. */
  closed: boolean;
}

/**
 * Taps every "+N" of the board in turn, reads the list it opens, and taps outside to close it. A tap is
 * the mouse's at the button's middle, where the button must be the topmost element (what a finger
 * would hit); the facts and the opened list are read in one step each, to keep the round trips few.
 */
export async function openEveryMore(page: Page): Promise<OpenedMore[]> {
  const url = page.url();
  // Those on the screen: a box that went whole keeps its "+N" inside, hidden with it (the footer names it).
  const visible = (await page.evaluate(
    `[...document.querySelectorAll('.child .more-open')].map((b, i) => (b.getClientRects().length > 0 ? i : -1)).filter((i) => i >= 0)`,
  )) as number[];
  const seen: OpenedMore[] = [];
  for (const i of visible) {
    const facts = (await page.evaluate(`((b) => {
      b.scrollIntoView({ block: 'nearest' });
      const card = b.closest('.child');
      const list = b.closest('ul, ol') || (() => {
        const name = b.textContent.replace(/ \\+\\d+$/, '');
        const named = [...card.querySelectorAll('.box.away')].find((x) => x.getAttribute('data-name') === name);
        return named && named.querySelector('ul');
      })();
      const items = list ? [...list.children].filter((c) => !c.classList.contains('more')).length : -1;
      const counted = list ? [...list.querySelectorAll(':scope > li.more')].reduce((s, m) => s + Number(m.getAttribute('data-count')), 0) : -1;
      const r = b.getBoundingClientRect();
      const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
      const top = document.elementFromPoint(x, y);
      return { card: card.querySelector('h2').textContent, button: b.textContent, shown: items, counted, x, y, hit: !!top && (top === b || b.contains(top)) };
    })(document.querySelectorAll('.child .more-open')[${i}])`)) as {
      card: string;
      button: string;
      shown: number;
      counted: number;
      x: number;
      y: number;
      hit: boolean;
    };
    const { x, y, hit, ...told } = facts;
    if (!hit) throw new Error(`${told.card}'s "${told.button}": something else stands over its middle`);
    await page.mouse.click(x, y);
    await page.waitForSelector('.more-box');
    const { opened, overCard } = (await page.evaluate(`(() => {
      const box = document.querySelector('.more-box');
      const p = box.getBoundingClientRect();
      const name = ${JSON.stringify(told.card)};
      const card = [...document.querySelectorAll('.child')].find((c) => c.querySelector('h2').textContent === name).getBoundingClientRect();
      return {
        opened: box.querySelectorAll('.more-list > ul > li, .more-list > ol > li').length,
        overCard: Math.abs(p.left - card.left) < 2 && Math.abs(p.width - card.width) < 2 && p.top >= card.top - 2 && p.top < card.bottom,
      };
    })()`)) as { opened: number; overCard: boolean };
    // A tap outside the list: the page's corner, where no card is.
    await page.mouse.click(3, 3);
    const closed = (await page.locator('.more-overlay').count()) === 0;
    seen.push({ ...told, opened, overCard, closed });
    if (page.url() !== url) throw new Error(`the page went to ${page.url()}`);
  }
  return seen;
}

/**
 * The items of a card's box (`tests`, `agenda`, ...) by an inner selector: as the card shows them, or,
 * when the whole box gave way, as its name in the footer opens them over the card (then `opened`).
 */
export async function boxItems(page: Page, card: number, box: string, inner = ''): Promise<{ texts: string[]; opened: boolean }> {
  const sel = `li.item${inner ? ' ' + inner : ''}`;
  const onCard = (await page.evaluate(
    `[...[...document.querySelectorAll('.child')][${card}].querySelectorAll('.box.${box}:not(.away) ${sel}')].map((e) => e.textContent)`,
  )) as string[];
  if (onCard.length > 0) return { texts: onCard, opened: false };
  const name = (await page.evaluate(
    `(([...document.querySelectorAll('.child')][${card}].querySelector('.box.${box}.away') || { getAttribute: () => null }).getAttribute('data-name'))`,
  )) as string | null;
  if (name === null) return { texts: [], opened: false };
  const button = page.locator('.child').nth(card).locator('.left-out .more-open', { hasText: name });
  await button.click();
  const texts = await page.locator(`.more-box .more-list ${sel}`).allTextContents();
  await page.mouse.click(3, 3);
  return { texts, opened: true };
}
