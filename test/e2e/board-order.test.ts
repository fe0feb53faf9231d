// The card's news order (src/outputs/web/browser/news-order.ts) at work in Chromium: one full card, drawn by the
// board's own page and script from a model made here, on ever shorter screens. At every height the card
// fits with no line cut; what went is counted; and it gave way from the least news end: while an unread
// message or a part more news is away, something less news stands on the card only in room too small for
// the next item of the part that went (asked of the parts in a list a "+N" opens).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBoardPage, useBrowser, skipBrowser as skip, screenshot } from '../helpers/board-browser.js';
import { layoutProblems } from '../helpers/board-layout.js';
import { serveModel, type ModelServer } from '../helpers/board-serve.js';
import { calendarFeedLinks } from '../../src/outputs/web/board-calendars.js';
import { BOARD_TEXT } from '../../src/i18n/board-text.js';
import type { BoardChild, BoardGrade, BoardLesson, BoardModel } from '../../src/outputs/web/board-model.js';
import { NEWS_ORDER } from '../../src/outputs/web/browser/news-order.js';

const lesson = (no: number, subject: string, status: BoardLesson['status'], change: BoardLesson['change'] = null): BoardLesson => ({
  no,
  from: `${7 + no}:00`.padStart(5, '0'),
  to: `${7 + no}:45`.padStart(5, '0'),
  subject,
  room: '12',
  change,
  note: change === null ? null : 'zastępstwo · zamiast: Matematyka',
  status,
  extra: undefined,
  block: undefined,
});

/** A grade of the last days with its subject and teacher, no comment and no forecast. */
const grade = (mark: string, subject: string, teacher: string | null): BoardGrade => ({
  grade: mark,
  name: null,
  subject,
  teacher,
  text: false,
  comment: null,
  forecast: null,
  when: 'pt. 13.11',
  fresh: true,
});

/** The school box's items: behaviour, the tutor, the sent message, the files, the attendance with each subject's. */
const schoolItems = (c: BoardChild): number =>
  [c.school.behaviour, c.school.tutor, c.school.sent, c.school.attendance].filter(Boolean).length + (c.school.files?.length ?? 0);

