// A simulated stretch of days: the real bridge (App) reading the simulated portal (in a child
// process) with a fake clock that jumps from one timer to the next, so a day runs in seconds.
import { askAssist, type AssistQuestion } from './questions.js';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App } from '../app/app.js';
import { buildConfig } from '../config/load.js';
import { FakeClock } from './fake-clock.js';
import { warsawTimeOfDay } from '../util/time.js';
import { silentLogger } from '../util/log.js';
import { BENCH_FAMILY, benchLogin, type BenchProfile } from './accounts.js';
import type { ChildRequest } from './sim-child.js';
import type { PassHooks } from '../runner/scheduler.js';
import type { BusEvent, Sink } from '../bus/bus.js';
import type { EntityState, EventPayload } from '../engine/state.js';
import type { Resource } from '../engine/resource.js';
import { HomeAssistantModel } from './home-assistant.js';
import { freeTcpPort } from './free-port.js';
import { HOME_ASSISTANT } from '../outputs/homeassistant/output.js';

type Untagged<T> = T extends unknown ? Omit<T, 'id'> : never;

/** The simulator child process. */
export class SimProcess {
  private readonly child: ChildProcess;
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor() {
    this.child = fork(fileURLToPath(new URL('./sim-child.js', import.meta.url)), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    this.child.on('message', (msg: { id: number; result?: unknown; error?: string }) => {
      const w = this.waiting.get(msg.id);
      this.waiting.delete(msg.id);
      if (msg.error !== undefined) w?.reject(new Error(msg.error));
      else w?.resolve(msg.result);
    });
  }

  ask<T>(request: Untagged<ChildRequest>): Promise<T> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ ...request, id });
    });
  }
}

export interface Published {
  child: string;
  key: string;
  state: string | null;
  at: number;
}

/** An output in place of MQTT that keeps what would go there, with the simulated time, only on change (the calendar feeds never do). */
export class RecordingSink implements Sink {
  readonly states: Published[] = [];
  readonly events: { child: string; kind: string; payload: EventPayload; at: number }[] = [];
  /** Every event fired, by kind, kept or not (a few numbers, whatever the run's length). */
  readonly eventsByKind = new Map<string, number>();
  private readonly last = new Map<string, string>();

  /** keep false: remember nothing (a long run that measures memory must not grow by its own records). */
  constructor(
    private readonly clock: FakeClock,
    private readonly keep = true,
  ) {}

  state(child: string, key: string, state: EntityState): void {
    const text = JSON.stringify(state);
    if (this.last.get(`${child}/${key}`) === text) return;
    this.last.set(`${child}/${key}`, text);
    if (this.keep) this.states.push({ child, key, state: state.state, at: this.clock.now() });
  }
  event(child: string, { kind, payload }: BusEvent): void {
    this.eventsByKind.set(kind, (this.eventsByKind.get(kind) ?? 0) + 1);
    if (this.keep) this.events.push({ child, kind, payload, at: this.clock.now() });
  }
  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}

export interface Injection {
  at: number;
  request: Untagged<ChildRequest>;
  /** The entity whose publish shows the change. */
  watch: { childIndex: number; key: string };
  label: string;
}

export interface SimulationOptions {
  children: number;
  start: string;
  days: number;
  poll?: { interval?: string; fast_interval?: string; school_interval?: string; quiet_hours?: string };
  /** The declarations the children are read by (schedules.ts: the reference's, the naive schedule's). */
  resources?: readonly Resource[];
  injections?: Injection[];
  /** false: keep no per-cycle or per-state records (for the week's memory readings). */
  record?: boolean;
  /** 'family': the children are read through one `email` entry (the family road) instead of their register logins. */
  road?: 'register' | 'family';
  /** The register road's gateway grants the change feed (the simulated portal refuses it there by default). */
  changeFeedGranted?: boolean;
  /** The children's simulator profiles in order (default: Ania and Janek in turn); `DEMO_FAMILY_PROFILES` for the demo family. */
  profiles?: readonly BenchProfile[];
  /** Every request the bridge makes, as it makes it (the year's run counts them without keeping them). */
  onRequest?: (childIndex: number, key: string, at: number) => void;
  /** Each pass's CPU, as it ends (the year's run sums them without keeping them). */
  onCycle?: (cpuMicros: number, hosts: string[]) => void;
  /**
   * Stretches run one after another instead of `days` from `start` (a year sampled): the clock jumps from
   * one's end to the next's start as a machine asleep would, and onSpanEnd is awaited after each.
   */
  spans?: readonly { from: string; to: string }[];
  onSpanEnd?: (index: number, recorder: RecordingSink) => Promise<void>;
  /** Home Assistant's API on (the model of its REST API), with the web server its calendars fetch the calendar feeds from. */
  homeAssistant?: boolean;
  /** Count from this moment on (ms): the counts, reads and requests before it are left out (a running day, its start before it). */
  countFrom?: number;
  /** A parent's questions to Assist at their moments, through the MCP server (the web server on): questions.ts. */
  questions?: readonly AssistQuestion[];
}

