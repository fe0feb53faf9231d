// The order of a child's card, as data: what changed today stands above what stays, and on a short screen
// the card gives way from the end of this list (fit.ts), counting what it leaves out of a list ("+2").
// Each part names the card's elements it takes; an element taken by an earlier part stays with that one.

export interface NewsPart {
  /** In a parent's words (the docs and the tests name the parts by it). */
  what: string;
  /** The card's elements it takes, by a selector the card's markup answers (cards.ts, boxes.ts). */
  items: string;
  /** How many of them it takes, from the first in the card; all that are left when absent. */
  first?: number;
  /** Which end gives way first: the last (the oldest of a list, the default), or the first (lessons over). */
  from?: 'first' | 'last';
  /** Never gives way: the day's changes and the lesson on now are the timetable itself. */
  stays?: true;
}

/** A child's card, most news first. */
export const NEWS_ORDER: readonly NewsPart[] = [
  { what: 'the newest unread message', items: '.msg.unread', first: 1 },
  { what: 'the newest grade of the last days', items: '.grade.fresh', first: 1 },
  { what: "the first change of the next school day's plan", items: '.next-change', first: 1 },
  { what: 'the newest unread announcement', items: '.notice', first: 1 },
  { what: 'the other unread messages, newest first', items: '.msg.unread' },
  { what: "the other changes of the next school day's plan", items: '.next-change' },
  { what: "today's plan changes and the lesson on now", items: '.lesson.changed, .lesson.now', stays: true },
  { what: 'the nearest test', items: '.tests li.item', first: 1 },
  { what: 'the homework for the next school day', items: '.homework li.item', first: 1 },
  { what: 'the message opened from Home Assistant', items: '.msg.opened' },
  { what: "the opened message's attachments", items: '.msg.opened .files' },
  { what: "the opened message's text (the dashboard has it whole)", items: '.msg.opened .msg-text' },
  { what: 'the lessons still ahead', items: '.lesson:not(.done)' },
  { what: 'the nearest trip or meeting', items: '.agenda li.item', first: 1 },
  { what: 'the other grades of the last days', items: '.grade.fresh' },
  { what: 'the other tests', items: '.tests li.item' },
  { what: 'the other homework', items: '.homework li.item' },
  { what: 'the other trips and meetings', items: '.agenda li.item' },
  { what: 'how this and next week differ from the standing plan', items: '.standing li.item' },
  { what: 'the other unread announcements', items: '.notice' },
  { what: 'older grades', items: '.grade' },
  { what: 'the line above the plan (the lesson on now or next)', items: '.headline' },
  { what: 'the lessons already over', items: '.lesson.done', from: 'first' },
  { what: 'the next school day in a sentence', items: '.briefing' },
  {
    what: "the school's things: behaviour, the tutor, the sent message's read state, the school's files, attendance by subject",
    items: '.school li.item',
  },
  { what: 'a box that says there is nothing', items: '.box.none' },
];
