// The simulated school of an integration test file: before each test a fresh simulator on a fake clock
// set to the file's moment; after it, the bridge the test started and the simulator are stopped.
import { afterEach, beforeEach, expect } from 'vitest';
import { DEMO_ACCOUNTS, PortalSimulator } from '../../src/simulator/index.js';
import { FakeClock } from './clock.js';
import { startHarness, type Harness, type HarnessOptions } from './app.js';

export class SimulatedSchool {
  sim!: PortalSimulator;
  clock!: FakeClock;
  private harness: Harness | undefined;

  /** `portal: 'http'` for a file about the HTTP path (its bridges reach the simulator over sockets; HarnessOptions). */
  constructor(private readonly how: Pick<HarnessOptions, 'portal'> = {}) {}

  async open(now: string): Promise<void> {
    const clock = new FakeClock(now);
    this.clock = clock;
    this.sim = new PortalSimulator({ now: () => clock.now() });
    await this.sim.start();
  }

  /** The real bridge against this school and the test broker; stopped after the test. */
  async start(options: Omit<HarnessOptions, 'sim' | 'clock'>): Promise<Harness> {
    this.harness = await startHarness({ sim: this.sim, clock: this.clock, ...this.how, ...options });
    return this.harness;
  }

  /**
   * The bridge with Ania (the simulator's first account) alone, after its first passes have given each
   * of `keys` a state; `options` as for start() (e.g. the web server, for the calendar feeds; a logger).
   */
  async firstPasses(keys: readonly string[], options: Omit<HarnessOptions, 'sim' | 'clock' | 'accounts'> = {}): Promise<Harness> {
    const ania = DEMO_ACCOUNTS[0]!;
    const h = await this.start({ ...options, accounts: [{ login: ania.login, password: ania.password }] });
    await h.runUntil(() => keys.every((key) => h.state('ania', key) !== undefined), `the first passes (${keys.join(', ')})`);
    return h;
  }

  /** How many times the bridge asked the gateway for an endpoint (`Grades`, `BehaviourGrades/Points`). */
  reads(endpoint: string): number {
    return this.sim.count({ path: `/gateway/api/2.0/${endpoint}` });
  }

  /**
   * Minutes from `since` until check() holds, the bridge's clock moved 15 seconds at a time (at most
   * `max` minutes; the check failing then fails the test).
   */
  async minutesUntil(h: Harness, since: number, check: () => boolean, max = 10): Promise<number> {
    for (let step = 0; step < max * 4 && !check(); step++) await h.advanceMinutes(0.25);
    expect(check()).toBe(true);
    return (this.clock.now() - since) / 60_000;
  }

  /**
   * Three kinds of news at once, a grade and an announcement for Ania and a plan change of `changeDate`
   * for Jan (the demo's children, both published): the minutes the slowest took to reach MQTT.
   */
  async newsMinutes(h: Harness, changeDate: string): Promise<number> {
    const [ania, jan] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
    const notices = Number(h.state('ania', 'unread_notices'));
    const changes = Number(h.state('jan', 'plan_changes_tomorrow'));
    const added = this.clock.now();
    this.sim.account(ania.login).addGrade({ subject: 5012, category: 301, grade: '2' });
    this.sim.account(ania.login).addNotice({ Subject: 'Wywiadówka', Content: 'Zapraszamy w piątek.' });
    this.sim.account(jan.login).addPlanChange({ kind: 'cancelled', OrgDate: changeDate, OrgLessonNo: 2 });
    const grade = await this.minutesUntil(h, added, () => h.state('ania', 'newest_grade') === '2');
    const notice = await this.minutesUntil(h, added, () => Number(h.state('ania', 'unread_notices')) === notices + 1);
    const change = await this.minutesUntil(h, added, () => Number(h.state('jan', 'plan_changes_tomorrow')) === changes + 1);
    return Math.max(grade, notice, change);
  }

  async close(): Promise<void> {
    await this.harness?.stop();
    this.harness = undefined;
    await this.sim.stop();
  }

  /** The school again at another moment (a test that needs another part of the year). */
  async reopen(now: string): Promise<void> {
    await this.close();
    await this.open(now);
  }
}

/** Registers the hooks of a file whose tests all start at `now`. */
export function simulatedSchool(now: string, how: Pick<HarnessOptions, 'portal'> = {}): SimulatedSchool {
  const school = new SimulatedSchool(how);
  beforeEach(() => school.open(now));
  afterEach(() => school.close());
  return school;
}

/** The payloads of a child's events of one kind (`grade`: also its `grade_changed` and `grade_removed`), as the broker carried them. */
export function firedEvents(h: Harness, kind: string, child = 'ania'): Record<string, unknown>[] {
  return h.rec.on(`${h.base}/${child}/event/${kind}`).map((m) => JSON.parse(m.text) as Record<string, unknown>);
}
