// Issue 90, interface 16.3: an entry that points at one of this bridge's calendar feeds is the bridge's, whoever made
// it; only what the family deleted stays deleted, and that goes with the base topic, not the installation.
// Two real bridges (`node dist/main.js run`) with data folders of their own on one base topic, each with its
// web server (the calendar feeds, the MCP server) on a port of its own, against the simulated school, the
// real broker and the model of Home Assistant built from its core's source (test/helpers/home-assistant.ts).
// Bridge A makes Ania's calendars, her homework list and Assist's entry; the family deletes one calendar
// while A runs; A is SIGKILLed (no release of its claim) and B, waiting, takes the base topic over after
// the lease's grace. At 47530084 B made the deleted calendar again (its folder fresh, nothing told it), and
// a second Assist entry beside A's dead one.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { CALENDAR_FEED_NAMES } from '../../src/rules/calendar-feeds.js';
import { PortalSimulator } from '../../src/simulator/index.js';
import { calendarFeedUrl, loadOrCreateToken } from '../../src/outputs/web/token.js';
import { BridgeProcess, ensureBuilt, writeConfig } from '../helpers/faults-process.js';
import { ANIA } from '../helpers/faults-world.js';
import { HomeAssistantModel } from '../helpers/home-assistant.js';
import { MQTT_URL, clearRetained, publishOnce, retained, uniqueRoots, waitUntil } from '../helpers/mqtt.js';
import { freePort } from '../helpers/ports.js';

const TOKEN = 'ha-token-of-the-handover-Pq7x2Lm9';
/** Real time: the successor waits out the lease's grace (15 s) after the holder's last beat. */
const TAKEOVER_MS = 60_000;

let sim: PortalSimulator;
beforeAll(async () => {
  await ensureBuilt();
  sim = new PortalSimulator();
  await sim.start();
}, 120_000);
afterAll(() => sim.stop());

/** One base topic, Home Assistant's model, and bridges each with a data folder and web server of its own; all gone when the test ends. */
async function world(ctx: TestContext) {
  const dir = await mkdtemp(join(tmpdir(), 'd2m-ha-handover-'));
  const roots = uniqueRoots();
  const ha = new HomeAssistantModel(TOKEN);
  await ha.start();
  const bridges: BridgeProcess[] = [];
  ctx.onTestFinished(async () => {
    for (const bridge of bridges) await bridge.kill(true);
    await ha.stop();
    await clearRetained([`${roots.base}/#`, `${roots.prefix}/#`]);
    await rm(dir, { recursive: true, force: true });
  });
  return {
    ha,
    roots,
    /** A bridge on data folder `name`, its web server on a port of its own, started (not waited for). */
    async bridge(name: string) {
      const port = await freePort();
      const dataDir = join(dir, name);
      const publicUrl = `http://127.0.0.1:${port}`;
      await writeConfig(join(dir, `${name}.yaml`), {
        mqttUrl: MQTT_URL,
        ...roots,
        portal: sim.urls,
        accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania' }],
        dataDir,
        logLevel: 'info',
        http: { port, bind: '127.0.0.1' },
        homeassistant: { url: ha.url, token: TOKEN, public_url: publicUrl, statistics: false },
      });
      const process = new BridgeProcess(join(dir, `${name}.yaml`));
      bridges.push(process);
      process.start();
      return { process, dataDir, publicUrl };
    },
    /** The retained record of Home Assistant's entries on the base topic, as a successor would read it. */
    async record(): Promise<{ by?: string; memory?: { entries?: Record<string, { title: string; gone?: boolean }> } } | null> {
      const topic = `${roots.base}/bridge/homeassistant`;
      return JSON.parse((await retained([topic])).get(topic) || 'null');
    },
  };
}

/** How a bridge signs what it tells on: its installation and place (data_dir/installation.json). */
async function writer(dataDir: string): Promise<string> {
  const { id, place } = JSON.parse(await readFile(join(dataDir, 'installation.json'), 'utf8')) as { id: string; place: string };
  return `${id}/${place}`;
}

/**
 * Whether the bridge on `dataDir` remembers (data_dir/homeassistant.json) each of `made` as made at its own
 * address (`publicUrl`) and each of `kept` as its own (the homework list, which has no address): with
 * Assist's entry among `made` (the last a look sees to), its look at the entries is over.
 */
async function remembers(dataDir: string, publicUrl: string, entries: { made: string[]; kept: string[] }): Promise<boolean> {
  const text = await readFile(join(dataDir, 'homeassistant.json'), 'utf8').catch(() => '{}');
  const known = (JSON.parse(text) as { entries?: Record<string, { url?: string; gone?: boolean; by?: string }> }).entries ?? {};
  const ours = (key: string) => known[key]?.by === 'bridge' && !known[key]?.gone;
  return entries.made.every((key) => ours(key) && known[key]?.url?.startsWith(publicUrl)) && entries.kept.every(ours);
}