/** A child with something in every part of the news order. */
function fullChild(id: string, name: string): BoardChild {
  return {
    id,
    name,
    className: 'Klasa 4b',
    facts: [
      { look: 'badge', label: 'Szczęśliwy numerek', value: '13', mark: null },
      { look: 'count', label: 'Wiadomości', value: '4', mark: '' },
      { look: 'count', label: 'Ogłoszenia', value: '1', mark: '' },
    ],
    headline: { label: 'Teraz', subject: 'Język angielski', detail: 'do 10:45', change: 'substitution' },
    briefing: 'Dziś 8:00–14:45, 7 lekcji. Zmiany: Język angielski (zastępstwo).',
    day: {
      date: '2026-11-18',
      title: 'Dziś, środa 18.11',
      lessons: [
        lesson(1, 'Przyroda', 'done'),
        lesson(2, 'Matematyka', 'done'),
        lesson(3, 'Język angielski', 'now', 'substitution'),
        lesson(4, 'Historia', null),
        lesson(5, 'Plastyka', null, 'room_change'),
        lesson(6, 'Religia', null),
        lesson(7, 'Informatyka', null),
      ],
      empty: null,
    },
    nextChanges: {
      date: '2026-11-19',
      title: 'Zmiany planu: jutro, czw. 19.11',
      items: [
        { day: 'jutro', no: 1, time: '08:00', subject: 'Przyroda', change: 'cancelled', note: 'odwołana' },
        { day: 'jutro', no: 3, time: '09:50', subject: 'Historia', change: 'substitution', note: 'zastępstwo · zamiast: Matematyka' },
      ],
    },
    // No difference from the standing plan: its box, when a week has one, names itself in the footer once it gave way
    // whole, a line that a 1280x600 card of every other part has no room for (the newest grade would give way).
    standing: null,
    notices: [
      { title: 'Dzień otwarty szkoły w sobotę', when: 'dziś' },
      { title: 'Zbiórka makulatury', when: 'pon. 16.11' },
    ],
    homework: {
      title: 'Zadania domowe',
      items: [
        { when: null, subject: 'Matematyka', text: 'Ułamki – karta pracy', files: [] },
        { when: null, subject: 'Język polski', text: 'Wypracowanie', files: [] },
      ],
    },
    tests: [
      { when: 'jutro', subject: 'Przyroda', kind: 'kartkówka', text: 'Trzy ostatnie tematy' },
      { when: 'pon. 23.11', subject: 'Matematyka', kind: 'sprawdzian', text: 'Ułamki' },
      { when: 'czw. 26.11', subject: 'Historia', kind: 'kartkówka', text: 'Piastowie' },
    ],
    agenda: [
      { when: 'pon. 23.11 – pt. 27.11', kind: 'wycieczka', text: 'Zielona szkoła: Karpacz' },
      { when: 'pon. 30.11 17:30', kind: 'zebranie', text: 'Zebranie z rodzicami' },
    ],
    grades: [
      { ...grade('4', 'Matematyka', 'J. Kowalska'), forecast: 'prognoza 4', when: 'dziś', fresh: true },
      { ...grade('0', 'Język polski', 'E. Szymańska'), name: 'nie jest oceną', comment: 'Brak zadania', forecast: 'prognoza 4', when: 'wczoraj' },
      { ...grade('5+', 'Język angielski', 'M. Piotrowska'), comment: 'Bardzo dobra wymowa, brawo!', when: 'pon. 16.11' },
      { ...grade('6', 'Historia', null), forecast: 'prognoza 5', fresh: false },
      // A text grade: its words, a line of the card.
      { ...grade('Prace plastyczne staranne i pomysłowe, chętnie pokazuje je klasie…', 'Plastyka', 'A. Wiśniewska'), text: true, fresh: false },
    ],
    proposals: [],
    school: {
      name: 'Szkoła Podstawowa nr 7 im. Marii Konopnickiej w Zielonkach',
      behaviour: 'bardzo dobre',
      attendance: 'Frekwencja 94,2%',
      bySubject: [
        ['Przyroda', '81,3%'],
        ['Wychowanie fizyczne', '87,5%'],
        ['Matematyka', '92%'],
        ['Język polski', '95,2%'],
        ['Historia', '100%'],
      ].map(([subject, percent]) => ({ subject: subject!, percent: percent! })),
      tutor: 'Anna Nowak',
      sent: { topic: 'Nieobecność', read: true },
      files: [{ name: 'Statut.pdf', url: null }],
    },
    messages: {
      unread: ['Składka na ubezpieczenie', 'Strój galowy w piątek', 'Zmiana terminu zebrania', 'Zebranie z rodzicami'].map((topic) => ({
        topic,
        sender: 'Anna Nowak',
        when: 'dziś',
      })),
      opened: {
        topic: 'Zgoda na wyjście do teatru',
        sender: 'Anna Nowak',
        when: 'dziś',
        text: 'Prosimy o zgodę do piątku.\nWyjście o 9:00.',
        withdrawn: false,
        attachments: [{ name: 'zgoda.pdf', url: null }],
      },
    },
    warning: null,
    updated: 'Aktualizacja: 09:11',
    calendarFeeds: calendarFeedLinks({ id, name, model: null, online: true, states: new Map(), changedAt: 0 }, name, 'pl'),
  };
}

/** What of each part of the order the card shows, read by the part's own selector (the markup it names). */
const SHOWN = `[...document.querySelectorAll('.child')].map((card) => ({
  unread: [...card.querySelectorAll('.msg.unread .msg-topic')].map((e) => e.textContent),
  nextChanges: card.querySelectorAll('.next-change').length,
  notices: [...card.querySelectorAll('.notice .msg-topic')].map((e) => e.textContent),
  grades: [...card.querySelectorAll('.grades li.grade .mark')].map((e) => e.textContent),
  lessons: [...card.querySelectorAll('.lesson .subject-name')].map((e) => e.textContent),
  headline: card.querySelectorAll('.headline').length,
  briefing: card.querySelectorAll('.briefing').length,
  tests: card.querySelectorAll('.tests li.item').length,
  homework: card.querySelectorAll('.homework li.item').length,
  agenda: card.querySelectorAll('.agenda li.item').length,
  standing: card.querySelectorAll('.standing li.item').length,
  opened: card.querySelectorAll('.msg.opened').length,
  openedText: card.querySelectorAll('.msg.opened .msg-text').length,
  openedFiles: card.querySelectorAll('.msg.opened .files').length,
  school: card.querySelectorAll('.school li.item').length,
  counted: [...card.querySelectorAll('li.more')].reduce((s, m) => s + Number(m.getAttribute('data-count')), 0),
  leftOut: (card.querySelector('.left-out') || { textContent: '' }).textContent,
}))`;