export interface CountsAnswer {
  byLogin: Record<string, Record<string, number>>;
  logins: Record<string, number>;
  bytes: number;
  total: number;
}

export interface SimulationResult {
  counts: CountsAnswer;
  /** Each pass: the hosts it read, its CPU. */
  cycles: { hosts: string[]; cpuMicros: number; childIndex: number; at: number }[];
  recorder: RecordingSink;
  rssBytes: number;
  heapBytes: number;
  freshness: { label: string; delayMs: number | null }[];
  realMs: number;
  /** Memory at the end of each simulated day (MB). */
  daily: { day: number; rssMB: number; heapMB: number }[];
  /** The change feed at the end: on for how many children, and the changes it never named that safety reads found. */
  changeFeed: { on: number; missed: number };
  /** When each child's change feed was read (GET PushChanges), in order. */
  changeFeedReads: number[][];
  /** Every child's reads by resource and the planner's why (`start`: in a start's first pass), and each request as the bridge named it. */
  reads: ReadCount[];
  requests: Record<string, number>;
  /** Every request made between 22:00 and 06:00 (Warsaw), by child, with its time: the night the docs promise. */
  nightReads: { childIndex: number; key: string; at: number }[];
  /** With Home Assistant's API on: its calls, by method and path (ids and queries left out), and the entries it holds at the end. */
  homeAssistant?: { calls: Record<string, number>; total: number; entries: number };
}

/** Reads of one resource for one why (ReadHook), counted. */
export interface ReadCount {
  resource: string;
  why: string;
  start: boolean;
  n: number;
}

