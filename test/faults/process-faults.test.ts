// The fault suite, process side: the bridge as a real process (`node dist/main.js run`, real clock)
// killed with SIGKILL in the middle of a pass, in the middle of a send and just after an event reached
// the subscriber, then started again on the same data_dir. After the restart no event may repeat, no
// message may go out twice, and the saved session must be reused without a new password login. An event the broker never accepted (the bridge
// stopped or killed while the broker was away) fires once after both are back.
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { PortalSimulator } from '../../src/simulator/index.js';
import { FaultTable, leakedSecrets, savedCookieValues, type Secret } from '../helpers/faults.js';
import { SimTap, clearSimFaults } from '../helpers/faults-sim.js';
import { BridgeProcess, ensureBuilt, writeConfig } from '../helpers/faults-process.js';
import { CuttableProxy, MQTT_URL, Recorder, clearRetained, uniqueRoots, waitUntil } from '../helpers/mqtt.js';
import { ANIA, addGrade, strongPassword } from '../helpers/faults-world.js';

const table = new FaultTable('Fault table: the bridge process');
afterAll(() => table.print());

beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

/** One test's simulator (real clock, as the process has), temp dir, topics, recorder and processes. */
class ProcWorld {
  readonly processes: BridgeProcess[] = [];
  readonly password = strongPassword();
  /** Where the bridge finds the broker (a test may put a proxy before it; the recorder stays on MQTT_URL). */
  mqttUrl = MQTT_URL;

  private constructor(
    readonly sim: PortalSimulator,
    readonly tap: SimTap,
    readonly dir: string,
    readonly roots: { base: string; prefix: string },
    readonly rec: Recorder,
  ) {}

  static async start(ctx: TestContext): Promise<ProcWorld> {
    const sim = new PortalSimulator();
    const tap = new SimTap(sim);
    await sim.start();
    const dir = await mkdtemp(join(tmpdir(), 'd2m-faults-'));
    const roots = uniqueRoots();
    const rec = await Recorder.connect([`${roots.base}/#`, `${roots.prefix}/#`]);
    const p = new ProcWorld(sim, tap, dir, roots, rec);
    sim.account(ANIA.login).password = p.password;
    ctx.onTestFinished(() => p.stop());
    return p;
  }

  async config(dataDir = join(this.dir, 'data'), messages?: unknown[]): Promise<string> {
    const config = join(this.dir, 'config.yaml');
    await writeConfig(config, {
      mqttUrl: this.mqttUrl,
      base: this.roots.base,
      prefix: this.roots.prefix,
      portal: this.sim.urls,
      accounts: [{ login: ANIA.login, password: this.password, id: 'ania', ...(messages ? { messages } : {}) }],
      dataDir,
    });
    return config;
  }

  async bridge(messages?: unknown[]): Promise<BridgeProcess> {
    const p = new BridgeProcess(await this.config(undefined, messages));
    this.processes.push(p);
    p.start();
    return p;
  }

  topic(key: string): string {
    return `${this.roots.base}/ania/${key}`;
  }

  events(): { id: string; grade: string }[] {
    return this.rec.on(this.topic('event/grade')).map((m) => JSON.parse(m.text) as { id: string; grade: string });
  }

  /** Waits until a bridge process has published a full pass after `from` messages. */
  async fullPassAfter(from: number): Promise<void> {
    await waitUntil(() => this.rec.messages.slice(from).some((m) => m.topic === this.topic('last_update')), 'a full pass', 15_000);
  }

  /**
   * After a clean stop (exit 0): the bridge waited for the broker's ack of its "offline", so all it
   * published is at the broker; the recorder catches up with that, and "offline" is the last state.
   */
  async caughtUpWithStoppedBridge(): Promise<void> {
    await this.rec.caughtUp();
    expect(this.rec.last(`${this.roots.base}/bridge/state`)?.text).toBe('offline');
  }

