// Shows the generated dashboard as a parent would see it: runs the real bridge (App from dist/) against
// the simulator at a chosen time, with Home Assistant's API and its statistics on as a family has them by
// default (the bench's model of Home Assistant; --no-statistics: MQTT alone), captures what it retains on the
// local Mosquitto and the school year it imported, writes the dashboard YAML and hands them to
// ../shared/tools/render-dashboard.py, which screenshots each view.
// Usage: node scripts/dashboard-preview.mjs [--at 2026-11-23T09:30:00+01:00] [--lang pl|en|uk] [--out DIR] [--board-url URL]
//        [--renderer PATH] [--no-screenshot] [--full-page] [--no-statistics]
//        [--set ENTITY=STATE]... [--set-attr ENTITY:ATTR=JSON]... [--name SUFFIX of the output folder]   (needs dist/ built and a broker at MQTT_URL or 127.0.0.1:1883)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { connectAsync } from 'mqtt';
import { PortalSimulator, DEMO_ACCOUNTS } from '../dist/simulator/index.js';
import { buildConfig } from '../dist/config/load.js';
import { App } from '../dist/app/app.js';
import { FakeClock } from '../dist/bench/fake-clock.js';
import { announcedChildren } from '../dist/app/commands/dashboard.js';
import { dashboardYaml } from '../dist/outputs/homeassistant/dashboard.js';
import { createLogger } from '../dist/util/log.js';
import { STALE_SCAN_MS } from '../dist/outputs/mqtt/sink.js';
import { chromiumPath } from '../dist/bench/chromium.js';
import { HomeAssistantModel } from '../dist/bench/home-assistant.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The renderer in shared/tools beside the repository (or beside one of its parent folders, for a worktree). */
function findRenderer() {
  for (let dir = ROOT; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dirname(dir), 'shared/tools/render-dashboard.py');
    if (existsSync(candidate)) return candidate;
  }
  return resolve(ROOT, '../shared/tools/render-dashboard.py');
}
const { values: args } = parseArgs({
  options: {
    at: { type: 'string', default: '2026-11-23T09:30:00+01:00' },
    lang: { type: 'string', default: 'pl' },
    out: { type: 'string' },
    renderer: { type: 'string', default: findRenderer() },
    'no-screenshot': { type: 'boolean', default: false },
    'full-page': { type: 'boolean', default: false },
    'no-statistics': { type: 'boolean', default: false },
    // Passed on to the renderer: a state or attribute the simulator does not give at that time.
    set: { type: 'string', multiple: true, default: [] },
    'set-attr': { type: 'string', multiple: true, default: [] },
    name: { type: 'string' },
    // The family view's link to the board, as `dashboard --board-url` gives it.
    'board-url': { type: 'string', default: 'http://192.168.1.5:8099/' },
  },
});
if (!['pl', 'en', 'uk'].includes(args.lang)) throw new Error(`--lang: pl, en or uk, not ${args.lang}`);
// The renderer draws Home Assistant's own words (a tile's state) in English or Polish only.
const uiLang = args.lang === 'uk' ? 'en' : args.lang;
if (Number.isNaN(Date.parse(args.at))) throw new Error(`--at: not an ISO time: ${args.at}`);
// A private base topic and discovery prefix, so that a Home Assistant on the same broker sees nothing.
const BASE = `d2m-preview-${process.pid}`;
const DISCOVERY = `d2m-preview-ha-${process.pid}`;
const url = process.env.MQTT_URL || 'mqtt://127.0.0.1:1883';
const label = `${args.lang}-${args.at.slice(0, 16).replace(/[^0-9T]/g, '')}${args.name ? `-${args.name}` : ''}`;
const out = resolve(args.out ?? join(ROOT, 'test/artifacts/dashboard', label));