export async function simulate(options: SimulationOptions): Promise<SimulationResult> {
  const began = Date.now();
  const sim = new SimProcess();
  const clock = new FakeClock(options.spans?.[0]?.from ?? options.start);
  await sim.ask({ type: 'time', now: clock.now() });
  const urls = await sim.ask<Record<string, string>>({
    type: 'start',
    children: options.children,
    ...(options.profiles ? { profiles: options.profiles } : {}),
  });
  if (options.changeFeedGranted)
    await sim.ask({ type: 'grant change feed', logins: Array.from({ length: options.children }, (_, i) => benchLogin(i).login) });
  const dataDir = await mkdtemp(join(tmpdir(), 'd2m-bench-'));
  const ha = options.homeAssistant ? new HomeAssistantModel('bench-home-assistant-token') : undefined;
  await ha?.start();
  const httpPort = ha || options.questions ? await freeTcpPort() : 0;
  const config = await buildConfig(
    {
      mqtt: { url: 'mqtt://127.0.0.1:1' },
      portal: urls,
      accounts: accountsOf(options),
      poll: options.poll ?? {},
      data_dir: dataDir,
      log_level: 'silent',
      // The web server is measured on its own (bin-rss); here it would only take a port, but for Home Assistant's calendars.
      http: { port: httpPort, bind: '127.0.0.1' },
      ...(ha ? { homeassistant: { url: ha.url, token: ha.token, public_url: `http://127.0.0.1:${httpPort}` } } : {}),
    },
    'bench',
    { env: {} },
  );
  const record = options.record ?? true;
  const recorder = new RecordingSink(clock, record);
  const cycles: SimulationResult['cycles'] = [];
  const changeFeedReads: number[][] = [];
  const nightReads: SimulationResult['nightReads'] = [];
  const reads = new Map<string, ReadCount>();
  const requests: Record<string, number> = {};
  const app = new App({
    config,
    version: 'bench',
    log: silentLogger(),
    clock,
    output: recorder,
    out: { write: () => true },
    ...(options.resources ? { resources: options.resources } : {}),
    hooks: (childIndex) => ({
      ...cpuPerCycle((hosts, cpuMicros) => {
        options.onCycle?.(cpuMicros, hosts);
        if (record) cycles.push({ hosts, cpuMicros, childIndex, at: clock.now() });
      }),
      onRead: (read) => {
        if (!record) return;
        const key = `${read.start}\u0000${read.resource}\u0000${read.why}`;
        const counted = reads.get(key) ?? { ...read, n: 0 };
        counted.n++;
        reads.set(key, counted);
      },
      onRequest: (key) => {
        if (record) requests[key] = (requests[key] ?? 0) + 1;
        if (record && key.startsWith('GET ') && key.includes('PushChanges')) (changeFeedReads[childIndex] ??= []).push(clock.now());
        if (record && atNight(clock.now())) nightReads.push({ childIndex, key, at: clock.now() });
        if (options.onRequest) options.onRequest(childIndex, key, clock.now());
      },
    }),
  });
  await app.start();
  const spans = options.spans ?? [];
  let span = 0;
  let end = spans.length > 0 ? Date.parse(spans[0]!.to) : clock.now() + options.days * 86_400_000;
  const injections = [...(options.injections ?? [])].sort((a, b) => a.at - b.at);
  const questions = [...(options.questions ?? [])].sort((a, b) => a.at - b.at);
  const injected: { injection: Injection; at: number }[] = [];
  const idle = async () => {
    await Promise.all(app.runners.map((p) => p.idle()));
    await app.outputOf(HOME_ASSISTANT)?.idle();
  };
  const daily: SimulationResult['daily'] = [];
  const startedAt = clock.now();
  let before: CountsAnswer | undefined;
  while (clock.now() < end) {
    if (options.countFrom !== undefined && before === undefined && clock.now() >= options.countFrom) {
      before = await sim.ask<CountsAnswer>({ type: 'counts' });
      reads.clear();
      for (const key of Object.keys(requests)) delete requests[key];
    }
    const day = Math.floor((clock.now() - startedAt) / 86_400_000);
    if (day > daily.length) {
      const m = rssAndHeap();
      daily.push({ day: daily.length + 1, rssMB: m.rss / 1048576, heapMB: m.heapUsed / 1048576 });
    }
    const nextInjection = Math.min(injections[0]?.at ?? Number.POSITIVE_INFINITY, questions[0]?.at ?? Number.POSITIVE_INFINITY);
    const countAt = before === undefined && options.countFrom !== undefined && options.countFrom > clock.now() ? options.countFrom : end;
    const target = Math.min(clock.nextDueAt() ?? end, end, nextInjection, countAt);
    await sim.ask({ type: 'time', now: Math.max(target, clock.now()) });
    await clock.advance(Math.max(0, target - clock.now()));
    while (injections[0] !== undefined && injections[0].at <= clock.now()) {
      const injection = injections.shift() as Injection;
      await sim.ask(injection.request);
      injected.push({ injection, at: clock.now() });
    }
    while (questions[0] !== undefined && questions[0].at <= clock.now()) await askAssist(httpPort, dataDir, questions.shift()!);
    await idle();
    if (clock.now() >= end && span < spans.length) {
      await options.onSpanEnd?.(span, recorder);
      const following = spans[++span];
      if (following !== undefined) {
        // The machine wakes a month on: the timers set before are overdue, and fire at the new time.
        clock.set(following.from);
        await sim.ask({ type: 'time', now: clock.now() });
        end = Date.parse(following.to);
      }
    }
  }
  const counts = countsSince(await sim.ask<CountsAnswer>({ type: 'counts' }), before);
  const saved = app.runners.map((p) => p.figures.snapshot());
  const changeFeed = {
    on: saved.filter((f) => f.change_feed?.on === true).length,
    missed: saved.reduce((n, f) => n + Object.values(f.feed_missed ?? {}).reduce((a, b) => a + b, 0), 0),
  };
  const size = rssAndHeap();
  daily.push({ day: daily.length + 1, rssMB: size.rss / 1048576, heapMB: size.heapUsed / 1048576 });
  await app.stop();
  await ha?.stop();
  await sim.ask({ type: 'stop' });
  await rm(dataDir, { recursive: true, force: true });
  const freshness = injected.map(({ injection, at }) => {
    const child = `child${injection.watch.childIndex}`;
    const seen = recorder.states.find((p) => p.child === child && p.key === injection.watch.key && p.at >= at);
    return { label: injection.label, delayMs: seen ? seen.at - at : null };
  });
  return {
    counts,
    cycles,
    recorder,
    rssBytes: size.rss,
    heapBytes: size.heapUsed,
    freshness,
    realMs: Date.now() - began,
    daily,
    changeFeed,
    changeFeedReads,
    reads: [...reads.values()],
    requests,
    nightReads,
    ...(ha ? { homeAssistant: haCalls(ha) } : {}),
  };
}

