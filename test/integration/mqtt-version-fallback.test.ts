// A broker that speaks only MQTT 3.1.1 (Aedes, as some older home brokers): the bridge, which asks for
// MQTT 5 first, is refused, and tries 3.1.1 at once rather than after its usual 5 s reconnect delay, so
// such a home's every start is not 5 s slower. The backoff of real failures is unchanged.
import { createServer } from 'node:net';
import { Aedes } from 'aedes';
import { describe, expect, it } from 'vitest';
import { MqttSink } from '../../src/outputs/mqtt/sink.js';
import { DEFAULT_RECONNECT } from '../../src/outputs/mqtt/client.js';
import { LogSink } from '../helpers/faults.js';
import { uniqueRoots, waitUntil } from '../helpers/mqtt.js';

describe('a broker that refuses MQTT 5', () => {
  it('is asked again in MQTT 3.1.1 at once, with the usual delay kept for real failures', async (ctx) => {
    const aedes = await Aedes.createBroker();
    const server = createServer(aedes.handle as (socket: unknown) => void);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ctx.onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `mqtt://127.0.0.1:${(server.address() as { port: number }).port}`;
    const { base, prefix } = uniqueRoots();
    const logs = new LogSink();
    // The default reconnect policy: 5 s after a failure.
    const bridge = new MqttSink({
      mqtt: { url, username: '', password: '', base_topic: base, discovery_prefix: prefix },
      version: '0.0.0-test',
      log: logs.logger('info'),
      info: () => ({}),
    });
    ctx.onTestFinished(() => bridge.stop());
    expect(DEFAULT_RECONNECT.firstMs).toBe(5_000);
    await bridge.start();
    const refused = logs.matching(/does not speak MQTT 5/);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain('trying again in 0.2 s');
    expect(bridge.connected).toBe(true);
    expect(logs.matching(/connected to the MQTT broker/)).toHaveLength(1);

    // The broker goes away: the next attempt waits the usual 5 s, in 3.1.1.
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    await waitUntil(() => logs.matching(/lost the connection to the MQTT broker/).length === 1, 'the lost connection logged');
    expect(logs.matching(/lost the connection to the MQTT broker/)[0]).toContain('trying again in 5 s');
  }, 20_000);
});