interface Shown {
  unread: string[];
  nextChanges: number;
  notices: string[];
  grades: string[];
  lessons: string[];
  headline: number;
  briefing: number;
  tests: number;
  homework: number;
  agenda: number;
  standing: number;
  opened: number;
  openedText: number;
  openedFiles: number;
  school: number;
  counted: number;
  leftOut: string;
}

const SCHOOL = "the school's things: behaviour, the tutor, the sent message's read state, the school's files, attendance by subject";

/** How much of each part of NEWS_ORDER a card shows (1: whole, 0: none, between: some), by the part's name. */
function partsShown(s: Shown, c: BoardChild): Map<string, number> {
  const share = (n: number, of: number) => (of === 0 ? 1 : n / of);
  const ahead = c.day!.lessons.filter((l) => l.status !== 'done' && l.change === null);
  const over = c.day!.lessons.filter((l) => l.status === 'done');
  const rest = (n: number) => Math.max(0, n - 1);
  const parts: Array<[string, number]> = [
    ['the newest unread message', s.unread.length > 0 ? 1 : 0],
    ["the first change of the next school day's plan", Math.min(1, s.nextChanges)],
    ['the newest unread announcement', Math.min(1, s.notices.length)],
    ["the other changes of the next school day's plan", share(rest(s.nextChanges), c.nextChanges!.items.length - 1)],
    ['the other unread messages, newest first', share(rest(s.unread.length), c.messages!.unread.length - 1)],
    ['the nearest test', Math.min(1, s.tests)],
    ['the homework for the next school day', Math.min(1, s.homework)],
    ['the message opened from Home Assistant', s.opened],
    ["the opened message's attachments", s.openedFiles],
    ["the opened message's text (the dashboard has it whole)", s.openedText],
    ['the lessons still ahead', share(ahead.filter((l) => s.lessons.includes(l.subject!)).length, ahead.length)],
    ['the nearest trip or meeting', Math.min(1, s.agenda)],
    ['the other tests', share(rest(s.tests), c.tests!.length - 1)],
    ['the other homework', share(rest(s.homework), c.homework!.items.length - 1)],
    ['the other trips and meetings', share(rest(s.agenda), c.agenda.length - 1)],
    ['how this and next week differ from the standing plan', share(s.standing, c.standing?.items.length ?? 0)],
    ['the other unread announcements', share(rest(s.notices.length), c.notices.length - 1)],
    ['the line above the plan (the lesson on now or next)', s.headline],
    ['the lessons already over', share(over.filter((l) => s.lessons.includes(l.subject!)).length, over.length)],
    ['the next school day in a sentence', s.briefing],
    [SCHOOL, share(s.school, schoolItems(c))],
  ];
  return new Map(parts);
}

/**
 * In the page: whether the next item of the part named `away` (read from the whole list its "+N" opens)
 * fits on the card as it stands, put back before its list's "+N". Null when the part's next item is not
 * in a list a "+N" opens (then it cannot be told here).
 */
