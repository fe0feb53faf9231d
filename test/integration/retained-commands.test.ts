// A command or bridge request published retained (Home Assistant's mqtt.publish with retain, a script's
// `mosquitto_pub -r`) is refused: nothing carried out, an error on its result topic, one log line, and
// its retained copy deleted from the broker. Live and at a reconnect with MQTT 5; at a connect with 3.1.1,
// where the echo of the deletion, an empty message that looks like a command, is not carried out either.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import type { Harness, HarnessOptions } from '../helpers/app.js';
import { LogSink } from '../helpers/faults.js';
import { brokerHasAllFrom, clearRetained, CuttableProxy, MQTT_URL, publishOnce, retained, uniqueRoots, waitUntil } from '../helpers/mqtt.js';
import { simulatedSchool } from '../helpers/school.js';
import { changesPortal } from '../helpers/portal.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const REFUSED = { status: 'error', error: 'retained commands are not carried out' };
const REFUSED_REQUEST = { status: 'error', error: 'retained requests are not carried out' };

const school = simulatedSchool('2026-11-18T09:10:00+01:00');

/** The bridge with Ania and her fixed message `sick`, after its first pass; its log lines in `logs`. */
async function firstPasses(logs: LogSink, options: Omit<HarnessOptions, 'sim' | 'clock' | 'accounts'> = {}): Promise<Harness> {
  const accounts = [{ login: ANIA.login, password: ANIA.password, id: 'ania', messages: [...(ANIA.messages ?? [])] }];
  const h = await school.start({ accounts, log: logs.logger('info'), ...options });
  await h.runUntil(() => h.state('ania', 'last_update') !== undefined, 'the first pass');
  return h;
}

/** The JSON payloads on a result or response topic, waiting for at least `count` of them. */
async function answers(h: Harness, topic: string, count = 1): Promise<unknown[]> {
  await waitUntil(() => h.rec.on(topic).length >= count, `${count} answer(s) on ${topic}`, 10_000);
  return h.rec.on(topic).map((m) => JSON.parse(m.text) as unknown);
}

/** Whether the broker still keeps a retained message on the topic, once it has taken all the bridge sent. */
async function keptOnBroker(h: Harness, topic: string): Promise<boolean> {
  await brokerHasAllFrom(h.mqtt());
  return (await retained([topic])).has(topic);
}

const refusals = (logs: LogSink): string[] => logs.matching(/refused a retained/);
const portalWrites = (): number => school.sim.requests.filter(changesPortal).length;

