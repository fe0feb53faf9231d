// Runs the real bridge (App) against a running simulator and a real broker, with a fake clock for
// reading, and records everything it publishes.
import type { Feature } from '../../src/features/feature.js';
import { DEMO_APP, DEMO_INTERVALS } from '../../src/app/demo/demo.js';
import type { Language } from '../../src/config/language.js';
import { rm } from 'node:fs/promises';
import { App } from '../../src/app/app.js';
import { buildConfig } from '../../src/config/load.js';
import type { AddonAnnouncement, Config } from '../../src/config/schema.js';
import { silentLogger, type Logger } from '../../src/util/log.js';
import { MQTT_URL, Recorder, clearRetained, throughBridge, uniqueRoots, waitUntil } from './mqtt.js';
import { tempDir } from './portal.js';
import type { Dispatcher } from 'undici';
import type { MqttClient } from 'mqtt';
import { STALE_SCAN_MS, type MqttSink } from '../../src/outputs/mqtt/sink.js';
import type { ReconnectPolicy } from '../../src/outputs/mqtt/client.js';
import { settledOn, type FakeClock } from './clock.js';
import type { PassHooks } from '../../src/runner/scheduler.js';
import type { PortalSimulator } from '../../src/simulator/index.js';
import { HOME_ASSISTANT, SUPERVISOR_ANNOUNCEMENT } from '../../src/outputs/homeassistant/output.js';

