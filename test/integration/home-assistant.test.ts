// Each child's calendars and homework list made and kept in Home Assistant through its API (interface
// 15.4): the real bridge against the simulated school, a real broker and the model of Home Assistant's
// REST API (test/helpers/home-assistant.ts), which validates each Remote Calendar by fetching its calendar feed
// from the bridge's web server as Home Assistant does. Assist's MCP entry is home-assistant-assist.test.ts's.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { createLogger } from '../../src/util/log.js';
import { calendarFeedKey, loadOrCreateToken, rotateToken } from '../../src/outputs/web/token.js';
import { CALENDAR_FEED_NAMES } from '../../src/rules/calendar-feeds.js';
import { HomeAssistantModel } from '../helpers/home-assistant.js';
import { simulatedSchool } from '../helpers/school.js';
import { freePort } from '../helpers/ports.js';
import { tempDir } from '../helpers/temp.js';
import { changeFeedWatching } from '../helpers/kindergarten.js';
import type { Harness, HarnessOptions } from '../helpers/app.js';
import { HOME_ASSISTANT } from '../../src/outputs/homeassistant/output.js';
import { WEB } from '../../src/outputs/web/output.js';

const [ANIA, JAN, ZOSIA] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!, DEMO_ACCOUNTS[2]!];
// A Wednesday during the second lesson: Ania's homework is due Thursday (4402) and Friday (4401); 4403 was due Tuesday.
const NOW = '2026-11-18T09:11:30+01:00';
const school = simulatedSchool(NOW);
const TOKEN = 'ha-long-lived-token-Zq8w3Lx0Vb7n';

let ha: HomeAssistantModel;
beforeEach(async () => {
  ha = new HomeAssistantModel(TOKEN);
  await ha.start();
});
afterEach(() => ha.stop());

const login = ({ login: l, password }: { login: string; password: string }) => ({ login: l, password });

/** The bridge with the children given, its web server on, Home Assistant's API set; after its first passes reached Home Assistant. */
async function bridge(options: { children?: { login: string; password: string }[]; port?: number; entries?: number } & Partial<HarnessOptions> = {}) {
  const { children = [ANIA, JAN], entries = children.length * 4, ...rest } = options;
  const port = options.port ?? (await freePort());
  const h = await school.start({
    accounts: children.map(login),
    http: { port },
    homeassistant: { url: ha.url, token: TOKEN, public_url: `http://127.0.0.1:${port}`, assist: false },
    ...rest,
  });
  await h.advanceUntil(() => ha.entries.length === entries, `${entries} entries in Home Assistant`, 5);
  return { h, port };
}

/** What a list shows, item by item. */
const shown = (name: string) =>
  (ha.list(name)?.items ?? [])
    .map(({ summary, due, description, status }) => ({ summary, due, description, status }))
    .sort((a, b) => a.summary.localeCompare(b.summary));

/** The homework the bridge published as upcoming (the next two weeks), as the list should show it. */
function upcoming(h: Harness, child: string) {
  const items = (h.attributes(child, 'homework_upcoming')?.items ?? []) as { date: string; subject: string; topic: string; text: string }[];
  return items
    .map((i) => ({ summary: `${i.subject}: ${i.topic}`, due: i.date, description: i.text, status: 'needs_action' }))
    .sort((a, b) => a.summary.localeCompare(b.summary));
}

const flowsStarted = () => ha.calls.filter((c) => c.method === 'POST' && c.path === '/api/config/config_entries/flow').length;
const itemCalls = () => ha.calls.filter((c) => /\/api\/services\/todo\/(add|update|remove)_item/.test(c.path)).length;

