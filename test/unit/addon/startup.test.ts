// The add-on's start-up: /data/options.json and a (fake) Supervisor give the same configuration as
// the equivalent config.yaml; a missing MQTT service, a bad form or no token give clear errors.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lstat, mkdir, mkdtemp, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configFromOptions, linkDownloads, loadAddonConfig, runningAsAddon } from '../../../src/config/addon.js';
import { SupervisorError } from '../../../src/config/supervisor.js';
import { ConfigError, loadConfigFile } from '../../../src/config/load.js';
import { parseArgs, useAddonOptions } from '../../../src/cli.js';
import { optionProblems } from './supervisor-rules.js';

/** What a parent fills in: two children, fixed messages in the flat form. */
const OPTIONS = {
  accounts: [
    { login: '1234567u', password: 'tajne1', id: 'ania', downloads: true },
    { login: '7654321u', password: 'tajne2' },
  ],
  messages: [
    {
      account: 'ania',
      id: 'sick',
      name: 'Zgłoś nieobecność',
      to: 'class_tutor',
      topic: 'Nieobecność {first_name}',
      body: 'Dzień dobry, {first_name} jest chora.',
    },
    { account: '7654321u', id: 'late', name: 'Spóźnienie', to: 'teacher:Anna Nowak', topic: 'Spóźnienie', body: 'Dzień dobry, spóźni się.' },
    { account: '7654321u', id: 'office', name: 'Sekretariat', to: 'account:12345', topic: 'Pytanie', body: 'Dzień dobry.' },
  ],
  poll_interval: 30,
  fast_interval: 5,
  school_interval: 6,
  quiet_hours: '22:00-06:00',
  log_level: 'debug',
  language: 'pl',
};

/** The same setup written as a config.yaml, with the broker the Supervisor names. */
const EQUIVALENT_YAML = `
mqtt:
  url: mqtt://core-mosquitto:1883
  username: addons
  password: broker-secret
accounts:
  - login: "1234567u"
    password: tajne1
    id: ania
    downloads: true
    messages:
      - id: sick
        name: Zgłoś nieobecność
        to: class_tutor
        topic: "Nieobecność {first_name}"
        body: "Dzień dobry, {first_name} jest chora."
  - login: "7654321u"
    password: tajne2
    messages:
      - id: late
        name: Spóźnienie
        to: { teacher: Anna Nowak }
        topic: Spóźnienie
        body: Dzień dobry, spóźni się.
      - id: office
        name: Sekretariat
        to: { account_id: "12345" }
        topic: Pytanie
        body: Dzień dobry.
poll:
  interval: 30m
  fast_interval: 5m
  school_interval: 6m
  quiet_hours: "22:00-06:00"
data_dir: /data
log_level: debug
homeassistant:
  url: http://supervisor/core
  token: supervisor-token
  public_url: http://a0d7b954-dziennik2mqtt:8099
  assist: false
`;

interface FakeSupervisor {
  url: string;
  requests: { path: string | undefined; auth: string | undefined }[];
  answer: { status: number; body: unknown };
  server: Server;
}

async function startSupervisor(): Promise<FakeSupervisor> {
  const fake: FakeSupervisor = {
    url: '',
    requests: [],
    answer: {
      status: 200,
      body: {
        result: 'ok',
        data: {
          addon: 'core_mosquitto',
          host: 'core-mosquitto',
          port: 1883,
          ssl: false,
          protocol: '3.1.1',
          username: 'addons',
          password: 'broker-secret',
        },
      },
    },
    server: createServer((req: IncomingMessage, res) => {
      fake.requests.push({ path: req.url, auth: req.headers.authorization });
      if (req.headers.authorization !== 'Bearer supervisor-token') {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ result: 'error', message: 'Unauthorized' }));
        return;
      }
      if (req.url === '/addons/self/info') {
        const data = { slug: 'a0d7b954_dziennik2mqtt', hostname: 'a0d7b954-dziennik2mqtt' };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: 'ok', data }));
        return;
      }
      if (req.url !== '/services/mqtt') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ result: 'error', message: 'Service does not exist' }));
        return;
      }
      res.writeHead(fake.answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(fake.answer.body));
    }),
  };
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
  return fake;
}

