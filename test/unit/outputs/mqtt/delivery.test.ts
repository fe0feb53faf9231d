// The broker's answers counted: "all accepted?" waits for what was handed before it was asked (not
// after), says no on a refusal meanwhile or once the broker is away; an event is answered one by one,
// and one handed before the first connection waits for it (or hears no at a stop).
import type { MqttClient } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { Deliveries } from '../../../../src/outputs/mqtt/delivery.js';
import { silentLogger } from '../../../../src/util/log.js';
import type { MqttSession } from '../../../../src/once/session.js';

/** A client whose broker answers when the test says: answer(i) accepts the i-th publish, refuse(i) refuses it. */
function broker(serverProperties?: { maximumQoS?: number; receiveMaximum?: number }) {
  const callbacks: ((err?: Error) => void)[] = [];
  const topics: string[] = [];
  const qos: unknown[] = [];
  const client = {
    serverProperties,
    connected: serverProperties !== undefined,
    options: { protocolVersion: 5 },
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
    quota: (i: number) => callbacks[i]!(Object.assign(new Error('Quota exceeded'), { code: 0x97 })),
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

  it('hands the broker at most its receive maximum at once; the rest go in order as it answers, and hear no at a stop', async () => {
    const b = broker({ receiveMaximum: 3 });
    b.deliveries.started();
    const events = ['1', '2', '3', '4', '5', '6'].map((n) => b.deliveries.event(`ania/event/grade/${n}`, '{}'));
    expect(b.topics).toEqual(['ania/event/grade/1', 'ania/event/grade/2', 'ania/event/grade/3']);
    b.answer(1);
    expect(b.topics.at(-1)).toBe('ania/event/grade/4');
    b.quota(0);
    expect(b.topics).toHaveLength(5);
    expect(await state(events[1]!)).toBe(true);
    expect(await state(events[0]!)).toBe(false);
    b.deliveries.away(true);
    expect(await state(events[5]!)).toBe(false);
    expect(b.topics).toHaveLength(5);
  });

  it('assumes 20 at once of a broker that cannot say (MQTT 3.1.1, or before it connected)', () => {
    const b = broker();
    for (let i = 0; i < 25; i++) void b.deliveries.publish(`ania/state/${i}`, '1', { qos: 1 });
    expect(b.topics).toHaveLength(20);
    b.answer(0);
    expect(b.topics).toHaveLength(21);
  });

  it("a command's answer waits its turn too (Mosquitto refuses a QoS 1 publish past the quota as well), counted by no all()", async () => {
    const b = broker({ receiveMaximum: 1 });
    void b.deliveries.publish('ania/newest_grade', '5', { qos: 1 });
    const answered: Array<Error | undefined> = [];
    expect(b.deliveries.send('ania/refresh/result', '{}', { qos: 1 }, (err) => answered.push(err))).toBe(true);
    expect(b.topics).toEqual(['ania/newest_grade']);
    const all = b.deliveries.all(noTimer, 5_000);
    b.answer(0);
    expect(b.topics).toEqual(['ania/newest_grade', 'ania/refresh/result']);
    expect(await state(all)).toBe(true);
    b.answer(1);
    expect(answered).toEqual([undefined]);
  });

  it('counts the events the kept session sends again at the first connection as in flight', () => {
    const b = broker({ receiveMaximum: 3 });
    let acknowledge = (_delivered: boolean): void => undefined;
    const held = new Promise<boolean>((resolve) => (acknowledge = resolve));
    b.deliveries.session = { held: () => [held, new Promise<boolean>(() => undefined)], outcome: () => undefined } as unknown as MqttSession;
    b.deliveries.resent();
    for (let i = 0; i < 3; i++) void b.deliveries.publish(`ania/state/${i}`, '1', { qos: 1 });
    expect(b.topics).toEqual(['ania/state/0']);
    acknowledge(true);
    return held.then(async () => {
      await state(Promise.resolve());
      expect(b.topics).toEqual(['ania/state/0', 'ania/state/1']);
    });
  });
});
