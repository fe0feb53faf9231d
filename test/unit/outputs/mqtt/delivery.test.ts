// The broker's answers counted: "all accepted?" waits for what was handed before it was asked (not
// after), says no on a refusal meanwhile or once the broker is away; an event is answered one by one,
// and one handed before the first connection waits for it (or hears no at a stop).
import type { MqttClient } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { Deliveries } from '../../../../src/outputs/mqtt/delivery.js';
import { silentLogger } from '../../../../src/util/log.js';

/** A client whose broker answers when the test says: answer(i) accepts the i-th publish, refuse(i) refuses it. */
function broker(serverProperties?: { maximumQoS: number }) {
  const callbacks: ((err?: Error) => void)[] = [];
  const topics: string[] = [];
  const qos: unknown[] = [];
  const client = {
    serverProperties,
    publish: (topic: string, _payload: string, options: { qos: unknown }, cb: (err?: Error) => void) => {
      topics.push(topic);
      qos.push(options.qos);
      callbacks.push(cb);
    },
  } as unknown as MqttClient;
  return {
    deliveries: new Deliveries(
      () => client,
      silentLogger(),
      () => undefined,
    ),
    topics,
    qos,
    answer: (i: number) => callbacks[i]!(),
    refuse: (i: number) => callbacks[i]!(new Error('not authorised')),
  };
}

const noTimer = () => ({ cancel: () => undefined });
/** Whether a promise settled yet, and how. */
async function state<T>(promise: Promise<T>): Promise<T | 'waiting'> {
  return Promise.race([promise, new Promise<'waiting'>((resolve) => setImmediate(() => resolve('waiting')))]);
}

describe('the deliveries', () => {
  it('all accepted: waits for what was handed before it was asked, not for what came after', async () => {
    const b = broker();
    void b.deliveries.publish('a', '1', { qos: 1 });
    void b.deliveries.publish('b', '2', { qos: 1 });
    const all = b.deliveries.all(noTimer, 5_000);
    void b.deliveries.publish('c', '3', { qos: 1 });
    b.answer(1);
    expect(await state(all)).toBe('waiting');
    b.answer(0);
    expect(await state(all)).toBe(true);
    expect(await state(b.deliveries.all(noTimer, 5_000))).toBe('waiting');
  });

  it('all accepted: no on a refusal meanwhile, and at once when the broker is away', async () => {
    const b = broker();
    void b.deliveries.publish('a', '1', { qos: 1 });
    const refused = b.deliveries.all(noTimer, 5_000);
    b.refuse(0);
    expect(await state(refused)).toBe(false);
    void b.deliveries.publish('b', '2', { qos: 1 });
    const away = b.deliveries.all(noTimer, 5_000);
    b.deliveries.away();
    expect(await state(away)).toBe(false);
    // The broker back: its answer counts for the next question.
    b.answer(1);
    expect(await state(b.deliveries.all(noTimer, 5_000))).toBe(true);
  });

  it('an event goes at QoS 2, at QoS 1 to a broker that says it takes no more (MQTT 5)', () => {
    for (const [b, qos] of [
      [broker(), 2],
      [broker({ maximumQoS: 1 }), 1],
    ] as const) {
      b.deliveries.started();
      void b.deliveries.event('ania/event/grade', '{}');
      expect(b.qos).toEqual([qos]);
    }
  });

  it('an event before the first connection waits for it, and hears no at a stop', async () => {
    const b = broker();
    const early = b.deliveries.event('ania/event/grade', '{}');
    expect(b.topics).toEqual([]);
    b.deliveries.started();
    expect(b.topics).toEqual(['ania/event/grade']);
    b.answer(0);
    expect(await state(early)).toBe(true);

    const stopped = broker();
    const lost = stopped.deliveries.event('ania/event/grade', '{}');
    stopped.deliveries.away(true);
    expect(await state(lost)).toBe(false);
    expect(stopped.topics).toEqual([]);
  });
});
