// A school child beside a kindergarten child on the board (issue 59), in Chromium: the school child as
// the real bridge publishes Ania against the simulated school, the kindergarten child from the states
// interface 12.2 names (blocks as lessons with `number: null`, `from`, `to`, the activity's name, `kind`;
// grades, homework and tests without a state, as for a module the portal refuses), both drawn by the
// board's own page and script. At 1280x800 and 800x1280: the day's blocks with their hours, the
// announcement and the message stand; no grade, homework or test box for the kindergarten child; no box
// without content; no line cut. Then the "+N" of a short screen still opens whole. And the same with
// the simulator's own preschool child (Zofia, demo login 5432167u) as the real bridge publishes her, at
// the morning's second block and after her day, her calendars without an agenda one. Screenshots under test/artifacts/.
import { describe, expect, it } from 'vitest';
import { bridgeWithChildren, ANIA, useBoardPage, useBrowser, skipBrowser as skip, screenshot } from '../helpers/board-browser.js';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { layoutProblems } from '../helpers/board-layout.js';
import { openEveryMore } from '../helpers/board-more.js';
import { serveModel } from '../helpers/board-serve.js';
import { simulatedSchool } from '../helpers/school.js';
import { boardModel, type BoardChild, type BoardModel } from '../../src/outputs/web/board-model.js';
import type { EntityState } from '../../src/engine/state.js';

const NOW = '2026-11-18T09:11:30+01:00';
const school = simulatedSchool(NOW);
const browser = useBrowser();
const boardAt = useBoardPage(browser);

const block = (from: string, to: string, subject: string, room: string | null, kind = 'planned') => ({
  no: null,
  number: null,
  from,
  to,
  subject,
  room,
  teachers: ['Beata Zielińska'],
  kind,
  change: null,
  // The kind in words when it is not `planned`, as the timetable says it.
  note: kind === 'planned' ? null : kind,
});

/** A four-year-old's day as the bridge publishes it for a kindergarten (interface 12.2). */
function kindergartenStates(): Map<string, EntityState> {
  const day = (date: string, lessons: { from: string; to: string }[]) => ({
    state: String(lessons.length),
    attributes: { date, hours: { from: lessons[0]!.from, to: lessons.at(-1)!.to }, lessons, kindergarten: true },
  });
  return new Map<string, EntityState>([
    [
      'timetable_today',
      day('2026-11-18', [
        block('07:00', '08:00', 'Zabawy swobodne', 'sala 2'),
        block('08:00', '08:30', 'Śniadanie', 'jadalnia'),
        block('08:30', '09:30', 'Rytmika', 'sala gimnastyczna'),
        block('09:30', '10:30', 'Spacer', null),
        block('10:30', '11:15', 'Zajęcia plastyczne', 'sala 2'),
        block('11:15', '12:00', 'Obiad', 'jadalnia'),
        block('12:00', '14:00', 'Odpoczynek', 'sala 2'),
        block('14:00', '15:00', 'Zajęcia dodatkowe: język angielski', 'sala 2', 'dodatkowe'),
      ]),
    ],
    ['timetable_tomorrow', day('2026-11-19', [block('08:00', '12:30', 'Rytmika', 'sala 2')])],
    ['homework_due', { state: null, attributes: {} }],
    ['upcoming_tests', { state: null, attributes: {} }],
    ['newest_grade', { state: null, attributes: { recent: [] } }],
    ['unread_notices', { state: '1', attributes: { notices: [{ id: 'n1', subject: 'Bal przebierańców w piątek', date: '2026-11-18' }] } }],
    [
      'newest_message',
      {
        state: 'Zdjęcia z wycieczki',
        attributes: {
          id: '77',
          sender: 'Beata Zielińska',
          date: '2026-11-18T08:02:00+01:00',
          read: false,
          unread: [{ id: '77', topic: 'Zdjęcia z wycieczki', sender: 'Beata Zielińska', date: '2026-11-18T08:02:00+01:00' }],
        },
      },
    ],
    ['unread_messages', { state: '1', attributes: {} }],
    ['lucky_number', { state: null, attributes: {} }],
    ['problem', { state: 'OFF', attributes: {} }],
    ['last_update', { state: '2026-11-18T09:11:00+01:00' }],
  ]);
}

