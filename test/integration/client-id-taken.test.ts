// Interface 15.3: two clients with one MQTT client id are seen. On e9f2a38 a copied data folder gave two
// bridges one client id: the broker threw one off for the other 23 times in 2 minutes (each reconnecting at
// once), and neither log said why. Now the bridge thrown off again and again (Mosquitto 2.0.11 closes the
// old connection without MQTT 5's DISCONNECT 0x8E) stops fighting: it says so in its log and in Home
// Assistant (`problem` client_id_in_use, bridge/state offline), and waits idle while the other keeps the id.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connectAsync } from 'mqtt';
import { expect, it } from 'vitest';
import { MQTT_URL, sleep, waitUntil } from '../helpers/mqtt.js';
import { simulatedSchool } from '../helpers/school.js';

const school = simulatedSchool('2026-11-18T09:10:00+01:00');

it('a bridge whose client id another connection takes stops using it, says why, and shows it in Home Assistant', async (ctx) => {
  const h = await school.polled(['lucky_number'], { reconnect: { firstMs: 100, maxMs: 400 } });
  const { id } = JSON.parse(await readFile(join(h.dataDir, 'installation.json'), 'utf8')) as { id: string };
  const clientId = `dziennik2mqtt_${id}`;
  // Another client given the bridge's id, which takes it back whenever it is thrown off (as a second bridge does).
  let takenOver = 0;
  const other = await connectAsync(MQTT_URL, { clientId, protocolVersion: 5, reconnectPeriod: 100 });
  other.on('close', () => takenOver++);
  ctx.onTestFinished(() => other.endAsync(true));

  // What main.ts logs before it waits idle.
  expect(await h.app.lost).toEqual({ idle: true, why: expect.stringContaining(`took this bridge's client id ${clientId}`) });
  await waitUntil(() => h.rec.last(`${h.base}/bridge/state`)?.text === 'offline', 'bridge/state offline');
  await waitUntil(() => h.rec.last(`${h.base}/bridge/problem`)?.text === 'ON', 'the problem');
  expect(h.rec.json(`${h.base}/bridge/problem/attributes`)).toMatchObject({ reason: 'client_id_in_use', entry: clientId });
  expect((h.rec.json(`${h.base}/bridge/problem/attributes`) as { message: string }).message).toContain('przejęło identyfikator klienta');
  // It fights no more: the other keeps its connection, well past the bridge's reconnect delays.
  await waitUntil(() => other.connected, 'the other connected');
  const closes = takenOver;
  await sleep(1_500);
  expect(other.connected).toBe(true);
  expect(takenOver).toBe(closes);
  expect(h.bridge().connected).toBe(false);
});
