// Every layout of the family board fits without a cut (issue 52), in Chromium against the real bridge: a
// second simulated school whose subjects have long names and whose Wednesday is a full day of eight
// lessons, with one, two and three children, on a tablet both ways round (1280x800, 800x1280) and a
// phone (390x844, which scrolls). No line is cut by a box or the screen's edge, every footer and
// calendars link is on the screen, and what gave way is counted. Screenshots under test/artifacts/.
import { describe, expect, it } from 'vitest';
import { ANIA, JANEK, ZOSIA, bridgeWithChildren, useBoardPage, useBrowser, skipBrowser as skip, screenshot } from '../helpers/board-browser.js';
import { layoutProblems, shownNews } from '../helpers/board-layout.js';
import { simulatedSchool } from '../helpers/school.js';
import { LONG_NAMES, secondSchool } from '../helpers/board-school.js';

// A Wednesday in the second lesson.
const NOW = '2026-11-18T09:11:30+01:00';
const school = simulatedSchool(NOW);
const browser = useBrowser();
const boardAt = useBoardPage(browser);

const FAMILY = [{ ...ANIA, profile: 'ania', id: 'ania' }, { ...JANEK, profile: 'janek', id: 'jan' }, ZOSIA];

describe.skipIf(skip)('the board fits every layout', () => {
  for (const n of [1, 2, 3] as const) {
    it(`with ${n} ${n === 1 ? 'child' : 'children'} of a school with long subject names and a full day: no line cut, every footer on the screen`, async () => {
      if (n === 3) school.sim.addAccount(ZOSIA);
      const children = FAMILY.slice(0, n);
      secondSchool(school, children);
      const { h, port, token } = await bridgeWithChildren(school, children);
      const lessons = (h.attributes('ania', 'timetable_today')!.lessons as Array<{ subject: string }>).map((l) => l.subject);
      expect(lessons).toHaveLength(8);
      expect(lessons[0]).toBe(LONG_NAMES[5014]);
      for (const [width, height] of [
        [1280, 800],
        [800, 1280],
        [390, 844],
      ] as const) {
        const at = `${width}x${height}, ${n} children`;
        // Loaded afresh at each size: the board is fitted as a tablet of that size first draws it.
        const { page, problems } = await boardAt(`http://127.0.0.1:${port}/?token=${token}`, width, height);
        await screenshot(page, `board-fit-${width}x${height}-${n}.png`, { fullPage: width < 600 });
        expect(await layoutProblems(page), at).toEqual([]);
        const cards = await shownNews(page);
        expect(cards).toHaveLength(n);
        // Whatever gave way is counted: the lessons shown and the "+N" above and below them make the day.
        const counted = (await page.evaluate(
          `[...document.querySelectorAll('.child')].map((c) => [...c.querySelectorAll('.lessons .more')].reduce((s, m) => s + Number(m.getAttribute('data-count')), 0))`,
        )) as number[];
        cards.forEach((c, i) => expect(c.lessons.length + (counted[i] as number), `${at}: ${c.name}'s lessons shown or counted`).toBe(8));
        expect(problems, at).toEqual([]);
      }
    }, 90_000);
  }
});
