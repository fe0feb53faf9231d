// Assist against the running bridge on the simulator (interface 18.1), for what the one simulated family reads only
// in part: a kindergarten child's account, which cannot have attendance, notes, a streak, lessons held, a register
// number or a class's school year, has them left out of every answer rather than said "not known yet" (which is for
// what the bridge will know after a read); the answers ask the portal nothing. After a restart the sent messages,
// which a start's first pass leaves for the next, are known from that first pass on, as the last run knew them.
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { freePort } from '../helpers/ports.js';
import { simulatedSchool } from '../helpers/school.js';
import { mcpUrl } from '../../src/outputs/web/token.js';
import { ASK_TEXT } from '../../src/i18n/ask-text.js';

const [ANIA, , ZOSIA] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!, DEMO_ACCOUNTS[2]!];
const school = simulatedSchool('2026-11-18T09:11:30+01:00');
const UNKNOWN = ASK_TEXT.pl.common.unknown;

/** A tool's answer through the MCP server's own address, as a client posts it. */
async function call(url: string, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const reply = (await response.json()) as { result: { content: { text: string }[] } };
  return reply.result.content.map((c) => c.text).join('\n');
}

describe("Assist on a kindergarten child's account", () => {
  it('leaves out what the account cannot have, never saying it is not known yet', async () => {
    const port = await freePort();
    const h = await school.start({
      accounts: [
        { login: ANIA.login, password: ANIA.password },
        { login: ZOSIA.login, password: ZOSIA.password },
      ],
      http: { port },
      out: { write: () => true },
    });
    await h.runUntil(() => ['ania', 'zofia'].every((c) => h.state(c, 'last_update') !== undefined), 'the first passes');
    const url = mcpUrl(`http://127.0.0.1:${port}`, (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim());
    const before = school.sim.count();
    const told = new Map<string, string>();
    for (const tool of ['get_attendance', 'get_behaviour', 'get_lesson_topics', 'get_upcoming', 'get_school'])
      told.set(tool, await call(url, tool, { child: 'zofia' }));
    for (const [tool, text] of told) {
      const unknown = text.split('\n').filter((line) => line.includes(UNKNOWN));
      // The school's files are read after a start (the bridge will know them): the one fact said not known yet.
      expect(
        unknown.filter((line) => !line.startsWith(ASK_TEXT.pl.school.files)),
        `${tool}:\n${text}`,
      ).toEqual([]);
    }
    expect(told.get('get_school')).toContain('Klasa lub grupa: Biedronki');
    expect(told.get('get_school')).not.toContain(ASK_TEXT.pl.school.year);
    // A kindergarten's plan of blocks has no plan changes (its account refuses the substitutions).
    expect(told.get('get_upcoming')).not.toContain(ASK_TEXT.pl.timetable.planChanges);
    // Her school sister's answers still tell each of them.
    const ania = await call(url, 'get_attendance', { child: 'ania' });
    expect(ania).toMatch(/^Frekwencja w tym semestrze: obecność: \d/m);
    expect(await call(url, 'get_school', { child: 'ania' })).toMatch(/^Rok szkolny: od 2026-09-01/m);
    expect(school.sim.count()).toBe(before);
  });
});

describe("Assist asked about a kindergarten child's far week", () => {
  it('reads that fortnight of the kindergarten plan at one request, then answers from it with none', async () => {
    const port = await freePort();
    const h = await school.start({ accounts: [{ login: ZOSIA.login, password: ZOSIA.password }], http: { port }, out: { write: () => true } });
    await h.runUntil(() => h.state('zofia', 'timetable_today') !== undefined, 'the first pass');
    const url = mcpUrl(`http://127.0.0.1:${port}`, (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim());
    const plans = (): number => school.sim.count({ path: /\/timetable\/kindergarteners\// });
    const before = plans();
    // Three weeks ahead: neither this fortnight nor anything the passes read.
    const far = await call(url, 'get_day', { child: 'zofia', date: '2026-12-09' });
    expect(far).toContain('Odczytane ze szkoły przed chwilą.');
    expect(far).not.toContain(UNKNOWN);
    expect(far).toMatch(/\n- \d\d:\d\d–\d\d:\d\d \S/);
    expect(plans() - before).toBe(1);
    const read = school.sim.requests.filter((r) => r.path.includes('/timetable/kindergarteners/')).at(-1);
    expect(new URLSearchParams(read?.query).get('dateFrom')).toBe('2026-12-07');
    const again = await call(url, 'get_day', { child: 'zofia', date: '2026-12-09' });
    expect(again).toBe(far.replace('\nOdczytane ze szkoły przed chwilą.', ''));
    expect(plans() - before).toBe(1);
  });
});

describe('Assist after a restart', () => {
  it("knows the sent messages from the start's first pass, as the last run knew them", async () => {
    const port = await freePort();
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password }], http: { port }, out: { write: () => true } });
    await h.runUntil(() => h.state('ania', 'last_update') !== undefined, 'the first pass');
    await h.advanceUntil(() => h.state('ania', 'sent_message') === 'Wcześniejsze wyjście ze szkoły', 'the sent box read', 10);
    const sent = /^Wysłane wiadomości: .*"Wcześniejsze wyjście ze szkoły"/m;
    const url = mcpUrl(`http://127.0.0.1:${port}`, (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim());
    expect(await call(url, 'get_messages', { child: 'ania', days: 30 })).toMatch(sent);
    await h.restart();
    await h.runUntil(() => h.state('ania', 'last_update') !== undefined, "the restart's first pass");
    // The start's first pass left the sent box for the next (its read waits): Assist tells what the last run knew.
    const sentBox = school.sim.count({ path: '/api/outbox/messages' });
    const answer = await call(url, 'get_messages', { child: 'ania', days: 30 });
    expect(answer).toMatch(sent);
    expect(answer).not.toContain(`Wysłane wiadomości: ${UNKNOWN}`);
    expect(school.sim.count({ path: '/api/outbox/messages' })).toBe(sentBox);
  });
});