/** Every retained message under the topics, read by a fresh client up to a marker it sends itself. */
async function retained() {
  const client = await connectAsync(url, { clientId: `preview-read-${process.pid}` });
  const topics = new Map();
  const marker = `${BASE}/_marker`;
  let lastMessage = Date.now();
  const done = new Promise((resolve) => {
    client.on('message', (topic, payload, packet) => {
      if (topic === marker) return resolve();
      lastMessage = Date.now();
      if (packet.retain && payload.length > 0) topics.set(topic, payload.toString());
    });
  });
  await client.subscribeAsync([`${BASE}/#`, `${DISCOVERY}/#`], { qos: 1 });
  // Mosquitto sends a subscription's retained messages before anything published after it; the demo's
  // embedded broker (aedes) streams them from its store and may let the marker pass, so the read also
  // waits until the retained messages have stopped coming.
  await client.publishAsync(marker, 'x', { qos: 1 });
  await done;
  while (Date.now() - lastMessage < 500) await delay(100);
  await client.endAsync();
  return topics;
}

/**
 * Opens a message for each child, as a parent's press of open_message would, so that the Messages card
 * shows one: the first child's message with an attachment (its newest unread then stays unread), the
 * others' newest. Then a refresh, which lists the inbox again as the next pass would (the portal now
 * has the opened message read).
 */
async function openMessages(clock, config) {
  const client = await connectAsync(url, { clientId: `preview-open-${process.pid}` });
  const results = new Map();
  client.on('message', (topic, payload) => results.set(topic, payload.toString()));
  // Waits for the result, moving the fake clock (an attachment's download waits on it).
  const command = async (child, name, payload) => {
    const result = `${BASE}/${child}/${name}/result`;
    results.delete(result);
    await client.subscribeAsync(result, { qos: 1 });
    await client.publishAsync(`${BASE}/${child}/${name}/set`, payload, { qos: 1 });
    for (let n = 0; n < 300 && !results.has(result); n++) {
      await clock.advance(1_000);
      await delay(20);
    }
    const answer = results.has(result) ? JSON.parse(results.get(result)) : undefined;
    if (answer?.status !== 'ok') throw new Error(`${child}: ${name}: ${results.get(result) ?? 'no result'}`);
  };
  const children = (await announcedChildren(config)).children;
  for (const [i, child] of children.entries()) {
    await command(child.id, 'open_message', i === 0 ? WITH_ATTACHMENT : 'newest');
    await command(child.id, 'refresh', 'refresh');
  }
  await client.endAsync();
}

/** The first demo child's message with an attachment (fixtures/simulator/messages.json). */
const WITH_ATTACHMENT = '8811026';

/** Clears every retained topic the run left behind. */
async function clear(topics) {
  const client = await connectAsync(url, { clientId: `preview-clear-${process.pid}` });
  for (const topic of topics) await client.publishAsync(topic, '', { qos: 1, retain: true });
  await client.endAsync();
}

/** "topic payload" per line, as `mosquitto_sub -v` prints it and the renderer reads it. */
function capture(topics, root) {
  return (
    [...topics]
      .filter(([t]) => t.startsWith(`${root}/`))
      .map(([t, p]) => `${t} ${p}`)
      .join('\n') + '\n'
  );
}

/**
 * Starts the bridge: its read of the broker's retained configs waits STALE_SCAN_MS of the fake clock,
 * so the clock starts that much before --at and runs through the wait (a plain app.start() waits for ever).
 */
async function startOnClock(app, clock) {
  clock.set(clock.now() - STALE_SCAN_MS);
  let done = false;
  const started = app.start().finally(() => (done = true));
  started.catch(() => undefined);
  while (!done) {
    const next = clock.nextDueAt();
    if (next !== undefined && next <= clock.now() + STALE_SCAN_MS) await clock.advance(next - clock.now());
    // Connecting to the broker is real I/O: look again shortly.
    else await delay(2);
  }
  await started;
}

/** The statistics Home Assistant holds, as the renderer reads them: by id, the name and each day's row. */
function statisticsJson(ha) {
  return Object.fromEntries(
    [...ha.socket.statistics].map(([id, s]) => [
      id,
      { name: s.metadata.name, rows: [...s.rows.values()].map((r) => ({ start: r.start / 1000, mean: r.mean })) },
    ]),
  );
}

