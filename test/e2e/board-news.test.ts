// The family board after news (issue 52), in Chromium against the real bridge and the simulated school:
// a parent opened a message from Home Assistant, then three newer ones came unread, a new grade, a first
// grader's 0 on the descriptive scale and a week's trip. At 1280x800 and 800x1280 with two and three
// children (and a phone, which scrolls): the newest grade and every unread topic that fits stand first,
// the rest counted, the opened message after them; no line is cut; every footer and calendars link is
// on the screen. Screenshots under test/artifacts/ for a person to look at.
import { describe, expect, it } from 'vitest';
import {
  ANIA,
  JANEK,
  ZOSIA,
  bridgeWithChildren,
  useBoardPage,
  useBrowser,
  skipBrowser as skip,
  type Bridge,
  screenshot,
} from '../helpers/board-browser.js';
import { layoutProblems, shownNews, type ShownNews } from '../helpers/board-layout.js';
import { simulatedSchool } from '../helpers/school.js';
import { command } from '../helpers/commands.js';

// A Wednesday in the second lesson.
const NOW = '2026-11-18T09:11:30+01:00';
const school = simulatedSchool(NOW);
const browser = useBrowser();
const boardAt = useBoardPage(browser);

const OPENED = 'Zgoda na wyjście do teatru';
/** Oldest first, as the school sends them; the board lists them newest first. */
const NEWS = ['Zmiana terminu zebrania', 'Strój galowy w piątek', 'Składka na ubezpieczenie klasy'];

const children = (n: 2 | 3) => [{ ...ANIA, id: 'ania' }, { ...JANEK, id: 'jan' }, ZOSIA].slice(0, n);

/** The bridge with `n` children after the news; answers it with the unread topics the bridge published for Ania, newest first. */
async function afterNews(n: 2 | 3): Promise<Bridge & { unread: string[] }> {
  if (n === 3) school.sim.addAccount(ZOSIA);
  school.sim.messaging.addMessage(ANIA.login, {
    topic: OPENED,
    body: '<p>Prosimy o zgodę do piątku.</p>',
    from: 162001,
    sent: '2026-11-18 07:30:00',
  });
  school.sim.account(ANIA.login).addTrip({ destination: 'Zielona szkoła', route: 'Karpacz', from: '2026-11-23 08:00:00', to: '2026-11-27 16:00:00' });
  const bridge = await bridgeWithChildren(school, children(n));
  const { h } = bridge;
  expect(await command(h, 'ania', 'open_message', 'newest', school.clock)).toMatchObject({ status: 'ok' });
  NEWS.forEach((topic, i) =>
    school.sim.messaging.addMessage(ANIA.login, { topic, body: `<p>${topic}.</p>`, from: 162002, sent: `2026-11-18 08:${10 + i}:00` }),
  );
  school.sim.account(ANIA.login).addGrade({ subject: 5012, category: 302, grade: '4' });
  school.sim.account(JANEK.login).addPartialGrade('0');
  await h.advanceUntil(
    () =>
      (h.attributes('ania', 'newest_message')?.unread as unknown[] | undefined)?.length === NEWS.length + 1 &&
      h.state('ania', 'newest_grade') === '4' &&
      h.state('jan', 'newest_grade') === '0 (nie jest oceną)',
    'the news read',
    30,
  );
  const unread = (h.attributes('ania', 'newest_message')!.unread as Array<{ topic: string }>).map((m) => m.topic);
  return { ...bridge, unread };
}

/**
 * What a parent must see on a card after the news: the unread topics newest first, and the messages left
 * out counted (the opened one among them when it is away: it is older news than any unread one, so it
 * shows only when all of those do).
 */
function expectNewsFirst(card: ShownNews, unread: readonly string[]): void {
  expect(card.unread.length, `${card.name}: at least the newest unread message`).toBeGreaterThan(0);
  expect(card.unread).toEqual(unread.slice(0, card.unread.length));
  if (card.opened !== null) expect(card.opened).toBe(OPENED);
  if (card.opened !== null) expect(card.unread).toHaveLength(unread.length);
  expect(card.unread.length + (card.opened === null ? 0 : 1) + card.messagesMore, `${card.name}: every message shown or counted`).toBe(
    unread.length + 1,
  );
}

/** The board as a tablet of that size first draws it (loaded afresh at that size, so each size is fitted anew). */
async function look(
  port: number,
  token: string,
  width: number,
  height: number,
  name: string,
): Promise<{ cards: ShownNews[]; problems: string[]; page: string[] }> {
  const { page, problems } = await boardAt(`http://127.0.0.1:${port}/?token=${token}`, width, height);
  await screenshot(page, name, { fullPage: width < 600 });
  return { cards: await shownNews(page), problems: await layoutProblems(page), page: [...problems] };
}

describe.skipIf(skip)('the board after news', () => {
  for (const n of [2, 3] as const) {
    it(`shows ${n} children's news first at 1280x800 and 800x1280, nothing cut, every footer on the screen`, async () => {
      const { port, token, unread } = await afterNews(n);
      expect(unread).toEqual([...NEWS].reverse().concat('Zebranie z rodzicami w czwartek'));
      const sizes: Array<[number, number]> =
        n === 3
          ? [
              [1280, 800],
              [800, 1280],
              [390, 844],
            ]
          : [
              [1280, 800],
              [800, 1280],
            ];
      for (const [width, height] of sizes) {
        const at = `${width}x${height}, ${n} children`;
        const { cards, problems: cut, page } = await look(port, token, width, height, `board-news-${width}x${height}-${n}.png`);
        expect(cut, at).toEqual([]);
        expect(page, at).toEqual([]);
        expect(
          cards.map((c) => c.name),
          at,
        ).toEqual(['Ania', 'Jan', 'Zosia'].slice(0, n));
        const [ania, jan] = cards as [ShownNews, ShownNews];
        expectNewsFirst(ania, unread);
        // The newest grade first; a first-grader's 0 says it is no grade.
        expect(ania.grades[0], at).toBe('4');
        expect(jan.grades[0], at).toBe('0 (nie jest oceną)');
        // A trip is no test: it stands with the trips and meetings, or they are counted by their name.
        expect(ania.tests.join(' '), at).not.toMatch(/Zielona szkoła|wycieczka/i);
        expect(
          ania.agenda.some((a) => a.includes('wycieczka') && a.includes('Zielona szkoła')) || /Wycieczki i wydarzenia \+\d/.test(ania.leftOut),
          at,
        ).toBe(true);
      }
    }, 90_000);
  }
});
