// One generated world through the bridge, in process: the real App (its family road, pass runners, features and
// bus) against the file's one simulator serving the world, with the MQTT sink's place taken by the doors driven
// directly: the retained topics as the MQTT sink keeps them (RetainedStates), the web server's snapshot (the board,
// the calendar feeds), the facts the MCP server answers from. A first pass, the news a teacher enters, a person's
// refresh (whose events are told): then every door is read. No broker, no web server, no port of its own: a world
// costs its passes (performance.md, fourteenth round).
import { App } from '../../../src/app/app.js';
import { buildConfig } from '../../../src/config/load.js';
import type { Config } from '../../../src/config/schema.js';
import { createLogger, type Logger } from '../../../src/util/log.js';
import type { PortalSimulator } from '../../../src/simulator/index.js';
import type { BusEvent, Sink } from '../../../src/bus/bus.js';
import type { ChildDevice } from '../../../src/features/kit/entities.js';
import type { EntityState } from '../../../src/engine/state.js';
import { WebSnapshot } from '../../../src/outputs/web/snapshot.js';
import { AssistFacts } from '../../../src/outputs/mcp/facts.js';
import { RetainedStates } from '../../../src/outputs/mqtt/states.js';
import { Topics } from '../../../src/outputs/mqtt/topics.js';
import type { FakeClock } from '../clock.js';
import { tempDir } from '../portal.js';
import { enterNews, serve, type ServedChild } from './records.js';
import type { World } from './world.js';
import { listedTools, mcpServer } from './doors.js';
import { readRecords, type Records } from '../reference/portal.js';
import { warsaw } from '../reference/dates.js';

/** What every door of one child holds after the world's passes. */
export interface ChildRun {
  id: string;
  served: ServedChild;
  /** The last state of each entity as the pass told the bus. */
  states: Map<string, EntityState>;
  /** The entities the child's device declares, by key. */
  device: ChildDevice | undefined;
  /** The events of the second pass (the news), as told. */
  events: BusEvent[];
  /** Whether a second pass read the child's news (a child without news is read once). */
  refreshed: boolean;
  /** The child's records as the portal serves them once the passes are done (the reference's; none for a kindergarten). */
  records: Records | undefined;
}

export interface WorldRun {
  world: World;
  children: ChildRun[];
  /** Every retained MQTT topic and its payload, as the MQTT sink would leave them on the broker. */
  retained: Map<string, string>;
  base: string;
  snapshot: WebSnapshot;
  facts: AssistFacts;
  /** The log's warnings and errors (a fault that throws inside a pass shows here). */
  troubles: string[];
  /** The moment the doors are read at. */
  now: number;
  /** tools/list's descriptions, joined, the moment every child's first pass had ended. */
  firstListing: string;
  /** The bridge's config: its data_dir holds what a restart starts from. */
  config: Config;
}

/** The MQTT sink's retained half, driven without a broker: what it would publish, kept by topic. */
function retainedDoor(base: string, language: World['language'], log: Logger): { sink: Sink; retained: Map<string, string> } {
  const retained = new Map<string, string>();
  const states = new RetainedStates({
    topics: new Topics(base, 'homeassistant'),
    ctx: { baseTopic: base, discoveryPrefix: 'homeassistant', version: 'worlds', language },
    log,
    clock: { now: () => 0, setTimer: () => ({ cancel: () => undefined }), sleep: () => Promise.resolve() },
    version: 'worlds',
    info: () => ({}),
    children: () => 'every',
    live: () => true,
    publish: (topic, payload) => void retained.set(topic, payload),
  });
  const sink: Sink = {
    device: (child) => states.device(child),
    availability: (child, online) => states.availability(child, online),
    state: (child, key, state) => states.state(child, key, state),
  };
  return { sink, retained };
}

/** A logger whose warnings and errors are kept as lines. */
function troubleLog(troubles: string[]): Logger {
  return createLogger('warn', { write: (line: string) => void troubles.push(line) });
}

let worlds = 0;

/** The bridge of a world as one start runs it: the App, what its passes told, and the doors it feeds. */
interface Bridge {
  app: App;
  told: Map<string, Told>;
  snapshot: WebSnapshot;
  facts: AssistFacts;
  retained: Map<string, string>;
  /** From now on the events the passes tell are kept (the news). */
  listen(): void;
}

interface Told {
  states: Map<string, EntityState>;
  device?: ChildDevice;
  events: BusEvent[];
  passes: number;
}

/** A bridge on the world's config (its data_dir: a second one is a restart), its output's place taken by the doors. */
function bridgeOf(sim: PortalSimulator, clock: FakeClock, world: World, config: Config, log: Logger): Bridge {
  const told = new Map<string, Told>();
  const of = (child: string) => told.get(child) ?? told.set(child, { states: new Map(), events: [], passes: 0 }).get(child)!;
  let news = false;
  const recorder: Sink = {
    device: (child) => void (of(child.id).device = child),
    state: (child, key, state) => void of(child).states.set(key, state),
    event: (child, event) => void (news && of(child).events.push(event)),
    passed: (child) => void of(child).passes++,
  };
  const snapshot = new WebSnapshot({ language: world.language, healthy: () => true, now: () => clock.now() });
  const facts = new AssistFacts();
  const mqtt = retainedDoor(config.mqtt.base_topic, world.language, log);
  const output = { ...recorder, start: () => Promise.resolve(), stop: () => Promise.resolve() };
  const app = new App({ config, version: 'worlds', log, clock, output, staggerMs: 0, dispatcher: sim.dispatcher() });
  for (const sink of [snapshot, facts, mqtt.sink]) app.bus.subscribe(sink);
  return { app, told, snapshot, facts, retained: mqtt.retained, listen: () => void (news = true) };
}

