// Every layout of the family board fits without a cut (issue 52), in Chromium against the real bridge: a
// second simulated school whose subjects have long names and whose Wednesday is a full day of eight
// lessons, with one, two and three children, on a tablet both ways round (1280x800, 800x1280) and a
// phone (390x844, which scrolls). No line is cut by a box or the screen's edge, every footer and
// calendars link is on the screen, and what gave way is counted. Screenshots under test/artifacts/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANIA, ARTIFACTS, JANEK, ZOSIA, bridgeWithChildren, pageProblems, useBrowser, skipBrowser as skip } from '../helpers/board-browser.js';
import { layoutProblems, shownNews } from '../helpers/board-layout.js';
import { simulatedSchool } from '../helpers/school.js';

// A Wednesday in the second lesson.
const NOW = '2026-11-18T09:11:30+01:00';
const school = simulatedSchool(NOW);
const browser = useBrowser();

/** The subjects as a school may name them in full. */
const LONG_NAMES: Record<number, string> = {
  5011: 'Język polski – zajęcia z edukacji czytelniczej i medialnej',
  5012: 'Matematyka z elementami programowania',
  5013: 'Język angielski (grupa zaawansowana)',
  5014: 'Przyroda – zajęcia laboratoryjne',
  5015: 'Historia i teraźniejszość',
  5017: 'Plastyka i działania twórcze',
  5019: 'Informatyka – zajęcia w pracowni',
  5020: 'Wychowanie fizyczne – gimnastyka korekcyjna',
  5021: 'Religia rzymskokatolicka',
  5022: 'Zajęcia z wychowawcą i doradztwo zawodowe',
  5023: 'Edukacja wczesnoszkolna z elementami logopedii',
};

/** The school's subjects with their long names, as the portal lists them. */
function longSubjects(): unknown {
  const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'simulator', 'school.json'), 'utf8')) as {
    resources: { Subjects: { Subjects: Array<{ Id: number; Name: string }> } };
  };
  return { Subjects: fixture.resources.Subjects.Subjects.map((s) => ({ ...s, Name: LONG_NAMES[s.Id] ?? s.Name })) };
}

/** Wednesday's eight lessons of a child's own lessons (`lessonId@classroomId`). */
const FULL_WEDNESDAY: Record<string, string[]> = {
  ania: ['8405@304', '8402@309', '8401@301', '8408@305', '8409@301', '8412@301', '8411@306', '8413@301'],
  janek: ['8101@307', '8101@307', '8102@307', '8101@307', '8103@307', '8104@305', '8101@307', '8103@307'],
};

/** The second school: every child's subjects named in full and Wednesday a full day. */
function secondSchool(logins: ReadonlyArray<{ login: string; profile: string }>): void {
  for (const { login, profile } of logins) {
    const account = school.sim.account(login);
    account.setResource('Subjects', longSubjects());
    account.data.week['3'] = [[], ...(FULL_WEDNESDAY[profile] as string[]).map((slot) => [slot])];
  }
}

const FAMILY = [{ ...ANIA, profile: 'ania', id: 'ania' }, { ...JANEK, profile: 'janek', id: 'jan' }, ZOSIA];

describe.skipIf(skip)('the board fits every layout', () => {
  for (const n of [1, 2, 3] as const) {
    it(`with ${n} ${n === 1 ? 'child' : 'children'} of a school with long subject names and a full day: no line cut, every footer on the screen`, async () => {
      if (n === 3) school.sim.addAccount(ZOSIA);
      const children = FAMILY.slice(0, n);
      secondSchool(children);
      const { h, port, token } = await bridgeWithChildren(school, children);
      const lessons = (h.attributes('ania', 'timetable_today')?.lessons as Array<{ subject: string }>).map((l) => l.subject);
      expect(lessons).toHaveLength(8);
      expect(lessons[0]).toBe(LONG_NAMES[5014]);
      for (const [width, height] of [
        [1280, 800],
        [800, 1280],
        [390, 844],
      ] as const) {
        const at = `${width}x${height}, ${n} children`;
        // A page of its own at each size: the board is fitted as a tablet of that size first draws it.
        const context = await browser().newContext({ viewport: { width, height } });
        const page = await context.newPage();
        const problems = pageProblems(page);
        await page.goto(`http://127.0.0.1:${port}/?token=${token}`);
        await page.waitForSelector('.child');
        await page.screenshot({ path: join(ARTIFACTS, `board-fit-${width}x${height}-${n}.png`), fullPage: width < 600 });
        expect(await layoutProblems(page), at).toEqual([]);
        const cards = await shownNews(page);
        expect(cards).toHaveLength(n);
        // Whatever gave way is counted: the lessons shown and the "+N" above and below them make the day.
        const counted = (await page.evaluate(
          `[...document.querySelectorAll('.child')].map((c) => [...c.querySelectorAll('.lessons .more')].reduce((s, m) => s + Number(m.getAttribute('data-count')), 0))`,
        )) as number[];
        cards.forEach((c, i) => expect(c.lessons.length + (counted[i] as number), `${at}: ${c.name}'s lessons shown or counted`).toBe(8));
        expect(problems, at).toEqual([]);
        await context.close();
      }
    }, 90_000);
  }
});
