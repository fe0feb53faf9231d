// The family board in a real browser with a message opened (issue 22): Ania's opened message with
// the start of its text and its attachment as a download link that the board's own token lets through,
// Janek's newest message marked unread, and the cards still fitting a 1280x800 wall tablet. Screenshots
// under test/artifacts/ for a person to look at.
import { describe, expect, it } from 'vitest';
import { ANIA, bridgeWithBoard, pageProblems, useBrowser, skipBrowser as skip, screenshot } from '../helpers/board-browser.js';
import { simulatedSchool } from '../helpers/school.js';
import { command } from '../helpers/commands.js';

const NOW = '2026-11-18T09:11:30+01:00';
const school = simulatedSchool(NOW);

const TOPIC = 'Wycieczka do Krakowa – zgody';
const BODY =
  '<p>Szanowni Pa&#324;stwo,</p><p>w piątek jedziemy do Krakowa, zbi&oacute;rka o 7:45 przed szkołą.<br>' +
  'Proszę o podpisaną zgodę do środy.</p><p>Anna Nowak</p>';
const ATTACHMENT = { id: '990001', filename: 'zgoda na wycieczkę.pdf' };

/** Per card, how many pixels of its lists the card cuts off at its bottom. */
const CUT_OFF = `[...document.querySelectorAll('.child .info')].map((i) => Math.max(0, i.scrollHeight - i.clientHeight - 1))`;

const browser = useBrowser();

describe.skipIf(skip)('messages on the family board', () => {
  it("shows the opened message with its attachment link, the other child's unread one, and still fits 1280x800", async () => {
    const message = school.sim.messaging.addMessage(ANIA.login, { topic: TOPIC, body: BODY, from: 162001, attachments: [ATTACHMENT] });
    const { h, port, token } = await bridgeWithBoard(school, undefined, { downloads: true });
    expect(await command(h, 'ania', 'open_message', 'newest', school.clock)).toMatchObject({
      status: 'ok',
      message_id: String(message.id),
      attachments: 1,
    });
    await h.runUntil(() => h.state('ania', 'opened_message') === TOPIC, 'the opened message');

    const context = await browser().newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const page = await context.newPage();
    const problems = pageProblems(page);
    await page.goto(`http://127.0.0.1:${port}/?token=${token}`);
    await page.waitForSelector('.child .messages');
    const [ania, jan] = [page.locator('.child').nth(0), page.locator('.child').nth(1)];

    const opened = ania.locator('.messages .msg.opened');
    expect(await opened.locator('.msg-mark').textContent()).toBe('Otwarta');
    expect(await opened.locator('.msg-topic').textContent()).toBe(TOPIC);
    expect(await opened.locator('.when').textContent()).toMatch(/^Anna Nowak · dziś$/);
    // The paragraphs kept, one per line.
    expect(await opened.locator('.msg-text').textContent()).toBe(
      'Szanowni Państwo,\nw piątek jedziemy do Krakowa, zbiórka o 7:45 przed szkołą.\nProszę o podpisaną zgodę do środy.\nAnna Nowak',
    );
    // The link, relative to the page and with the page's token, downloads the very file the bridge saved.
    const link = opened.locator('a.file');
    // Its mark drawn by the style sheet, no emoji (an empty box on a tablet without an emoji font).
    expect(await link.textContent()).toBe(ATTACHMENT.filename);
    expect(await link.locator('.file-mark').count()).toBe(1);
    const href = await link.getAttribute('href');
    expect(href).toBe(`files/ania/${message.id}/${encodeURIComponent(ATTACHMENT.filename)}?token=${token}`);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe(ATTACHMENT.filename);
    const body = await new Promise<string>((resolve, reject) => {
      void download.createReadStream().then((stream) => {
        const parts: Buffer[] = [];
        stream.on('data', (c: Buffer) => parts.push(c));
        stream.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
        stream.on('error', reject);
      }, reject);
    });
    expect(body).toBe(school.sim.downloads.file('attachment', ATTACHMENT.id, ATTACHMENT.filename).body);
    // Opened, so no longer unread: Ania has no "new" line for it, only for her older unread one, which
    // the board lists too now (issue 52), above the opened one.
    expect(await ania.locator('.msg.unread .msg-topic').allTextContents()).toEqual(['Zebranie z rodzicami w czwartek']);
    expect(await ania.locator('.messages li.item').evaluateAll((items) => items.map((i) => i.className))).toEqual([
      'item msg unread',
      'item msg opened',
    ]);

    // Janek's newest message is unread: sender, day and topic, as newest_message publishes them.
    const unread = jan.locator('.messages .msg.unread');
    const newest = h.attributes('jan', 'newest_message')!;
    expect(newest.read).toBe(false);
    expect(await unread.locator('.msg-mark').textContent()).toBe('nowa');
    expect(await unread.locator('.msg-topic').textContent()).toBe(h.state('jan', 'newest_message'));
    expect(await unread.locator('.when').textContent()).toContain(String(newest.sender));

    // Still one screen, nothing cut in half.
    expect(await page.evaluate('document.documentElement.scrollHeight - innerHeight')).toBe(0);
    expect(await page.evaluate(CUT_OFF)).toEqual([0, 0]);
    await screenshot(page, 'board-1280x800-message.png');
    await page.setViewportSize({ width: 800, height: 1280 });
    await page.waitForTimeout(400);
    expect(await page.evaluate(CUT_OFF)).toEqual([0, 0]);
    await screenshot(page, 'board-800x1280-message.png');
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