/** The counts made after `before` was taken (all of them without it). */
export function countsSince(now: CountsAnswer, before: CountsAnswer | undefined): CountsAnswer {
  if (before === undefined) return now;
  const byLogin: CountsAnswer['byLogin'] = {};
  for (const [login, paths] of Object.entries(now.byLogin))
    for (const [path, n] of Object.entries(paths)) {
      const made = n - (before.byLogin[login]?.[path] ?? 0);
      if (made > 0) (byLogin[login] ??= {})[path] = made;
    }
  const logins = Object.fromEntries(Object.entries(now.logins).map(([login, n]) => [login, n - (before.logins[login] ?? 0)]));
  return { byLogin, logins, bytes: now.bytes - before.bytes, total: now.total - before.total };
}

/** The model's calls by method and path, an entry's or a flow's id left out. */
function haCalls(ha: HomeAssistantModel): NonNullable<SimulationResult['homeAssistant']> {
  const calls: Record<string, number> = {};
  for (const c of ha.calls) {
    const key = `${c.method} ${c.path.replace(/\?.*$/, '').replace(/\/(flow|entry)\/[^/]+$/, '/$1/<id>')}`;
    calls[key] = (calls[key] ?? 0) + 1;
  }
  return { calls, total: ha.calls.length, entries: ha.entries.length };
}

/** 22:00 to 06:00 on the Warsaw clock. */
function atNight(ms: number): boolean {
  const time = warsawTimeOfDay(ms);
  return time >= '22:00' || time < '06:00';
}

/** The bench's children as config entries: each under its register login, or all under the family's e-mail. */
function accountsOf(options: SimulationOptions): Record<string, unknown>[] {
  const children = Array.from({ length: options.children }, (_, i) => ({ login: benchLogin(i).login, id: `child${i}` }));
  if (options.road === 'family') return [{ ...BENCH_FAMILY, children }];
  return children.map((c, i) => ({ ...c, password: benchLogin(i).password }));
}

/**
 * RSS as it is (what the machine pays), and the live heap after a full collection when the process
 * runs with --expose-gc (as the bench's fresh processes do), so that heap growth means a leak.
 */
function rssAndHeap(): { rss: number; heapUsed: number } {
  const rss = process.memoryUsage().rss;
  (globalThis as { gc?: () => void }).gc?.();
  return { rss, heapUsed: process.memoryUsage().heapUsed };
}

/** Every request of the run (login steps the simulator cannot attribute included), per child per day. */
export function perChildPerDay(counts: CountsAnswer, children: number, days: number): number {
  return counts.total / children / days;
}

/** Hooks that measure the CPU time this process spends in each pass, in microseconds. */
function cpuPerCycle(done: (hosts: string[], cpuMicros: number) => void): PassHooks {
  let started: NodeJS.CpuUsage | undefined;
  return {
    onCycleStart: () => {
      started = process.cpuUsage();
    },
    onCycle: ({ hosts }) => {
      const used = process.cpuUsage(started);
      done(hosts, used.user + used.system);
    },
  };
}