export interface Harness {
  readonly app: App;
  rec: Recorder;
  base: string;
  prefix: string;
  dataDir: string;
  /** The config the bridge runs with (what `dashboard` reads too). */
  config: Config;
  /** The last payload on <base>/<child>/<key>. */
  state(child: string, key: string): string | undefined;
  attributes(child: string, key: string): Record<string, unknown> | undefined;
  /** Waits for running passes, fires timers due within advanceMs, waits for the passes they started, then (real time, for what no pass does) for check(). */
  runUntil(check: () => boolean, what: string, advanceMs?: number): Promise<void>;
  /** Moves the clock minute by minute (every pass due on the way runs and finishes, its messages arrive). */
  advanceMinutes(minutes: number): Promise<void>;
  /** Moves the clock a minute at a time, as advanceMinutes does, until check() holds (at most maxMinutes). */
  advanceUntil(check: () => boolean, what: string, maxMinutes: number): Promise<void>;
  /** The MQTT sink inside the App (to see whether it is connected). */
  mqtt(): MqttSink;
  /** Requests the running App's account (by index) sent to the portal, by "METHOD endpoint". */
  requestCounts(index: number): ReadonlyMap<string, number>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface HarnessAccount {
  login: string;
  password: string;
  id?: string;
  messages?: unknown[];
  downloads?: boolean;
  write_messages?: boolean;
}

export interface HarnessOptions {
  sim: PortalSimulator;
  /** The features each child runs (default: all of them). */
  features?: readonly Feature[];
  clock: FakeClock;
  accounts: HarnessAccount[];
  dataDir?: string;
  roots?: { base: string; prefix: string };
  /** Another broker (e.g. a private Mosquitto); its retained topics are then left as they are. */
  mqttUrl?: string;
  /** The URL the test's recorder uses (default mqttUrl): a test may put a proxy before the bridge only. */
  recorderUrl?: string;
  /** The MQTT version the bridge asks for (default 5, as the App does). */
  mqttVersion?: 4 | 5;
  /** The bridge's reconnect delays (default the App's: 5 s first); a test that cuts the connection shortens them. */
  reconnect?: ReconnectPolicy;
  /** Broker credentials (the test broker lets anyone in). */
  mqttAuth?: { username: string; password: string };
  /**
   * How the bridge reaches the simulator: in process by default (sim.dispatcher(): the same handlers, cookies, log
   * and faults, without the loopback's cost), or `http` over sockets for a file whose subject is the HTTP path.
   */
  portal?: 'in-process' | 'http';
  /** The bridge's own dispatcher (e.g. one that cuts slow answers), over HTTP; it overrides `portal`. */
  dispatcher?: Dispatcher;
  log?: Logger;
  logLevel?: string;
  /** The config's `language` (default: the config's default). */
  language?: Language;
  /** The config's `messages_per_day` (default: the config's default). */
  messagesPerDay?: number;
  /** The config's `grading` (default: the statute's thresholds). */
  grading?: { thresholds?: number[]; average?: 'weighted' | 'arithmetic' };
  /** The config's `poll` group (e.g. `{ interval: '5m', fast_interval: '1m' }`; default: the config's). */
  poll?: Record<string, string>;
  /** The web server (default off: tests in parallel would all want port 8099); take a port from freePort(). */
  http?: { port: number; bind?: string; metrics?: boolean };
  /** The web server's ingress proxy address (a test of ingress puts 127.0.0.1). */
  ingressAddress?: string;
  /** Where the web server prints its URLs on the first start (default: nowhere). */
  out?: { write(text: string): unknown };
  /** The config's `homeassistant:` (Home Assistant's API, e.g. the model's in test/helpers/home-assistant.ts). */
  homeassistant?: { url: string; token: string; public_url?: string; statistics?: boolean; assist?: boolean };
  /** What the app is told by the Supervisor it runs under (its token, `ha_assist`, its address; the Supervisor's model). */
  supervisor?: AddonAnnouncement;
  /** `run --dashboard-file FILE`: the dashboard the bridge keeps current there. */
  dashboardFile?: string;
  /** The bridge as `npm run demo` runs it: its passes (src/app/demo/demo.ts DEMO_INTERVALS) and its school in lessons at every hour. */
  demo?: boolean;
  /** The version the bridge says it runs (default `0.0.0-test`). */
  version?: string;
  /** The config's `updates` and the release feed it reads (default: off, as no test but the update entity's reads one). */
  updates?: { on?: boolean; releases?: string };
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const roots = options.roots ?? uniqueRoots();
  const mqttUrl = options.mqttUrl ?? MQTT_URL;
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await tempDir());
  const config = await buildConfig(
    {
      mqtt: { url: mqttUrl, base_topic: roots.base, discovery_prefix: roots.prefix, ...options.mqttAuth },
      portal: options.sim.urls,
      accounts: options.accounts,
      data_dir: dataDir,
      log_level: options.logLevel ?? 'info',
      ...(options.language ? { language: options.language } : {}),
      ...(options.grading ? { grading: options.grading } : {}),
      ...(options.poll ? { poll: options.poll } : {}),
      ...(options.messagesPerDay === undefined ? {} : { messages_per_day: options.messagesPerDay }),
      http: { bind: '127.0.0.1', ...(options.http ?? { port: 0 }) },
      ...(options.homeassistant ? { homeassistant: options.homeassistant } : {}),
      updates: options.updates?.on ?? false,
    },
    'test',
    { env: {} },
  );
  if (options.demo) config.poll = { ...DEMO_INTERVALS };
  if (options.supervisor) config.supervisor = options.supervisor;
  const dispatcher = options.dispatcher ?? (options.portal === 'http' ? undefined : options.sim.dispatcher());
  const filters = [`${roots.base}/#`, `${roots.prefix}/#`];
  const rec = await Recorder.connect(filters, options.recorderUrl ?? mqttUrl);
  let counts: Map<string, number>[] = [];
  const counter = (index: number): PassHooks => {
    const count = new Map<string, number>();
    counts[index] = count;
    return { onRequest: (key) => count.set(key, (count.get(key) ?? 0) + 1) };
  };
  const make = (): App => {
    counts = [];
    return new App({
      config,
      version: options.version ?? '0.0.0-test',
      ...(options.updates?.releases ? { releases: options.updates.releases } : {}),
      log: options.log ?? silentLogger(),
      clock: options.clock,
      staggerMs: 0,
      dispatcher,
      hooks: counter,
      ingressAddress: options.ingressAddress,
      protocolVersion: options.mqttVersion,
      reconnect: options.reconnect,
      out: options.out ?? { write: () => true },
      ...(options.dashboardFile ? { dashboardFile: { file: options.dashboardFile } } : {}),
      ...(options.demo ? DEMO_APP : {}),
      ...(options.features ? { features: options.features } : {}),
    });
  };
  let app = make();
  // The bridge reads the broker's retained configs for STALE_SCAN_MS of the clock before the pass runners
  // start: the App starts that much before the test's moment, so that its first pass is at that moment.
  options.clock.set(options.clock.now() - STALE_SCAN_MS);
  await settledOn(options.clock, app.start(), STALE_SCAN_MS);
  // A pass that is still finishing schedules its next timer only when done: wait for it first. The downloads a
  // pass started run on after it, and the clock must not pass their deadline while a request is in flight.
  const idle = async (): Promise<unknown> => {
    await Promise.all([app.listed(), ...app.runners.map((p) => p.idle())]);
    await app.downloadsRested();
    // What a pass published reaches Home Assistant's API after it (the keeper's look, queued by the pass).
    await app.outputOf(SUPERVISOR_ANNOUNCEMENT)?.idle();
    return app.outputOf(HOME_ASSISTANT)?.idle();
  };
  // The bridge's MQTT sink: the carrier it made with its lease.
  const sink = (): MqttSink => (app as unknown as { carrier: { sink: MqttSink } }).carrier.sink;
  // After the passes finish, every message they published reaches the recorder before the test looks: the marker
  // goes through the bridge's own deliveries, behind what waits its turn within the broker's receive maximum.
  const caughtUp = async (): Promise<void> => {
    await idle();
    const client = (sink() as unknown as { connection: { client?: MqttClient } }).connection.client;
    // While the bridge is offline nothing of its can reach the recorder (it is sent on reconnect): no wait.
    if (client?.connected) await rec.caughtUpWith(throughBridge(sink()));
  };
  const advanceMinutes = async (minutes: number): Promise<void> => {
    // From timer to timer rather than minute by minute: only a timer starts anything, and each
    // pass it starts finishes before the clock moves on (three simulated days stay quick).
    const target = options.clock.now() + minutes * 60_000;
    for (;;) {
      await idle();
      const next = options.clock.nextDueAt();
      if (next === undefined || next > target) break;
      await options.clock.advance(Math.max(0, next - options.clock.now()));
    }
    await options.clock.advance(target - options.clock.now());
    await caughtUp();
  };
  return {
    get app() {
      return app;
    },
    rec,
    base: roots.base,
    prefix: roots.prefix,
    dataDir,
    config,
    state: (child, key) => rec.last(`${roots.base}/${child}/${key}`)?.text,
    attributes: (child, key) => rec.json(`${roots.base}/${child}/${key}/attributes`) as Record<string, unknown> | undefined,
    async runUntil(check, what, advanceMs = 0) {
      await idle();
      await options.clock.advance(advanceMs);
      // The passes the clock started, to their end, and their messages at the recorder, before check() is asked:
      // a real-time limit on a pass (four children's first passes took over 10 s on a busy machine) fails by chance.
      await caughtUp();
      await waitUntil(check, what, 10_000);
      await caughtUp();
    },
    advanceMinutes,
    async advanceUntil(check, what, maxMinutes) {
      for (let minute = 0; minute < maxMinutes && !check(); minute++) await advanceMinutes(1);
      await waitUntil(check, what, 10_000);
    },
    mqtt: sink,
    requestCounts: (index) => counts[index] ?? new Map(),
    async restart() {
      await app.stop();
      app = make();
      await settledOn(options.clock, app.start(), STALE_SCAN_MS);
    },
    async stop() {
      await app.stop();
      await rec.close();
      if (options.mqttUrl === undefined) await clearRetained(filters);
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