const titles = (ha: HomeAssistantModel) => ha.entries.map((e) => e.title).sort();

describe.concurrent("Home Assistant's entries across a handover of the base topic", () => {
  it("the successor of a SIGKILLed holder: every calendar at its own calendar feed and answering, none twice, no flow left open, the family's deletion kept", async (ctx) => {
    const w = await world(ctx);
    const a = await w.bridge('a');
    await waitUntil(() => w.ha.entries.length === 5, "A's calendars, homework list and Assist's entry", TAKEOVER_MS);
    expect(titles(w.ha)).toEqual(['Ania – dni wolne', 'Ania – lekcje', 'Ania – wydarzenia', 'Ania – zadania domowe', 'dziennik2mqtt']);
    // The family deletes the agenda calendar while A runs (A has no reason to look at its entries again).
    w.ha.familyDeletes('Ania – wydarzenia');
    await waitUntil(async () => (await w.record())?.memory?.entries?.['ania/lessons'] !== undefined, "A's entries told on", 10_000);

    const b = await w.bridge('b');
    await waitUntil(() => b.process.logged(/is held by another dziennik2mqtt/).length > 0, 'B waiting for the base topic', 30_000);
    await a.process.kill(true);
    const token = async () => (await loadOrCreateToken(b.dataDir)).value;
    const entries = { made: ['ania/lessons', 'ania/free-days', 'assist'], kept: ['ania/homework'] };
    await waitUntil(() => remembers(b.dataDir, b.publicUrl, entries), "B's look at the entries over", TAKEOVER_MS);

    // Each made once, the deleted calendar not made again.
    expect(titles(w.ha)).toEqual(['Ania – dni wolne', 'Ania – lekcje', 'Ania – zadania domowe', 'dziennik2mqtt']);
    const calendars = w.ha.entriesOf('remote_calendar').map((e) => String(e.data.url));
    const calendarFeeds = CALENDAR_FEED_NAMES.filter((calendarFeed) => calendarFeed !== 'agenda');
    const expected = await Promise.all(calendarFeeds.map(async (calendarFeed) => calendarFeedUrl(b.publicUrl, 'ania', calendarFeed, await token())));
    expect(calendars.sort()).toEqual(expected.sort());
    // Every calendar answers, as Home Assistant reads it.
    for (const url of calendars) {
      const answer = await fetch(url);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('BEGIN:VCALENDAR');
    }
    expect(w.ha.flowsInProgress).toBe(0);
    expect(b.process.logged(/entries in Home Assistant taken as this bridge's, what the family deleted left deleted/)).toHaveLength(1);
    // What B tells on is its own, the deletion in it.
    const record = await w.record();
    expect(record?.by).toBe(await writer(b.dataDir));
    expect(record?.memory?.entries?.['ania/agenda']).toMatchObject({ title: 'Ania – wydarzenia', gone: true });
  }, 180_000);

  it("a stranger's retained record of the entries is not taken: its writer named, nothing left undone for it, only the bridge's own left after a clean stop", async (ctx) => {
    const w = await world(ctx);
    // Anyone allowed to publish under the base topic, before the bridge starts: "the lessons calendar was deleted".
    const stranger = {
      by: 'feedf00d/elsewhere',
      fence: 999,
      memory: { entries: { 'ania/lessons': { entry: null, title: 'Ania – lekcje', gone: true } }, homework: {} },
    };
    await publishOnce(`${w.roots.base}/bridge/homeassistant`, JSON.stringify(stranger), true);
    const a = await w.bridge('a');
    await waitUntil(() => w.ha.entries.length === 5, 'the calendars, the homework list and the MCP entry', TAKEOVER_MS);
    expect(titles(w.ha)).toContain('Ania – lekcje');
    expect(
      a.process.logged(
        /the retained record of the bridge's entries in Home Assistant was written by \\?"feedf00d\/elsewhere\\?", neither this bridge nor the one whose base topic it took over/,
      ),
    ).toHaveLength(1);
    await waitUntil(async () => (await w.record())?.by === (await writer(a.dataDir)), 'its own record on the broker', 10_000);
    expect(await a.process.stop()).toBe(0);
    const record = await w.record();
    expect(record?.by).toBe(await writer(a.dataDir));
    expect(record?.memory?.entries?.['ania/lessons']).toEqual({ entry: expect.any(String), title: 'Ania – lekcje' });
  }, 120_000);
});
