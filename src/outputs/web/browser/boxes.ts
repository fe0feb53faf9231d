// The boxes of a child's card, drawn from the board model: the news (unread messages above the opened
// one, the newest grades) and what lies ahead (tests, trips and meetings, homework, the school's things).
// Every item a short screen may leave out is an `li.item` (a message `.msg`, a grade `.grade`), as the
// news order (news-order.ts) names them; a box that says there is nothing is `.box.none`.
import type { BoardLabels } from '../../../i18n/board-text.js';
import type { BoardChild, BoardMessage, BoardMessages, BoardNextChanges, BoardNotice, BoardStanding } from '../board-model.js';
import { el, pageUrl } from './dom.js';

/** A box with its heading; `name` is what the card's footer calls it when all its items gave way (left-out.ts). */
function box(cls: string, title: string, items: HTMLElement[], empty: string, name = title): HTMLElement {
  if (items.length === 0) return el('section', 'box none ' + cls, [el('h3', null, title), el('p', 'empty', empty)]);
  const b = el('section', 'box ' + cls, [el('h3', null, title), el('ul', null, items)]);
  b.setAttribute('data-name', name);
  return b;
}

/**
 * A file's mark: a sheet drawn by the style sheet (board.css), not a glyph, since a tablet's browser
 * without an emoji font shows an emoji as an empty box.
 */
const fileMark = (): HTMLElement => el('span', 'file-mark');

/**
 * A saved file as a download link, relative to the page (the add-on's ingress serves the board under a
 * path of its own); one not saved is its name only.
 */