/** Per card: its boxes by class, any box that shows nothing, and the lessons' hours and names. */
const CARDS = `[...document.querySelectorAll('.child')].map((card) => ({
  name: card.querySelector('h2').textContent,
  boxes: [...card.querySelectorAll('.box:not(.away)')].map((b) => b.className.replace(/\\bbox\\b|\\bnone\\b/g, '').trim()),
  empty: [...card.querySelectorAll('.box:not(.away)')].filter((b) => !b.querySelector('li.item, li.more, .empty')).map((b) => b.className),
  lessons: [...card.querySelectorAll('.lesson')].map((l) => l.querySelector('.time').textContent + ' ' + l.querySelector('.subject-name').textContent),
  // A name squeezed out of sight by the hours or the room beside it.
  squeezed: [...card.querySelectorAll('.lesson .subject-name')].filter((e) => e.getBoundingClientRect().width < 60).map((e) => e.textContent),
  notices: [...card.querySelectorAll('.notice .msg-topic')].map((e) => e.textContent),
  messages: [...card.querySelectorAll('.msg.unread .msg-topic')].map((e) => e.textContent),
}))`;

interface Card {
  name: string;
  boxes: string[];
  empty: string[];
  lessons: string[];
  squeezed: string[];
  notices: string[];
  messages: string[];
}

describe.skipIf(skip)('a kindergarten child beside a school child', () => {
  it('shows the blocks with their hours, the announcement and the message, and no box without content, at both sizes', async () => {
    const { port, token } = await bridgeWithChildren(school, [{ ...ANIA, id: 'ania' }]);
    const answer = (await (await fetch(`http://127.0.0.1:${port}/api/board?token=${token}`)).json()) as { model: BoardModel };
    const ola: BoardChild = boardModel(
      [{ id: 'ola', name: 'Ola Kowalska', model: 'Grupa Motylki', online: true, states: kindergartenStates(), changedAt: Date.parse(NOW) }],
      'pl',
      Date.parse(NOW),
    ).children[0]!;
    const served = await serveModel({ ...answer.model, children: [answer.model.children[0]!, ola] });
    try {
      for (const [width, height] of [
        [1280, 800],
        [800, 1280],
      ] as const) {
        const at = `${width}x${height}`;
        const { page, problems } = await boardAt(`http://127.0.0.1:${served.port}/`, width, height);
        await screenshot(page, `board-kindergarten-${at}.png`);
        expect(await layoutProblems(page), at).toEqual([]);
        const [ania, olaCard] = (await page.evaluate(CARDS)) as [Card, Card];
        expect(ania.name).toBe('Ania');
        expect(olaCard.name).toBe('Ola');
        for (const card of [ania, olaCard]) expect(card.empty, `${at}: ${card.name}`).toEqual([]);
        for (const card of [ania, olaCard]) expect(card.squeezed, `${at}: ${card.name}`).toEqual([]);
        // No grade, homework or test box for a child whose lists have no state.
        expect(
          olaCard.boxes.filter((b) => /grades|homework|tests/.test(b)),
          at,
        ).toEqual([]);
        // The school child keeps its boxes, or names them in the footer when they gave way.
        expect(
          ania.boxes.some((b) => /grades/.test(b)),
          at,
        ).toBe(true);
        // The blocks of the day with their hours, those the card could not hold counted.
        const counted = (await page.evaluate(`[...document.querySelectorAll('.child')][1].querySelectorAll('.lessons .more').length`)) as number;
        expect(olaCard.lessons.length, at).toBeGreaterThan(0);
        for (const l of olaCard.lessons) expect(l, at).toMatch(/^\d\d:\d\d–\d\d:\d\d \S/);
        if (counted === 0) expect(olaCard.lessons, at).toHaveLength(8);
        expect(olaCard.lessons, at).toContain('08:30–09:30 Rytmika');
        expect(olaCard.notices, at).toEqual(['Bal przebierańców w piątek']);
        expect(olaCard.messages, at).toEqual(['Zdjęcia z wycieczki']);
        for (const m of await openEveryMore(page)) expect(m.opened, `${at}: ${m.card}'s "${m.button}"`).toBe(m.shown + m.counted);
        expect(problems, at).toEqual([]);
      }
    } finally {
      await served.close();
    }
  }, 90_000);
});