let supervisor: FakeSupervisor;
let dir: string;
let optionsPath: string;
const env = { SUPERVISOR_TOKEN: 'supervisor-token' };

beforeEach(async () => {
  supervisor = await startSupervisor();
  dir = await mkdtemp(join(tmpdir(), 'd2m-addon-'));
  optionsPath = join(dir, 'options.json');
  await writeFile(optionsPath, JSON.stringify(OPTIONS));
});

afterEach(async () => {
  await new Promise((resolve) => supervisor.server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const load = (extra: Partial<Parameters<typeof loadAddonConfig>[0]> = {}) =>
  loadAddonConfig({ optionsPath, env, supervisor: { baseUrl: supervisor.url }, ...extra });

async function configError(promise: Promise<unknown>): Promise<ConfigError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe('add-on start-up', () => {
  it('is a form the Supervisor accepts (the sample used below)', async () => {
    const addon = parse(await readFile(new URL('../../../hassio-addon/config.yaml', import.meta.url), 'utf8')) as {
      schema: Record<string, unknown>;
    };
    expect(optionProblems(addon.schema, OPTIONS)).toEqual([]);
  });

  it('gives the same configuration as the equivalent config.yaml, with the broker from the Supervisor', async () => {
    const fromAddon = await load();
    const yamlPath = join(dir, 'config.yaml');
    await writeFile(yamlPath, EQUIVALENT_YAML);
    const fromYaml = await loadConfigFile(yamlPath, { env: {} });
    // The same but for where the broker's address came from, which the advice on a broker away names, and
    // what the app announces through the Supervisor (ha_assist): its MCP server, not the config-entries flow.
    const { supervisor: announced, ...rest } = fromAddon;
    expect({ ...rest, brokerFrom: 'file' }).toEqual(fromYaml);
    expect(announced).toEqual({ token: 'supervisor-token', assist: true, publicUrl: 'http://a0d7b954-dziennik2mqtt:8099' });
    expect([fromAddon.brokerFrom, fromYaml.brokerFrom]).toEqual(['supervisor', 'file']);
    expect(fromAddon.mqtt.url).toBe('mqtt://core-mosquitto:1883');
    expect(fromAddon.data_dir).toBe('/data');
    // Home Assistant's API (ha_entities, on unless switched off): the app's host name on the Supervisor's network.
    expect(supervisor.requests).toEqual([
      { path: '/services/mqtt', auth: 'Bearer supervisor-token' },
      { path: '/addons/self/info', auth: 'Bearer supervisor-token' },
    ]);
  });

  it('makes nothing in Home Assistant with ha_entities and ha_assist switched off, and asks the Supervisor nothing for them', async () => {
    await writeFile(optionsPath, JSON.stringify({ ...OPTIONS, ha_entities: false, ha_assist: false }));
    const config = await load();
    expect(config.homeassistant).toBeUndefined();
    // Off, a former announcement is withdrawn: no address needed, so the host name is not asked.
    expect(config.supervisor).toEqual({ token: 'supervisor-token', assist: false, publicUrl: undefined });
    expect(supervisor.requests.map((r) => r.path)).toEqual(['/services/mqtt']);
  });

  it("imports the school year into Home Assistant's statistics unless ha_statistics is switched off", async () => {
    expect((await load()).homeassistant?.statistics).toBe(true);
    await writeFile(optionsPath, JSON.stringify({ ...OPTIONS, ha_statistics: false }));
    const config = await load();
    expect(config.homeassistant?.statistics).toBe(false);
    // The calendars and homework lists stay: only the statistics are off.
    expect(config.homeassistant?.url).toBe('http://supervisor/core');
  });

  it('announces the MCP server with ha_entities off: the host name is asked for it alone', async () => {
    await writeFile(optionsPath, JSON.stringify({ ...OPTIONS, ha_entities: false }));
    const config = await load();
    expect(config.homeassistant).toBeUndefined();
    expect(config.supervisor).toEqual({ token: 'supervisor-token', assist: true, publicUrl: 'http://a0d7b954-dziennik2mqtt:8099' });
    expect(supervisor.requests.map((r) => r.path)).toEqual(['/services/mqtt', '/addons/self/info']);
  });

  it('explains a missing MQTT service', async () => {
    supervisor.answer = { status: 400, body: { result: 'error', message: 'Service not enabled' } };
    const error = await configError(load());
    expect(error.problems).toHaveLength(1);
    // In the form's language (pl), the Supervisor's own words as it gave them.
    expect(error.message).toMatch(/^dodatek Home Assistant: /);
    expect(error.problems[0]).toMatch(/^mqtt: Home Assistant nie ma brokera MQTT \(Supervisor odpowiedział: Service not enabled\)\. Zainstaluj/);
    expect(error.problems[0]).toContain('Mosquitto broker');
    expect(error.problems[0]).toContain('mqtt_url');
  });

  it('explains a refused lookup and a missing token', async () => {
    expect((await configError(load({ env: { SUPERVISOR_TOKEN: 'wrong' } }))).problems[0]).toContain('mqtt:need');
    expect((await configError(load({ env: {} }))).problems[0]).toContain('brak SUPERVISOR_TOKEN');
  });

  it('reports an unreachable Supervisor as a runtime failure, not bad config', async () => {
    const closed = supervisor.url;
    await new Promise((resolve) => supervisor.server.close(resolve));
    supervisor = await startSupervisor();
    const error = await load({ supervisor: { baseUrl: closed } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SupervisorError);
    expect((error as Error).message).toContain('nie można połączyć się z Supervisorem');
  });

  it('uses TLS when the Supervisor says so', async () => {
    supervisor.answer = { status: 200, body: { result: 'ok', data: { host: 'core-mosquitto', port: 8883, ssl: true } } };
    const config = await load();
    expect(config.mqtt).toMatchObject({ url: 'mqtts://core-mosquitto:8883', username: '', password: '' });
  });

  it("gives the form's TLS files to the broker, whoever named it, and names a file it cannot read as the form does", async () => {
    const ca = join(dir, 'ca.crt');
    await writeFile(ca, '-----BEGIN CERTIFICATE-----\n');
    await writeFile(optionsPath, JSON.stringify({ ...OPTIONS, mqtt_ca: ca, mqtt_reject_unauthorized: false }));
    expect((await load()).mqtt).toMatchObject({ url: 'mqtt://core-mosquitto:1883', ca, reject_unauthorized: false });
    await writeFile(optionsPath, JSON.stringify({ ...OPTIONS, language: 'en', mqtt_url: 'mqtts://10.0.0.2:8883', mqtt_cert: ca }));
    expect((await configError(load())).problems).toEqual(['mqtt_key: needed with mqtt.cert: the client certificate and its private key go together']);
    await writeFile(optionsPath, JSON.stringify({ ...OPTIONS, language: 'en', mqtt_ca: '/ssl/nowhere.crt' }));
    expect((await configError(load())).problems).toEqual(['mqtt_ca: cannot read /ssl/nowhere.crt (ENOENT)']);
  });

  it('does not ask the Supervisor when a broker is given or not needed', async () => {
    await writeFile(optionsPath, JSON.stringify({ ...OPTIONS, mqtt_url: 'mqtt://10.0.0.2:1883', mqtt_username: 'u', mqtt_password: 'p' }));
    expect(await load()).toMatchObject({ mqtt: { url: 'mqtt://10.0.0.2:1883', username: 'u', password: 'p' }, brokerFrom: 'form' });
    await writeFile(optionsPath, JSON.stringify(OPTIONS));
    expect(await load({ env: { ...env, DZIENNIK2MQTT_MQTT_URL: 'mqtt://other:1883' } })).toMatchObject({
      mqtt: { url: 'mqtt://other:1883' },
      brokerFrom: 'env',
    });
    expect((await load({ needsBroker: false })).mqtt.url).toBe('mqtt://127.0.0.1:1883');
    expect(supervisor.requests.filter((r) => r.path === '/services/mqtt')).toEqual([]);
  });

  it('names the form field that is wrong', async () => {
    const bad = {
      language: 'en',
      accounts: [OPTIONS.accounts[0], OPTIONS.accounts[1]],
      messages: [
        { id: 'a', name: 'A', to: 'class_tutor', topic: 't', body: 'b' },
        { account: 'nobody', id: 'b', name: 'B', to: 'class_tutor', topic: 't', body: 'b' },
        { account: 'ania', id: 'c', name: 'C', to: 'teacher:', topic: 't', body: 'b' },
      ],
    };
    expect(() => configFromOptions(bad)).toThrow(ConfigError);
    try {
      configFromOptions(bad);
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'messages[0].account: required when there is more than one account (the login or id of the account that sends it)',
        'messages[1].account: no login entry has the login or id "nobody" (a fixed message goes from a login entry\'s account; a child of an e-mail entry needs a login entry of its own for it)',
        'messages[2].to: must be class_tutor, teacher:Name Surname or account:<id> (got "teacher:")',
      ]);
    }
  });

  it('lets the only account own messages that name none, and reports an empty login by its path', async () => {
    const raw = configFromOptions({
      accounts: [{ login: '1u', password: 'p' }],
      messages: [{ id: 'x', name: 'X', to: 'class_tutor', topic: 't', body: 'b' }],
    });
    expect(raw.accounts[0]?.messages).toHaveLength(1);
    // The store's default form: one empty account, in the form's default language.
    const form = { accounts: [{ login: '', password: '' }], messages: [], poll_interval: 20, fast_interval: 3, log_level: 'info', language: 'pl' };
    await writeFile(optionsPath, JSON.stringify(form));
    const error = await configError(load());
    expect(error.message).toMatch(/^opcje dodatku: /);
    expect(error.problems).toEqual([
      'accounts[0].login: wpisz login rodzica do dziennika (np. 1234567u)',
      'accounts[0].password: wpisz hasło do tego loginu',
    ]);
    await writeFile(optionsPath, JSON.stringify({ ...form, language: 'en' }));
    const english = await configError(load());
    expect(english.message).toContain('add-on options');
    expect(english.problems).toEqual([
      "accounts[0].login: fill in the parent's register login (like 1234567u)",
      'accounts[0].password: fill in the password of that login',
    ]);
  });
});

describe('add-on options are taken literally', () => {
  it('keeps ${VAR} in a password typed into the form (a config.yaml still expands it)', async () => {
    const typed = {
      ...OPTIONS,
      accounts: [
        { login: '1234567u', password: 'Ab${HOME}9' },
        { login: '7654321u', password: '${UNSET_VAR}' },
      ],
      messages: [],
    };
    await writeFile(optionsPath, JSON.stringify(typed));
    const config = await load({ env: { ...env, HOME: '/root' } });
    expect(config.accounts.map((a) => a.password)).toEqual(['Ab${HOME}9', '${UNSET_VAR}']);

    const yamlPath = join(dir, 'config.yaml');
    await writeFile(yamlPath, 'accounts:\n  - login: "1234567u"\n    password: "Ab${HOME}9"\n');
    expect((await loadConfigFile(yamlPath, { env: { HOME: '/root' } })).accounts[0]?.password).toBe('Ab/root9');
  });
});

describe('add-on problems name the form field', () => {
  const refused = async (options: Record<string, unknown>): Promise<string[]> => {
    await writeFile(optionsPath, JSON.stringify(options));
    return (await configError(load())).problems;
  };

  it('names a duplicate message id by its place in the flat messages list', async () => {
    const messages = [OPTIONS.messages[0], OPTIONS.messages[1], { ...OPTIONS.messages[0], name: 'Again' }, { ...OPTIONS.messages[2], name: '' }];
    const problems = await refused({ ...OPTIONS, messages });
    expect(problems).toContain('messages[2].id: powtórzone id "sick"');
    expect(problems.filter((p) => p.startsWith('messages[3].name: '))).toHaveLength(1);
    expect(problems.filter((p) => !p.startsWith('messages['))).toEqual([]);
  });

  it('names a duplicate child id and the flat poll fields as the form shows them', async () => {
    const accounts = [OPTIONS.accounts[0], { ...OPTIONS.accounts[1], id: 'ania' }];
    expect(await refused({ ...OPTIONS, accounts, messages: [] })).toEqual(['accounts[1].id: powtórzone id "ania"']);
    const problems = await refused({ ...OPTIONS, poll_interval: 0, fast_interval: 0, school_interval: 1 });
    expect(problems.find((p) => p.startsWith('poll_interval: '))).toBeDefined();
    expect(problems.find((p) => p.startsWith('fast_interval: '))).toBeDefined();
    expect(problems.find((p) => p.startsWith('school_interval: '))).toBeDefined();
    expect(problems.filter((p) => p.startsWith('poll.') || p.includes('.messages['))).toEqual([]);
  });
});

describe('add-on detection', () => {
  it('runs as the add-on with a Supervisor token and an options file', async () => {
    expect(await runningAsAddon({ SUPERVISOR_TOKEN: 't' }, optionsPath)).toBe(true);
    expect(await runningAsAddon({}, optionsPath)).toBe(false);
    expect(await runningAsAddon({ SUPERVISOR_TOKEN: 't' }, join(dir, 'none.json'))).toBe(false);
  });

  it('reads the options with --addon, or by itself when no config is named', () => {
    expect(useAddonOptions(parseArgs(['run', '--addon']), {}, false)).toBe(true);
    expect(useAddonOptions(parseArgs(['run']), {}, true)).toBe(true);
    expect(useAddonOptions(parseArgs(['run', '--config', 'x.yaml']), {}, true)).toBe(false);
    expect(useAddonOptions(parseArgs(['check']), { DZIENNIK2MQTT_CONFIG: '/config/config.yaml' }, true)).toBe(false);
    expect(useAddonOptions(parseArgs(['dashboard']), {}, false)).toBe(false);
    expect(() => parseArgs(['--addon', '--config', 'x'])).toThrow(/not both/);
  });
});

describe('add-on downloads folder', () => {
  it('links data_dir/downloads to the media folder when an account downloads', async () => {
    const media = join(dir, 'media', 'dziennik2mqtt');
    const config = await load({ needsBroker: false });
    const local = { ...config, data_dir: join(dir, 'data') };
    await mkdir(local.data_dir);
    await linkDownloads(local, media);
    expect(await readlink(join(local.data_dir, 'downloads'))).toBe(media);
    expect((await lstat(media)).isDirectory()).toBe(true);
    await linkDownloads(local, media); // a second start keeps the link
    expect(await readlink(join(local.data_dir, 'downloads'))).toBe(media);
  });

  it('leaves data_dir alone when no account downloads', async () => {
    const config = await load({ needsBroker: false });
    const local = { ...config, data_dir: join(dir, 'data2'), accounts: config.accounts.map((a) => ({ ...a, downloads: false })) };
    await mkdir(local.data_dir);
    await linkDownloads(local, join(dir, 'media2'));
    await expect(lstat(join(local.data_dir, 'downloads'))).rejects.toThrow();
  });
});