const ROOM_FOR = `(order, away) => {
  const card = document.querySelector('.child');
  const hidden = () => [card, ...card.querySelectorAll('.plan, .info')].reduce((sum, b) => {
    const o = getComputedStyle(b).overflowY;
    return o === 'hidden' || o === 'clip' ? sum + Math.max(0, b.scrollHeight - b.clientHeight - 1) : sum;
  }, 0);
  const part = order.find((p) => p.what === away);
  let next = null;
  let line = null;
  for (const more of card.querySelectorAll('li.more')) {
    more.querySelector('button').click();
    const whole = [...document.querySelectorAll('.more-box .more-list > ul > li, .more-box .more-list > ol > li')];
    document.querySelector('.more-close').click();
    const shown = [...more.parentElement.children].map((c) => c.textContent);
    const missing = whole.filter((c) => c.matches(part.items) && !shown.includes(c.textContent));
    if (missing.length > 0) { next = missing[0]; line = more; break; }
  }
  if (!next) return null;
  const box = line.closest('.box');
  const wasAway = box && box.classList.contains('away');
  const list = line.parentElement;
  const item = next.cloneNode(true);
  list.insertBefore(item, line);
  // A "+1" goes with the one item it counted.
  const one = Number(line.getAttribute('data-count')) === 1;
  if (one) list.removeChild(line);
  if (wasAway) box.classList.remove('away');
  const room = hidden() === 0;
  if (wasAway) box.classList.add('away');
  if (one) list.insertBefore(line, item.nextSibling);
  list.removeChild(item);
  return room;
}`;

let served: ModelServer;
let port = 0;
const model: BoardModel = { language: 'pl', labels: BOARD_TEXT.pl.labels, children: [fullChild('ania', 'Ania'), fullChild('zosia', 'Zosia')] };

beforeAll(async () => {
  // The stream stays open and quiet: the model never changes here.
  served = await serveModel(model);
  port = served.port;
});

afterAll(() => served.close());

const browser = useBrowser();
// One page per test, loading the board afresh at each height.
const boardAt = useBoardPage(browser);

