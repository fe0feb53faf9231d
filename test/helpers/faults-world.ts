// One fault test's world: a fake clock, the simulator with its tap, one child (Ania) with a password no
// fixture contains, and the bridge once started. Also the checks most fault rows share.
import { randomBytes } from 'node:crypto';
import { expect, type TestContext } from 'vitest';
import { DEMO_ACCOUNTS, PortalSimulator } from '../../src/simulator/index.js';
import { FakeClock } from './clock.js';
import { SimTap } from './faults-sim.js';
import { startFaultApp, type FaultAccount, type FaultApp, type FaultAppOptions } from './faults-app.js';
import { waitUntil } from './mqtt.js';

export const ANIA = DEMO_ACCOUNTS[0]!;
export const JANEK = DEMO_ACCOUNTS[1]!;
/** A Wednesday in the first semester, during the second lesson. */
export const NOW = '2026-11-18T09:10:00+01:00';
export const MIN = 60_000;
export const GATEWAY = /^\/gateway\/api\/2\.0\//;
const MATHS = 5012;
const TEST_CATEGORY = 301;

/** The states that must survive a fault unchanged. */
export const KEPT = ['average', 'newest_grade', 'lucky_number', 'unread_notices', 'absences_unexcused', 'library_due'] as const;

export interface Outcome {
  survived: boolean;
  lost: boolean;
  sentTwice: boolean;
}

export type StartOptions = Partial<
  Pick<FaultAppOptions, 'accounts' | 'portal' | 'dispatcher' | 'mqttUrl' | 'recorderUrl' | 'dataDir' | 'mqttAuth' | 'poll' | 'http' | 'homeassistant'>
>;

export class PortalWorld {
  app: FaultApp | undefined;
  /** The event id of the grade added during the fault, once added. */
  private gradeId: string | undefined;

  private constructor(
    readonly clock: FakeClock,
    readonly sim: PortalSimulator,
    readonly tap: SimTap,
    readonly password: string,
    private readonly how: Pick<StartOptions, 'portal'>,
  ) {}

  /** `portal: 'http'` for a file about the HTTP path: its tap's resets and arrivals are on the socket (faults-sim.ts). */
  static async start(how: Pick<StartOptions, 'portal'> = {}): Promise<PortalWorld> {
    const clock = new FakeClock(NOW);
    const sim = new PortalSimulator({ now: () => clock.now() });
    const tap = new SimTap(sim);
    await sim.start();
    const password = strongPassword();
    sim.account(ANIA.login).password = password;
    return new PortalWorld(clock, sim, tap, password, how);
  }

  get login(): string {
    return ANIA.login;
  }

  get h(): FaultApp {
    if (!this.app) throw new Error('the bridge is not started');
    return this.app;
  }

  account(extra: Partial<FaultAccount> = {}): FaultAccount {
    return { login: ANIA.login, password: this.password, id: 'ania', ...extra };
  }

  /** Starts the bridge (its first pass starts with the next clock.advance). */
  async startApp(options: StartOptions = {}): Promise<FaultApp> {
    this.app = await startFaultApp({ sim: this.sim, tap: this.tap, clock: this.clock, accounts: [this.account()], ...this.how, ...options });
    return this.app;
  }

  /** Starts the bridge and waits for its first full pass (problem OFF). */
  async firstPass(options: StartOptions = {}): Promise<FaultApp> {
    const h = await this.startApp(options);
    await this.untilFirstPass();
    return h;
  }

  async untilFirstPass(): Promise<void> {
    const h = this.h;
    // problem is the last state a pass publishes; unread_messages comes with the fast tier.
    await h.runUntil(
      () => ['last_update', 'lucky_number', 'unread_messages', 'problem'].every((k) => h.state('ania', k) !== undefined),
      'the first full pass',
    );
    expect(h.state('ania', 'problem')).toBe('OFF');
  }

  /** After the first pass, the second normal one: it reads the rows a start leaves for later (the library's lendings). */
  async allRead(): Promise<void> {
    await this.h.runUntil(() => this.h.state('ania', 'library_due') !== 'None', 'the rows kept for later, read from the second pass', 5 * MIN);
  }

  snapshot(): Record<string, string | undefined> {
    return Object.fromEntries(KEPT.map((k) => [k, this.h.state('ania', k)]));
  }

  /** Password login attempts (step 3 POSTs), whatever their outcome. */
  passwordPosts(): number {
    return this.sim.count({ host: 'auth', method: 'POST' });
  }

