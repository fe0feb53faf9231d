// The board's "Calendars" overlay in a real browser (Chromium) against the real bridge: each card lists
// its child's three calendar feed addresses, each with a key of its own (never the token), on the bridge's own port also when the board is
// opened through Home Assistant's ingress, and each address is a calendar feed a calendar app can read as it
// is. Closed, the overlay takes no room; open, it fits the tablet and the phone (screenshots).
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bridgeWithBoard, closeProxy, ingressProxy, pageProblems, useBrowser, skipBrowser, screenshot } from '../helpers/board-browser.js';
import { simulatedSchool } from '../helpers/school.js';

const NOW = '2026-11-18T09:11:30+01:00';
const CALENDAR_FEEDS = ['lessons', 'agenda', 'free-days'];

const school = simulatedSchool(NOW);
const browser = useBrowser();

/** Where the cards are and how much of their lists they cut off: what the overlay must not change. */
const LAYOUT = `(() => ({
  cards: [...document.querySelectorAll('.child')].map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; }),
  cutOff: [...document.querySelectorAll('.child .info')].map((i) => Math.max(0, i.scrollHeight - i.clientHeight - 1)),
  scroll: document.documentElement.scrollHeight - innerHeight,
  wide: document.documentElement.scrollWidth - innerWidth,
}))()`;

/** The open overlay as a person reads it. */
async function overlayOf(page: Page) {
  const box = page.locator('.cal-box');
  await box.waitFor();
  return {
    heading: await box.locator('h2').textContent(),
    help: await box.locator('.cal-help').textContent(),
    titles: await box.locator('.cal-feed h3').allTextContents(),
    addresses: await box.locator('.cal-url').allTextContents(),
    webcal: await box.locator('.cal-webcal').evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
  };
}

/** Whether the open box lies inside the window: an overlay that spills is cut off on the tablet. */
const FITS_WINDOW = `(() => {
  const r = document.querySelector('.cal-box').getBoundingClientRect();
  return r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
})()`;

/** The child's three calendar feed addresses on `origin`, each with a key of its own: a pattern per address. */
const calendarFeedPatterns = (origin: string, child: string): RegExp[] =>
  CALENDAR_FEEDS.map((f) => new RegExp(`^${origin.replace(/[.]/g, '\\.')}/calendar/${child}/${f}\\.ics\\?key=[\\w-]{43}$`));

/** Each address matches its pattern, the keys differ, and none holds the token. */
function expectCalendarFeeds(addresses: readonly string[], patterns: readonly RegExp[], token: string): void {
  expect(addresses).toHaveLength(patterns.length);
  addresses.forEach((a, i) => expect(a).toMatch(patterns[i]!));
  expect(new Set(addresses.map((a) => a.split('?key=')[1])).size).toBe(addresses.length);
  for (const a of addresses) expect(a).not.toContain(token);
}

