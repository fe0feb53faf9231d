// The keeper as a sink of the bus, against the model of Home Assistant's API: what the family's Home
// Assistant is asked after a pass (the calendars read again when their calendar feed changed, at most once in five
// minutes each). The calendar feeds are served by a plain server that answers any calendar, as the bridge's would;
// Assist's entry by the bridge's own web server with its MCP server, which the model's entry calls.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { homeworkUpcomingEntity, upcomingTestsEntity } from '../../../../src/features/agenda/entities.js';
import type { EntityDef } from '../../../../src/features/kit/entities.js';
import { HomeAssistantKeeper } from '../../../../src/outputs/homeassistant/keeper.js';
import type { HomeAssistantHandover } from '../../../../src/outputs/homeassistant/made.js';
import { FakeClock } from '../../../../src/bench/fake-clock.js';
import { createLogger } from '../../../../src/util/log.js';
import { CALENDAR_FEED_NAMES, type AgendaEntry, type CalendarFeedName } from '../../../../src/rules/calendar-feeds.js';
import { calendarFeedUrl, LiveToken, loadOrCreateToken, mcpUrl, rotateToken } from '../../../../src/outputs/web/token.js';
import { startWebServer, type WebServer } from '../../../../src/outputs/web/server.js';
import { mcpHandler } from '../../../../src/outputs/mcp/http.js';
import { silentLogger } from '../../../../src/util/log.js';
import { HomeAssistantModel } from '../../../helpers/home-assistant.js';
import { freePort } from '../../../helpers/ports.js';
import { tempDir } from '../../../helpers/temp.js';
import { HandData } from '../../../helpers/web.js';

const TOKEN = 'keeper-token-Hs5v2Nc8Lp3q';
const ICS = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nEND:VCALENDAR\r\n';
const MINUTE = 60_000;

