// A school trip of three days on the family board in a real browser, against the real bridge and the
// simulated portal: listed with the trips and meetings (never under the tests' heading) by its first and
// last day while it is under way, and a screenshot under test/artifacts/ for a person to look at.
import { describe, expect, it } from 'vitest';
import { ANIA, bridgeWithBoard, pageProblems, useBrowser, skipBrowser as skip, screenshot } from '../helpers/board-browser.js';
import { boxItems } from '../helpers/board-more.js';
import { simulatedSchool } from '../helpers/school.js';

// A Wednesday in the second lesson; the trip runs Tuesday to Thursday.
const NOW = '2026-11-18T09:11:30+01:00';

const school = simulatedSchool(NOW);
const browser = useBrowser();

describe.skipIf(skip)('a trip of several days on the board', () => {
  it('shows the trip by its first and last day with the trips and meetings, not the tests, while it is under way', async () => {
    school.sim.account(ANIA.login).addTrip({ destination: 'Zakopane', route: 'Tatry', from: '2026-11-17 07:30:00', to: '2026-11-19 18:00:00' });
    const { port, token } = await bridgeWithBoard(school);
    const context = await browser().newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems = pageProblems(page);
    await page.goto(`http://127.0.0.1:${port}/?token=${token}`);
    await page.waitForSelector('.child');
    const ania = page.locator('.child').first();
    // On the card, or (when the box gave way whole) as "Wycieczki i wydarzenia +N" in the footer opens it.
    const rows = (await boxItems(page, 0, 'agenda')).texts;
    expect(rows[0]).toBe('wt. 17.11 – jutro wycieczkaZakopane: Tatry');
    // A trip is no test (issue 52): it stood under "Sprawdziany" before.
    expect((await ania.locator('.tests li').allTextContents()).join(' ')).not.toContain('Zakopane');
    await screenshot(page, 'board-1280x800-trip.png');
    expect(problems).toEqual([]);
    await context.close();
  });
});