/** Fetches an address as a calendar app would: no cookie, nothing but the address. */
async function asCalendarApp(address: string): Promise<{ status: number; type: string | null; body: string }> {
  const res = await fetch(address);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

describe.skipIf(skipBrowser)("the cards' calendars in a browser", () => {
  it("lists each child's three feed addresses with their keys, copies one, and leaves the board as it was", async () => {
    const { port, token } = await bridgeWithBoard(school);
    const context = await browser().newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    const problems = pageProblems(page);
    await page.goto(`http://127.0.0.1:${port}/?token=${token}`);
    await page.waitForSelector('.child');
    const before = await page.evaluate(LAYOUT);
    expect(before).toMatchObject({ cutOff: [0, 0], scroll: 0 });
    expect(await page.locator('.child .cal-open').allTextContents()).toEqual(['Kalendarze', 'Kalendarze']);

    await page.locator('.child').nth(0).locator('.cal-open').click();
    const ania = await overlayOf(page);
    expect(ania.heading).toBe('Kalendarze: Ania');
    expect(ania.help).toContain('Remote Calendar');
    expect(ania.titles).toEqual(['Ania – lekcje', 'Ania – wydarzenia', 'Ania – dni wolne']);
    expectCalendarFeeds(ania.addresses, calendarFeedPatterns(`http://127.0.0.1:${port}`, 'ania'), token);
    expect(ania.webcal).toEqual(ania.addresses.map((a) => a.replace('http://', 'webcal://')));
    expect(await page.evaluate(FITS_WINDOW)).toBe(true);
    await screenshot(page, 'board-calendars-1280x800.png');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'board-calendars-1280x800-dark.png');
    await page.emulateMedia({ colorScheme: 'light' });

    // Each address is the calendar feed itself, for an app that holds nothing but the address.
    for (const address of ania.addresses) {
      const calendarFeed = await asCalendarApp(address);
      expect(calendarFeed, address).toMatchObject({ status: 200, type: 'text/calendar; charset=utf-8' });
      expect(calendarFeed.body).toMatch(/^BEGIN:VCALENDAR\r\n/);
    }
    expect((await asCalendarApp(ania.addresses[0]!.replace(/\?key=.*/, ''))).status).toBe(401);

    // Copy: the button says so, and the clipboard holds the address.
    const copy = page.locator('.cal-feed').nth(1).locator('.cal-copy');
    await copy.click();
    await expect.poll(() => copy.textContent()).toBe('Skopiowano');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(ania.addresses[1]);

    // Escape closes it, the keyboard back on the card's control, and the board is exactly as it was before.
    await page.keyboard.press('Escape');
    expect(await page.locator('.cal-overlay').count()).toBe(0);
    expect(await page.evaluate("document.activeElement.className + ' ' + document.activeElement.getAttribute('data-child')")).toBe('cal-open ania');
    expect(await page.evaluate(LAYOUT)).toEqual(before);

    // Janek's card lists Janek's calendar feeds; a click beside the box closes it.
    await page.locator('.child').nth(1).locator('.cal-open').click();
    expectCalendarFeeds((await overlayOf(page)).addresses, calendarFeedPatterns(`http://127.0.0.1:${port}`, 'jan'), token);
    await page.mouse.click(5, 5);
    expect(await page.locator('.cal-overlay').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('fits a phone, the addresses wrapping inside the box; copies without the Clipboard API', async () => {
    const { port, token } = await bridgeWithBoard(school);
    const context = await browser().newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    // A phone on the home network opens http://192.168...: no secure context, no navigator.clipboard.
    await page.addInitScript('Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined })');
    await page.goto(`http://127.0.0.1:${port}/?token=${token}`);
    await page.waitForSelector('.child');
    await page.locator('.child').nth(1).locator('.cal-open').click();
    const jan = await overlayOf(page);
    expect(jan.titles).toEqual(['Jan – lekcje', 'Jan – wydarzenia', 'Jan – dni wolne']);
    expect(await page.evaluate(FITS_WINDOW)).toBe(true);
    expect(await page.evaluate('document.documentElement.scrollWidth - innerWidth')).toBe(0);
    await screenshot(page, 'board-calendars-390x844.png');
    const copy = page.locator('.cal-feed').nth(2).locator('.cal-copy');
    await copy.click();
    await expect.poll(() => copy.textContent()).toBe('Skopiowano');
    // Copied the old way, from the selection, which stays on the address for a long press.
    expect(await page.evaluate('getSelection().toString()')).toBe(jan.addresses[2]);
    expect(jan.addresses[2]).toMatch(calendarFeedPatterns(`http://127.0.0.1:${port}`, 'jan')[2]!);
    expect(jan.addresses[2]).not.toContain(token);
    await context.close();
  }, 60_000);

  it("through Home Assistant's ingress: the page's host with the bridge's own port, and no ingress path", async () => {
    const { port, token } = await bridgeWithBoard(school, '127.0.0.1');
    const prefix = '/api/hassio_ingress/x7Kq2';
    const proxy = await ingressProxy(prefix, port);
    try {
      const proxyPort = (proxy.address() as AddressInfo).port;
      const context = await browser().newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      // Home Assistant's host by its name; no token in the address, none in a cookie.
      await page.goto(`http://localhost:${proxyPort}${prefix}/`);
      await page.waitForSelector('.child');
      await page.locator('.child').nth(0).locator('.cal-open').click();
      const { addresses } = await overlayOf(page);
      expectCalendarFeeds(addresses, calendarFeedPatterns(`http://localhost:${port}`, 'ania'), token);
      const calendarFeed = await asCalendarApp(addresses[0]!.replace('localhost', '127.0.0.1'));
      expect(calendarFeed).toMatchObject({ status: 200, type: 'text/calendar; charset=utf-8' });
      await context.close();
    } finally {
      await closeProxy(proxy);
    }
  }, 60_000);
});
