// One child's card, drawn from the board model (src/web/board-model.ts, whose types these are): the
// name and the unread counts, the lucky number, a warning, the plan of the day with its headline, the
// homework, tests, messages and grades, and the footer (calendars, last update).
import type { BoardLabels } from '../../i18n/board-text.js';
import type { BoardChild, BoardDay, BoardHeadline, BoardLesson, BoardMessage, BoardMessages } from '../board-model.js';
import { calendarsButton } from './calendars.js';
import { el, pageUrl } from './dom.js';

function lucky(l: BoardChild['lucky'], labels: BoardLabels): HTMLElement | null {
  if (!l) return null;
  return el('div', 'lucky' + (l.mine ? ' mine' : ''), [
    el('span', 'lucky-label', labels.lucky + (l.day ? ' ' + l.day : '')),
    el('span', 'lucky-number', l.number),
    l.mine ? el('span', 'lucky-you', labels.itsYou) : null,
  ]);
}

function pill(label: string, n: number | null): HTMLElement | null {
  if (n === null || n === undefined) return null;
  return el('span', 'pill' + (n > 0 ? ' unread' : ''), [label + ' ', el('b', null, String(n))]);
}

function headline(h: BoardHeadline | null): HTMLElement | null {
  if (!h) return null;
  return el('p', 'headline' + (h.change ? ' change-' + h.change : ''), [
    el('span', 'hl-label', h.label),
    el('strong', 'hl-subject', h.subject),
    h.detail ? el('span', 'hl-detail', h.detail) : null,
  ]);
}

function lesson(l: BoardLesson): HTMLElement {
  const cls = 'lesson' + (l.change ? ' change-' + l.change : '') + (l.status ? ' ' + l.status : '');
  const subject = el('span', 'subject', [el('span', 'subject-name', l.subject || '—'), l.note ? el('span', 'note', l.note) : null]);
  return el('li', cls, [
    el('span', 'no', l.no === null ? '' : String(l.no)),
    el('span', 'time', l.from || ''),
    subject,
    el('span', 'room', l.room || ''),
  ]);
}

function day(d: BoardDay | null): HTMLElement | null {
  if (!d) return null;
  return el('div', 'day', [el('h3', 'day-title', d.title), d.empty ? el('p', 'empty', d.empty) : el('ol', 'lessons', d.lessons.map(lesson))]);
}

function box(cls: string, title: string, items: HTMLElement[], empty: string): HTMLElement {
  return el('section', 'box ' + cls, [el('h3', null, title), items.length ? el('ul', null, items) : el('p', 'empty', empty)]);
}

/**
 * A saved file as a download link, relative to the page (the add-on's ingress serves the board under a
 * path of its own); one not saved is its name only.
 */
