// What the family board's browser tests read off the page about its layout and its news, as a parent
// would see them: a line cut in half (by a clipping box or the screen's edge), a card hiding what it
// holds, a footer or calendars link off the screen, and per card the news it shows and what it counts.
// (Browser code as text: the project's TypeScript knows Node, not the DOM.)
import type { Page } from 'playwright-core';

/**
 * Every way the board shows less than a whole line: each text line's box (a text node's client rects)
 * against every box around it that clips and, on a screen that does not scroll, against the screen; a
 * card or a column of one that hides content; a footer or calendars link not wholly on the screen; on a
 * phone, a page wider than the screen. A line a box hides whole (a clamped third line) is no cut.
 */
const PROBLEMS = `(() => {
  const problems = [];
  const board = document.getElementById('board');
  const scrolls = document.documentElement.scrollHeight > innerHeight + 1;
  const where = (el) => {
    const card = el.closest('.child');
    return (card ? card.querySelector('h2').textContent + ': ' : '') + (el.className || el.tagName);
  };
  const walker = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    if (!text) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    // A text's rect is its font's whole height; the line it stands in may be shorter (a line-height under
    // 1.2): a line is cut when its line box is, so measure that, centred on the text.
    const lh = parseFloat(getComputedStyle(n.parentElement).lineHeight);
    for (const rect of range.getClientRects()) {
      if (rect.height === 0 || rect.width === 0) continue;
      const trim = lh > 0 && rect.height > lh ? (rect.height - lh) / 2 : 0;
      const r = { top: rect.top + trim, bottom: rect.bottom - trim };
      let away = false;
      for (let a = n.parentElement; a && a !== board && !away; a = a.parentElement) {
        if (getComputedStyle(a).overflowY === 'visible') continue;
        const top = a.getBoundingClientRect().top + a.clientTop;
        const bottom = top + a.clientHeight;
        if (r.top >= bottom - 1 || r.bottom <= top + 1) away = true;
        else if (r.bottom > bottom + 1 || r.top < top - 1) problems.push('a line cut by ' + where(a) + ': "' + text + '"');
      }
      if (!away && !scrolls && (r.bottom > innerHeight + 1 || r.top < -1)) problems.push("a line cut by the screen's edge: \\"" + text + '"');
    }
  }
  for (const box of document.querySelectorAll('.child, .child .plan, .child .info')) {
    if (getComputedStyle(box).overflowY !== 'visible' && box.scrollHeight > box.clientHeight + 1) problems.push(where(box) + ' hides ' + (box.scrollHeight - box.clientHeight) + ' px');
  }
  for (const card of document.querySelectorAll('.child')) {
    const name = card.querySelector('h2').textContent;
    const parts = [['footer', card.querySelector('.foot')], ['calendars link', card.querySelector('.cal-open')]];
    for (const [what, el] of parts) {
      if (!el) { problems.push(name + ': no ' + what); continue; }
      const r = el.getBoundingClientRect();
      const c = card.getBoundingClientRect();
      if (r.bottom > c.bottom + 1) problems.push(name + ': the ' + what + ' is below the card');
      if (!scrolls && (r.top < 0 || r.bottom > innerHeight + 1)) problems.push(name + ': the ' + what + ' is off the screen');
    }
  }
  if (document.documentElement.scrollWidth > innerWidth + 1) problems.push('the page is wider than the screen');
  return problems;
})()`;

export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(PROBLEMS) as Promise<string[]>;
}

/** One card's news as shown: the unread topics, the message box's "+N", the opened topic, the grades' marks with their words. */
export interface ShownNews {
  name: string;
  unread: string[];
  /** The count the message list shows for what it left out (0 without one). */
  messagesMore: number;
  opened: string | null;
  grades: string[];
  tests: string[];
  agenda: string[];
  /** The subjects of the lessons shown. */
  lessons: string[];
  /** The line naming the boxes that went whole ("Sprawdziany +3 · Szkoła +4"), '' without one. */
  leftOut: string;
}

const NEWS = `[...document.querySelectorAll('.child')].map((card) => {
  const texts = (sel) => [...card.querySelectorAll(sel)].map((e) => e.textContent);
  const more = card.querySelector('.messages li.more');
  const leftOut = card.querySelector('.left-out');
  return {
    leftOut: leftOut ? leftOut.textContent : '',
    name: card.querySelector('h2').textContent,
    unread: texts('.msg.unread .msg-topic'),
    messagesMore: more ? Number(more.getAttribute('data-count')) : 0,
    opened: (card.querySelector('.msg.opened .msg-topic') || { textContent: null }).textContent,
    grades: [...card.querySelectorAll('.grades li.grade')].map((g) => [...g.querySelectorAll('.mark, .mark-name')].map((m) => m.textContent).join(' ')),
    tests: texts('.tests li.item'),
    agenda: texts('.agenda li.item'),
    lessons: texts('.lesson .subject-name'),
  };
})`;

export function shownNews(page: Page): Promise<ShownNews[]> {
  return page.evaluate(NEWS) as Promise<ShownNews[]>;
}