/**
 * Runs one world: serves it, starts the bridge on it at the world's moment, lists Assist's tools once every first
 * pass has ended, then (a world with news) enters the news and runs a person's refresh, whose events are kept.
 * `walkTo` (an ISO moment): then the running bridge walks there, every pass its timers start on the way run to its
 * end (a night, a clock change, a new school year), and the doors are read there.
 */
export async function runWorld(sim: PortalSimulator, clock: FakeClock, world: World, walkTo?: string): Promise<WorldRun> {
  clock.set(`${world.date}T${world.time}:00+01:00`);
  const tag = String(900_000 + worlds++);
  const { children: served, family } = serve(sim, world, tag);
  const troubles: string[] = [];
  const log = troubleLog(troubles);
  const base = `w${tag}`;
  const config = await buildConfig(
    {
      mqtt: { url: 'mqtt://127.0.0.1:1', base_topic: base },
      portal: sim.urls,
      accounts: family
        ? [{ email: family.email, password: family.password }]
        : served.map(({ init }) => ({ login: init.login, password: init.password })),
      data_dir: await tempDir(),
      language: world.language,
      http: { port: 0 },
    },
    'test',
    { env: {} },
  );
  const bridge = bridgeOf(sim, clock, world, config, log);
  const { app } = bridge;
  let firstListing = '';
  const servedTo = (runner: { loginName: string }) => served.find((s) => s.init.login === runner.loginName)!;
  const refreshed: unknown[] = [];
  try {
    await app.start();
    await passedOnce(clock, app, bridge.told);
    // A person's refresh reads the news a teacher entered, for each child with news; a child without is read once.
    refreshed.push(...app.runners.filter((runner) => servedTo(runner).world.news.length > 0));
    firstListing = await toolDescriptions(bridge, world, clock.now());
    enterNews(sim, world, served);
    // A walk's doors are read a day on: the news's events, true of the records when told, are held where they are told.
    if (walkTo === undefined) bridge.listen();
    for (const runner of app.runners) if (refreshed.includes(runner)) await runner.refresh();
    if (walkTo !== undefined) await walk(clock, app, Date.parse(walkTo));
  } finally {
    await app.stop();
  }
  const children: ChildRun[] = [];
  for (const runner of app.runners) {
    const kept: Told = bridge.told.get(runner.id) ?? { states: new Map(), events: [], passes: 0 };
    const { init, world: child } = servedTo(runner);
    children.push({
      id: runner.id,
      served: servedTo(runner),
      states: kept.states,
      device: kept.device,
      events: kept.events,
      refreshed: refreshed.includes(runner),
      records: child.kind === 'kindergarten' ? undefined : await readRecords(sim, init.login, init.password, warsaw(clock.now()).date),
    });
  }
  const { snapshot, facts, retained } = bridge;
  return { world, children, retained, base, snapshot, facts, troubles, now: clock.now(), firstListing, config };
}

/**
 * The world's bridge started again on its data_dir (a restart, the clock moved on by `minutes`): Assist's facts and
 * children once every first pass of the new start has ended.
 */
export async function restartWorld(
  sim: PortalSimulator,
  clock: FakeClock,
  run: WorldRun,
  minutes: number,
): Promise<Pick<WorldRun, 'facts' | 'snapshot' | 'now' | 'troubles'>> {
  await clock.advance(minutes * 60_000);
  const troubles: string[] = [];
  const bridge = bridgeOf(sim, clock, run.world, run.config, troubleLog(troubles));
  try {
    await bridge.app.start();
    await passedOnce(clock, bridge.app, bridge.told);
  } finally {
    await bridge.app.stop();
  }
  return { facts: bridge.facts, snapshot: bridge.snapshot, now: clock.now(), troubles };
}

/** tools/list's descriptions, joined, as the MCP server answers over the bridge's doors now. */
async function toolDescriptions(bridge: Bridge, world: World, now: number): Promise<string> {
  const server = mcpServer({ world, snapshot: bridge.snapshot, facts: bridge.facts, now });
  return listedTools(server);
}

/** Moves the clock to `until` from timer to timer, each pass a timer starts ended before the clock moves on. */
async function walk(clock: FakeClock, app: App, until: number): Promise<void> {
  const rested = async () => {
    await Promise.all([app.listed(), ...app.runners.map((runner) => runner.idle())]);
    await app.downloadsRested();
  };
  // A pass still finishing sets its next timer only when done: each look at the next timer waits for that first.
  for (await rested(); ; await rested()) {
    const next = clock.nextDueAt();
    if (next === undefined || next > until) break;
    await clock.advance(Math.max(0, next - clock.now()));
  }
  await clock.advance(until - clock.now());
  await rested();
}

/** Moves the clock until every child's first pass has ended (the runners start at once; their reads are real I/O). */
async function passedOnce(clock: FakeClock, app: App, told: ReadonlyMap<string, { passes: number }>): Promise<void> {
  const began = Date.now();
  while (Date.now() - began < 15_000) {
    if (app.runners.length > 0 && app.runners.every((r) => (told.get(r.id)?.passes ?? 0) > 0)) return;
    await clock.advance(0);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error(`the first passes did not end: ${app.runners.map((r) => `${r.id} ${told.get(r.id)?.passes ?? 0}`).join(', ')}`);
}
