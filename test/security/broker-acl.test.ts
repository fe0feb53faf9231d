// The broker is the trust boundary: whoever may publish to <base>/<child>/send_message/set makes the
// bridge write to a teacher. The Compose example's Mosquitto (its own mosquitto.conf and acl file, as
// shipped) with the real bridge: the bridge works under the ACL, Home Assistant's user can press its
// buttons, and another user of the house can neither send, nor refresh, nor read or fake a state.
import { execFile } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connectAsync } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { REPO } from '../helpers/faults-process.js';
import { strongPassword } from '../helpers/faults-world.js';
import { PrivateMosquitto } from '../helpers/mosquitto.js';
import { retained, waitUntil } from '../helpers/mqtt.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const EXAMPLE = join(REPO, 'examples', 'compose', 'mosquitto', 'config');
const USERS = ['dziennik2mqtt', 'homeassistant', 'tasmota'] as const;
type User = (typeof USERS)[number];

const school = simulatedSchool('2026-11-18T09:10:00+01:00');

/** The example's broker on a free loopback port: its config with the paths moved to a temp dir, no persistence. */
async function exampleBroker(passwords: Record<User, string>): Promise<PrivateMosquitto> {
  const conf = await readFile(join(EXAMPLE, 'mosquitto.conf'), 'utf8');
  expect(conf).toMatch(/^acl_file \/mosquitto\/config\/acl$/m);
  expect(conf).toMatch(/^allow_anonymous false$/m);
  const acl = await readFile(join(EXAMPLE, 'acl'), 'utf8');
  return new PrivateMosquitto({
    config: async (port, dir) => {
      // Mosquitto started as root reads these files as the user it drops to.
      await chmod(dir, 0o755);
      // The tests' recorders know they have caught up by a marker each publishes to itself.
      await writeFile(join(dir, 'acl'), `${acl}\npattern readwrite d2m_marker/#\n`);
      const passwd = join(dir, 'passwd');
      for (const [i, user] of USERS.entries()) {
        await promisify(execFile)('mosquitto_passwd', ['-b', ...(i === 0 ? ['-c'] : []), passwd, user, passwords[user]]);
      }
      return conf
        .replace(/^listener 1883$/m, `listener ${port} 127.0.0.1`)
        .replaceAll('/mosquitto/config/', `${dir}/`)
        .replace(/^persistence true$/m, 'persistence false')
        .replace(/^persistence_location .*$/m, '')
        .replace(/^log_dest stdout$/m, 'log_dest none');
    },
  });
}

describe('the Compose example broker and its ACL', () => {
  it('only Home Assistant presses the buttons: another user cannot send, refresh, read or fake a state', async (ctx) => {
    const passwords = Object.fromEntries(USERS.map((u) => [u, strongPassword()])) as Record<User, string>;
    const broker = await exampleBroker(passwords);
    await broker.start();
    ctx.onTestFinished(() => broker.stop());
    const as = (user: User): string => `mqtt://${user}:${passwords[user]}@127.0.0.1:${broker.port}`;

    // The bridge with the defaults the ACL names, Home Assistant's user recording what it sees.
    const h = await school.start({
      accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania', messages: [...(ANIA.messages ?? [])] }],
      mqttUrl: broker.url,
      mqttAuth: { username: 'dziennik2mqtt', password: passwords.dziennik2mqtt },
      recorderUrl: as('homeassistant'),
      roots: { base: 'dziennik2mqtt', prefix: 'homeassistant' },
    });
    await h.runUntil(() => h.state('ania', 'lucky_number') !== undefined, 'the first pass, as Home Assistant sees it');
    const kept = await retained(['homeassistant/device/+/config'], as('homeassistant'));
    expect([...kept.keys()].sort()).toEqual(['homeassistant/device/dziennik2mqtt_ania/config', 'homeassistant/device/dziennik2mqtt_bridge/config']);
    expect(h.rec.last('dziennik2mqtt/bridge/state')?.text).toBe('online');
    const lucky = h.state('ania', 'lucky_number');

    // Another device of the house: each publish is acknowledged (MQTT 3.1.1 says nothing of a refusal).
    const other = await connectAsync(as('tasmota'), { reconnectPeriod: 0 });
    ctx.onTestFinished(() => other.endAsync(true));
    const seen: string[] = [];
    let marker = false;
    other.on('message', (topic) => (topic === 'd2m_marker/tasmota' ? (marker = true) : seen.push(topic)));
    await other.subscribeAsync(['dziennik2mqtt/#', 'homeassistant/#', 'd2m_marker/tasmota'], { qos: 1 });
    await other.publishAsync('dziennik2mqtt/ania/send_message/set', 'sick', { qos: 1 });
    await other.publishAsync('dziennik2mqtt/ania/send_message/set', JSON.stringify({ id: 'sick', transaction: 'tasmota' }), { qos: 1 });
    await other.publishAsync('dziennik2mqtt/bridge/request/refresh', JSON.stringify({ transaction: 'tasmota' }), { qos: 1 });
    await other.publishAsync('dziennik2mqtt/ania/lucky_number', '13', { qos: 1, retain: true });
    await other.publishAsync('d2m_marker/tasmota', 'end', { qos: 1 });
    await waitUntil(() => marker, 'the other device to hear its own marker');
    // It read nothing of the bridge's (retained states and discovery included).
    expect(seen).toEqual([]);

    // Home Assistant presses the send button: the only message that goes out.
    sim().resetCounts();
    await h.rec.publish('dziennik2mqtt/ania/send_message/set', JSON.stringify({ id: 'sick', transaction: 'ha' }));
    await waitUntil(() => h.rec.on('dziennik2mqtt/ania/send_message/result').length > 0, 'the result of the press');
    await h.rec.caughtUpWith((topic, payload) => h.rec.publish(topic, payload));
    expect(h.rec.texts('dziennik2mqtt/ania/send_message/result').map((t) => JSON.parse(t) as unknown)).toEqual([
      expect.objectContaining({ status: 'ok', sent: true, transaction: 'ha' }),
    ]);
    expect(sim().messaging.sent).toHaveLength(1);
    expect(h.rec.on('dziennik2mqtt/bridge/response/refresh')).toEqual([]);
    expect(h.state('ania', 'lucky_number')).toBe(lucky);

    // Home Assistant's birth reaches the bridge, which republishes.
    const states = h.rec.on('dziennik2mqtt/bridge/state').length;
    await h.rec.publish('homeassistant/status', 'online');
    // Minute by minute: the birth may reach the bridge after a single jump of the clock (a loaded machine), and its timer then waits.
    await h.advanceUntil(() => h.rec.on('dziennik2mqtt/bridge/state').length > states, 'the republish after the birth', 3);
  });
});

function sim(): (typeof school)['sim'] {
  return school.sim;
}