function fileLink(f: { name: string; url: string | null }): HTMLElement {
  if (f.url === null) return el('span', 'file', [fileMark(), f.name]);
  const link = el('a', 'file', [fileMark(), f.name]);
  link.href = pageUrl(f.url.replace(/^\//, ''));
  link.setAttribute('download', f.name);
  return link;
}

/** "Anna Nowak · pt. 20.11", what a message line says after its mark. */
function sentBy(m: BoardMessage): string {
  return [m.sender, m.when].filter((p): p is string => !!p).join(' · ');
}

/** The line of a message or an announcement: its mark, its topic and who sent it when. */
const msgLine = (mark: string, topic: string, when: string | null): HTMLElement =>
  el('div', 'msg-line', [el('span', 'msg-mark', mark), ' ', el('b', 'msg-topic', topic), when ? ' ' : '', el('span', 'when', when)]);

/**
 * The messages box: the unread messages, newest first, then the message opened from Home Assistant with
 * the start of its text and its attachments. No box when there is neither.
 */
export function messagesBox(m: BoardMessages | null, labels: BoardLabels): HTMLElement | null {
  if (!m) return null;
  const items = m.unread.map((u) => el('li', 'item msg unread', [msgLine(labels.unreadMessage, u.topic, sentBy(u))]));
  const o = m.opened;
  if (o) {
    items.push(
      el('li', 'item msg opened', [
        msgLine(labels.openedMessage, o.topic, sentBy(o)),
        o.withdrawn ? el('span', 'msg-withdrawn', labels.withdrawn) : null,
        o.text ? el('p', 'msg-text', o.text) : null,
        o.attachments.length ? el('div', 'files', o.attachments.map(fileLink)) : null,
      ]),
    );
  }
  return box('messages', labels.messages, items, '');
}

/** A grade's line, a space between its parts: a row of flex items ignores it, a line that flows (a text grade, an opened list) needs it. */
function gradeLine(cls: string, parts: Array<HTMLElement | null>): HTMLElement {
  const spaced = parts.flatMap((p, i) => (p === null ? [] : i > 0 ? [' ', p] : [p]));
  return el('li', 'item grade ' + cls, spaced);
}

/** The newest grades, the newest first and a proposed term grade of this week after it; a mark that is no grade says what it means. */
export function gradesBox(c: BoardChild, labels: BoardLabels): HTMLElement | null {
  // No grades known for this child (a kindergarten, a list never answered): no box that says there are none.
  if (!c.grades) return null;
  // The family should hear of a proposal before the term ends: it is news all its week.
  const proposals = c.proposals.map((p) =>
    gradeLine('fresh proposal', [
      el('span', 'mark', p.grade),
      el('span', 'grade-subject', [p.subject ? el('b', null, p.subject) : null, ' ' + p.what]),
      el('span', 'when', p.when),
    ]),
  );
  // A text grade's words follow its subject and teacher: "Wychowanie fizyczne · J. Kowalska Aktywnie uczestniczy…".
  const grades = c.grades.map((g) => {
    const mark = el('span', 'mark', g.grade);
    return gradeLine((g.fresh ? 'fresh' : '') + (g.text ? ' text' : ''), [
      g.text ? null : mark,
      g.name ? el('span', 'mark-name', '(' + g.name + ')') : null,
      el('span', 'grade-subject', g.subject || ''),
      g.teacher ? el('span', 'grade-teacher', '\u00b7 ' + g.teacher) : null,
      g.text ? mark : null,
      g.forecast ? el('span', 'forecast', g.forecast) : null,
      g.comment ? el('span', 'grade-comment', g.comment) : null,
      el('span', 'when', g.when),
    ]);
  });
  // The newest real grade first, the proposals labelled after it, then the other grades (a descriptive or text one too).
  return box('grades', labels.grades, grades.slice(0, 1).concat(proposals, grades.slice(1)), labels.noGrades);
}

export function testsBox(c: BoardChild, labels: BoardLabels): HTMLElement | null {
  if (!c.tests) return null;
  const tests = c.tests.map((t) =>
    el('li', 'item', [
      el('span', 'when', t.when),
      ' ',
      el('span', 'kind', t.kind),
      el('span', 'what', [t.subject ? el('b', null, t.subject) : null, t.subject && t.text ? ': ' : '', t.text || '']),
    ]),
  );
  return box('tests', labels.tests, tests, labels.noTests);
}

/** Trips, meetings and the other agenda entries, apart from the tests; no box when there are none. */
export function agendaBox(c: BoardChild, labels: BoardLabels): HTMLElement | null {
  if (c.agenda.length === 0) return null;
  const entries = c.agenda.map((a) =>
    el('li', 'item', [el('span', 'when', a.when), ' ', el('span', 'kind', a.kind), el('span', 'what', a.text || '')]),
  );
  return box('agenda', labels.agenda, entries, '');
}

export function homeworkBox(c: BoardChild, labels: BoardLabels): HTMLElement | null {
  if (!c.homework) return null;
  const homework = c.homework.items.map((h) =>
    el('li', 'item', [
      h.when ? el('span', 'when', h.when) : null,
      h.when ? ' ' : '',
      h.subject ? el('b', null, h.subject) : null,
      h.text ? ' ' + h.text : '',
      h.files.length ? el('div', 'files', h.files.map(fileLink)) : null,
    ]),
  );
  return box('homework', c.homework.title, homework, labels.noHomework, labels.homework);
}

/**
 * The school box under the school's name: behaviour, the tutor, whether the newest sent message was read, the
 * newest school files, the semester's attendance with each subject's, lowest first (one item: its "+1" stays
 * short in the footer). No box when all are empty.
 */
export function schoolBox(c: BoardChild, labels: BoardLabels): HTMLElement | null {
  const s = c.school;
  const items: HTMLElement[] = [];
  if (s.behaviour) items.push(el('li', 'item', [labels.behaviour + ': ', el('b', null, s.behaviour)]));
  if (s.tutor) items.push(el('li', 'item', [labels.tutor + ': ', el('b', null, s.tutor)]));
  if (s.sent)
    items.push(
      el('li', 'item sent' + (s.sent.read ? ' read' : ''), [el('b', null, s.sent.topic), ' ' + (s.sent.read ? labels.sentRead : labels.sentUnread)]),
    );
  (s.files ?? []).forEach((f) => items.push(el('li', 'item', [fileLink(f)])));
  if (s.attendance)
    items.push(
      el('li', 'item', [s.attendance + ': ', ...(s.bySubject ?? []).map((a) => el('span', 'share', [a.subject + ' ', el('b', null, a.percent)]))]),
    );
  if (items.length === 0) return null;
  return box('school', s.name || labels.school, items, '', labels.school);
}

/** The next school day's plan changes, each with the day named: a cancelled first lesson is tomorrow's news today. */
export function nextChangesBox(n: BoardNextChanges | null, labels: BoardLabels): HTMLElement | null {
  if (!n) return null;
  const items = n.items.map((c) =>
    el('li', 'item next-change change-' + c.change, [
      // The day is in the heading; opened over the card (more.ts) the heading stays.
      el('b', 'next-subject', [c.no === null ? '' : c.no + '. ', c.subject || '']),
      c.time ? el('span', 'when', c.time) : null,
      el('span', 'note', c.note),
    ]),
  );
  // Named in the footer by its short name when all of it gave way; opened, it says the day again.
  return box('next-changes', n.title, items, '', labels.planChanges);
}

/** This and next week against the standing plan: each difference under its short day; no box without one; short in the footer. */
export function standingBox(s: BoardStanding | null, labels: BoardLabels): HTMLElement | null {
  if (!s) return null;
  const items = s.items.map((d) => el('li', 'item standing', [el('span', 'when', d.day), ' ' + d.line]));
  return box('standing', s.title, items, '', labels.standing);
}

/** The unread announcements by their titles, newest first; no box without one. */
export function noticesBox(notices: BoardNotice[], labels: BoardLabels): HTMLElement | null {
  if (notices.length === 0) return null;
  const items = notices.map((n) => el('li', 'item notice', [msgLine(labels.unreadNotice, n.title, n.when)]));
  return box('notices', labels.notices, items, '');
}