describe('a retained command (MQTT 5)', () => {
  it('published while the bridge runs: not sent, an error result, deleted from the broker, logged once', async () => {
    const logs = new LogSink();
    const h = await firstPasses(logs);
    const topic = `${h.base}/ania/send_message/set`;
    const results = `${h.base}/ania/send_message/result`;
    const writes = portalWrites();

    await h.rec.publish(topic, JSON.stringify({ id: 'sick', transaction: 'r1' }), true);
    expect(await answers(h, results)).toEqual([{ ...REFUSED, transaction: 'r1' }]);
    expect(await keptOnBroker(h, topic)).toBe(false);

    // Someone deleting it by hand (an empty retained message) gets no answer: that is not a command.
    await h.rec.publish(topic, '', true);
    // The same press, not retained, goes out once; nothing was queued or sent for the retained one.
    await h.rec.publish(topic, 'sick');
    expect(await answers(h, results, 2)).toEqual([{ ...REFUSED, transaction: 'r1' }, expect.objectContaining({ status: 'ok', sent: true })]);
    await h.runUntil(() => true, 'the bridge done with both');
    expect(h.rec.on(results)).toHaveLength(2);
    expect(school.sim.messaging.sent).toHaveLength(1);
    expect(portalWrites() - writes).toBe(1);
    expect(refusals(logs)).toHaveLength(1);
    expect(refusals(logs)[0]).toMatch(/"child":"ania","command":"send_message"/);
  });

  it('left on the broker while the bridge was away: refused on reconnect, nothing marked read, deleted', async (ctx) => {
    const proxy = CuttableProxy.forUrl();
    await proxy.start();
    const roots = uniqueRoots();
    // After the harness (stopped in afterEach): the proxy, and what the bridge left retained (with a
    // proxy for its URL the harness leaves the broker as it is).
    ctx.onTestFinished(async () => {
      await proxy.stop();
      await clearRetained([`${roots.base}/#`, `${roots.prefix}/#`]);
    });
    const logs = new LogSink();
    const h = await firstPasses(logs, { roots, mqttUrl: proxy.url, recorderUrl: MQTT_URL, reconnect: { firstMs: 200, maxMs: 200 } });
    const topic = `${h.base}/ania/mark_notices_read/set`;
    const unread = (): number => school.sim.account(ANIA.login).notices.filter((n) => !n.WasRead).length;
    const before = { unread: unread(), writes: portalWrites() };
    expect(before.unread).toBeGreaterThan(0);

    proxy.paused = true;
    proxy.cut();
    await waitUntil(() => !h.mqtt().connected, 'the bridge to lose the broker');
    await publishOnce(topic, JSON.stringify({ id: 'all', transaction: 7 }), true);
    proxy.paused = false;

    expect(await answers(h, `${h.base}/ania/mark_notices_read/result`)).toEqual([{ ...REFUSED, transaction: '7' }]);
    expect(await keptOnBroker(h, topic)).toBe(false);
    await h.runUntil(() => true, 'the bridge done');
    expect(h.rec.on(`${h.base}/ania/mark_notices_read/result`)).toHaveLength(1);
    expect({ unread: unread(), writes: portalWrites() }).toEqual(before);
    expect(refusals(logs)).toHaveLength(1);
  });

  it('a retained bridge request: refused with the transaction, no pass, deleted', async () => {
    const logs = new LogSink();
    const h = await firstPasses(logs);
    const topic = `${h.base}/bridge/request/refresh`;
    const grades = (): number => school.reads('Grades');
    const before = grades();

    await h.rec.publish(topic, JSON.stringify({ transaction: 3 }), true);
    expect(await answers(h, `${h.base}/bridge/response/refresh`)).toEqual([{ ...REFUSED_REQUEST, transaction: 3 }]);
    expect(await keptOnBroker(h, topic)).toBe(false);
    await h.runUntil(() => true, 'the bridge done');
    expect(grades()).toBe(before);
    expect(h.rec.on(`${h.base}/bridge/response/refresh`)).toHaveLength(1);
    expect(refusals(logs)).toEqual([expect.stringMatching(/"request":"refresh"/)]);
  });
});

describe('a retained command (MQTT 3.1.1)', () => {
  it('found at connect: refused and deleted, and the empty echo of the deletion is not carried out', async () => {
    const roots = uniqueRoots();
    const topic = `${roots.base}/ania/send_message/set`;
    await publishOnce(topic, 'sick', true);
    await publishOnce(`${roots.base}/bridge/request/health_check`, '{"transaction":"h"}', true);
    const logs = new LogSink();
    const h = await firstPasses(logs, { roots, mqttVersion: 4 });
    const results = `${h.base}/ania/send_message/result`;

    expect(await answers(h, results)).toEqual([REFUSED]);
    expect(await answers(h, `${h.base}/bridge/response/health_check`)).toEqual([{ ...REFUSED_REQUEST, transaction: 'h' }]);
    // The broker took the deletion and sent its echo (3.1.1: without the retain flag) before this probe,
    // and the bridge answers one child's commands in the order they came: an answer to the echo would
    // come before the probe's.
    expect(await keptOnBroker(h, topic)).toBe(false);
    await h.rec.publish(topic, 'nope');
    const all = await answers(h, results, 2);
    expect(all).toEqual([REFUSED, expect.objectContaining({ status: 'error', error: expect.stringContaining('unknown message id') })]);
    expect(school.sim.messaging.sent).toHaveLength(0);
    expect(h.rec.on(`${h.base}/bridge/response/health_check`)).toHaveLength(1);
    expect(refusals(logs)).toHaveLength(2);
  });
});