describe("Home Assistant's API", () => {
  it('makes three calendars and a homework list per child on a fresh start, the lists filled, and nothing again at a restart', async () => {
    const { h, port } = await bridge();
    const token = (await loadOrCreateToken(h.dataDir)).value;
    const calendars = ha.entriesOf('remote_calendar').map((e) => [e.title, e.data.url]);
    const words = { lessons: 'lekcje', agenda: 'wydarzenia', 'free-days': 'dni wolne' };
    expect(calendars.sort()).toEqual(
      [
        ['ania', 'Ania'],
        ['jan', 'Jan'],
      ]
        .flatMap(([id, name]) =>
          CALENDAR_FEED_NAMES.map((calendarFeed) => [
            `${name} – ${words[calendarFeed]}`,
            `http://127.0.0.1:${port}/calendar/${id}/${calendarFeed}.ics?key=${calendarFeedKey(token, id as string, calendarFeed)}`,
          ]),
        )
        .sort(),
    );
    expect(
      ha
        .entriesOf('local_todo')
        .map((e) => e.title)
        .sort(),
    ).toEqual(['Ania – zadania domowe', 'Jan – zadania domowe']);
    // The open homework of the next two weeks, with its subject, text and due date; Tuesday's is not among it.
    expect(shown('Ania – zadania domowe')).toEqual(upcoming(h, 'ania'));
    expect(
      shown('Ania – zadania domowe')
        .map((i) => i.due)
        .sort(),
    ).toEqual(['2026-11-19', '2026-11-20']);
    expect(shown('Jan – zadania domowe')).toEqual(upcoming(h, 'jan'));
    expect(shown('Jan – zadania domowe').length).toBeGreaterThan(0);

    const [flows, items] = [flowsStarted(), itemCalls()];
    await h.restart();
    await h.advanceMinutes(30);
    expect([flowsStarted(), itemCalls(), ha.entries.length]).toEqual([flows, items, 8]);
  });

  it('shows a new homework, a changed due date and a removed one within a pass; a ticked item stays ticked and a deleted one is never added again', async () => {
    const { h } = await bridge({ children: [ANIA] });
    const list = 'Ania – zadania domowe';
    const reading = shown(list).find((i) => i.due === '2026-11-20')!.summary;
    const fractions = shown(list).find((i) => i.due === '2026-11-19')!.summary;
    ha.familyTicks(list, reading);
    const account = school.sim.account(ANIA.login);
    account.addHomework({ lesson: 8401, due: '2026-11-25', topic: 'Wiersz na pamięć', text: 'Naucz się wiersza „Lokomotywa”.' });
    account.editRecord('HomeWorkAssignments', 4401, { DueDate: '2026-11-23' });
    account.removeRecord('HomeWorkAssignments', 4402);
    await h.advanceUntil(() => shown(list).length === 2 && shown(list).some((i) => i.due === '2026-11-23'), 'the list in step', 30);
    expect(shown(list)).toEqual([
      // Moved by the teacher, still ticked.
      expect.objectContaining({ summary: reading, due: '2026-11-23', status: 'completed' }),
      { summary: 'Język polski: Wiersz na pamięć', due: '2026-11-25', description: 'Naucz się wiersza „Lokomotywa”.', status: 'needs_action' },
    ]);
    expect(shown(list).some((i) => i.summary === fractions)).toBe(false);

    // The family clears the ticked one and deletes the new one: neither comes back, however many passes.
    ha.familyRemoves(list, reading);
    ha.familyRemoves(list, 'Język polski: Wiersz na pamięć');
    account.editRecord('HomeWorkAssignments', 4401, { DueDate: '2026-11-24' });
    await h.advanceMinutes(60);
    expect(shown(list)).toEqual([]);
  });

  it("removes a removed child's entries, and leaves deleted what the family deleted", async () => {
    const dataDir = await tempDir();
    const { h, port } = await bridge({ dataDir });
    ha.familyDeletes('Ania – dni wolne');
    await h.stop();
    const again = await school.start({
      accounts: [login(ANIA)],
      dataDir,
      http: { port },
      homeassistant: { url: ha.url, token: TOKEN, public_url: `http://127.0.0.1:${port}`, assist: false },
    });
    await again.advanceUntil(() => ha.entries.length === 3, "Jan's entries removed", 5);
    await again.advanceMinutes(30);
    expect(ha.entries.map((e) => e.title).sort()).toEqual(['Ania – lekcje', 'Ania – wydarzenia', 'Ania – zadania domowe']);
    expect(ha.list('Jan – zadania domowe')).toBeUndefined();
  });

  it('makes a calendar again at its new address when the calendar feeds get new keys (token --rotate)', async () => {
    const { h, port } = await bridge({ children: [ANIA] });
    const before = ha.entriesOf('remote_calendar').map((e) => e.entry_id);
    const token = await rotateToken(h.dataDir);
    await h.advanceUntil(() => ha.entriesOf('remote_calendar').every((e) => !before.includes(e.entry_id)), 'the calendars made again', 30);
    expect(ha.entriesOf('remote_calendar').map((e) => e.data.url)).toEqual(
      CALENDAR_FEED_NAMES.map(
        (calendarFeed) => `http://127.0.0.1:${port}/calendar/ania/${calendarFeed}.ics?key=${calendarFeedKey(token, 'ania', calendarFeed)}`,
      ),
    );
    expect(ha.entries.length).toBe(4);
  });

  it("asks Home Assistant to read the lessons calendar again within a minute of the pass that cancelled tomorrow's lesson", async () => {
    const { h } = await bridge({ children: [ANIA] });
    const served = () => h.app.outputOf(WEB)?.snapshot?.calendarFeedSource('ania', 'lessons')?.body.toString() ?? '';
    const reads = () => ha.calendar('Ania – lekcje')?.reads ?? [];
    // The first passes fill the calendar feed in (next week's lessons come after the first): each change is read.
    await h.advanceMinutes(30);
    await h.app.outputOf(HOME_ASSISTANT)?.idle();
    const settled = reads().length;
    expect(reads().every((r) => r.status === 200)).toBe(true);
    // Nothing changes: nothing asked.
    await h.advanceMinutes(20);
    await h.app.outputOf(HOME_ASSISTANT)?.idle();
    expect(reads()).toHaveLength(settled);
    // The week has cancelled lessons already: the new one is one more.
    const cancelled = (body: string) => body.replace(/\r\n[ \t]/g, '').split('(odwołana)').length - 1;
    const before = cancelled(served());
    school.sim.account(ANIA.login).addPlanChange({ kind: 'cancelled', OrgDate: '2026-11-19', OrgLessonNo: 6 });
    await h.advanceUntil(() => cancelled(served()) > before, 'the cancellation in the feed', 30);
    await h.advanceMinutes(1);
    await h.app.outputOf(HOME_ASSISTANT)?.idle();
    expect(reads()).toHaveLength(settled + 1);
    expect(reads().at(-1)?.status).toBe(200);
    expect(cancelled(reads().at(-1)?.body ?? '')).toBe(before + 1);
  }, 60_000);

  it('makes a kindergarten child no homework list and no agenda calendar', async () => {
    const { h } = await bridge({ children: [ZOSIA], entries: 2 });
    await h.advanceMinutes(20);
    expect(ha.entries.map((e) => e.title).sort()).toEqual(['Zofia – dni wolne', 'Zofia – lekcje']);
  }, 60_000);

  it('makes a kindergarten child on the family road, the change feed watching, no homework list and no agenda calendar at any pass', async () => {
    const family = { email: 'kowalscy@example.com', password: 'demo-kowalscy' };
    school.sim.families.add({ ...family, logins: [ANIA.login, ZOSIA.login] });
    const { h } = await bridge({ children: [], entries: 6, accounts: [family] as never });
    expect(await changeFeedWatching(h)).toEqual({ ania: true, zofia: true });
    await h.advanceMinutes(60);
    expect(ha.entries.map((e) => e.title).sort()).toEqual([
      'Ania – dni wolne',
      'Ania – lekcje',
      'Ania – wydarzenia',
      'Ania – zadania domowe',
      'Zofia – dni wolne',
      'Zofia – lekcje',
    ]);
    // Never made and removed again: six entries, six flows.
    expect(flowsStarted()).toBe(6);
  }, 60_000);

  it("masks the token before it cuts Home Assistant's long refusal: no run of 8 of its characters in the log or the kept file", async () => {
    const lines: string[] = [];
    const log = createLogger('debug', { write: (chunk: string) => void lines.push(chunk) }, { format: 'json' });
    ha.outage = 'echo';
    const { h } = await bridge({ children: [ANIA], entries: 0, log });
    await h.advanceUntil(() => lines.some((l) => l.includes("Home Assistant's API failed")), 'the refusal logged', 5);
    const kept = await readFile(join(h.dataDir, 'homeassistant.json'), 'utf8');
    // The refusal is there, masked, not dropped: the proxy's words reach the log and the kept file.
    expect(kept).toContain('Request refused by the proxy');
    expect(lines.join('')).toContain('Request refused by the proxy');
    const runs = Array.from({ length: TOKEN.length - 7 }, (_, i) => TOKEN.slice(i, i + 8));
    expect(runs.filter((run) => kept.includes(run) || lines.some((l) => l.includes(run)))).toEqual([]);
  });

  it.each([
    [401, 'unauthorized'],
    [500, 'server_error'],
    ['away', 'unreachable'],
  ] as const)(
    'answering %s, leaves MQTT and the board as they are, says %s in the diagnostics, and makes all once it answers',
    async (outage, reason) => {
      const lines: string[] = [];
      const log = createLogger('debug', { write: (chunk: string) => void lines.push(chunk) }, { format: 'json' });
      ha.outage = outage;
      const { h, port } = await bridge({ children: [ANIA], entries: 0, log });
      await h.runUntil(() => h.state('ania', 'homework_upcoming') !== undefined, 'the first pass on MQTT');
      const token = (await loadOrCreateToken(h.dataDir)).value;
      const board = await fetch(`http://127.0.0.1:${port}/?token=${token}`);
      expect(board.status).toBe(200);
      expect(await board.text()).toContain('Ania');
      const diagnostics = await h.app.diagnostics();
      expect(JSON.parse(diagnostics).bridge.home_assistant).toMatchObject({ api: reason, made: 0 });
      expect(ha.entries).toEqual([]);

      ha.outage = undefined;
      await h.advanceUntil(() => ha.entries.length === 4, 'made once Home Assistant answers', 5);
      expect(JSON.parse(await h.app.diagnostics()).bridge.home_assistant).toMatchObject({ api: 'ok', made: 4 });
      expect(shown('Ania – zadania domowe')).toEqual(upcoming(h, 'ania'));
      // The token is in no log line and not in the bundle.
      expect(lines.join('').includes(TOKEN)).toBe(false);
      expect(lines.some((l) => l.includes("Home Assistant's API failed"))).toBe(true);
      expect(diagnostics.includes(TOKEN)).toBe(false);
    },
  );
});
