// The family board's script (`board.js`), served as a file of its own because the page's CSP allows
// no inline script. It draws the board model (src/web/board-model.ts) the page carries, then keeps
// it current from `api/events` (server-sent events), polling `api/board` every minute while the
// stream is down. Plain ES2017 for the old browsers of wall tablets; text only through textContent,
// so nothing from the register is ever read as HTML. The cards' calendars overlay: board-calendars.ts.
import { CALENDARS_SCRIPT } from './board-calendars.js';

export const BOARD_SCRIPT = String.raw`'use strict';
(function () {
  var POLL_MS = 60000;
  var board = document.getElementById('board');
  var status = document.getElementById('status');
  var labels = {};
  var version = '';
  var stream = null;
  var lastContact = Date.now();

  // The token the page was opened with, carried to the data requests (the cookie does it too).
  var token = new URLSearchParams(location.search).get('token');
  function url(path, extra) {
    var q = new URLSearchParams(extra || {});
    if (token) q.set('token', token);
    var s = q.toString();
    return s ? path + '?' + s : path;
  }

  function el(tag, cls, content) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (content === undefined || content === null) return e;
    (Array.isArray(content) ? content : [content]).forEach(function (c) {
      if (c === null || c === undefined || c === '') return;
      e.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
    });
    return e;
  }

${CALENDARS_SCRIPT}
  function showStatus(text) {
    status.textContent = text || '';
    status.hidden = !text;
  }

  function lucky(l) {
    if (!l) return null;
    return el('div', 'lucky' + (l.mine ? ' mine' : ''), [
      el('span', 'lucky-label', labels.lucky + (l.day ? ' ' + l.day : '')),
      el('span', 'lucky-number', l.number),
      l.mine ? el('span', 'lucky-you', labels.itsYou) : null,
    ]);
  }

  function pill(label, n) {
    if (n === null || n === undefined) return null;
    return el('span', 'pill' + (n > 0 ? ' unread' : ''), [label + ' ', el('b', null, String(n))]);
  }

  function headline(h) {
    if (!h) return null;
    return el('p', 'headline' + (h.change ? ' change-' + h.change : ''), [
      el('span', 'hl-label', h.label),
      el('strong', 'hl-subject', h.subject),
      h.detail ? el('span', 'hl-detail', h.detail) : null,
    ]);
  }

  function lesson(l) {
    var cls = 'lesson' + (l.change ? ' change-' + l.change : '') + (l.status ? ' ' + l.status : '');
    var subject = el('span', 'subject', [el('span', 'subject-name', l.subject || '—'), l.note ? el('span', 'note', l.note) : null]);
    return el('li', cls, [
      el('span', 'no', l.no === null ? '' : String(l.no)),
      el('span', 'time', l.from || ''),
      subject,
      el('span', 'room', l.room || ''),
    ]);
  }

  function day(d) {
    if (!d) return null;
    return el('div', 'day', [
      el('h3', 'day-title', d.title),
      d.empty ? el('p', 'empty', d.empty) : el('ol', 'lessons', d.lessons.map(lesson)),
    ]);
  }

  function box(cls, title, items, empty) {
    return el('section', 'box ' + cls, [el('h3', null, title), items.length ? el('ul', null, items) : el('p', 'empty', empty)]);
  }

  function child(c) {
    var w = c.warning;
    var homework = c.homework.items.map(function (h) {
      return el('li', null, [h.subject ? el('b', null, h.subject) : null, h.text ? ' ' + h.text : '']);
    });
    var tests = c.tests.map(function (t) {
      return el('li', null, [
        el('span', 'when', t.when), ' ', el('span', 'kind', t.kind),
        el('span', 'what', [t.subject ? el('b', null, t.subject) : null, t.subject && t.text ? ': ' : '', t.text || '']),
      ]);
    });
    var grades = c.grades.map(function (g) {
      return el('li', 'grade', [el('span', 'mark', g.grade), el('span', 'grade-subject', g.subject || ''), el('span', 'when', g.when)]);
    });
    return el('article', 'child', [
      el('header', 'head', [
        el('div', 'who', [
          el('h2', null, c.name),
          el('div', 'who-line', [c.className ? el('span', 'class', c.className) : null, pill(labels.messages, c.unread.messages), pill(labels.notices, c.unread.notices)]),
        ]),
        lucky(c.lucky),
      ]),
      w ? el('p', 'warning warning-' + w.kind, [el('b', null, w.text), w.detail ? el('span', 'detail', w.detail) : null]) : null,
      el('div', 'plan', [headline(c.headline), day(c.day)]),
      el('div', 'info', [
        box('homework', c.homework.title, homework, labels.noHomework),
        box('tests', labels.tests, tests, labels.noTests),
        box('grades', labels.grades, grades, labels.noGrades),
      ]),
      footer(c),
    ]);
  }

  function footer(c) {
    var calendars = calendarsButton(c);
    if (!calendars && !c.updated) return null;
    return el('footer', 'foot', [calendars, c.updated ? el('span', 'updated', c.updated) : null]);
  }

  // On a tablet the whole card must fit the screen: the lists below the plan lose their last items
  // (grades first, then tests, then homework), then whole lists, rather than show a line cut in half.
  // Items taken away early that fit again once a later list gave way come back.
  function fit(card) {
    var info = card.querySelector('.info');
    if (!info || getComputedStyle(info).overflow !== 'hidden') return;
    var over = function () { return info.scrollHeight > info.clientHeight + 1; };
    var steps = [['.grades', 1], ['.tests', 1], ['.homework', 1], ['.grades', 0], ['.tests', 0], ['.homework', 0]];
    var taken = [];
    for (var s = 0; s < steps.length && over(); s++) {
      var box = info.querySelector(steps[s][0]);
      var group;
      while (box && over() && (group = shorten(info, box, steps[s][1]))) {
        if (group.length) taken.push(group);
        box = info.querySelector(steps[s][0]);
      }
    }
    // Back in the reverse order of their going, so a list keeps its order; once an item of a list
    // does not fit, the items after it stay away.
    var blocked = [];
    for (var t = taken.length - 1; t >= 0; t--) {
      var list = taken[t][0].list;
      if (blocked.indexOf(list) >= 0) continue;
      taken[t].forEach(function (i) { list.appendChild(i.li); });
      if (over()) {
        taken[t].forEach(function (i) { list.removeChild(i.li); });
        blocked.push(list);
      }
    }
  }

  // Takes a list's last items away until the lists get shorter (a wrapped row of grades goes whole),
  // keeping min of them, and answers them; min 0 takes the list with its heading (answers []). When
  // that cannot help, puts them back and answers null.
  function shorten(info, box, min) {
    if (min === 0) {
      box.parentNode.removeChild(box);
      return [];
    }
    var before = info.scrollHeight;
    var list = box.querySelector('ul');
    var items = box.querySelectorAll('li');
    var group = [];
    for (var n = items.length - 1; n >= min; n--) {
      group.unshift({ list: list, li: items[n] });
      list.removeChild(items[n]);
      if (info.scrollHeight < before) return group;
    }
    group.forEach(function (i) { list.appendChild(i.li); });
    return null;
  }

  var shown = null;
  function render(model, v) {
    shown = model;
    labels = model.labels;
    version = v || version;
    document.title = labels.title;
    board.style.setProperty('--children', String(Math.max(1, model.children.length)));
    board.className = 'board children-' + model.children.length;
    var cards = model.children.length ? model.children.map(child) : [el('p', 'empty', labels.noChildren)];
    while (board.firstChild) board.removeChild(board.firstChild);
    cards.forEach(function (c) { board.appendChild(c); });
    cards.forEach(function (c) { if (c.className === 'child') fit(c); });
  }

  // A tablet turned round: the cards are laid out anew and fitted again.
  var resizing = null;
  window.addEventListener('resize', function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () { if (shown) render(shown); }, 200);
  });

  function noAccess() {
    while (board.firstChild) board.removeChild(board.firstChild);
    showStatus(labels.noAccess || 'No access (401)');
  }

  function poll() {
    fetch(url('api/board'), { credentials: 'same-origin', cache: 'no-cache' }).then(function (r) {
      if (r.status === 401) return noAccess();
      if (!r.ok) throw new Error(String(r.status));
      return r.json().then(function (body) {
        lastContact = Date.now();
        showStatus('');
        render(body.model, body.version);
      });
    }).catch(function () {
      showStatus(labels.connectionLost);
    });
  }

  function listen() {
    if (typeof EventSource === 'undefined') return;
    stream = new EventSource(url('api/events', { v: version }));
    stream.addEventListener('board', function (e) {
      var body = JSON.parse(e.data);
      lastContact = Date.now();
      showStatus('');
      render(body.model, body.version);
    });
    stream.addEventListener('open', function () {
      lastContact = Date.now();
      showStatus('');
    });
    stream.addEventListener('error', function () {
      // A closed stream (refused, or the browser gave up) is not retried: polling takes over.
      if (stream.readyState === EventSource.CLOSED) poll();
    });
  }

  // While the stream is not open the board polls, and says so when the bridge stays out of reach.
  setInterval(function () {
    if (stream && stream.readyState === EventSource.OPEN) return;
    poll();
    if (Date.now() - lastContact > 2 * POLL_MS) showStatus(labels.connectionLost);
  }, POLL_MS);

  var initial = document.getElementById('board-data');
  if (initial) {
    var first = JSON.parse(initial.textContent);
    render(first.model, first.version);
  }
  listen();
})();
`;