describe.skipIf(skip)('the news order at work', () => {
  it('names every part the card gives way by once, the news first', () => {
    const names = NEWS_ORDER.map((p) => p.what);
    expect(new Set(names).size).toBe(names.length);
    // The order: unread messages and the newest grade, the plan's changes, then tests, homework, the school's files.
    const at = (what: string) => names.indexOf(what);
    expect(at('the newest unread message')).toBe(0);
    expect(at('the newest grade of the last days')).toBeLessThan(at("today's plan changes and the lesson on now"));
    expect(at("today's plan changes and the lesson on now")).toBeLessThan(at('the nearest test'));
    expect(at('the nearest test')).toBeLessThan(at('the homework for the next school day'));
    expect(at('the other unread messages, newest first')).toBeLessThan(at('the message opened from Home Assistant'));
    expect(at('the homework for the next school day')).toBeLessThan(at(SCHOOL));
  });

  /** Checks the card at one size: nothing cut, the news there, what went counted, given way from the least news end. */
  async function expectGivenWay(width: number, height: number, columns: ReadonlyArray<readonly string[] | null>): Promise<void> {
    const child = model.children[0]!;
    const order = NEWS_ORDER.map((p) => p.what);
    const at = `${width}x${height}`;
    const { page, problems } = await boardAt(`http://127.0.0.1:${port}/`, width, height);
    await screenshot(page, `board-order-${at}.png`);
    expect(await layoutProblems(page), at).toEqual([]);
    const [shown] = (await page.evaluate(SHOWN)) as Shown[];
    // Before the page closes: whether the next item of a part that went would have room on the card (asked below by the part's name).
    const roomFor = async (away: string): Promise<boolean | null> =>
      (await page.evaluate(`(${ROOM_FOR})(${JSON.stringify(NEWS_ORDER)}, ${JSON.stringify(away)})`)) as boolean | null;
    const verdicts: Array<{ away: string; less: string[]; room: boolean | null }> = [];
    expect(problems, at).toEqual([]);
    // The newest unread message and the newest grade stand; the plan's changes and the lesson on now too.
    expect(shown!.unread[0], at).toBe('Składka na ubezpieczenie');
    expect(shown!.grades[0], at).toBe('4');
    expect(shown!.lessons, at).toEqual(expect.arrayContaining(['Język angielski', 'Plastyka']));
    // Unread topics newest first, the rest counted.
    expect(shown!.unread, at).toEqual(child.messages!.unread.slice(0, shown!.unread.length).map((m) => m.topic));
    // From the least news end, in each column the card has: once a part is (partly) away, every part after
    // it in the order is wholly away.
    const parts = partsShown(shown!, child);
    for (const column of columns) {
      const ranked = [...parts.entries()]
        .filter(([what]) => column === null || column.includes(what))
        .sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
      const firstAway = ranked.findIndex(([, share]) => share < 1);
      if (firstAway < 0) continue;
      const after = ranked.slice(firstAway + 1).filter(([, share]) => share > 0);
      if (after.length === 0) continue;
      // Something less news may stand only in room too small for the next item of the part that went (a
      // short line fills what a longer one left): that item has no room on the card as it stands.
      const away = ranked[firstAway]![0];
      verdicts.push({ away, less: after.map(([what]) => what), room: await roomFor(away) });
    }
    // A part of no list (the line above the plan, a message's text: null) cannot be put back from here, so it goes unasked.
    for (const v of verdicts) expect(v.room, `${at}: ${v.less.join(', ')} shown though less news than "${v.away}", which has room`).not.toBe(true);
    // Every item that went is counted: in its list's "+N" (a box that went whole, named at the foot with it).
    const total =
      child.messages!.unread.length +
      1 +
      child.nextChanges!.items.length +
      child.notices.length +
      child.grades!.length +
      child.day!.lessons.length +
      child.tests!.length +
      child.agenda.length +
      (child.standing?.items.length ?? 0) +
      child.homework!.items.length +
      schoolItems(child);
    const onCard =
      shown!.unread.length +
      shown!.nextChanges +
      shown!.notices.length +
      shown!.opened +
      shown!.grades.length +
      shown!.lessons.length +
      shown!.tests +
      shown!.agenda +
      shown!.standing +
      shown!.homework +
      shown!.school;
    expect(onCard + shown!.counted, `${at}: every item shown or counted`).toBe(total);
    const named = [...shown!.leftOut.matchAll(/\+(\d+)/g)].reduce((s, m) => s + Number(m[1]), 0);
    expect(named, `${at}: the footer names what its boxes left out`).toBeLessThanOrEqual(shown!.counted);
  }

  it('on ever shorter landscape screens (two cards of one column) gives way from the least news end, counts what went, and never cuts a line', async () => {
    for (let height = 800; height >= 600; height -= 20) await expectGivenWay(1280, height, [null]);
  }, 120_000);

  it("on a phone (nothing gives way) names each grade's teacher, a text grade in its words, the school and each subject's attendance", async () => {
    const { page, problems } = await boardAt(`http://127.0.0.1:${port}/`, 390, 844);
    const card = page.locator('.child').first();
    const grades = (await card.locator('.grade').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
    expect(grades).toEqual([
      '4 Matematyka · J. Kowalska prognoza 4',
      '0 (nie jest oceną) Język polski · E. Szymańska prognoza 4 Brak zadania',
      '5+ Język angielski · M. Piotrowska Bardzo dobra wymowa, brawo!',
      '6 Historia prognoza 5',
      'Plastyka · A. Wiśniewska Prace plastyczne staranne i pomysłowe, chętnie pokazuje je klasie…',
    ]);
    expect(await card.locator('.school h3').textContent()).toBe('Szkoła Podstawowa nr 7 im. Marii Konopnickiej w Zielonkach');
    expect(await card.locator('.school .share').allInnerTexts()).toEqual([
      'Przyroda 81,3%',
      'Wychowanie fizyczne 87,5%',
      'Matematyka 92%',
      'Język polski 95,2%',
      'Historia 100%',
    ]);
    expect(await layoutProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('in portrait (cards of two columns) gives way in each column from its least news end', async () => {
    const dayBoxes = ['the lessons still ahead', 'the line above the plan (the lesson on now or next)', 'the lessons already over'];
    const side = [
      ...partsShown(
        {
          unread: [],
          nextChanges: 0,
          notices: [],
          grades: [],
          lessons: [],
          headline: 0,
          briefing: 0,
          tests: 0,
          homework: 0,
          agenda: 0,
          standing: 0,
          opened: 0,
          openedText: 0,
          openedFiles: 0,
          school: 0,
          counted: 0,
          leftOut: '',
        },
        model.children[0]!,
      ).keys(),
    ].filter((what) => !dayBoxes.includes(what) && what !== 'the next school day in a sentence');
    for (let height = 1280; height >= 1040; height -= 40) await expectGivenWay(800, height, [dayBoxes, side]);
  }, 120_000);
});