  async leaks(): Promise<string[]> {
    const secrets: Secret[] = [
      { name: 'password', value: this.password },
      ...this.tap.secrets(),
      ...(await savedCookieValues(join(this.dir, 'data'))),
    ];
    const texts = [...this.rec.messages.map((m) => `${m.topic} ${m.text}`), ...this.processes.flatMap((p) => p.lines)];
    return leakedSecrets(texts, secrets);
  }

  async stop(): Promise<void> {
    for (const p of this.processes.splice(0)) await p.kill();
    await this.rec.close();
    await clearRetained([`${this.roots.base}/#`, `${this.roots.prefix}/#`]);
    await this.sim.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}

// Every test owns its simulator, processes and topics: they run concurrently.
describe.concurrent('the bridge process', () => {
  it('SIGKILL in the middle of a poll: after the restart no event repeated, none lost, the session reused', async (ctx) => {
    const pw = await ProcWorld.start(ctx);
    const { sim, tap, rec } = pw;
    const topic = (key: string): string => pw.topic(key);
    const events = (): { id: string; grade: string }[] => pw.events();
    // Grade A comes with the first pass of a restarted bridge: a refresh would be its one forced pass
    // of the minute, and the pass killed below must be a forced one.
    const zero = await pw.bridge();
    await pw.fullPassAfter(0);
    expect(await zero.stop()).toBe(0);
    const gradeA = `grade:${addGrade(sim)}`;
    const restarted = rec.messages.length;
    const first = await pw.bridge();
    await pw.fullPassAfter(restarted);
    await waitUntil(() => events().some((e) => e.id === gradeA), 'the event of grade A', 10_000);

    // Grade B is added, and the bridge is killed while the pass that would find it waits for Grades.
    const gradeB = `grade:${addGrade(sim)}`;
    sim.setLatency(5_000, { host: 'portal', path: '/gateway/api/2.0/Grades' });
    const asked = tap.arrived({ path: '/gateway/api/2.0/Grades' });
    await rec.publish(topic('refresh/set'), '');
    await waitUntil(() => tap.arrived({ path: '/gateway/api/2.0/Grades' }) > asked, 'the pass to reach Grades', 10_000);
    await first.kill();
    expect(events().some((e) => e.id === gradeB)).toBe(false);
    clearSimFaults(sim);

    const from = rec.messages.length;
    const second = await pw.bridge();
    await pw.fullPassAfter(from);
    await waitUntil(() => events().some((e) => e.id === gradeB), 'the event of grade B after the restart', 10_000);
    const results = rec.on(topic('refresh/result')).length;
    await rec.publish(topic('refresh/set'), '');
    await waitUntil(() => rec.on(topic('refresh/result')).length > results, 'one more pass', 10_000);
    // Stopped before counting, so a late duplicate or login cannot come after the count.
    expect(await second.stop()).toBe(0);
    await pw.caughtUpWithStoppedBridge();
    const ids = events().map((e) => e.id);
    expect(sim.logins(ANIA.login)).toBe(1);
    table.record({
      fault: 'SIGKILL during a pass, restart',
      survived: rec.last(topic('problem'))?.text === 'OFF',
      lost: !ids.includes(gradeA) || !ids.includes(gradeB),
      sentTwice: ids.length !== new Set(ids).size,
      secretLeaked: (await pw.leaks()).length > 0,
    });
  }, 40_000);

  it("SIGKILL just as the subscriber got a grade's event (0, 3 and 6 ms after), three times: after the restarts no event repeated, none lost", async (ctx) => {
    const pw = await ProcWorld.start(ctx);
    const { sim, rec } = pw;
    let bridge = await pw.bridge();
    await pw.fullPassAfter(0);
    // The bin keeps its MQTT session in data_dir (its events go through it), under the installation's id.
    const session = JSON.parse(readFileSync(join(pw.dir, 'data', 'mqtt-session.json'), 'utf8')) as Record<string, unknown>;
    expect(session).toMatchObject({ base_topic: pw.roots.base });
    expect(JSON.parse(readFileSync(join(pw.dir, 'data', 'installation.json'), 'utf8'))).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{8}$/) });
    const grades: string[] = [];
    for (const ms of [0, 3, 6]) {
      const grade = `grade:${addGrade(sim)}`;
      grades.push(grade);
      const arrived = new Promise<void>((resolve) => {
        const listen = (topic: string, payload: Buffer): void => {
          if (topic !== pw.topic('event/grade') || (JSON.parse(payload.toString()) as { id: string }).id !== grade) return;
          rec.client.off('message', listen);
          setTimeout(resolve, ms);
        };
        rec.client.on('message', listen);
      });
      await rec.publish(pw.topic('refresh/set'), '');
      await arrived;
      await bridge.kill(true);
      const from = rec.messages.length;
      bridge = await pw.bridge();
      await pw.fullPassAfter(from);
    }
    expect(await bridge.stop()).toBe(0);
    await pw.caughtUpWithStoppedBridge();
    const ids = pw.events().map((e) => e.id);
    table.record({
      fault: 'SIGKILL 0-6 ms after a grade event reached the subscriber, restart, three times',
      survived: rec.last(pw.topic('problem'))?.text === 'OFF',
      lost: grades.some((g) => !ids.includes(g)),
      sentTwice: ids.length !== new Set(ids).size,
      secretLeaked: (await pw.leaks()).length > 0,
    });
    expect(ids.filter((id) => grades.includes(id))).toEqual(grades);
    expect(ids.length).toBe(new Set(ids).size);
  }, 60_000);

  for (const stop of ['SIGTERM', 'SIGKILL'] as const) {
    it(`a grade read while the broker is away, the bridge stopped (${stop}) before it returns: its event fires once when both are back`, async (ctx) => {
      const pw = await ProcWorld.start(ctx);
      const { sim, tap, rec } = pw;
      const proxy = CuttableProxy.forUrl();
      await proxy.start();
      ctx.onTestFinished(() => proxy.stop());
      pw.mqttUrl = proxy.url;
      const first = await pw.bridge();
      await pw.fullPassAfter(0);

      // The pass that reads the new grade waits at Grades while the broker goes away.
      const grade = `grade:${addGrade(sim)}`;
      sim.setLatency(2_000, { host: 'portal', path: '/gateway/api/2.0/Grades' });
      const asked = tap.arrived({ path: '/gateway/api/2.0/Grades' });
      await rec.publish(pw.topic('refresh/set'), '');
      await waitUntil(() => tap.arrived({ path: '/gateway/api/2.0/Grades' }) > asked, 'the pass to reach Grades', 10_000);
      proxy.paused = true;
      proxy.cut();
      // The pass ends with the grade in the event memory: read, and taken for news.
      const memory = join(pw.dir, 'data', 'seen', 'ania.json');
      await waitUntil(() => readFileSync(memory, 'utf8').includes(grade), 'the grade in the event memory', 10_000);
      if (stop === 'SIGTERM') expect(await first.stop()).toBe(0);
      else await first.kill();
      clearSimFaults(sim);
      expect(pw.events()).toHaveLength(0);

      // Started again while the broker is still away; then it comes back.
      const from = rec.messages.length;
      const second = await pw.bridge();
      await waitUntil(() => second.logged(/cannot connect to the MQTT broker/).length > 0, 'the restarted bridge to wait for the broker', 10_000);
      proxy.paused = false;
      await pw.fullPassAfter(from);
      await waitUntil(() => pw.events().some((e) => e.id === grade), 'the grade event after both are back', 10_000);
      // One more pass reads the grade again: no second event.
      const results = rec.on(pw.topic('refresh/result')).length;
      await rec.publish(pw.topic('refresh/set'), '');
      await waitUntil(() => rec.on(pw.topic('refresh/result')).length > results, 'one more pass', 10_000);
      expect(await second.stop()).toBe(0);
      await pw.caughtUpWithStoppedBridge();
      const fired = pw.events().filter((e) => e.id === grade);
      table.record({
        fault: `grade read with the broker away, ${stop} before it returns, restart`,
        survived: rec.last(pw.topic('problem'))?.text === 'OFF',
        lost: fired.length === 0,
        sentTwice: fired.length > 1,
        secretLeaked: (await pw.leaks()).length > 0,
      });
      expect(fired).toHaveLength(1);
    }, 60_000);
  }

  it('SIGKILL in the middle of a send: the message goes out once, a press after the restart is refused, the session reused', async (ctx) => {
    const pw = await ProcWorld.start(ctx);
    const { sim, tap, rec } = pw;
    const topic = (key: string): string => pw.topic(key);
    const messages = [...(ANIA.messages ?? [])];
    const first = await pw.bridge(messages);
    await pw.fullPassAfter(0);
    const send = { host: 'messages', method: 'POST', path: '/api/messages' } as const;
    sim.setLatency(2_000, send);
    await rec.publish(topic('send_message/set'), 'sick');
    await waitUntil(() => tap.arrived(send) === 1, 'the POST to reach the portal', 10_000);
    await first.kill();
    // The portal still takes the message the dead bridge posted.
    await waitUntil(() => sim.messaging.sent.length === 1, 'the portal to record the message', 10_000);
    clearSimFaults(sim);

    const from = rec.messages.length;
    const second = await pw.bridge(messages);
    await pw.fullPassAfter(from);
    expect(second.logged(/cut off by a restart/)).toHaveLength(1);
    await rec.publish(topic('send_message/set'), JSON.stringify({ id: 'sick', transaction: 'after-restart' }));
    await waitUntil(() => rec.on(topic('send_message/result')).length === 1, 'the result of the second press', 10_000);
    expect(JSON.parse(rec.on(topic('send_message/result'))[0]!.text)).toMatchObject({ status: 'error', sent: false, transaction: 'after-restart' });
    // Stopped before counting, so a late send or login cannot come after the count.
    expect(await second.stop()).toBe(0);
    await pw.caughtUpWithStoppedBridge();
    expect(sim.logins(ANIA.login)).toBe(1);
    table.record({
      fault: 'SIGKILL during a send, restart, press again',
      survived: rec.last(topic('problem'))?.text === 'OFF',
      lost: sim.messaging.sent.length === 0,
      sentTwice: sim.messaging.sent.length > 1 || tap.arrived(send) > 1,
      secretLeaked: (await pw.leaks()).length > 0,
    });
    // Two bins one after the other and the send's round trips: 17-19 s beside the other files (vitest's report),
    // and once past the default 20 s in ten full runs on a loaded 2-core machine; 60 s as its neighbours have.
  }, 60_000);

  it('a data_dir that cannot be created (its parent is a file): a clear error naming it, exit 1, nothing written', async (ctx) => {
    const pw = await ProcWorld.start(ctx);
    const { sim, dir } = pw;
    await writeFile(join(dir, 'file'), 'not a directory\n');
    const p = new BridgeProcess(await pw.config(join(dir, 'file', 'data')));
    pw.processes.push(p);
    p.start();
    const code = await p.exited(10_000);
    const errors = p.logged(/"level":"error"/);
    // The data_dir itself is the first thing made (its lock is taken before anything else).
    expect(errors.join('\n')).toMatch(/ENOTDIR.*file\/data'/);
    expect(await readdir(dir)).toEqual(['config.yaml', 'file']);
    expect(sim.requests).toEqual([]); // it stopped before asking the portal anything
    table.record({
      fault: 'data_dir not creatable (parent is a file): exit 1',
      survived: code === 1 && errors.some((l) => /could not start/.test(l)),
      lost: false,
      sentTwice: false,
      secretLeaked: (await pw.leaks()).length > 0,
    });
  });
});