let ha: HomeAssistantModel;
let calendarFeeds: Server;
let calendarFeedBase = '';
beforeAll(async () => {
  calendarFeeds = createServer((req, res) => {
    res.writeHead(req.url?.startsWith('/404/') ? 404 : 200, { 'content-type': 'text/calendar' });
    res.end(ICS);
  });
  await new Promise<void>((resolve) => calendarFeeds.listen(0, '127.0.0.1', resolve));
  calendarFeedBase = `http://127.0.0.1:${(calendarFeeds.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => calendarFeeds.close(resolve)));
beforeEach(async () => {
  ha = new HomeAssistantModel(TOKEN);
  await ha.start();
});
let keepers: HomeAssistantKeeper[] = [];
afterEach(async () => {
  for (const keeper of keepers) await keeper.stop();
  keepers = [];
  await ha.stop();
});

async function keeper(
  clock: FakeClock,
  dataDir?: string,
  publicUrl = calendarFeedBase,
  schoolwork = true,
  handover?: HomeAssistantHandover,
  assist = false,
) {
  const k = new HomeAssistantKeeper({
    ...(handover ? { handover } : {}),
    config: { url: ha.url, token: TOKEN, public_url: publicUrl, statistics: false, assist },
    dataDir: dataDir ?? (await tempDir()),
    language: 'pl',
    clock,
    log: createLogger('error', { write: () => undefined }),
    calendarFeedsServed: () => true,
    children: () => ({ ids: ['ania'], complete: true }),
  } as ConstructorParameters<typeof HomeAssistantKeeper>[0]);
  keepers.push(k);
  await k.start();
  k.device({ id: 'ania', name: 'Ania', entities: schoolwork ? [homeworkUpcomingEntity, upcomingTestsEntity] : [timetableToday] });
  return k;
}

/** One pass of Ania's: each calendar feed published (the lessons' with `lessons` in it), then the pass's end. */
async function pass(k: HomeAssistantKeeper, lessons: string, agenda: readonly AgendaEntry[] = []): Promise<void> {
  const content = (name: CalendarFeedName) => ({
    child: 'Ania',
    entries: (name === 'lessons' ? [{ summary: lessons }] : name === 'agenda' ? agenda : []) as never,
  });
  for (const name of ['lessons', 'agenda', 'free-days'] as const) k.calendarFeed('ania', name, content(name));
  k.passed();
  await k.idle();
}

/** An entity a kindergarten child's device has (her kindergarten plan): neither homework nor tests. */
const timetableToday = { ...homeworkUpcomingEntity, key: 'timetable_today' } as EntityDef;

const reads = (title: string) => ha.calendar(title)?.reads.length ?? 0;
/** Where each Remote Calendar in Home Assistant reads its calendar feed. */
const calendars = () => ha.entriesOf('remote_calendar').map((e) => String(e.data.url));

describe('the keeper: calendars follow the calendar feed', () => {
  it('asks a calendar to read its calendar feed at once after a pass that changed it, once in 5 minutes at most, and never for an unchanged calendar feed', async () => {
    const clock = new FakeClock('2026-11-18T10:00:00+01:00');
    const k = await keeper(clock);
    await pass(k, 'Matematyka');
    expect(ha.entries.map((e) => e.title).sort()).toEqual(['Ania – dni wolne', 'Ania – lekcje', 'Ania – wydarzenia', 'Ania – zadania domowe']);
    // Just made: its flow read the calendar feed.
    expect(reads('Ania – lekcje')).toBe(0);
    await clock.advance(3 * MINUTE);
    await pass(k, 'Matematyka');
    expect(reads('Ania – lekcje')).toBe(0);

    // 10:28: tomorrow's lesson cancelled. Asked in that same pass, and only that calendar.
    await pass(k, 'Matematyka (odwołana)');
    expect(reads('Ania – lekcje')).toBe(1);
    expect([reads('Ania – wydarzenia'), reads('Ania – dni wolne')]).toEqual([0, 0]);
    const updates = () => ha.calls.filter((c) => c.path === '/api/services/homeassistant/update_entity' && c.status === 200).length;
    expect(updates()).toBe(1);

    // Two more changes within the five minutes: one ask, when they are over.
    await clock.advance(2 * MINUTE);
    await pass(k, 'Matematyka (odwołana), Fizyka (zastępstwo)');
    await clock.advance(1 * MINUTE);
    await pass(k, 'Matematyka (odwołana), Fizyka (odwołana)');
    expect(reads('Ania – lekcje')).toBe(1);
    await clock.advance(2 * MINUTE - 1);
    await k.idle();
    expect(reads('Ania – lekcje')).toBe(1);
    await clock.advance(1);
    await k.idle();
    expect(reads('Ania – lekcje')).toBe(2);
    await clock.advance(30 * MINUTE);
    await pass(k, 'Matematyka (odwołana), Fizyka (odwołana)');
    expect(updates()).toBe(2);
  });

  it('after a restart, asks only for a calendar whose calendar feed changed while it was down', async () => {
    const clock = new FakeClock('2026-11-18T10:00:00+01:00');
    const dataDir = await tempDir();
    const first = await keeper(clock, dataDir);
    await pass(first, 'Matematyka');
    await first.stop();
    const again = await keeper(clock, dataDir);
    await pass(again, 'Matematyka');
    expect(reads('Ania – lekcje')).toBe(0);
    await pass(again, 'Chemia');
    expect(reads('Ania – lekcje')).toBe(1);
  });
});

describe('the keeper: entries that stay the bridge’s', () => {
  const flowStep = /^\/api\/config\/config_entries\/flow\/[^/]+$/;
  const homework: AgendaEntry = {
    uid: 'hw-1',
    kind: 'homework',
    when: { date: '2026-11-20', last: '2026-11-20' },
    subject: 'Matematyka',
    text: 'Zadania 1-4',
    label: 'Ułamki',
    teacher: null,
  };

  it('after a lost answer to a flow step: tried again within seconds, the entry taken as the bridge’s at its address, no flow left open, and it follows token --rotate', async () => {
    const clock = new FakeClock('2026-11-18T10:00:00+01:00');
    const dataDir = await tempDir();
    let lose = 1;
    ha.loses = (method, path) => method === 'POST' && flowStep.test(path) && lose-- > 0;
    const k = await keeper(clock, dataDir);
    await pass(k, 'Matematyka');
    // The step was done (the entry made), its answer lost: not a Home Assistant away.
    expect(ha.entries.map((e) => e.title)).toEqual(['Ania – lekcje']);
    expect(k.status()).toMatchObject({ api: 'unreachable', retry_in_minutes: 0.25 });
    await clock.advance(15_000);
    await k.idle();
    expect(k.status()).toMatchObject({ api: 'ok', made: 4, kept: 0 });
    expect(ha.entries.map((e) => e.title).sort()).toEqual(['Ania – dni wolne', 'Ania – lekcje', 'Ania – wydarzenia', 'Ania – zadania domowe']);
    expect(ha.flowsInProgress).toBe(0);
    const token = (await loadOrCreateToken(dataDir)).value;
    expect(calendars().sort()).toEqual(CALENDAR_FEED_NAMES.map((f) => calendarFeedUrl(calendarFeedBase, 'ania', f, token)).sort());

    const rotated = await rotateToken(dataDir);
    await clock.advance(MINUTE);
    await pass(k, 'Matematyka');
    expect(calendars().sort()).toEqual(CALENDAR_FEED_NAMES.map((f) => calendarFeedUrl(calendarFeedBase, 'ania', f, rotated)).sort());
    expect(ha.entries).toHaveLength(4);
  });

  it('after a lost answer while a calendar is made again at its new key: made again, not taken for deleted by the family', async () => {
    const clock = new FakeClock('2026-11-18T10:00:00+01:00');
    const dataDir = await tempDir();
    const k = await keeper(clock, dataDir);
    await pass(k, 'Matematyka');
    const rotated = await rotateToken(dataDir);
    // The first calendar is deleted, its new entry made, and the answer to that step lost.
    let lose = 1;
    ha.loses = (method, path) => method === 'POST' && flowStep.test(path) && lose-- > 0;
    await clock.advance(MINUTE);
    await pass(k, 'Matematyka');
    await clock.advance(15_000);
    await k.idle();
    expect(lose).toBeLessThan(0);
    expect(calendars().sort()).toEqual(CALENDAR_FEED_NAMES.map((f) => calendarFeedUrl(calendarFeedBase, 'ania', f, rotated)).sort());
    expect(ha.entries).toHaveLength(4);
    expect(k.status()).toMatchObject({ api: 'ok', made: 4, removed_by_the_family: 0 });
  });

  it('a flow left at its form (the calendar feed could not be read) is aborted, not left open', async () => {
    const clock = new FakeClock('2026-11-18T10:00:00+01:00');
    const k = await keeper(clock, undefined, `${calendarFeedBase}/404`);
    await pass(k, 'Matematyka');
    expect(ha.entriesOf('remote_calendar')).toEqual([]);
    expect(ha.flowsInProgress).toBe(0);
  });

  it('a successor on the same base topic at a new address takes every entry as its own: the calendars point at it, the list’s items are not added twice', async () => {
    const clock = new FakeClock('2026-11-18T10:00:00+01:00');
    const a = await keeper(clock);
    await pass(a, 'Matematyka', [homework]);
    expect(ha.list('Ania – zadania domowe')?.items.map((i) => i.summary)).toEqual(['Matematyka: Ułamki']);
    await a.stop();

    // Bridge B: another data folder (its own key), another host name for the same calendar feeds.
    const dataDir = await tempDir();
    const b = await keeper(clock, dataDir, calendarFeedBase.replace('127.0.0.1', 'localhost'));
    await pass(b, 'Matematyka', [homework]);
    const token = (await loadOrCreateToken(dataDir)).value;
    expect(calendars().sort()).toEqual(
      CALENDAR_FEED_NAMES.map((f) => calendarFeedUrl(calendarFeedBase.replace('127.0.0.1', 'localhost'), 'ania', f, token)).sort(),
    );
    expect(ha.entries).toHaveLength(4);
    expect(b.status()).toMatchObject({ api: 'ok', made: 4, kept: 0 });
    expect(ha.list('Ania – zadania domowe')?.items.map((i) => i.summary)).toEqual(['Matematyka: Ułamki']);
    expect(ha.flowsInProgress).toBe(0);
  });
});

/**
 * One base topic: what its holder tells on, retained (as JSON, the broker's way), and the holder that tells
 * it; `takeOver` makes a bridge the successor of the one that told last.
 */
function baseTopic() {
  let retained: string | undefined;
  return {
    get told(): { entries: Record<string, { entry: string | null; title: string; gone?: true }> } | undefined {
      return retained === undefined ? undefined : JSON.parse(retained);
    },
    holder: (takeOver: boolean): HomeAssistantHandover => ({
      homeAssistantTold: () => (takeOver ? { told: retained === undefined ? undefined : JSON.parse(retained) } : undefined),
      tellHomeAssistant: (told) => void (retained = told === undefined ? undefined : JSON.stringify(told)),
    }),
  };
}

describe('the keeper: entries that go with the base topic, not the installation', () => {
  it('a successor with a data folder of its own makes no calendar the family deleted while the predecessor held, noticed or not, and every other points at it', async () => {
    const clock = new FakeClock('2026-11-18T10:00:00+01:00');
    const topic = baseTopic();
    const a = await keeper(clock, undefined, calendarFeedBase, true, topic.holder(false));
    await pass(a, 'Matematyka');
    expect(ha.entries).toHaveLength(4);
    // Deleted while A ran; A never looked at the entries again (nothing changed for it), so it never noticed.
    ha.familyDeletes('Ania – wydarzenia');
    await pass(a, 'Matematyka');
    expect(topic.told?.entries['ania/agenda']).toMatchObject({ title: 'Ania – wydarzenia' });
    await a.stop();

    const dataDir = await tempDir();
    const host = calendarFeedBase.replace('127.0.0.1', 'localhost');
    const b = await keeper(clock, dataDir, host, true, topic.holder(true));
    await pass(b, 'Matematyka');
    const token = (await loadOrCreateToken(dataDir)).value;
    expect(ha.entries.map((e) => e.title).sort()).toEqual(['Ania – dni wolne', 'Ania – lekcje', 'Ania – zadania domowe']);
    expect(calendars().sort()).toEqual(['lessons', 'free-days'].map((f) => calendarFeedUrl(host, 'ania', f as CalendarFeedName, token)).sort());
    expect(b.status()).toMatchObject({ api: 'ok', made: 3, removed_by_the_family: 1 });
    expect(topic.told?.entries['ania/agenda']).toEqual({ entry: expect.any(String), title: 'Ania – wydarzenia', gone: true });
    expect(ha.flowsInProgress).toBe(0);

    // And the one after it, a third folder: the deletion B noticed goes on too.
    const c = await keeper(clock, await tempDir(), calendarFeedBase, true, topic.holder(true));
    await pass(c, 'Matematyka');
    expect(ha.entries.map((e) => e.title).sort()).toEqual(['Ania – dni wolne', 'Ania – lekcje', 'Ania – zadania domowe']);
  });

  it("a predecessor that came back after a successor's time takes the entries that one made again, not as deleted by the family", async () => {
    const clock = new FakeClock('2026-11-18T10:00:00+01:00');
    const topic = baseTopic();
    const folderA = await tempDir();
    const a = await keeper(clock, folderA, calendarFeedBase, true, topic.holder(false));
    await pass(a, 'Matematyka');
    await a.stop();
    // B takes over from another folder and host: each calendar made again at its address.
    const b = await keeper(clock, await tempDir(), calendarFeedBase.replace('127.0.0.1', 'localhost'), true, topic.holder(true));
    await pass(b, 'Matematyka');
    await b.stop();
    // A again, its folder remembering entries that are no longer there.
    const again = await keeper(clock, folderA, calendarFeedBase, true, topic.holder(true));
    await pass(again, 'Matematyka');
    const token = (await loadOrCreateToken(folderA)).value;
    expect(calendars().sort()).toEqual(CALENDAR_FEED_NAMES.map((f) => calendarFeedUrl(calendarFeedBase, 'ania', f, token)).sort());
    expect(again.status()).toMatchObject({ api: 'ok', made: 4, removed_by_the_family: 0 });
    expect(ha.entries).toHaveLength(4);
  });
});

describe('the keeper: what a child’s device declares', () => {
  it('makes a kindergarten child no homework list and no agenda calendar, only her lessons and days off', async () => {
    const clock = new FakeClock('2026-11-18T10:00:00+01:00');
    const k = await keeper(clock, undefined, calendarFeedBase, false);
    await pass(k, 'Rytmika');
    expect(ha.entries.map((e) => e.title).sort()).toEqual(['Ania – dni wolne', 'Ania – lekcje']);
    expect(ha.entriesOf('local_todo')).toEqual([]);
  });

  it('makes nothing for a child before its device is declared', async () => {
    const clock = new FakeClock('2026-11-18T10:00:00+01:00');
    const k = new HomeAssistantKeeper({
      config: { url: ha.url, token: TOKEN, public_url: calendarFeedBase, statistics: false, assist: false },
      dataDir: await tempDir(),
      language: 'pl',
      clock,
      log: createLogger('error', { write: () => undefined }),
      calendarFeedsServed: () => true,
      children: () => ({ ids: ['ania'], complete: true }),
    } as ConstructorParameters<typeof HomeAssistantKeeper>[0]);
    keepers.push(k);
    await k.start();
    await pass(k, 'Matematyka');
    expect(ha.entries).toEqual([]);
  });
});

/**
 * A bridge's web server on a port of its own: Ania's calendar feeds (any content) and the MCP server at /mcp,
 * both behind the token its data folder holds now (a rotation counts from the next request on).
 */
async function bridgeServer(dataDir: string): Promise<WebServer> {
  const token = new LiveToken(dataDir, (await loadOrCreateToken(dataDir)).value);
  const data = new HandData();
  data.setChild('ania');
  const server = await startWebServer({
    port: await freePort(),
    host: '127.0.0.1',
    routes: [(req) => (req.segments[0] === 'calendar' ? { status: 200, headers: { 'Content-Type': 'text/calendar' }, body: ICS } : undefined)],
    data,
    token: () => token.current(),
    log: silentLogger(),
    mcp: mcpHandler({
      source: { language: 'en', now: () => data.clock, children: () => data.children(), facts: () => new Map() },
      version: '1.0.0',
      clock: { now: () => 0 },
      log: silentLogger(),
    }),
  });
  servers.push(server);
  return server;
}
let servers: WebServer[] = [];
afterEach(async () => {
  for (const server of servers) await server.close();
  servers = [];
});

describe('the keeper: Assist’s entry is the bridge’s, as the calendars are', () => {
  const flowStep = /^\/api\/config\/config_entries\/flow\/[^/]+$/;
  /** Assist through Home Assistant: the entry's tools listed and one called, as the mcp integration does with the entry's address. */
  async function assistAnswers(): Promise<string> {
    const entries = ha.entriesOf('mcp');
    expect(entries).toHaveLength(1);
    const entry = entries[0]!;
    expect((await ha.mcpTools(entry)).map((t) => t.name)).toContain('get_school');
    return ha.callMcpTool(entry, 'get_school', { child: 'ania' });
  }

  it('after a lost answer to its flow, after token --rotate and after a handover to a second bridge: one entry, at the server in use, with its key', async () => {
    const clock = new FakeClock('2026-11-18T10:00:00+01:00');
    const topic = baseTopic();
    const folderA = await tempDir();
    const serverA = await bridgeServer(folderA);
    // The MCP entry's step is done in Home Assistant, its answer lost on the way back.
    let lose = 1;
    ha.loses = (method, path) => method === 'POST' && flowStep.test(path) && ha.flowsStarted.at(-1) === 'mcp' && lose-- > 0;
    const a = await keeper(clock, folderA, serverA.url, true, topic.holder(false), true);
    await pass(a, 'Matematyka');
    await clock.advance(15_000);
    await a.idle();
    expect(lose).toBe(-1);
    expect(ha.calls.filter((c) => c.status === 0).map((c) => c.method)).toEqual(['POST']);
    // Taken as the bridge's: not made twice, none held as the family's, told on with the base topic.
    expect(a.status()).toMatchObject({ api: 'ok', made: 5, kept: 0 });
    expect(topic.told?.entries.assist).toMatchObject({ title: 'dziennik2mqtt' });
    expect(await assistAnswers()).toMatch(/^ania \(ania\) — /);

    // token --rotate: the entry follows the new key (the old one opens nothing any more).
    const rotated = await rotateToken(folderA);
    await clock.advance(MINUTE);
    await pass(a, 'Matematyka');
    expect(ha.entriesOf('mcp').map((e) => e.data.url)).toEqual([mcpUrl(serverA.url, rotated)]);
    expect(await assistAnswers()).toMatch(/^ania \(ania\) — /);
    expect(a.status()).toMatchObject({ made: 5, kept: 0 });
    await a.stop();
    await serverA.close();

    // Bridge A is gone; B takes the base topic over from a folder and an address of its own.
    const folderB = await tempDir();
    const serverB = await bridgeServer(folderB);
    const b = await keeper(clock, folderB, serverB.url, true, topic.holder(true), true);
    await pass(b, 'Matematyka');
    const token = (await loadOrCreateToken(folderB)).value;
    expect(ha.entriesOf('mcp').map((e) => e.data.url)).toEqual([mcpUrl(serverB.url, token)]);
    expect(await assistAnswers()).toMatch(/^ania \(ania\) — /);
    expect(b.status()).toMatchObject({ api: 'ok', made: 5, kept: 0, removed_by_the_family: 0 });
    expect(ha.entries).toHaveLength(5);
    expect(ha.flowsInProgress).toBe(0);
  });

  it('an entry the family made by hand at the server’s address is the bridge’s: not made twice, and it follows the key', async () => {
    const clock = new FakeClock('2026-11-18T10:00:00+01:00');
    const folder = await tempDir();
    const server = await bridgeServer(folder);
    ha.familyMakes('mcp', 'dziennik2mqtt', { url: mcpUrl(server.url, (await loadOrCreateToken(folder)).value) });
    const k = await keeper(clock, folder, server.url, true, undefined, true);
    await pass(k, 'Matematyka');
    expect(k.status()).toMatchObject({ made: 5, kept: 0 });
    expect(ha.flowsStarted.filter((h) => h === 'mcp')).toHaveLength(1);
    const rotated = await rotateToken(folder);
    await clock.advance(MINUTE);
    await pass(k, 'Matematyka');
    expect(ha.entriesOf('mcp').map((e) => e.data.url)).toEqual([mcpUrl(server.url, rotated)]);
    expect(await assistAnswers()).toMatch(/^ania \(ania\) — /);
  });

  it('stays deleted once the family deleted it, across a rotation', async () => {
    const clock = new FakeClock('2026-11-18T10:00:00+01:00');
    const folder = await tempDir();
    const server = await bridgeServer(folder);
    const k = await keeper(clock, folder, server.url, true, undefined, true);
    await pass(k, 'Matematyka');
    ha.familyDeletes('dziennik2mqtt');
    await rotateToken(folder);
    await clock.advance(MINUTE);
    await pass(k, 'Matematyka');
    expect(ha.entriesOf('mcp')).toEqual([]);
    expect(k.status()).toMatchObject({ removed_by_the_family: 1 });
  });
});