async function main() {
  const clock = new FakeClock(args.at);
  const statistics = !args['no-statistics'];
  const ha = statistics ? new HomeAssistantModel('preview-token') : undefined;
  await ha?.start();
  const simulator = new PortalSimulator({ now: () => clock.now() });
  await simulator.start();
  const dataDir = await mkdtemp(join(tmpdir(), 'd2m-preview-'));
  const config = await buildConfig(
    {
      mqtt: { url, base_topic: BASE, discovery_prefix: DISCOVERY },
      portal: simulator.urls,
      // downloads: the opened message's attachments are saved and linked (see openMessages).
      accounts: DEMO_ACCOUNTS.map((a) => ({ login: a.login, password: a.password, messages: a.messages ?? [], downloads: true })),
      data_dir: dataDir,
      language: args.lang,
      log_level: 'error',
      // The dashboard needs no web server (and 8099 may be a running bridge's or demo's).
      http: { port: 0 },
      // Home Assistant's API as the bench models it: the school year imported into its statistics.
      ...(ha ? { homeassistant: { url: ha.url, token: 'preview-token', assist: false } } : {}),
    },
    'preview',
    { env: {} },
  );
  const app = new App({ config, version: 'preview', log: createLogger('error', process.stderr), clock, staggerMs: 0 });
  let topics = new Map();
  try {
    await startOnClock(app, clock);
    // The first passes run on timers of the fake clock; a zero step fires those due without moving time.
    for (let i = 0; i < 200; i++) {
      await clock.advance(0);
      await Promise.all(app.runners.map((p) => p.idle()));
      topics = await retained();
      const updated = [...topics.keys()].filter((t) => /\/last_update$/.test(t) && !t.includes('/bridge/'));
      if (updated.length >= DEMO_ACCOUNTS.length) break;
      await delay(50);
    }
    await openMessages(clock, config);
    await Promise.all(app.runners.map((p) => p.idle()));
    // The year imported after the passes (the import waits on the fake clock): each child's statistics there.
    for (let n = 0; ha && n < 100 && new Set([...ha.socket.statistics.keys()].map((id) => id.split('_')[0])).size < DEMO_ACCOUNTS.length; n++) {
      await clock.advance(1_000);
      await delay(20);
    }
    await app.homeAssistantStatistics?.idle();
    topics = await retained();
    // Captured while the bridge is online: stopping it marks every entity unavailable.
    const shown = topics;
    // The passes and the opened messages moved the clock past --at: the views are rendered at the capture's moment ("in 8 seconds" otherwise).
    const shownAt = new Date(clock.now()).toISOString();
    await app.stop();
    topics = await retained();
    await mkdir(out, { recursive: true });
    const files = {
      dashboard: join(out, 'dashboard.yaml'),
      states: join(out, 'states.txt'),
      discovery: join(out, 'discovery.txt'),
      statistics: join(out, 'statistics.json'),
    };
    const { children } = await announcedChildren(config);
    await writeFile(files.dashboard, dashboardYaml(children, args.lang, { boardUrl: args['board-url'], baseTopic: BASE, statistics }));
    if (ha) await writeFile(files.statistics, `${JSON.stringify(statisticsJson(ha), null, 1)}\n`);
    await writeFile(files.states, capture(shown, BASE));
    await writeFile(files.discovery, capture(shown, DISCOVERY));
    if (!existsSync(args.renderer)) throw new Error(`no renderer at ${args.renderer} (--renderer PATH)`);
    const render = spawnSync(
      existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3',
      [
        args.renderer,
        files.dashboard,
        files.states,
        files.discovery,
        '-o',
        out,
        '--ui-lang',
        uiLang,
        '--now',
        shownAt,
        ...(args['no-screenshot'] ? [] : ['--screenshot', '--chromium', chromiumPath()]),
        ...(args['full-page'] ? ['--full-page'] : []),
        ...(ha ? ['--statistics', files.statistics] : []),
        ...args.set.flatMap((s) => ['--set', s]),
        ...args['set-attr'].flatMap((s) => ['--set-attr', s]),
      ],
      { stdio: 'inherit' },
    );
    process.exitCode = render.status ?? 1;
  } finally {
    await clear(topics.keys());
    await simulator.stop();
    await ha?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
