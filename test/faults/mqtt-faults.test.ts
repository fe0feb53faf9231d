// The fault suite, broker side: a private Mosquitto (no persistence: it forgets every retained message)
// is killed while the bridge runs and a pass finds a new grade, then started again. Discovery and
// states must come back, and the grade event raised during the outage must arrive exactly once. The
// bridge reaches the broker through a proxy held shut until the test's own subscriber is back, so the
// non-retained event cannot race past it (as in test/integration/bridge-restart.test.ts).
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import { FaultTable, pause } from '../helpers/faults.js';
import { brokerBehindProxy, type PrivateMosquitto } from '../helpers/mosquitto.js';
import { brokerHasAllFrom, type CuttableProxy, publishOnce, retained, waitUntil } from '../helpers/mqtt.js';
import { MIN, worldFor, type PortalWorld } from '../helpers/faults-world.js';

const table = new FaultTable('Fault table: MQTT broker');
afterAll(() => table.print());

/** A world, its own broker and a proxy before it, all stopped when the test ends (tests run concurrently). */
async function setup(ctx: TestContext): Promise<{ w: PortalWorld; broker: PrivateMosquitto; proxy: CuttableProxy }> {
  const { broker, proxy } = await brokerBehindProxy((stop) => ctx.onTestFinished(stop));
  const w = await worldFor(ctx); // stopped first (hooks run in reverse order)
  return { w, broker, proxy };
}

describe.concurrent('broker', () => {
  it('Mosquitto killed and started again: discovery and states back, the event raised meanwhile delivered once', async (ctx) => {
    const { w, broker, proxy } = await setup(ctx);
    const h = await w.firstPass({ mqttUrl: proxy.url, recorderUrl: broker.url });
    const device = `${h.prefix}/device/${h.base}_ania/config`;
    await waitUntil(() => h.rec.last(device) !== undefined, 'the device config');
    const discovery = h.rec.last(device)!.text;

    await broker.kill();
    proxy.paused = true;
    await waitUntil(() => !h.mqtt().connected, 'the bridge to notice', 10_000);
    w.addGrade();
    await h.advanceMinutes(20); // a normal pass runs while the broker is away
    expect(h.requestCounts(0).get('GET Grades')).toBeGreaterThanOrEqual(2);
    expect(w.gradeEvents()).toBe(0);

    await broker.start();
    await waitUntil(() => h.rec.client.connected, 'the recorder to reconnect', 10_000);
    // The recorder must be subscribed again before the bridge may reconnect: probe until it hears itself.
    for (let i = 0; h.rec.on(`${h.base}/probe`).length === 0; i++) {
      if (i === 100) throw new Error('the recorder did not resubscribe');
      await publishOnce(`${h.base}/probe`, 'x', false, broker.url);
      await pause(50);
    }
    proxy.paused = false;
    await waitUntil(() => w.gradeEvents() === 1 && h.rec.last(`${h.base}/ania/newest_grade`)?.text === '3', 'the event and the states', 15_000);

    // The restarted broker had nothing retained: all of this is the bridge's republish (taken by the broker
    // whole: it goes at the broker's pace, at most its receive maximum at once).
    await brokerHasAllFrom(h.mqtt());
    const kept = await retained([`${h.base}/#`, `${h.prefix}/#`], broker.url);
    const back = {
      bridge: kept.get(`${h.base}/bridge/state`),
      availability: kept.get(`${h.base}/ania/availability`),
      discovery: kept.get(device) === discovery,
      newest_grade: kept.get(`${h.base}/ania/newest_grade`),
      average: kept.get(`${h.base}/ania/average`) !== undefined,
      problem: kept.get(`${h.base}/ania/problem`),
    };
    expect(back).toEqual({ bridge: 'online', availability: 'online', discovery: true, newest_grade: '3', average: true, problem: 'OFF' });
    // recover() ends once the recorder has caught up with the bridge (a marker through its connection).
    const end = await w.recover(() => undefined);
    table.record({
      fault: 'Mosquitto killed, a pass meanwhile, restarted',
      survived: end.survived && h.mqtt().connected,
      lost: end.lost,
      sentTwice: end.sentTwice,
      secretLeaked: (await h.leaks()).length > 0,
    });
  });

  it('the broker connection cut under the bridge (no goodbye): reconnects and republishes, nothing lost or repeated', async (ctx) => {
    const { w, broker, proxy } = await setup(ctx);
    const h = await w.firstPass({ mqttUrl: proxy.url, recorderUrl: broker.url });
    const before = h.rec.messages.length;
    proxy.paused = true;
    proxy.cut();
    await waitUntil(() => !h.mqtt().connected, 'the bridge to notice', 10_000);
    w.addGrade();
    await h.advanceMinutes(20);
    proxy.paused = false;
    // The republish after a reconnect sends every retained state again (availability among them).
    const republished = (): boolean => h.rec.messages.slice(before).some((m) => m.topic === `${h.base}/ania/availability`);
    await waitUntil(() => w.gradeEvents() === 1 && h.state('ania', 'newest_grade') === '3' && republished(), 'the event and the republish', 15_000);
    const end = await w.recover(() => undefined, 2 * MIN);
    table.record({ fault: 'broker connection cut (TCP) for a pass', ...end, secretLeaked: (await h.leaks()).length > 0 });
  });
});
