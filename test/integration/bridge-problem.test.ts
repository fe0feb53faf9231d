// The bridge's own `problem` (interface 12.3), the real bridge against the simulator and the real broker:
// an `email` entry that names no child yet (a wrong password, the family portal down, no child linked)
// has no child's device to show it, so the bridge's device carries it, retained, in the family's
// language and with the family road's advice, the entry named by its masked e-mail; OFF once listed.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_FAMILY } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';
import { chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PrivateMosquitto } from '../helpers/mosquitto.js';
import { MQTT_URL, brokerHasAllFrom, clearRetained, retained, uniqueRoots } from '../helpers/mqtt.js';
import { tempDir } from '../helpers/portal.js';
import type { Harness } from '../helpers/app.js';

// A Wednesday in the first semester, during the second lesson.
const school = simulatedSchool('2026-11-18T09:10:00+01:00');

const problemOf = (h: Harness): string | undefined => h.rec.last(`${h.base}/bridge/problem`)?.text;
const attributesOf = (h: Harness): Record<string, unknown> | undefined =>
  h.rec.json(`${h.base}/bridge/problem/attributes`) as Record<string, unknown> | undefined;

describe("the bridge's own problem", () => {
  it('is ON, retained and discovered, with the family road’s advice in Polish, for an e-mail entry with a wrong password', async () => {
    const h = await school.start({ accounts: [{ email: DEMO_FAMILY.email, password: 'wrong' }] as never, language: 'pl' });
    // The start's one listing is the pass: no child, and no minute more.
    await h.runUntil(() => problemOf(h) === 'ON', 'the bridge’s problem');
    expect(h.app.runners).toHaveLength(0);
    const attributes = attributesOf(h);
    expect(attributes).toMatchObject({ reason: 'wrong_credentials', entry: 'ro…m' });
    expect(attributes?.message).toContain('Portal dla rodzin nie przyjął adresu e-mail lub hasła');
    // Not the register login's advice, and never the e-mail itself.
    expect(JSON.stringify(attributes)).not.toContain('numeryczny login do dziennika konta rodzica');
    expect(JSON.stringify(attributes)).not.toContain(DEMO_FAMILY.email);
    // What Home Assistant finds when it starts later: the state, its attributes and the entity's config, retained.
    await brokerHasAllFrom(h.mqtt());
    const kept = await retained([`${h.base}/bridge/#`, `${h.prefix}/device/#`]);
    expect(kept.get(`${h.base}/bridge/problem`)).toBe('ON');
    expect(JSON.parse(kept.get(`${h.base}/bridge/problem/attributes`) ?? '{}')).toMatchObject({ reason: 'wrong_credentials' });
    const config = JSON.parse(kept.get(`${h.prefix}/device/${h.base}_bridge/config`) ?? '{}') as { cmps: Record<string, Record<string, unknown>> };
    expect(config.cmps.problem).toMatchObject({
      p: 'binary_sensor',
      device_class: 'problem',
      name: 'Problem',
      state_topic: `${h.base}/bridge/problem`,
      json_attributes_topic: `${h.base}/bridge/problem/attributes`,
    });
  });

  it('says the family portal is down while it is, and goes OFF once the children are listed', async () => {
    school.sim.failNext(2, 503, { host: 'family' });
    const h = await school.start({ accounts: [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }] as never, language: 'en' });
    await h.runUntil(() => problemOf(h) === 'ON', 'the bridge’s problem');
    expect(attributesOf(h)).toMatchObject({ reason: 'service_down', entry: 'ro…m' });
    expect(attributesOf(h)?.message).toContain('The family portal is not answering');
    await h.advanceUntil(() => problemOf(h) === 'OFF', 'the children listed', 10);
    expect(h.app.runners.map((p) => p.id).sort()).toEqual(['ania', 'jan']);
    expect(attributesOf(h)).toEqual({ reason: null });
  });

  it('says no child is linked, and reads the child once the family links one', async () => {
    school.sim.families.add({ email: 'nowy.rodzic@example.com', password: 'haslo', logins: [] });
    const h = await school.start({ accounts: [{ email: 'nowy.rodzic@example.com', password: 'haslo' }] as never, language: 'en' });
    await h.runUntil(() => problemOf(h) === 'ON', 'the bridge’s problem');
    expect(attributesOf(h)).toMatchObject({ reason: 'no_children', entry: 'no…m' });
    expect(attributesOf(h)?.message).toContain('The family portal lists no child for this e-mail');
    school.sim.families.family('nowy.rodzic@example.com')?.logins.push('1234567u');
    await h.advanceUntil(() => problemOf(h) === 'OFF', 'the child listed', 20);
    expect(h.app.runners.map((p) => p.id)).toEqual(['ania']);
  });

  it('is OFF for a bridge whose entries all name their children', async () => {
    const h = await school.start({ accounts: [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }] as never });
    await h.runUntil(() => problemOf(h) === 'OFF', 'the bridge’s problem');
    expect(attributesOf(h)).toEqual({ reason: null });
  });
});

describe('a device first named by its login', () => {
  it('leaves nothing retained under the login once the fixed password names the child', async () => {
    const ania = DEMO_ACCOUNTS[0]!;
    // One data folder and one broker's topics for both runs; this test clears them itself.
    const [roots, dataDir] = [uniqueRoots(), await tempDir()];
    const filters = [`${roots.base}/#`, `${roots.prefix}/#`];
    try {
      const first = await school.start({ accounts: [{ login: ania.login, password: 'wrong' }], roots, dataDir, mqttUrl: MQTT_URL });
      await first.runUntil(() => first.state(ania.login, 'problem') === 'ON', 'the login’s problem');
      await first.stop();
      // The password fixed in the config: the bridge starts again and names the child by its first name.
      const h = await school.start({ accounts: [{ login: ania.login, password: ania.password }], roots, dataDir, mqttUrl: MQTT_URL });
      await h.runUntil(() => h.state('ania', 'problem') === 'OFF', 'Ania named and read');
      await brokerHasAllFrom(h.mqtt());
      const kept = await retained(filters);
      expect([...kept.keys()].filter((topic) => topic.includes(ania.login))).toEqual([]);
      expect(kept.get(`${roots.base}/ania/problem`)).toBe('OFF');
    } finally {
      await school.close();
      await clearRetained(filters);
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a topic the broker refuses', () => {
  it("turns the bridge's problem on, naming the topic", async (ctx) => {
    const roots = uniqueRoots();
    // A broker of the test's own whose ACL lets anonymous clients use the bridge's topics but one.
    const broker = new PrivateMosquitto({
      config: async (port, dir) => {
        await chmod(dir, 0o755);
        const acl = [
          `topic readwrite ${roots.base}/#`,
          `topic readwrite ${roots.prefix}/#`,
          `topic deny ${roots.base}/bridge/health`,
          'topic readwrite d2m_marker/#',
        ];
        await writeFile(join(dir, 'acl'), `${acl.join('\n')}\n`);
        return `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nacl_file ${join(dir, 'acl')}\n`;
      },
    });
    await broker.start();
    ctx.onTestFinished(() => broker.stop());
    const ania = DEMO_ACCOUNTS[0]!;
    const h = await school.start({ accounts: [{ login: ania.login, password: ania.password }], roots, mqttUrl: broker.url, language: 'en' });
    await h.runUntil(() => problemOf(h) === 'ON', 'the bridge’s problem');
    expect(attributesOf(h)).toMatchObject({ reason: 'broker_refused', entry: `${roots.base}/bridge/health` });
    expect(attributesOf(h)?.message).toContain('The MQTT broker refused a topic the bridge publishes or listens to');
  });
});
