// One bridge per data folder (issue 28, item 2; interface 8.2, 14.4), with the bin as a user runs it.
// Two `run`s on one config each sent the same command's message. Now a second `run` exits 1 at once,
// naming the folder and the running bridge; one in its own pid namespace (another container on the same
// volume: the old code could not see the holder and took its lock over) exits 1 once it saw the holder's
// beat move. A bridge killed with SIGKILL (as Docker and the watchdog do) leaves a lock that never blocks
// its restart, also in a new pid namespace (Docker's restart), and the restart repeats no event; two
// accounts with one login are a config error.
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processTree } from '../../src/bench/bin-rss.js';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { LEASE_TIMING } from '../../src/lease/lease.js';
import { BridgeProcess, writeConfig } from '../helpers/faults-process.js';
import { MQTT_URL, uniqueRoots, waitUntil } from '../helpers/mqtt.js';
import { ProcessBridge } from '../helpers/security-process.js';

const ANIA = DEMO_ACCOUNTS[0]!;

/** The bin in a pid namespace of its own, killed with it; undefined where `unshare` is refused (not root, no user namespaces). */
const OWN_PID_NAMESPACE = ['unshare', '--pid', '--fork', '--mount-proc', '--kill-child'];
const unshareRefused = spawnSync(OWN_PID_NAMESPACE[0]!, [...OWN_PID_NAMESPACE.slice(1), 'true']).status !== 0;
const elsewhere = unshareRefused ? undefined : OWN_PID_NAMESPACE;

