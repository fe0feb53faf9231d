// The app with a form the Supervisor saves and the program refuses (interface 13.2, issue 65), against
// the real broker: the untouched form, no account, two accounts with one id, a message naming no
// account. Each time Home Assistant shows it: the bridge's device is published with `problem` ON,
// reason config_invalid and the refusal in the family's language naming the option, no child device
// appears (one left by an earlier run stays as it was), and the sidebar panel lists what to fix.
import { afterEach, describe, expect, it } from 'vitest';
import { loadAddonConfig } from '../../src/config/addon.js';
import { refusedSetting } from '../../src/config/addon.js';
import { ConfigError } from '../../src/config/load.js';
import { Topics } from '../../src/outputs/mqtt/topics.js';
import { RefusedOptions } from '../../src/app/options-refused.js';
import { silentLogger } from '../../src/util/log.js';
import { MQTT_URL, clearRetained, publishOnce, retained, uniqueRoots, waitUntil } from '../helpers/mqtt.js';

const TWO = [
  { login: '1234567u', password: 'tajne1', id: 'ania' },
  { login: '7654321u', password: 'tajne2', id: 'jan' },
];
const MESSAGE = { id: 'sick', name: 'Nieobecność', to: 'class_tutor', topic: 'Nieobecność', body: 'Dzień dobry.' };

/** Each form, and the option its refusal must name. */
const FORMS: Array<{ what: string; form: Record<string, unknown>; names: string }> = [
  { what: 'the untouched form', form: { accounts: [{ login: '', password: '' }], messages: [], language: 'pl' }, names: 'accounts[0].login' },
  { what: 'no account', form: { accounts: [], language: 'pl' }, names: 'accounts' },
  { what: 'two accounts with one id', form: { accounts: [TWO[0], { ...TWO[1], id: 'ania' }], language: 'pl' }, names: 'accounts[1].id' },
  {
    what: 'a message naming no account',
    form: { accounts: TWO, messages: [{ ...MESSAGE, account: 'zosia' }], language: 'pl' },
    names: 'messages[0].account',
  },
];

const shown: RefusedOptions[] = [];
const cleared: string[][] = [];
afterEach(async () => {
  for (const s of shown.splice(0)) await s.stop();
  for (const filters of cleared.splice(0)) await clearRetained(filters);
});

/** The refusal the checks give for a form, read as the app reads it (the broker from the form). */
async function refusalOf(form: Record<string, unknown>, env: NodeJS.ProcessEnv): Promise<string[]> {
  const readText = async (): Promise<string> => JSON.stringify(form);
  const error = await loadAddonConfig({ optionsPath: '/data/options.json', readText, env }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).problems;
}

describe('a form the program refuses, shown in Home Assistant', () => {
  for (const { what, form, names } of FORMS) {
    it(`${what}: the bridge's problem says config_invalid naming ${names}, no child device, the panel lists it`, async () => {
      const { base, prefix } = uniqueRoots();
      const topics = new Topics(base, prefix);
      cleared.push([`${base}/#`, `${prefix}/#`]);
      // A child's device left by an earlier run, with the form right then.
      const earlier = JSON.stringify({ dev: { ids: [`${base}_ania`], via_device: topics.deviceId('bridge') }, cmps: {} });
      await publishOnce(topics.deviceConfig('ania'), earlier, true);
      const env = { DZIENNIK2MQTT_MQTT_URL: MQTT_URL };
      const withBroker = { ...form, mqtt_url: MQTT_URL };
      const problems = await refusalOf(withBroker, env);
      const setting = await refusedSetting({ optionsPath: '/data/options.json', env, readText: async () => JSON.stringify(withBroker) });
      expect(setting.language).toBe('pl');
      // The test's own topics: the form names none.
      const mqtt = { ...setting.mqtt!, base_topic: base, discovery_prefix: prefix };
      const app = new RefusedOptions({
        problems,
        ...setting,
        mqtt,
        version: 'test',
        log: silentLogger(),
        port: 0,
        bind: '127.0.0.1',
        ingressAddress: '127.0.0.1',
      });
      shown.push(app);
      const { port } = await app.start();
      let found = new Map<string, string>();
      await waitUntil(async () => {
        found = await retained([`${base}/#`, `${prefix}/#`]);
        // The problem's state is set before the bridge's device is declared, so it may reach the broker first.
        return found.get(topics.bridgeProblem) === 'ON' && found.has(topics.deviceConfig('bridge'));
      }, "the bridge problem and the bridge's device");
      const attributes = JSON.parse(found.get(`${topics.bridgeProblem}/attributes`) ?? '{}') as Record<string, string>;
      expect(attributes.reason).toBe('config_invalid');
      expect(attributes.message).toContain('Ustawienia aplikacji zostały odrzucone');
      expect(attributes.message).toContain(`${names}:`);
      // The bridge's device is there to carry it; no child's device is added, the earlier one is kept.
      const devices = [...found.keys()].filter((t) => t.startsWith(`${prefix}/device/`));
      expect(devices.sort()).toEqual([topics.deviceConfig('ania'), topics.deviceConfig('bridge')].sort());
      expect(found.get(topics.deviceConfig('ania'))).toBe(earlier);
      // The sidebar panel (through the ingress) names the option to fix.
      const page = await (await fetch(`http://127.0.0.1:${port}/`)).text();
      expect(page).toContain('popraw ustawienia aplikacji');
      expect(page).toContain(`<code>${names}:`);
    });
  }

  it('names the problems only to Home Assistant: another caller of the port reads where to look', async () => {
    const problems = await refusalOf({ accounts: [], language: 'en' }, { DZIENNIK2MQTT_MQTT_URL: MQTT_URL });
    const app = new RefusedOptions({
      problems,
      language: 'en',
      mqtt: undefined,
      version: 'test',
      log: silentLogger(),
      port: 0,
      bind: '127.0.0.1',
      ingressAddress: '172.30.32.2',
    });
    shown.push(app);
    const { port } = await app.start();
    const page = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    expect(page).toContain('The app’s panel in Home Assistant shows what to correct.');
    expect(page).not.toContain('accounts');
  });
});
