// A SIGKILL in the middle of a reply (interface 7.3): the bridge as a real process is killed while
// its POST /messages/reply is held at the portal, then started again on the same data_dir. The
// reply reaches the teacher once; the same transaction after the restart answers sent: null (its
// outcome is unknown), and the same text again is refused: nothing goes out a second time.
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { SimTap, clearSimFaults } from '../helpers/faults-sim.js';
import { BridgeProcess, ensureBuilt, processWorld, writeConfig } from '../helpers/faults-process.js';
import { MQTT_URL, waitUntil } from '../helpers/mqtt.js';
import { ANIA } from '../helpers/faults-world.js';

beforeAll(async () => {
  await ensureBuilt();
}, 180_000);

it('SIGKILL mid-reply, then a restart: one message sent, the cut-off transaction found in the sent box and not sent again', async (ctx) => {
  const { sim, password, dir, roots, rec, processes } = await processWorld(ctx, 'reply-kill');
  const tap = new SimTap(sim);
  const original = sim.messaging.addMessage(ANIA.login, { topic: 'Zebranie', body: 'Zapraszam na zebranie.', from: 162001 });
  const config = join(dir, 'config.yaml');
  await writeConfig(config, {
    mqttUrl: MQTT_URL,
    base: roots.base,
    prefix: roots.prefix,
    portal: sim.urls,
    accounts: [{ login: ANIA.login, password, id: 'ania', write_messages: true }],
    dataDir: join(dir, 'data'),
  });
  const topic = (key: string): string => `${roots.base}/ania/${key}`;
  const start = (): BridgeProcess => {
    const p = new BridgeProcess(config);
    processes.push(p);
    p.start();
    return p;
  };
  const result = async (command: string, payload: string): Promise<Record<string, unknown>> => {
    const before = rec.on(topic(`${command}/result`)).length;
    await rec.publish(topic(`${command}/set`), payload);
    await waitUntil(() => rec.on(topic(`${command}/result`)).length > before, `the ${command} result`, 15_000);
    return JSON.parse(rec.on(topic(`${command}/result`)).at(-1)!.text) as Record<string, unknown>;
  };
  const reply = { host: 'messages' as const, method: 'POST', path: '/api/messages/reply' };

  const first = start();
  await waitUntil(() => rec.last(topic('newest_message/attributes'))?.text.includes(String(original.id)) === true, 'the message listed', 20_000);
  expect(await result('open_message', String(original.id))).toMatchObject({ status: 'ok' });
  sim.setLatency(2_000, reply);
  await rec.publish(topic('reply/set'), JSON.stringify({ text: 'Będę na zebraniu.', transaction: 'k1' }));
  await waitUntil(() => tap.arrived(reply) === 1, 'the reply to reach the portal', 10_000);
  await first.kill();
  // The portal still takes the reply the dead bridge posted.
  await waitUntil(() => sim.messaging.sent.length === 1, 'the portal to record the reply', 10_000);
  clearSimFaults(sim);

  const from = rec.messages.length;
  const second = start();
  await waitUntil(() => rec.messages.slice(from).some((m) => m.topic === topic('last_update')), 'a full pass after the restart', 20_000);
  expect(second.logged(/cut off by a restart/)).toHaveLength(1);
  // Spec 4.8: the sent box is read before anything is sent again; it shows the reply went out, so the
  // cut-off transaction is not sent again, and says so (this command sent nothing; it went earlier).
  expect(await result('reply', JSON.stringify({ text: 'Będę na zebraniu.', transaction: 'k1' }))).toMatchObject({
    status: 'error',
    sent: false,
    code: 'already_sent',
    transaction: 'k1',
  });
  expect(await result('reply', JSON.stringify({ text: 'Będę na zebraniu.', transaction: 'k2' }))).toMatchObject({ status: 'error', sent: false });
  expect(await second.stop()).toBe(0);
  expect(sim.messaging.sent).toHaveLength(1);
  expect(tap.arrived(reply)).toBe(1);
}, 120_000);