function fileLink(icon: string, f: { name: string; url: string | null }): HTMLElement {
  if (f.url === null) return el('span', 'file', icon + ' ' + f.name);
  const link = el('a', 'file', icon + ' ' + f.name);
  link.href = pageUrl(f.url.replace(/^\//, ''));
  link.setAttribute('download', f.name);
  return link;
}

/** "Anna Nowak · pt. 20.11", what a message line says after its mark. */
function sentBy(m: BoardMessage): string {
  return [m.sender, m.when].filter((p): p is string => !!p).join(' · ');
}

/**
 * The messages box: the opened message with the start of its text and its attachments, then the
 * newest message while unread (a saved one is a download link, relative to the page: the add-on's ingress
 * serves the board under a path of its own). No box when there is neither.
 */
function messages(m: BoardMessages | null, labels: BoardLabels): HTMLElement | null {
  if (!m) return null;
  const items: HTMLElement[] = [];
  const o = m.opened;
  if (o) {
    const files = o.attachments.map((a) => fileLink('📎', a));
    items.push(
      el('li', 'msg opened', [
        el('div', 'msg-line', [el('span', 'msg-mark', labels.openedMessage), ' ', el('b', 'msg-topic', o.topic)]),
        o.withdrawn ? el('span', 'msg-withdrawn', labels.withdrawn) : null,
        el('span', 'when', sentBy(o)),
        o.text ? el('p', 'msg-text', o.text) : null,
        files.length ? el('div', 'files', files) : null,
      ]),
    );
  }
  // After the opened message, which a parent asked to see: the fitting takes the unread line first.
  m.unread.forEach((u) =>
    items.push(el('li', 'msg unread', [el('div', 'msg-line', [el('span', 'msg-mark', labels.unreadMessage), ' ', el('b', 'msg-topic', u.topic)]), el('span', 'when', sentBy(u))])),
  );
  return box('messages', labels.messages, items, '');
}

/** The school box: behaviour, whether the newest sent message was read, the newest school files. No box when all are empty. */
function school(c: BoardChild, labels: BoardLabels): HTMLElement | null {
  const s = c.school;
  const items: HTMLElement[] = [];
  if (s.behaviour) items.push(el('li', null, [labels.behaviour + ': ', el('b', null, s.behaviour)]));
  if (s.sent) items.push(el('li', 'sent', [(s.sent.read ? '✅ ' : '✉️ '), el('b', null, s.sent.topic), ' ' + (s.sent.read ? labels.sentRead : labels.sentUnread)]));
  for (const f of s.files) items.push(f.url === null ? el('li', 'file', '📄 ' + f.name) : el('li', null, [fileLink('📄', f)]));
  if (items.length === 0) return null;
  return box('school', labels.school, items, '');
}

function footer(c: BoardChild, labels: BoardLabels): HTMLElement | null {
  const calendars = calendarsButton(c, labels);
  if (!calendars && !c.updated) return null;
  return el('footer', 'foot', [calendars, c.updated ? el('span', 'updated', c.updated) : null]);
}

export function childCard(c: BoardChild, labels: BoardLabels): HTMLElement {
  const w = c.warning;
  const homework = c.homework.items.map((h) =>
    el('li', null, [h.subject ? el('b', null, h.subject) : null, h.text ? ' ' + h.text : '', h.files.length ? el('div', 'files', h.files.map((f) => fileLink('📎', f))) : null]),
  );
  const tests = c.tests.map((t) =>
    el('li', null, [
      el('span', 'when', t.when),
      ' ',
      el('span', 'kind', t.kind),
      el('span', 'what', [t.subject ? el('b', null, t.subject) : null, t.subject && t.text ? ': ' : '', t.text || '']),
    ]),
  );
  // A proposed term grade of this week first: the family should hear of it before the term ends.
  const proposals = c.proposals.map((p) =>
    el('li', 'grade proposal', [el('span', 'mark', p.grade), el('span', 'grade-subject', [p.subject ? el('b', null, p.subject) : null, ' ' + p.what]), el('span', 'when', p.when)]),
  );
  const grades = [...proposals, ...c.grades.map((g) => el('li', 'grade', [el('span', 'mark', g.grade), el('span', 'grade-subject', g.subject || ''), el('span', 'when', g.when)]))];
  return el('article', 'child', [
    el('header', 'head', [
      el('div', 'who', [
        el('h2', null, c.name),
        el('div', 'who-line', [c.className ? el('span', 'class', c.className) : null, pill(labels.messages, c.unread.messages), pill(labels.notices, c.unread.notices)]),
        // The next school day in a sentence, at most two lines: the lists below give way, not the head.
        c.briefing ? el('p', 'briefing', c.briefing) : null,
      ]),
      lucky(c.lucky, labels),
    ]),
    w ? el('p', 'warning warning-' + w.kind, [el('b', null, w.text), w.detail ? el('span', 'detail', w.detail) : null]) : null,
    el('div', 'plan', [headline(c.headline), day(c.day)]),
    el('div', 'info', [
      box('homework', c.homework.title, homework, labels.noHomework),
      box('tests', labels.tests, tests, labels.noTests),
      messages(c.messages, labels),
      box('grades', labels.grades, grades, labels.noGrades),
      school(c, labels),
    ]),
    footer(c, labels),
  ]);
}
