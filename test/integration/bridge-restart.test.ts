// A broker restart: a private Mosquitto (no persistence, so it forgets every retained message) is killed
// and started again on the same port. The bridge must republish everything and deliver an event raised
// during the outage exactly once. The bridge reaches the broker through a proxy held shut until the
// test's own subscriber is back, so the non-retained event cannot race past it.
import { afterEach, expect, it } from 'vitest';
import { childDiscovery } from '../../src/outputs/mqtt/discovery.js';
import { entityByKey } from '../helpers/entities.js';
import { MqttSink } from '../../src/outputs/mqtt/sink.js';
import { silentLogger } from '../../src/util/log.js';
import { brokerBehindProxy } from '../helpers/mosquitto.js';
import { publishOnce, Recorder, retained, sleep, throughBridge, uniqueRoots, waitUntil } from '../helpers/mqtt.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('republishes after a broker restart and delivers an event raised during the outage exactly once', async () => {
  const { broker, proxy } = await brokerBehindProxy((stop) => cleanups.push(stop));

  const { base, prefix } = uniqueRoots();
  const bridge = new MqttSink({
    mqtt: { url: proxy.url, username: '', password: '', base_topic: base, discovery_prefix: prefix },
    version: '0.1.0-test',
    log: silentLogger(),
    info: () => ({}),
    staleScanMs: 100,
    reconnect: { firstMs: 100 },
  });
  cleanups.push(() => bridge.stop());
  const child = { id: 'ania', name: 'Ania', entities: [entityByKey('lucky_number'), entityByKey('grade')] };
  bridge.device(child);
  bridge.availability('ania', true);
  bridge.state('ania', 'lucky_number', { state: '5' });
  await bridge.start();

  const r = await Recorder.connect([`${base}/#`, `${prefix}/#`], broker.url);
  cleanups.push(() => r.close());
  const event = `${base}/ania/event/grade`;
  const lucky = `${base}/ania/lucky_number`;
  await r.until(() => r.last(lucky)?.text === '5', 'the first state');

  await broker.kill();
  proxy.paused = true;
  await waitUntil(() => !bridge.connected, 'the bridge to notice');
  void bridge.carry('ania', {
    kind: 'grade',
    id: 'e1',
    payload: { event_type: 'grade', child: 'ania', child_name: 'Ania', subject: 'Matematyka', grade: '5' },
  });
  bridge.state('ania', 'lucky_number', { state: '6' });

  await broker.start();
  // Our subscriber must be back before the bridge may reconnect: probe until it hears itself.
  await waitUntil(() => r.client.connected, 'the recorder to reconnect');
  const probe = `${base}/probe`;
  for (let i = 0; r.on(probe).length === 0; i++) {
    if (i === 50) throw new Error('the recorder did not resubscribe');
    await publishOnce(probe, 'x', false, broker.url);
    await sleep(50);
  }
  expect(r.on(event)).toEqual([]);
  proxy.paused = false;

  await r.until(() => r.on(event).length > 0 && r.last(lucky)?.text === '6', 'the event and the republish');
  await r.caughtUpWith(throughBridge(bridge)); // a second copy would arrive before this marker
  expect(r.on(event).map((m) => JSON.parse(m.text))).toEqual([
    { event_type: 'grade', child: 'ania', child_name: 'Ania', subject: 'Matematyka', grade: '5' },
  ]);
  expect(r.texts(lucky).filter((t) => t === '6')).toHaveLength(1);

  // The restarted broker had nothing retained: all of this is the bridge's republish.
  const kept = await retained([`${base}/#`, `${prefix}/#`], broker.url);
  expect(kept.get(`${base}/bridge/state`)).toBe('online');
  expect(kept.get(`${base}/ania/availability`)).toBe('online');
  expect(kept.get(lucky)).toBe('6');
  expect(kept.has(`${base}/bridge/info`)).toBe(true);
  expect(kept.has(`${prefix}/device/${base}_bridge/config`)).toBe(true);
  expect(JSON.parse(kept.get(`${prefix}/device/${base}_ania/config`) ?? 'null')).toEqual(
    childDiscovery(child, { baseTopic: base, discoveryPrefix: prefix, version: '0.1.0-test' }).payload,
  );
  expect(kept.has(event)).toBe(false);
});
