// Issue 81, interface 15.3: one bridge, once, for real. The bridge's MQTT side and event memory as built
// code runs them (test/helpers/bridge-script.ts: the lease, the Bridge, the EventGate) in processes of
// their own, against the real Mosquitto, with a short lease (a beat of 200 ms, a grace of 600 ms), as
// e9f2a38 failed them:
// - a holder SIGKILLed while a second bridge waits: the second announced again what the dead one had (its
//   own memory older) or never the grade given in the gap (its folder fresh); now it starts from what the
//   dead one told, and each grade is announced once;
// - a copy of a running bridge's data folder started beside it (moving to a new machine): the two shared
//   one MQTT client id, the broker threw one off for the other again and again and each grade fired twice;
//   now the copy sees the original run with its identity, says so, takes one of its own and waits;
// - a stranger's retained claim on the base topic stopped a running bridge at once (exit 1, bridge/state
//   left `online`); now the bridge says so and runs on;
// - an event the broker refused (its ACL) was lost for good; now it is kept, and delivered once after the
//   ACL is fixed.
// Issue 88, interface 16.1, as 7d50a3c failed them:
// - a stranger's retained event memory (any client allowed to publish under the base topic), written while
//   the bridge was stopped, was adopted at its next start with no handover at all: an old grade announced
//   again, a real new grade never; now it is ignored, and the log names its writer;
// - one written while the bridge ran stayed on the broker after a clean stop, and the next start replayed
//   from it; now the running bridge publishes its own again over it.
import { execFile } from 'node:child_process';
import { chmod, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connectAsync } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { bundleBridge, ScriptBridge, type ScriptSettings } from '../helpers/bridge-script.js';
import { PrivateMosquitto } from '../helpers/mosquitto.js';
import { MQTT_URL, Recorder, clearRetained, publishOnce, retained, sleep, uniqueRoots, waitUntil } from '../helpers/mqtt.js';

let bundle: Awaited<ReturnType<typeof bundleBridge>> | undefined;
beforeAll(async () => {
  bundle = await bundleBridge();
}, 60_000);
afterAll(() => bundle?.remove());

const TIMING = { beatMs: 200, graceMs: 600 };

/** A base topic, a recorder of its grade events, the grade count file and bridges on folders of the test's own, all gone when it ends. */
async function world(ctx: TestContext, url = MQTT_URL, recorderUrl = url, roots = uniqueRoots()) {
  const dir = await mkdtemp(join(tmpdir(), 'd2m-once-'));
  const countFile = join(dir, 'count');
  await writeFile(countFile, '1');
  const events = `${roots.base}/ania/event/grade`;
  const rec = await Recorder.connect([events, `${roots.base}/bridge/state`, `${roots.base}/ania/event_memory`], recorderUrl);
  const bridges: ScriptBridge[] = [];
  ctx.onTestFinished(async () => {
    for (const bridge of bridges) await bridge.kill();
    await rec.close();
    if (url === MQTT_URL) await clearRetained([`${roots.base}/#`, `${roots.prefix}/#`]);
    await rm(dir, { recursive: true, force: true });
  });
  const user = new URL(url);
  const mqtt = {
    url,
    username: decodeURIComponent(user.username),
    password: decodeURIComponent(user.password),
    base_topic: roots.base,
    discovery_prefix: roots.prefix,
  };
  const settings = (folder: string): ScriptSettings => ({ bundle: bundle!.file, dataDir: join(dir, folder), countFile, mqtt, timing: TIMING });
  return {
    roots,
    dir,
    rec,
    /** A bridge on data folder `folder`, started (not waited for). */
    bridge(folder: string): ScriptBridge {
      const bridge = ScriptBridge.start(settings(folder));
      bridges.push(bridge);
      return bridge;
    },
    grades: (n: number) => writeFile(countFile, String(n)),
    /** The grade events the subscriber got, by grade id, in order. */
    announced: (): string[] => rec.texts(events).map((text) => (JSON.parse(text) as { id: string }).id),
    /** The holder told a memory that holds grade `id` and no event waiting: what it announced is on the broker. */
    told: (id: string) =>
      waitUntil(
        () => {
          const memory = rec.json(`${roots.base}/ania/event_memory`) as { memory?: { ids?: { grade?: string[] }; outbox?: unknown[] } } | undefined;
          return (memory?.memory?.ids?.grade?.includes(id) ?? false) && memory?.memory?.outbox?.length === 0;
        },
        `the memory with ${id} told`,
        10_000,
      ),
    /** How a bridge on data folder `folder` signs the memory it tells: its installation and place. */
    writer: async (folder: string): Promise<string> => {
      const { id, place } = JSON.parse(await readFile(join(dir, folder, 'installation.json'), 'utf8')) as { id: string; place: string };
      return `${id}/${place}`;
    },
  };
}