const ZOFIA = { ...DEMO_ACCOUNTS[2]!, id: 'zofia' };

describe.skipIf(skip)('the simulated preschool child beside a school child, as the bridge publishes them', () => {
  // Monday 23.11 (the dashboard's preview moment): Zofia's walk in the garden, Ania's second lesson; then 14:10, after Zofia's day.
  it.each(['2026-11-23T09:30:00+01:00', '2026-11-23T14:10:00+01:00'])(
    'at %s: her blocks by their hours, her message and announcement, no grade, homework or test box, nothing cut, at both sizes',
    async (now) => {
      await school.reopen(now);
      const { port, token } = await bridgeWithChildren(school, [{ ...ANIA, id: 'ania' }, ZOFIA]);
      const time = now.slice(11, 16).replace(':', '');
      for (const [width, height] of [
        [1280, 800],
        [800, 1280],
      ] as const) {
        const at = `${width}x${height} at ${now.slice(11, 16)}`;
        const { page, problems } = await boardAt(`http://127.0.0.1:${port}/?token=${token}`, width, height);
        await screenshot(page, `board-zofia-${width}x${height}-${time}.png`);
        expect(await layoutProblems(page), at).toEqual([]);
        const [ania, zofia] = (await page.evaluate(CARDS)) as [Card, Card];
        expect([ania.name, zofia.name]).toEqual(['Ania', 'Zofia']);
        for (const card of [ania, zofia]) expect(card.empty, `${at}: ${card.name}`).toEqual([]);
        for (const card of [ania, zofia]) expect(card.squeezed, `${at}: ${card.name}`).toEqual([]);
        expect(
          zofia.boxes.filter((b) => /grades|homework|tests|lucky/.test(b)),
          at,
        ).toEqual([]);
        // Her blocks by their hours and the activity's name, never a lesson number.
        for (const l of zofia.lessons) expect(l, at).toMatch(/^\d\d:\d\d–\d\d:\d\d \S/);
        if (now.includes('T09:30')) expect(zofia.lessons, at).toContain('09:30–11:00 spacer');
        // Her kindergarten's newest announcement and her group's message, as the simulator serves them.
        const text = (await page.evaluate(`[...document.querySelectorAll('.child')][1].textContent`)) as string;
        expect(text, at).toContain('Biedronki: bal jesienny w piątek');
        expect(text, at).toContain('Dzień dyrektorski');
        for (const m of await openEveryMore(page)) expect(m.opened, `${at}: ${m.card}'s "${m.button}"`).toBe(m.shown + m.counted);
        // Her calendars: her lessons and days off, no agenda calendar (her account has no agenda, interface 17.3).
        if (width === 1280) {
          await page.locator('.child').nth(1).locator('.cal-open').click();
          const box = page.locator('.cal-box');
          await box.waitFor();
          expect(await box.locator('.cal-feed h3').allTextContents(), at).toEqual(['Zofia – lekcje', 'Zofia – dni wolne']);
          await screenshot(page, `board-zofia-calendars-${time}.png`);
        }
        expect(problems, at).toEqual([]);
      }
    },
    120_000,
  );
});