// Every test owns its simulator, bins, data_dir and topics, and mostly waits on its bins: they run side by side.
describe.concurrent('one bridge per data folder', () => {
  it('a second run on a data_dir in use exits 1 at once, naming the folder and the running bridge', async (ctx) => {
    const bridge = await ProcessBridge.start();
    ctx.onTestFinished(() => bridge.stop());
    const { base } = bridge.roots;
    await waitUntil(() => bridge.rec.last(`${base}/ania/last_update`) !== undefined, 'the first pass', 60_000);
    const tree = (await processTree(bridge.process.pid!)).map((p) => p.pid);

    const started = Date.now();
    const second = bridge.another();
    expect(await second.exited(15_000)).toBe(1);
    expect(Date.now() - started).toBeLessThan(15_000);
    const said = second.lines.join('\n');
    expect(said).toContain(join(bridge.dir, 'data'));
    const pid = Number(/pid (\d+)/.exec(said)?.[1]);
    expect(tree).toContain(pid);
    // The first one runs on, untouched.
    expect(bridge.process.running).toBe(true);
    expect(await bridge.request('health_check', 'after the second')).toMatchObject({ status: 'ok' });
    if (unshareRefused) return ctx.skip('unshare --pid is refused on this machine: another pid namespace cannot be made');

    // From another pid namespace: the holder's pid means nothing there; its beat moving does.
    const lock = await readFile(join(bridge.dir, 'data', 'bridge.lock'), 'utf8');
    const third = bridge.another(elsewhere);
    expect(await third.exited(30_000)).toBe(1);
    expect(third.logged(/waiting to see whether it still runs/)).toHaveLength(1);
    expect(third.logged(/taking its lock over/)).toEqual([]);
    expect(third.lines.join('\n')).toMatch(new RegExp(`in use by another dziennik2mqtt \\(installation \\w+ on [^,]+, pid ${pid}, since `));
    expect(JSON.parse(await readFile(join(bridge.dir, 'data', 'bridge.lock'), 'utf8'))).toMatchObject({ run: JSON.parse(lock).run, pid });
    expect(await bridge.request('health_check', 'after the third')).toMatchObject({ status: 'ok' });
  }, 90_000);

  it('a bridge killed with SIGKILL starts again by itself on the same data_dir (in a new pid namespace: after the grace), and repeats no event', async (ctx) => {
    const bridge = await ProcessBridge.start();
    ctx.onTestFinished(() => bridge.stop());
    const { base } = bridge.roots;
    await waitUntil(() => bridge.rec.last(`${base}/ania/last_update`) !== undefined, 'the first pass', 60_000);
    // News after the first pass fires an event at the next one (a refresh asks for it now).
    bridge.sim.account(ANIA.login).addNotice({ Subject: 'Wycieczka do Krakowa', Content: 'Zbiórka o 7:30 przed szkołą.' });
    const events = (): string[] => bridge.rec.texts(`${base}/ania/event/notice`);
    await bridge.request('refresh', 'news');
    await waitUntil(() => events().length > 0, 'the notice event', 60_000);
    expect(events()).toHaveLength(1);
    // Killed once the event memory says the broker took the event. A kill between the broker's PUBACK and
    // that write sends it again after the restart (QoS 1 is at least once; event-outbox.test.ts): not this test's case.
    const outbox = async (): Promise<unknown[] | undefined> => {
      const text = await readFile(join(bridge.dir, 'data', 'seen', 'ania.json'), 'utf8').catch(() => '{}');
      return (JSON.parse(text) as { outbox?: unknown[] }).outbox;
    };
    await waitUntil(async () => (await outbox())?.length === 0, 'the event memory written after the broker took the event', 10_000);

    // Started again as Docker does, in a new pid namespace (where this machine allows one): the dead
    // holder cannot be seen there, so its lock is watched for the grace and then taken over.
    await bridge.process.kill();
    const passes = bridge.rec.on(`${base}/ania/last_update`).length;
    const started = Date.now();
    const again = bridge.another(elsewhere);
    await waitUntil(() => bridge.rec.on(`${base}/ania/last_update`).length > passes || !again.running, 'the restarted bridge reading', 60_000);
    expect(again.running).toBe(true);
    expect(Date.now() - started).toBeLessThan(unshareRefused ? 30_000 : LEASE_TIMING.graceMs + 30_000);
    expect(again.logged(/in use by another/)).toEqual([]);
    expect(again.logged(/waiting to see whether it still runs/)).toHaveLength(unshareRefused ? 0 : 1);
    expect(again.logged(/taking its lock over/)).toHaveLength(1);
    // The pass after the restart found the same notice: no second event.
    await bridge.rec.caughtUpWith((topic, payload) => bridge.rec.publish(topic, payload));
    expect(events()).toHaveLength(1);
  }, 150_000);

  it('a second bridge on the same base topic (its own data_dir) reads and answers nothing, leaves bridge/state online, and takes over after a clean stop', async (ctx) => {
    const bridge = await ProcessBridge.start();
    ctx.onTestFinished(() => bridge.stop());
    const { base, prefix } = bridge.roots;
    await waitUntil(() => bridge.rec.last(`${base}/ania/last_update`) !== undefined, 'the first pass', 60_000);
    const config = join(bridge.dir, 'second.yaml');
    const accounts = [{ login: ANIA.login, password: ANIA.password, id: 'ania' }];
    await writeConfig(config, {
      mqttUrl: MQTT_URL,
      base,
      prefix,
      portal: bridge.sim.urls,
      accounts,
      dataDir: join(bridge.dir, 'second'),
      logLevel: 'info',
    });
    const second = new BridgeProcess(config);
    ctx.onTestFinished(() => second.kill());
    const logins = bridge.sim.logins(ANIA.login);
    const states = bridge.rec.on(`${base}/bridge/state`).length;
    second.start();

    // Each says so in its log, the running one in its `problem` too, naming the other.
    await waitUntil(() => second.logged(/is held by another dziennik2mqtt/).length > 0, 'the second waiting', 30_000);
    expect(second.logged(/is held by another/).join('')).toContain(`base topic ${base} `);
    await waitUntil(() => bridge.process.logged(/knocks at base topic/).length > 0, 'the first hearing the knock', 30_000);
    await waitUntil(() => bridge.rec.last(`${base}/bridge/problem`)?.text === 'ON', 'the problem', 10_000);
    expect(bridge.rec.json(`${base}/bridge/problem/attributes`)).toMatchObject({
      reason: 'base_topic_in_use',
      entry: expect.stringContaining(`pid `),
    });
    // A press is answered once, by the first; the portal is not asked by the second; bridge/state stays online.
    expect(await bridge.request('health_check', 'while two')).toMatchObject({ status: 'ok' });
    await bridge.rec.caughtUpWith((topic, payload) => bridge.rec.publish(topic, payload));
    expect(bridge.rec.texts(`${base}/bridge/response/health_check`)).toHaveLength(1);
    expect(bridge.sim.logins(ANIA.login)).toBe(logins);
    expect(second.logged(/connected to the MQTT broker|dziennik2mqtt started/)).toEqual([]);
    expect(bridge.rec.on(`${base}/bridge/state`)).toHaveLength(states);
    expect(bridge.rec.last(`${base}/bridge/state`)?.text).toBe('online');

    // The first stops cleanly: the second takes over at once, and is the bridge from then on.
    const passes = bridge.rec.on(`${base}/ania/last_update`).length;
    expect(await bridge.process.stop()).toBe(0);
    await waitUntil(() => second.logged(/gave it up; taking it over/).length > 0, 'the second taking over', 15_000);
    await waitUntil(() => bridge.rec.on(`${base}/ania/last_update`).length > passes, 'the second reading', 60_000);
    expect(bridge.rec.last(`${base}/bridge/state`)?.text).toBe('online');
    expect(await bridge.request('health_check', 'after the first')).toMatchObject({ status: 'ok' });
  }, 150_000);

  it('two accounts with the same login in one config: exit 2, naming both', async (ctx) => {
    const bridge = await ProcessBridge.start();
    ctx.onTestFinished(() => bridge.stop());
    await bridge.process.kill();
    const config = join(bridge.dir, 'twice.yaml');
    await writeConfig(config, {
      mqttUrl: MQTT_URL,
      ...uniqueRoots(),
      portal: bridge.sim.urls,
      accounts: [
        { login: ANIA.login, password: ANIA.password, id: 'ania' },
        { login: DEMO_ACCOUNTS[1]!.login, password: DEMO_ACCOUNTS[1]!.password, id: 'jan' },
        { login: ` ${ANIA.login.toUpperCase()}`, password: ANIA.password, id: 'ania2' },
      ],
      dataDir: join(bridge.dir, 'data'),
    });
    const twice = new BridgeProcess(config);
    twice.start();
    expect(await twice.exited(15_000)).toBe(2);
    const said = twice.lines.join('\n');
    expect(said).toContain('accounts[2].login');
    expect(said).toContain('accounts[0].login');
  }, 60_000);
});
