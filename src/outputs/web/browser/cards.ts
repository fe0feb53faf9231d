// One child's card, drawn from the board model (src/outputs/web/board-model.ts, whose types these are): the
// name and the unread counts, the features' facts, a warning, the news (messages, grades), the timetable of the
// day with its headline, what lies ahead (boxes.ts) and the footer (calendars, last update).
import type { BoardLabels } from '../../../i18n/board-text.js';
import type { BoardChild, BoardDay, BoardFact, BoardHeadline, BoardLesson } from '../board-model.js';
import { agendaBox, gradesBox, homeworkBox, messagesBox, nextChangesBox, noticesBox, schoolBox, standingBox, testsBox } from './boxes.js';
import { calendarsButton } from './calendars.js';
import { el } from './dom.js';

/** A feature's fact beside the name: its label, its value large, and its mark when it is the child's own. */
function badge(f: BoardFact): HTMLElement {
  return el('div', 'badge' + (f.mark === null ? '' : ' mine'), [
    el('span', 'badge-label', f.label),
    el('span', 'badge-value', f.value),
    f.mark === null ? null : el('span', 'badge-mark', f.mark),
  ]);
}

/** A feature's count under the name (the unread messages), marked when it asks to be looked at. */
const pill = (f: BoardFact): HTMLElement => el('span', 'pill' + (f.mark === null ? '' : ' unread'), [f.label + ' ', el('b', null, f.value)]);

function headline(h: BoardHeadline | null): HTMLElement | null {
  if (!h) return null;
  return el('p', 'headline' + (h.change ? ' change-' + h.change : ''), [
    el('span', 'hl-label', h.label),
    el('strong', 'hl-subject', h.subject),
    h.detail ? el('span', 'hl-detail', h.detail) : null,
  ]);
}

function lesson(l: BoardLesson): HTMLElement {
  // A block of a kindergarten's day has no number: its hours say when, from and to (an extra class's note says what it is).
  const block = l.block === true && l.to !== null;
  const cls = 'lesson' + (block ? ' block' : '') + (l.change ? ' changed change-' + l.change : '') + (l.status ? ' ' + l.status : '');
  return el('li', cls, [
    block ? null : el('span', 'no', l.no === null ? '' : String(l.no)),
    el('span', 'time', block ? (l.from || '') + '\u2013' + l.to : l.from || ''),
    el('span', 'subject', el('span', 'subject-name', l.subject || '\u2014')),
    el('span', 'room', l.room || ''),
    // The change in a line of its own under the lesson, as wide as the row: it wraps rather than being cut.
    l.note ? el('span', 'note', l.note) : null,
  ]);
}

function day(d: BoardDay | null): HTMLElement | null {
  if (!d) return null;
  return el('div', 'day', [el('h3', 'day-title', d.title), d.empty ? el('p', 'empty', d.empty) : el('ol', 'lessons', d.lessons.map(lesson))]);
}

function footer(c: BoardChild, labels: BoardLabels): HTMLElement | null {
  const calendars = calendarsButton(c, labels);
  if (!calendars && !c.updated) return null;
  return el('footer', 'foot', [calendars, c.updated ? el('span', 'updated', c.updated) : null]);
}

export function childCard(c: BoardChild, labels: BoardLabels): HTMLElement {
  const w = c.warning;
  const messages = messagesBox(c.messages, labels);
  return el('article', 'child', [
    el('header', 'head', [
      el('div', 'who', [
        el('h2', null, c.name),
        el('div', 'who-line', [c.className ? el('span', 'class', c.className) : null, ...c.facts.filter((f) => f.look === 'count').map(pill)]),
        // The next school day in a sentence, at most two lines; the timetable below says it in full.
        c.briefing ? el('p', 'briefing', c.briefing) : null,
      ]),
      ...c.facts.filter((f) => f.look === 'badge').map(badge),
    ]),
    w ? el('p', 'warning warning-' + w.kind, [el('b', null, w.text), w.detail ? el('span', 'detail', w.detail) : null]) : null,
    // What changed stands above what stays (news-order.ts): the messages and grades, then the timetable.
    el('div', 'news', [messages, noticesBox(c.notices, labels), gradesBox(c, labels)]),
    // The next school day's changes head the timetable: news as the order ranks them, and in a card of two columns
    // beside the lessons still ahead, which give way for them.
    // Under the day, how this and next week differ from the standing plan: the timetable's column, giving way in it.
    el('div', 'plan', [nextChangesBox(c.nextChanges, labels), headline(c.headline), day(c.day), standingBox(c.standing, labels)]),
    el('div', 'info', [testsBox(c, labels), agendaBox(c, labels), homeworkBox(c, labels), schoolBox(c, labels)]),
    footer(c, labels),
  ]);
}
