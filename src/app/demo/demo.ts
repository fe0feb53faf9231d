// `demo`: the real bridge against the built-in simulated portal and, unless a broker is given, an
// embedded MQTT broker, printing what it publishes. Needs no account and no outside server.
import { createServer, type AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Aedes } from 'aedes';
import { connectAsync, type MqttClient } from 'mqtt';
import { PortalSimulator, DEMO_ACCOUNTS, DEMO_FAMILY, DEMO_FAMILY_ALL, SimLife, type LifeRound } from '../../simulator/index.js';
import { buildConfig, ConfigError } from '../../config/load.js';
import { applyLiveQuirks, parseQuirks, type LiveQuirk } from '../../simulator/live-schools.js';
import { App } from '../app.js';
import { loadOrCreateToken, mcpUrl, ownAddresses, webBaseUrl, webUrls } from '../../outputs/web/token.js';
import { listen } from '../../outputs/web/server.js';
import { clearDemoRetained } from './retained.js';
import { writeDemoConfig } from './config.js';
import { redactUrl } from '../../outputs/mqtt/client.js';
import { systemClock, type Clock } from '../../util/clock.js';
import { createLogger } from '../../util/log.js';
import { VERSION } from '../../util/version.js';
import { errorText } from '../../util/text.js';
import { bannerLine, bannerMore, DEMO_TEXT, type DemoText } from '../../i18n/demo-text.js';
import { WEB } from '../../outputs/web/output.js';

type Out = { write(text: string): unknown };

export interface DemoOptions {
  port?: number;
  mqttUrl?: string;
  /** Resolves when the demo should stop (Ctrl-C). */
  untilStopped: Promise<unknown>;
  out?: Out;
  logLevel?: string;
  /** When the simulated school adds news (default: the first after a minute, then every 3 minutes). */
  life?: { firstAfterMs?: number; everyMs?: number };
  /** Topic roots (default: `dziennik2mqtt`, or `dziennik2mqtt_demo` on a broker of one's own; `homeassistant`). */
  topics?: { base?: string; discoveryPrefix?: string };
  /** The web server's port (default 8099, or a free one when that is taken; 0: off). */
  httpPort?: number;
  /** `--quirks`: what real schools answer, played by the simulated school (see simulator/live-schools.ts). */
  quirks?: string;
  /** Where its config file goes for `check` and `dashboard` from another terminal (default: the folder it runs in). */
  configDir?: string;
}

/** Faster than a config file may read (its floor spares the real portal): this portal is the simulator. */
export const DEMO_INTERVALS = { interval: 2 * 60_000, fast_interval: 30_000, school_interval: 60_000 };
/**
 * How the demo runs the real bridge: its school is in lessons at every hour, so that the news ages of
 * lessons apply day and night and it has no night (which reads nothing until 06:00: a parent trying it
 * at 23:00 would see no news until the morning).
 */
export const DEMO_APP = { schoolAllDay: true } as const;

/** The embedded broker and the web port's probe listen on every IPv4 interface. */
const ANY = '0.0.0.0';
const FIRST_NEWS_MS = 60_000;
const NEWS_EVERY_MS = 3 * 60_000;

/**
 * The demo: the simulated school, a broker (embedded unless one is given), the bridge's config (written for `check`
 * and `dashboard` from another terminal), the banner, then the bridge and the school's news until stopped; on the
 * way out everything it made is taken down.
 */
