// Huge MQTT messages against the bridge as a user runs it (the bin, with its 64 MB heap), on the shared
// Mosquitto, whose default message_size_limit lets any client publish up to 256 MB: a 30 MB retained
// device config under the discovery prefix before the start, then 40 MB on every topic the bridge
// reads. The bridge tells the broker (MQTT 5) the largest packet it takes, so none of it reaches the
// process: it keeps running, answers, and its peak memory does not grow by the size of a message.
import { createServer } from 'node:net';
import { Aedes } from 'aedes';
import { describe, expect, it } from 'vitest';
import { MqttSink } from '../../src/outputs/mqtt/sink.js';
import { LogSink } from '../helpers/faults.js';
import { Recorder, publishOnce, uniqueRoots, waitUntil } from '../helpers/mqtt.js';
import { ProcessBridge, peakRssMB } from '../helpers/security-process.js';

const MB = 1024 * 1024;

/** A device config as this bridge writes them (its bridge as via_device), padded with components. */
function hugeOwnConfig(base: string, bytes: number): Buffer {
  const head = `{"dev":{"ids":["${base}_ghost"],"name":"Ghost","via_device":"${base}_bridge"},"o":{"name":"dziennik2mqtt"},"cmps":{`;
  const component = (i: number): string => `"c${i}":{"p":"sensor","state_topic":"${base}/ghost/c${i}"},`;
  const parts: string[] = [head];
  let size = head.length;
  for (let i = 0; size < bytes; i++) {
    const c = component(i);
    parts.push(c);
    size += c.length;
  }
  parts.push('"last":{"p":"sensor"}}}');
  return Buffer.from(parts.join(''));
}

describe('huge MQTT messages', () => {
  it('a 30 MB retained config at start, then 40 MB on every topic it reads: still running and answering, no 40 MB in memory', async (ctx) => {
    const bridge = await ProcessBridge.start(
      async ({ base, prefix }) => {
        await publishOnce(`${prefix}/device/${base}_ghost/config`, hugeOwnConfig(base, 30 * MB), true);
      },
      // What the test reads: the first pass, the answers and one of the 40 MB commands (the others decoded by the
      // recorder too were most of the file's CPU).
      ({ base }) => [`${base}/ania/last_update`, `${base}/bridge/response/#`, `${base}/ania/send_message/set`],
    );
    ctx.onTestFinished(() => bridge.stop());
    const { base, prefix } = bridge.roots;
    await waitUntil(() => bridge.rec.last(`${base}/ania/last_update`) !== undefined, 'the first pass', 30_000);
    expect(await bridge.request('health_check', 'before')).toMatchObject({ status: 'ok' });
    const pid = bridge.process.pid!;
    const peakBefore = await peakRssMB(pid);

    const huge = Buffer.alloc(40 * MB, 'o');
    for (const topic of [
      `${prefix}/status`, // Home Assistant's birth
      `${base}/ania/refresh/set`,
      `${base}/ania/send_message/set`,
      `${base}/bridge/request/health_check`,
      `${base}/bridge/request/refresh`,
    ]) {
      await publishOnce(topic, huge);
      expect(await bridge.request('health_check', topic), topic).toMatchObject({ status: 'ok', data: { healthy: true } });
    }
    // The broker did pass them on (to the test's recorder, which asked for no limit).
    await waitUntil(() => bridge.rec.on(`${base}/ania/send_message/set`).some((m) => m.text.length === 40 * MB), 'the 40 MB command at the recorder');
    expect(bridge.process.running).toBe(true);
    // Not one of the messages was held by the process (its own data is a few MB).
    expect(await peakRssMB(pid)).toBeLessThan(peakBefore + 20);
    // The ghost config was not read as one of the bridge's devices (it would have been removed).
    expect(bridge.process.logged(/ghost/)).toEqual([]);
  }, 90_000);

  it('a broker that speaks only MQTT 3.1.1 (Aedes): the bridge falls back, and a 40 MB status there is not decoded', async (ctx) => {
    const aedes = await Aedes.createBroker();
    const server = createServer(aedes.handle as (socket: unknown) => void);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `mqtt://127.0.0.1:${(server.address() as { port: number }).port}`;
    ctx.onTestFinished(async () => {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const { base, prefix } = uniqueRoots();
    const logs = new LogSink();
    const bridge = new MqttSink({
      mqtt: { url, username: '', password: '', base_topic: base, discovery_prefix: prefix },
      version: '0.0.0-test',
      log: logs.logger('info'),
      info: () => ({}),
      staleScanMs: 100,
      birthDelayMs: 0,
      reconnect: { firstMs: 100 },
    });
    ctx.onTestFinished(() => bridge.stop());
    await bridge.start();
    expect(logs.matching(/does not speak MQTT 5/)).toHaveLength(1);

    // The answers alone: the 40 MB command the recorder sends is not echoed back to it to decode.
    const rec = await Recorder.connect([`${base}/nobody/refresh/result`], url);
    ctx.onTestFinished(() => rec.close());
    const republished = (): number => logs.matching(/Home Assistant started, republishing/).length;
    // "online" padded to 40 MB would read as Home Assistant's birth once decoded and trimmed.
    await rec.publish(`${prefix}/status`, Buffer.concat([Buffer.from('online'), Buffer.alloc(40 * MB, ' ')]));
    await rec.publish(`${base}/nobody/refresh/set`, Buffer.alloc(40 * MB, 'x'));
    await rec.publish(`${base}/nobody/refresh/set`, 'small');
    await waitUntil(() => rec.on(`${base}/nobody/refresh/result`).length === 2, 'both results');
    expect(rec.texts(`${base}/nobody/refresh/result`).map((t) => JSON.parse(t) as unknown)).toEqual([
      { status: 'error', error: 'payload over 1024 bytes' },
      { status: 'error', error: 'unknown child "nobody"' },
    ]);
    expect(republished()).toBe(0);
    await rec.publish(`${prefix}/status`, 'online');
    await waitUntil(() => republished() === 1, 'the republish after a real birth');
  }, 30_000);
});
