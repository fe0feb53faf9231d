// Assist reads from the school what the bridge does not hold (interface 18.2), asked as Home Assistant's MCP integration
// asks (test/helpers/assist.ts: the official MCP Python SDK, a session per call), against the running bridge on the
// simulator: a day four weeks ago and a day three weeks ahead are answered with that day's lessons at one request each,
// and with none when asked again; a week the school has not published says so; an assistant asking in a loop is held
// to the hour's budget and told when the school can be asked again.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpUrl } from '../../src/outputs/web/token.js';
import { addDays } from '../../src/util/time.js';
import { ON_DEMAND_LIMITS } from '../../src/engine/on-demand.js';
import { freePort } from '../helpers/ports.js';
import { simulatedSchool } from '../helpers/school.js';
import { answers, hasSdk } from '../helpers/assist.js';
import type { Harness } from '../helpers/app.js';

const NOW = '2026-11-18T09:11:30+01:00';
const TODAY = '2026-11-18';
const school = simulatedSchool(NOW);

/** Ania's bridge with its web server, after the first passes; the MCP address with its key. */
async function bridge(): Promise<{ h: Harness; url: string }> {
  const port = await freePort();
  const h = await school.firstPasses(['timetable_today', 'newest_grade'], { http: { port }, out: { write: () => true } });
  const token = (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim();
  return { h, url: mcpUrl(`http://127.0.0.1:${port}`, token) };
}

const weeks = (): number => school.reads('Timetables');
const lessonLine = /\nLekcje od \d\d:\d\d do \d\d:\d\d:\n- 1\. \d\d:\d\d–\d\d:\d\d \S/;

describe.skipIf(!hasSdk() && !process.env.CI)('Assist asks the school for a week the bridge does not hold', () => {
  it('tells a day four weeks ago and three weeks ahead at one request each, then with none', async () => {
    const { url } = await bridge();
    const [past, ahead] = [addDays(TODAY, -28), addDays(TODAY, 21)];
    const before = school.sim.count();
    const weeksBefore = weeks();
    const [first, second] = await answers(url, [
      { tool: 'get_day', arguments: { child: 'Ania', date: past } },
      { tool: 'get_day', arguments: { child: 'Ania', date: ahead } },
    ]);
    // That day's lessons, read from the portal then, and the answer says the school was asked just now.
    for (const [answer, date] of [
      [first, past],
      [second, ahead],
    ] as const) {
      expect(answer?.is_error, answer?.text).toBe(false);
      expect(answer?.text).toMatch(new RegExp(`^Ania \\(ania\\) — .*\\(${date}\\)\\nOdczytane ze szkoły przed chwilą\\.`));
      expect(answer?.text).toMatch(lessonLine);
    }
    expect(school.sim.count() - before).toBe(2);
    expect(weeks() - weeksBefore).toBe(2);
    // Asked again: the same lessons from the copy kept, no request, and no word of the school asked.
    const again = await answers(url, [
      { tool: 'get_day', arguments: { child: 'Ania', date: past } },
      { tool: 'get_day', arguments: { child: 'Ania', date: ahead } },
    ]);
    expect(again.map((a) => a.text)).toEqual([
      first?.text.replace('\nOdczytane ze szkoły przed chwilą.', ''),
      second?.text.replace('\nOdczytane ze szkoły przed chwilą.', ''),
    ]);
    expect(school.sim.count() - before).toBe(2);
  }, 120_000);

  it('says a week the school has not published, and a day outside the school year, as such', async () => {
    const { url } = await bridge();
    const [unpublished, summer] = await answers(url, [
      { tool: 'get_day', arguments: { child: 'Ania', date: addDays(TODAY, 35) } },
      { tool: 'get_day', arguments: { child: 'Ania', date: '2026-08-14' } },
    ]);
    expect(unpublished?.text).toContain(`Szkoła nie opublikowała jeszcze planu na tydzień z dniem ${addDays(TODAY, 35)}.`);
    expect(summer?.text).toMatch(/2026-08-14 wypada poza rokiem szkolnym \(od 2026-09-01 do 2027-06-\d\d\): wtedy nie ma lekcji\./);
  }, 120_000);

  it("tells a past school year's messages from the school's archive, asked once", async () => {
    const { url } = await bridge();
    const archived = (): number => school.sim.count({ path: /^\/api\/archive\// });
    const [archive, again, thisYear] = await answers(url, [
      { tool: 'get_messages', arguments: { child: 'Ania', archive: true } },
      { tool: 'get_messages', arguments: { child: 'Ania', archive: true } },
      { tool: 'get_messages', arguments: { child: 'Ania' } },
    ]);
    // Last school year's messages (its May, its March and October), received and sent, read from the archive then.
    expect(archive?.text).toMatch(/^Ania \(ania\) — Wiadomości\nOdczytane ze szkoły przed chwilą\.\n/);
    expect(archive?.text).toMatch(
      /Wiadomości z minionych lat szkolnych \(archiwum\):\n- \S+ \d\d\.06 \(2026-06-\d\d\), od Anna Nowak, "Zakończenie roku szkolnego": Szanowni Państwo,/,
    );
    expect(archive?.text).toContain('od Piotr Wiśniewski, "Konkurs Kangur — wyniki"');
    expect(archive?.text).toMatch(
      /Wysłane w minionych latach szkolnych \(archiwum\): \S+ \d\d\.05 \(2026-05-\d\d\), do Anna Nowak, "Nieobecność na wycieczce"/,
    );
    expect(archived()).toBe(2);
    // Asked again: from the copies kept, no request; this year's messages hold none of the archive's.
    expect(again?.text).toBe(archive?.text.replace('\nOdczytane ze szkoły przed chwilą.', ''));
    expect(archived()).toBe(2);
    expect(thisYear?.text).not.toContain('Konkurs Kangur');
  }, 120_000);

  it('holds a loop of 100 questions to the hour’s budget, and says when the school can be asked again', async () => {
    const { url } = await bridge();
    // A Wednesday of each week of the school year the bridge does not hold, over and over: 100 questions.
    const year = Array.from({ length: 42 }, (_, i) => addDays('2026-09-02', 7 * i)).filter((d) => d <= '2027-06-16');
    const asked = year.filter((d) => d < TODAY || d > addDays(TODAY, 7));
    const loop = Array.from({ length: 100 }, (_, i) => asked[i % asked.length]!);
    expect(asked.length).toBeGreaterThan(ON_DEMAND_LIMITS.perHour);
    const before = school.sim.count();
    const told = await answers(
      url,
      loop.map((date) => ({ tool: 'get_day', arguments: { child: 'Ania', date } })),
      // A session each, as Home Assistant opens them, over one HTTP client: the budget is the bridge's, whatever the transport.
      { oneClient: true },
    );
    // One request a week read, never more than the hour's budget; the questions over it say until when.
    expect(school.sim.count() - before).toBe(ON_DEMAND_LIMITS.perHour);
    expect(told.every((a) => !a.is_error)).toBe(true);
    expect(told.filter((a) => a.text.includes('Odczytane ze szkoły przed chwilą.'))).toHaveLength(ON_DEMAND_LIMITS.perHour);
    const over = told.filter((a) => a.text.includes('najwyżej 20 razy na godzinę'));
    const read = new Set(asked.slice(0, ON_DEMAND_LIMITS.perHour));
    expect(over).toHaveLength(loop.filter((d) => !read.has(d)).length);
    expect(over[0]?.text).toMatch(/znów może od 10:11\. Co mostek ma:/);
  }, 240_000);
});