export async function runDemo(options: DemoOptions): Promise<number> {
  const out = options.out ?? process.stdout;
  const { simulator, logins } = await startSchool(options.quirks);
  const broker = options.mqttUrl ? undefined : await startBroker(options.port);
  const mqttUrl = options.mqttUrl ?? `mqtt://127.0.0.1:${broker?.port}`;
  // On someone's own broker the demo keeps to a base topic of its own, so it can neither take over
  // nor remove (as stale) the devices of a real dziennik2mqtt there, and can clear all of it on stop.
  const base = options.topics?.base ?? (broker ? 'dziennik2mqtt' : 'dziennik2mqtt_demo');
  const discoveryPrefix = options.topics?.discoveryPrefix ?? 'homeassistant';
  const dataDir = await mkdtemp(join(tmpdir(), 'dziennik2mqtt-demo-'));
  const httpPort = options.httpPort ?? (await portOr(8099));
  const raw = demoConfig(simulator, { mqttUrl, base, discoveryPrefix, dataDir, httpPort, logLevel: options.logLevel });
  const config = await buildConfig(raw, 'demo', { env: {} });
  config.poll = { ...DEMO_INTERVALS };
  const file = await writeDemoConfig(raw, options.configDir ?? process.cwd(), dataDir);
  const log = createLogger(config.log_level, process.stderr);
  const news = { first: options.life?.firstAfterMs ?? FIRST_NEWS_MS, every: options.life?.everyMs ?? NEWS_EVERY_MS };
  // The demo speaks the language of its config, as the bridge it starts does.
  const say = DEMO_TEXT[config.language];
  out.write(banner({ simulator, brokerPort: broker?.port, mqttUrl, base, configFile: file.shown, news }, say));
  // The demo's own token (a new data_dir each time, its output a terminal, not a container's log) is
  // made here, so the board's address can go out with it; the bridge then prints nothing of its own.
  // Printed once the server listens.
  const token = httpPort === 0 ? undefined : (await loadOrCreateToken(dataDir)).value;
  // Aedes, the embedded broker, speaks MQTT 3.1.1 only: asking for 5 would cost a refused attempt.
  const app = new App({ ...DEMO_APP, config, version: VERSION, log, staggerMs: 500, out, protocolVersion: broker ? 4 : undefined });
  const life = demoLife({ simulator, logins }, systemClock, news, (round) => out.write(describeRound(round, say)));
  const watcher = await watch(mqttUrl, base, out);
  try {
    await app.start();
    if (token !== undefined && app.outputOf(WEB)?.url !== undefined) out.write(boardLines(httpPort, token, say));
    life.start();
    await options.untilStopped;
    out.write(`\n${say.stopping}\n`);
  } finally {
    life.stop();
    await app.stop().catch(() => undefined);
    await watcher.endAsync().catch(() => undefined);
    // What the demo left on a broker of one's own is cleared; the embedded one goes with everything on it.
    if (!broker) await clearRetained({ url: mqttUrl, base, discoveryPrefix }, out, say);
    await simulator.stop();
    await broker?.close();
    await file.remove();
    // A pass abandoned by the stop (its 1.5 s budget) may still write its figures meanwhile.
    await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
  return 0;
}

/** The simulated school, started, playing the quirks `--quirks` names; the demo children's logins. */
async function startSchool(quirksOption: string | undefined): Promise<{ simulator: PortalSimulator; logins: string[] }> {
  let quirks: LiveQuirk[] = [];
  try {
    quirks = quirksOption === undefined ? [] : parseQuirks(quirksOption);
  } catch (error) {
    throw new ConfigError('usage', [`--quirks: ${(error as Error).message}`]);
  }
  const school = demoSchool({ quirks });
  await school.simulator.start();
  return school;
}

/**
 * The demo's simulated school, not yet listening: the demo family's three children (the kindergarten child
 * included), on `now` (default the system's), playing `quirks`.
 */
export function demoSchool(options: { quirks?: readonly LiveQuirk[]; now?: () => number } = {}): {
  simulator: PortalSimulator;
  logins: string[];
} {
  const simulator = new PortalSimulator({ families: [DEMO_FAMILY_ALL], ...(options.now ? { now: options.now } : {}) });
  // The demo's school grants the change feed on the register road too, so the demo shows it at work:
  // its news reaches the bridge through the change feed (the log says "change feed on").
  for (const account of DEMO_ACCOUNTS) simulator.account(account.login).changeFeed.gatewayGranted = true;
  const logins = DEMO_ACCOUNTS.map((a) => a.login);
  applyLiveQuirks(simulator, logins, options.quirks ?? []);
  return { simulator, logins };
}

/** The demo school's news: a round to each child in turn, the first after `news.first`, then every `news.every`. */
export function demoLife(
  school: { simulator: PortalSimulator; logins: readonly string[] },
  clock: Pick<Clock, 'setTimer'>,
  news: { first: number; every: number } = { first: FIRST_NEWS_MS, every: NEWS_EVERY_MS },
  onRound?: (round: LifeRound) => void,
): SimLife {
  return new SimLife({ ...school, clock, firstAfterMs: news.first, everyMs: news.every, ...(onRound ? { onRound } : {}) });
}

/** The config the demo's bridge runs with, as a config file would say it. */
function demoConfig(
  simulator: PortalSimulator,
  at: { mqttUrl: string; base: string; discoveryPrefix: string; dataDir: string; httpPort: number; logLevel: string | undefined },
) {
  return {
    mqtt: { url: at.mqttUrl, base_topic: at.base, discovery_prefix: at.discoveryPrefix },
    portal: simulator.urls,
    // Each child by its register login, and the family's e-mail linking all three (issue 39 item 4): the
    // register road reads them, and the family road takes over while their register login fails
    // (`--quirks register-broken`), as it did for some families in September 2026.
    accounts: [
      ...DEMO_ACCOUNTS.map((a) => ({ login: a.login, password: a.password, messages: a.messages ?? [] })),
      { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password },
    ],
    data_dir: at.dataDir,
    log_level: at.logLevel ?? 'warn',
    http: { port: at.httpPort, bind: '0.0.0.0' },
    // The demo reaches nothing beyond this machine: its update entity shows the running version only.
    updates: false,
  };
}

/** What the demo prints first: the school's addresses and logins, the broker, how to watch, `check` and when the news comes. */
function banner(
  demo: {
    simulator: PortalSimulator;
    brokerPort: number | undefined;
    mqttUrl: string;
    base: string;
    configFile: string;
    news: { first: number; every: number };
  },
  say: DemoText,
): string {
  const { simulator, brokerPort, mqttUrl, base, configFile, news } = demo;
  const [familyLogin, familyRoad] = say.family(`${DEMO_FAMILY.email} / ${DEMO_FAMILY.password}`);
  return [
    `dziennik2mqtt ${VERSION} demo`,
    bannerLine(say.label.portal, `${simulator.urls.base_url} (${say.logins} ${DEMO_ACCOUNTS.map((a) => `${a.login} / ${a.password}`).join(', ')});`),
    bannerMore(say.hosts(simulator.urls.auth_url, simulator.urls.messages_url, simulator.urls.sandbox_url)),
    bannerLine(say.label.family, `${simulator.urls.family_url} ${familyLogin}`),
    bannerMore(familyRoad),
    ...(brokerPort !== undefined ? brokerLines(brokerPort, say) : [bannerLine(say.label.broker, say.brokerYours(redactUrl(mqttUrl)))]),
    bannerLine(
      say.label.watch,
      `mosquitto_sub -h ${brokerPort !== undefined ? '127.0.0.1' : new URL(mqttUrl).hostname} -p ${new URL(mqttUrl).port || 1883} -v -t '${base}/#'`,
    ),
    bannerLine(say.label.homeAssistant, say.homeAssistant),
    bannerLine(say.label.check, say.configFile(configFile)),
    bannerMore(`  npx dziennik2mqtt check --config ${configFile}`),
    bannerMore(`  npx dziennik2mqtt dashboard --config ${configFile} > dashboard.yaml`),
    ...say.news(minutes(news.every, say), minutes(news.first, say)).map((line, i) => (i === 0 ? bannerLine(say.label.news, line) : bannerMore(line))),
    `  ${say.stop}`,
    '',
  ].join('\n');
}

/**
 * The board's address once the web server listens: this machine's address on the home network, never a placeholder
 * to edit (in a container, the container's own, which the machine running it reaches), the loopback one beside it,
 * and the MCP server on the same address.
 */
function boardLines(httpPort: number, token: string, say: DemoText): string {
  const board = webUrls(webBaseUrl('0.0.0.0', httpPort, false), [], token).board;
  const here = webUrls(`http://127.0.0.1:${httpPort}`, [], token).board;
  const loopback = board === here ? [] : [bannerMore(`${say.onThisMachine} ${here}`)];
  // Home Assistant's Model Context Protocol integration or any MCP client asks the simulated school there.
  const mcp = bannerLine(say.label.mcp, mcpUrl(webBaseUrl('0.0.0.0', httpPort, false), token));
  return `\n${[bannerLine(say.label.board, board), ...loopback, bannerMore(say.boardToken), mcp].join('\n')}\n\n`;
}

/** Clears what the demo left retained on a broker of one's own, and says so (or why it could not). */
async function clearRetained(where: Parameters<typeof clearDemoRetained>[0], out: Out, say: DemoText): Promise<void> {
  const cleared = await clearDemoRetained(where).catch((error: unknown) => {
    out.write(`${say.notCleared(redactUrl(where.url), errorText(error))}\n`);
    return 0;
  });
  if (cleared > 0) out.write(`${say.cleared(cleared, redactUrl(where.url))}\n`);
}

function brokerLines(port: number, say: DemoText): string[] {
  return [
    bannerLine(say.label.broker, say.brokerEmbedded),
    // The addresses another machine (Home Assistant) can use, then this machine's own.
    ...[...new Set(ownAddresses()), '127.0.0.1'].map((host) => bannerMore(`  mqtt://${host}:${port}`)),
    bannerLine(say.label.ownBroker, 'dziennik2mqtt demo --mqtt-url mqtt://user:password@host:1883 (npm run demo -- --mqtt-url ...)'),
  ];
}

function minutes(ms: number, say: DemoText): string {
  const m = ms / 60_000;
  return m >= 1 && Number.isInteger(m) ? say.minutes(m) : say.seconds(Math.round(ms / 1000));
}

function describeRound(round: LifeRound, say: DemoText): string {
  const change = round.planChange
    ? say.planChange(round.planChange.date, round.planChange.lessonNo, round.planChange.subject, round.planChange.kind)
    : '';
  const grade = round.grade ? say.grade(round.grade.grade, round.grade.subject) : '';
  return `  ${say.round(round.child, grade, round.message.topic, round.notice.subject, change)}\n`;
}

/** Prints every state and event the bridge publishes, one line each, as a newcomer would want to see it. */
async function watch(url: string, base: string, out: Out): Promise<MqttClient> {
  const client = await connectAsync(url, { clientId: `dziennik2mqtt-demo-watch-${process.pid}` });
  client.on('message', (topic, payload) => {
    const rest = topic.slice(`${base}/`.length);
    if (
      rest.endsWith('/attributes') ||
      rest.startsWith('bridge/info') ||
      rest.startsWith('bridge/claim') ||
      rest.endsWith('/event_memory') ||
      rest.startsWith('demo-marker/') ||
      payload.length === 0
    )
      return;
    const text = payload.toString();
    out.write(`  ${rest.padEnd(40)} ${text.length > 80 ? `${text.slice(0, 77)}...` : text}\n`);
  });
  await client.subscribeAsync(`${base}/#`);
  return client;
}

/** Aedes on every interface, so that a Home Assistant on another machine can connect. */
export async function startBroker(requested?: number) {
  const aedes = await Aedes.createBroker();
  const server = createServer(aedes.handle as (socket: unknown) => void);
  let port: number;
  try {
    port = await listen(server, requested ?? 1883, ANY);
  } catch (error) {
    // 1883 is often taken by a real broker; the demo then picks a free port and says which.
    if (requested !== undefined || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    port = await listen(server, 0, ANY);
  }
  return {
    port,
    /** The address it listens on: 0.0.0.0, every IPv4 interface. */
    address: (server.address() as AddressInfo).address,
    close: async () => {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `port` when nothing listens on it, else one the system picks (both free right now). */
async function portOr(port: number): Promise<number> {
  const probe = createServer();
  const free = await listen(probe, port, ANY).catch(() => listen(probe, 0, ANY));
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return free;
}