  problemCount(): number {
    return this.h.rec.on(`${this.h.base}/ania/problem/attributes`).length;
  }

  /** Events about the grade added during the fault. */
  gradeEvents(): number {
    return this.h.rec.on(`${this.h.base}/ania/event/grade`).filter((m) => eventId(m.text) === this.gradeId).length;
  }

  /** A new maths grade "3" (the change a fault must not lose). */
  addGrade(): void {
    this.gradeId = `grade:${addGrade(this.sim)}`;
  }

  /** Presses refresh and waits for its result. */
  async refresh(payload = ''): Promise<Record<string, unknown>> {
    const h = this.h;
    const topic = `${h.base}/ania/refresh/result`;
    const n = h.rec.on(topic).length;
    await h.rec.publish(`${h.base}/ania/refresh/set`, payload);
    await waitUntil(() => h.rec.on(topic).length > n, 'the refresh result', 10_000);
    // Its events too: at QoS 2 an event arrives a round trip after a result published behind it.
    await h.runUntil(() => true, "the refresh's events");
    return JSON.parse(h.rec.on(topic)[n]!.text) as Record<string, unknown>;
  }

  /**
   * The second half of most faults: clear it, then a pass must publish problem OFF and the grade added
   * during the fault (one event); another 21 minutes of reading must not repeat it.
   */
  async recover(clear: () => void, advanceMs = 20 * MIN): Promise<Outcome> {
    const h = this.h;
    if (this.gradeId === undefined) this.addGrade();
    clear();
    const lastUpdate = h.state('ania', 'last_update');
    // Minute by minute: a pass still running when one long jump of the clock ended would plan its next after it.
    await h.advanceUntil(
      () => h.state('ania', 'problem') === 'OFF' && h.state('ania', 'last_update') !== lastUpdate && this.gradeEvents() >= 1,
      'a good pass after the fault',
      Math.ceil(advanceMs / MIN),
    );
    await h.advanceMinutes(21);
    return {
      survived: h.state('ania', 'problem') === 'OFF' && h.state('ania', 'availability') === 'online',
      lost: h.state('ania', 'newest_grade') !== '3' || this.gradeEvents() === 0,
      sentTwice: this.gradeEvents() > 1 || repeatedEvents(h).length > 0,
    };
  }

  async stop(): Promise<void> {
    await this.app?.stop();
    this.app = undefined;
    await this.sim.stop();
  }
}

/** Adds a maths grade "3"; returns its id. */
export function addGrade(sim: PortalSimulator, login = ANIA.login): string {
  return String(sim.account(login).addGrade({ subject: MATHS, category: TEST_CATEGORY, grade: '3' }).Id);
}

function eventId(text: string): unknown {
  return (JSON.parse(text) as { id?: unknown }).id;
}

/** Events (any kind) published more than once for the same item: "topic id" of each repeat. */
export function repeatedEvents(h: FaultApp): string[] {
  const seen = new Set<string>();
  const repeats: string[] = [];
  for (const m of h.rec.messages.filter((m) => m.topic.startsWith(`${h.base}/`) && m.topic.includes('/event/'))) {
    const key = `${m.topic} ${String(eventId(m.text))}`;
    if (seen.has(key)) repeats.push(key);
    seen.add(key);
  }
  return repeats;
}

export function strongPassword(): string {
  return `pw-${randomBytes(9).toString('hex')}`;
}

/**
 * The reasons `problem` gave since the `from`-th message: the account's own (no detail) and the
 * sources' ("reason:detail"); OFF is left out.
 */
export function problemReasons(h: FaultApp, from: number): { account: string[]; sources: string[] } {
  const all = h.rec
    .on(`${h.base}/ania/problem/attributes`)
    .slice(from)
    .map((m) => JSON.parse(m.text) as { reason: string | null; detail?: string });
  const on = all.filter((a) => a.reason !== null);
  return {
    account: [...new Set(on.filter((a) => a.detail === undefined).map((a) => a.reason as string))],
    sources: [...new Set(on.filter((a) => a.detail !== undefined).map((a) => `${a.reason}:${a.detail}`))],
  };
}

/**
 * A started world for one test, stopped when that test ends: each test owns its simulator, clock and
 * bridge, so the tests of a file can run concurrently (their waits overlap; the suite stays short).
 */
export async function worldFor(ctx: Pick<TestContext, 'onTestFinished'>, how: Pick<StartOptions, 'portal'> = {}): Promise<PortalWorld> {
  const w = await PortalWorld.start(how);
  ctx.onTestFinished(() => w.stop());
  return w;
}
