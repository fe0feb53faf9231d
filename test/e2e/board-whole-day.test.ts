// The whole day on the board (issue 58), in Chromium against the real bridge and the simulated school: a
// full Wednesday of eight lessons with a substitution, tomorrow's first change a cancellation, an
// unread announcement, a trip and a meeting. At 1280x800 and 800x1280 with one, two and three children:
// the cancellation stands among the news with its day named, the announcement by its title; every "+N"
// opens its whole list over the card and a tap outside or 20 seconds close it (the page goes nowhere); no "+N" has
// room above it for what it counts; no change's detail is cut; no line is cut. Screenshots under
// test/artifacts/.
import { describe, expect, it } from 'vitest';
import { ANIA, JANEK, ZOSIA, bridgeWithChildren, useBoardPage, useBrowser, skipBrowser as skip, screenshot } from '../helpers/board-browser.js';
import { layoutProblems } from '../helpers/board-layout.js';
import { cutDetails, openEveryMore, roomAboveMore, type OpenedMore } from '../helpers/board-more.js';
import { secondSchool } from '../helpers/board-school.js';
import { simulatedSchool } from '../helpers/school.js';

// A Wednesday in the second lesson.
const NOW = '2026-11-18T09:11:30+01:00';
const school = simulatedSchool(NOW);
const browser = useBrowser();
const boardAt = useBoardPage(browser);

const FAMILY = [{ ...ANIA, profile: 'ania', id: 'ania' }, { ...JANEK, profile: 'janek', id: 'jan' }, ZOSIA];
const NOTICE = 'Dzień otwarty szkoły w sobotę 28 listopada';

/** The day's news on every child's account: tomorrow's cancellation, today's substitution, an announcement, a trip and a meeting. */
function news(children: ReadonlyArray<{ login: string }>): void {
  for (const { login } of children) {
    const account = school.sim.account(login);
    account.addPlanChange({ kind: 'cancelled', OrgDate: '2026-11-19', OrgLessonNo: 2 });
    // Another teacher, another subject: the detail names the one replaced.
    account.addPlanChange({ kind: 'substitution', OrgDate: '2026-11-18', OrgLessonNo: 5, Teacher: 162001, Subject: 5022 });
    account.addNotice({ Subject: NOTICE, Content: 'Zapraszamy rodziców w godz. 10:00-13:00.' });
    account.addTrip({ destination: 'Zielona szkoła', route: 'Karpacz', from: '2026-11-23 08:00:00', to: '2026-11-27 16:00:00' });
    account.addMeeting({ date: '2026-11-30', time: '17:30', topic: 'Zebranie z rodzicami' });
  }
}

/** What every card must show of the news. */
const NEWS = `[...document.querySelectorAll('.child')].map((card) => ({
  name: card.querySelector('h2').textContent,
  next: [...card.querySelectorAll('.next-change')].map((e) => e.textContent),
  nextTitle: (card.querySelector('.next-changes h3') || { textContent: '' }).textContent,
  notices: [...card.querySelectorAll('.notice .msg-topic')].map((e) => e.textContent),
  substitution: [...card.querySelectorAll('.lesson.change-substitution .note')].map((e) => e.textContent),
}))`;

interface CardNews {
  name: string;
  next: string[];
  nextTitle: string;
  notices: string[];
  substitution: string[];
}

describe.skipIf(skip)('the whole day on the board', () => {
  const opened: OpenedMore[] = [];

  for (const n of [1, 2, 3] as const) {
    it(`with ${n} ${n === 1 ? 'child' : 'children'}: tomorrow's cancellation and the announcement's title stand, every "+N" opens, none with room above it`, async () => {
      if (n === 3) school.sim.addAccount(ZOSIA);
      const children = FAMILY.slice(0, n);
      // A full day of eight lessons, the subjects as the demo school names them (board-fit.test.ts has the long names).
      secondSchool(school, children, false);
      news(children);
      const { h, port, token } = await bridgeWithChildren(school, children);
      await h.runUntil(
        () => children.every((c) => Number(h.state(c.id, 'plan_changes_tomorrow')) > 0 && Number(h.state(c.id, 'unread_notices')) > 0),
        'the news read',
      );
      for (const [width, height] of [
        [1280, 800],
        [800, 1280],
      ] as const) {
        const at = `${width}x${height}, ${n} children`;
        const { page, problems } = await boardAt(`http://127.0.0.1:${port}/?token=${token}`, width, height);
        await screenshot(page, `board-whole-day-${width}x${height}-${n}.png`);
        expect(await layoutProblems(page), at).toEqual([]);
        const cards = (await page.evaluate(NEWS)) as CardNews[];
        expect(cards).toHaveLength(n);
        for (const card of cards) {
          // Tomorrow's cancellation among the news, its day named with its date over it.
          expect(card.next[0], `${at}: ${card.name}`).toMatch(/^2\. .*08:55.*odwołana$/);
          expect(card.nextTitle, `${at}: ${card.name}`).toBe('Zmiany planu: jutro, czw. 19.11');
          expect(card.notices[0], `${at}: ${card.name}`).toBe(NOTICE);
          expect(card.substitution.join(' '), `${at}: ${card.name}`).toContain('zastępstwo · zamiast:');
        }
        expect(await cutDetails(page), at).toEqual([]);
        expect(await roomAboveMore(page), at).toEqual([]);
        const more = await openEveryMore(page);
        for (const m of more) {
          const what = `${at}: ${m.card}'s "${m.button}"`;
          expect(m.opened, what).toBe(m.shown + m.counted);
          expect(m.counted, what).toBeGreaterThan(0);
          expect(m.overCard, what).toBe(true);
          expect(m.closed, what).toBe(true);
        }
        opened.push(...more);
        expect(problems, at).toEqual([]);
      }
    }, 120_000);
  }

  it('closes an opened list by itself after 20 seconds, as a kiosk has no one to close it', async () => {
    const children = FAMILY.slice(0, 2);
    secondSchool(school, children, false);
    news(children);
    const { port, token } = await bridgeWithChildren(school, children);
    const context = await browser().newContext({ viewport: { width: 800, height: 1280 } });
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(`http://127.0.0.1:${port}/?token=${token}`);
    await page.waitForSelector('.child');
    const url = page.url();
    await page.locator('.child .more-open:visible').first().click();
    await page.clock.runFor(19_000);
    expect(await page.locator('.more-box').count()).toBe(1);
    await page.clock.runFor(1_500);
    expect(await page.locator('.more-overlay').count()).toBe(0);
    expect(page.url()).toBe(url);
    await context.close();
  }, 60_000);

  it('opened some "+N" at all (the checks above were not vacuous)', () => {
    expect(opened.length).toBeGreaterThan(3);
  });
});