/**
 * A stranger's memory of ania, as any client allowed to publish under the base topic can write it: grade `known`
 * (one not given yet) remembered as announced, and grade `replayed` (an old one) waiting in its outbox.
 */
const strangersMemory = (known: string, replayed: string): string =>
  JSON.stringify({
    by: 'feedf00d/elsewhere',
    fence: 999,
    memory: {
      ids: { grade: ['g1', known] },
      records: {},
      outbox: [{ kind: 'grade', id: 'stranger-1', payload: { event_type: 'grade', id: replayed } }],
    },
  });
const NAMES_STRANGER = /event memory of ania was written by "feedf00d\/elsewhere", neither this bridge nor the one whose base topic it took over/;

describe.concurrent('one bridge, once', () => {
  it.for(['fresh', 'older'] as const)(
    "a SIGKILLed holder's successor (its folder %s) announces each grade once: nothing the dead one announced again, the grade given in the gap",
    async (memory, ctx) => {
      const w = await world(ctx);
      if (memory === 'older') {
        // The second bridge ran before: its memory knows g1 only.
        const before = await w.bridge('b').ready();
        await before.kill('SIGTERM');
      }
      const a = await w.bridge('a').ready();
      await w.grades(2);
      await w.grades(3);
      await w.told('g3');
      const b = w.bridge('b');
      await waitUntil(() => b.logged(/is held by another dziennik2mqtt/).length > 0, 'the second waiting', 10_000);
      await a.kill();
      // A grade given after the holder died, before the second took over.
      await w.grades(4);
      await b.ready();
      await waitUntil(() => w.announced().includes('g4'), 'the grade given in the gap', 10_000);
      await sleep(300);
      await w.rec.caughtUp();
      expect(w.announced()).toEqual(['g2', 'g3', 'g4']);
      expect(b.logged(/taking over from what it told/)).toHaveLength(1);
      expect(w.rec.last(`${w.roots.base}/bridge/state`)?.text).toBe('online');
    },
  );

  it("a copy of a running bridge's data folder: one event per grade, and a line naming the other", async (ctx) => {
    const w = await world(ctx);
    const a = await w.bridge('a').ready();
    await w.grades(2);
    await w.told('g2');
    // Copied while it runs (as to a new machine: its lock then names a process this one cannot see). A write
    // half made (its .tmp, renamed into place a moment later) is left out, as it may be gone before it is read.
    await cp(join(w.dir, 'a'), join(w.dir, 'copy'), { recursive: true, filter: (path) => !path.endsWith('.tmp') });
    const lock = join(w.dir, 'copy', 'bridge.lock');
    await writeFile(lock, JSON.stringify({ ...JSON.parse(await readFile(lock, 'utf8')), host: 'old-machine' }));
    const copy = w.bridge('copy');
    await waitUntil(() => copy.logged(/this data_dir is a copy of its/).length > 0, 'the copy to see the original', 10_000);
    const [line] = copy.logged(/this data_dir is a copy of its/);
    expect(line).toContain(`pid ${a.child.pid}, since`);
    const identity = async (folder: string): Promise<string> =>
      (JSON.parse(await readFile(join(w.dir, folder, 'installation.json'), 'utf8')) as { id: string }).id;
    expect(await identity('copy')).not.toBe(await identity('a'));
    await w.grades(3);
    await waitUntil(() => w.announced().includes('g3'), 'g3', 10_000);
    // The original moves on: the copy takes over from what it told, and repeats nothing.
    await w.told('g3');
    await a.kill('SIGTERM');
    await copy.ready();
    await w.grades(4);
    await waitUntil(() => w.announced().includes('g4'), 'g4 from the copy', 10_000);
    await sleep(300);
    await w.rec.caughtUp();
    expect(w.announced()).toEqual(['g2', 'g3', 'g4']);
    expect(a.logged(/took this bridge's client id/)).toEqual([]);
    expect(copy.logged(/took this bridge's client id/)).toEqual([]);
  });

  it("a stranger's retained claim leaves the running bridge running, and it says so", async (ctx) => {
    const w = await world(ctx);
    const a = await w.bridge('a').ready();
    const stranger = await connectAsync(MQTT_URL, { reconnectPeriod: 0 });
    ctx.onTestFinished(() => stranger.endAsync(true));
    const claim = {
      id: 'feedf00d',
      place: 'x',
      run: 'stranger',
      host: 'elsewhere',
      pid: 4242,
      since: '2026-01-01T00:00:00.000Z',
      fence: 999,
      beat: 0,
    };
    for (let beat = 0; beat < 5; beat++) {
      await stranger.publishAsync(`${w.roots.base}/bridge/claim`, JSON.stringify({ ...claim, beat }), { qos: 1, retain: true });
      await sleep(TIMING.beatMs);
    }
    expect(a.running).toBe(true);
    expect(
      a.logged(/another dziennik2mqtt \(installation feedf00d on elsewhere, pid 4242, since .*\) claims base topic .*: a conflict, not an order/),
    ).toHaveLength(1);
    // It still acts: a new grade is announced, and bridge/state never said anything but online.
    await w.grades(2);
    await waitUntil(() => w.announced().includes('g2'), 'g2', 10_000);
    expect(w.rec.texts(`${w.roots.base}/bridge/state`).every((state) => state === 'online')).toBe(true);
  });

  it("a stranger's retained event memory written while the bridge is stopped: no old grade again, the new one once, its writer named", async (ctx) => {
    const w = await world(ctx);
    const first = await w.bridge('a').ready();
    await w.grades(2);
    await w.told('g2');
    await first.kill('SIGTERM');
    await publishOnce(`${w.roots.base}/ania/event_memory`, strangersMemory('g3', 'g2'), true);
    // A grade given while the bridge was stopped: news at its next start, whatever the stranger said.
    await w.grades(3);
    const second = await w.bridge('a').ready();
    await waitUntil(() => w.announced().includes('g3'), 'the new grade', 10_000);
    await sleep(300);
    await w.rec.caughtUp();
    expect(w.announced()).toEqual(['g2', 'g3']);
    expect(second.logged(NAMES_STRANGER)).toHaveLength(1);
    expect(second.logged(/taken over from what the bridge that held the base topic before told/)).toEqual([]);
  });

  it("a stranger's retained event memory written while the bridge runs: its own again on the broker, nothing replayed after a clean stop and start", async (ctx) => {
    const w = await world(ctx);
    const first = await w.bridge('a').ready();
    await w.grades(2);
    await w.told('g2');
    await publishOnce(`${w.roots.base}/ania/event_memory`, strangersMemory('g3', 'g2'), true);
    await waitUntil(() => first.logged(NAMES_STRANGER).length > 0, 'the stranger named', 10_000);
    await first.kill('SIGTERM');
    // A clean stop leaves only what this bridge wrote.
    const memory = JSON.parse((await retained([`${w.roots.base}/ania/event_memory`])).get(`${w.roots.base}/ania/event_memory`) ?? 'null') as {
      by?: string;
    } | null;
    expect(memory?.by).toBe(await w.writer('a'));
    await w.grades(3);
    await w.bridge('a').ready();
    await waitUntil(() => w.announced().includes('g3'), 'the new grade', 10_000);
    await sleep(300);
    await w.rec.caughtUp();
    expect(w.announced()).toEqual(['g2', 'g3']);
    expect(first.logged(NAMES_STRANGER)).toHaveLength(1);
  });

  it('an event the broker refuses (its ACL) is kept, and delivered once after the ACL is fixed', async (ctx) => {
    const roots = uniqueRoots();
    let refusing = true;
    const broker = new PrivateMosquitto({
      config: async (port, dir) => {
        await chmod(dir, 0o755);
        const passwd = join(dir, 'passwd');
        await promisify(execFile)('mosquitto_passwd', ['-b', '-c', passwd, 'bridge', 'b']);
        await promisify(execFile)('mosquitto_passwd', ['-b', passwd, 'rec', 'r']);
        await chmod(passwd, 0o644);
        const deny = refusing ? `topic deny ${roots.base}/ania/event/grade\n` : '';
        await writeFile(join(dir, 'acl'), `user bridge\ntopic readwrite #\n${deny}user rec\ntopic readwrite #\n`);
        await chmod(join(dir, 'acl'), 0o644);
        return `listener ${port} 127.0.0.1\nallow_anonymous false\npassword_file ${passwd}\nacl_file ${join(dir, 'acl')}\npersistence false\nlog_dest none\n`;
      },
    });
    await broker.start();
    ctx.onTestFinished(() => broker.stop());
    const w = await world(ctx, `mqtt://bridge:b@127.0.0.1:${broker.port}`, `mqtt://rec:r@127.0.0.1:${broker.port}`, roots);
    const first = await w.bridge('a').ready();
    await w.grades(2);
    await waitUntil(() => first.logged(/event not delivered: the broker refused it/).length > 0, 'the refusal', 10_000);
    await first.kill('SIGTERM');
    expect(w.announced()).toEqual([]);
    const memory = JSON.parse(await readFile(join(w.dir, 'a', 'seen', 'ania.json'), 'utf8')) as { outbox: Array<{ payload: { id: string } }> };
    expect(memory.outbox.map((e) => e.payload.id)).toEqual(['g2']);

    // The ACL fixed (the broker started again with it): the next start delivers it, once.
    refusing = false;
    await broker.kill();
    await broker.start();
    await waitUntil(() => w.rec.client.connected, 'the recorder connected again', 5_000);
    await w.rec.caughtUp();
    const second = await w.bridge('a').ready();
    await waitUntil(() => w.announced().includes('g2'), 'g2 after the fix', 10_000);
    await sleep(300);
    await second.kill('SIGTERM');
    await w.rec.caughtUp();
    expect(w.announced()).toEqual(['g2']);
  });
});
