// Huge MQTT messages against the bridge as a user runs it (the bin, with its 64 MB heap), on the shared
// Mosquitto, whose default message_size_limit lets any client publish up to 256 MB: a 30 MB retained
// device config under the discovery prefix before the start, then 40 MB on every topic the bridge
// reads. The bridge tells the broker (MQTT 5) the largest packet it takes, so none of it reaches the
// process: it keeps running, answers, and its peak memory does not grow by the size of a message.
import { describe, expect, it } from 'vitest';
import { publishOnce, waitUntil } from '../helpers/mqtt.js';
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
    const bridge = await ProcessBridge.start(async ({ base, prefix }) => {
      await publishOnce(`${prefix}/device/${base}_ghost/config`, hugeOwnConfig(base, 30 * MB), true);
    });
    ctx.onTestFinished(() => bridge.stop());
    const { base, prefix } = bridge.roots;
    await waitUntil(() => bridge.rec.last(`${base}/ania/last_update`) !== undefined, 'the first poll', 30_000);
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
    expect(bridge.process.running).toBe(true);
    // Not one of the messages was held by the process (its own data is a few MB).
    expect(await peakRssMB(pid)).toBeLessThan(peakBefore + 20);
    // The ghost config was not read as one of the bridge's devices (it would have been removed).
    expect(bridge.process.logged(/ghost/)).toEqual([]);
  }, 90_000);
});
