import { describe, expect, it } from 'vitest';
import { buildConfig, ConfigError, loadConfigFile } from '../../../src/config/load.js';

const files: Record<string, string> = {};
const readText = async (path: string): Promise<string> => {
  const text = files[path];
  if (text === undefined) throw Object.assign(new Error('nope'), { code: 'ENOENT' });
  return text;
};

/** The refusals of a config that names English (one naming no language is refused in Polish). */
async function problemsOf(raw: object, env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  try {
    await buildConfig({ language: 'en', ...raw }, 'config.yaml', { env, readText });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('config', () => {
  it('fills every default for a minimal config', async () => {
    const config = await buildConfig({ accounts: [{ login: '1234567u', password: 'x' }] }, 'c', { env: {} });
    expect(config.mqtt).toEqual({
      url: 'mqtt://127.0.0.1:1883',
      username: '',
      password: '',
      base_topic: 'dziennik2mqtt',
      discovery_prefix: 'homeassistant',
    });
    expect(config.poll).toEqual({ interval: 20 * 60_000, fast_interval: 3 * 60_000, school_interval: 5 * 60_000 });
    expect(config.portal.base_url).toBe('https://synergia.librus.pl');
    expect(config.data_dir).toBe('./data');
    expect(config.accounts[0]).toMatchObject({ downloads: false, messages: [] });
  });

  it('lists every problem by key path at once', async () => {
    const problems = await problemsOf({
      mqtt: { url: 'http://broker', colour: 'red' },
      accounts: [{ password: 'x', id: 'Ania' }],
      poll: { interval: 'soon' },
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'mqtt.url: must start with mqtt:// or mqtts://',
        'mqtt.colour: unknown key',
        'accounts[0].login: required',
        'accounts[0].id: only lowercase letters, digits and _',
        'poll.interval: not a duration: "soon" (use 90s, 3m, 1h)',
      ]),
    );
    expect(problems).toHaveLength(5);
  });

  it('requires a password or a password file', async () => {
    expect(await problemsOf({ accounts: [{ login: 'a' }] })).toEqual(['accounts[0].password: required (or password_file)']);
  });

  it('explains a wrong message recipient', async () => {
    const problems = await problemsOf({
      accounts: [{ login: 'a', password: 'b', messages: [{ id: 'sick', name: 'n', to: 'teacher', topic: 't', body: 'b' }] }],
    });
    expect(problems).toEqual(['accounts[0].messages[0].to: must be class_tutor, {teacher: "Name Surname"} or {account_id: "..."}']);
  });

  it('expands ${ENV} secrets and names a missing variable without showing other values', async () => {
    const config = await buildConfig({ accounts: [{ login: 'a', password: '${KID_PASS}' }] }, 'c', { env: { KID_PASS: 's3cret' } });
    expect(config.accounts[0]?.password).toBe('s3cret');
    expect(await problemsOf({ accounts: [{ login: 'a', password: '${NOPE}' }] })).toContain(
      'accounts[0].password: environment variable NOPE is not set',
    );
  });

  it('reads $${NAME} as the text ${NAME}: a password that holds it as it stands', async () => {
    const config = await buildConfig({ accounts: [{ login: 'a', password: 'Ab$${HOME}9' }] }, 'c', { env: { HOME: '/root' } });
    expect(config.accounts[0]?.password).toBe('Ab${HOME}9');
  });

  it('reads password_file and strips one trailing newline', async () => {
    files['/run/secrets/kid'] = 'p@ss word\n';
    const config = await buildConfig({ accounts: [{ login: 'a', password_file: '/run/secrets/kid' }] }, 'c', { env: {}, readText });
    expect(config.accounts[0]?.password).toBe('p@ss word');
    expect(await problemsOf({ accounts: [{ login: 'a', password_file: '/missing' }] })).toEqual([
      'accounts[0].password_file: cannot read /missing (ENOENT)',
    ]);
  });

  it('lets DZIENNIK2MQTT_MQTT_URL override the broker', async () => {
    const config = await buildConfig({ accounts: [{ login: 'a', password: 'b' }] }, 'c', {
      env: { DZIENNIK2MQTT_MQTT_URL: 'mqtts://broker.lan:8883' },
    });
    expect(config.mqtt.url).toBe('mqtts://broker.lan:8883');
  });

  it('rejects duplicate account ids', async () => {
    const problems = await problemsOf({
      accounts: [
        { login: 'a', password: 'b', id: 'kid' },
        { login: 'c', password: 'd', id: 'kid' },
      ],
    });
    expect(problems).toEqual(['accounts[1].id: duplicate id "kid"']);
  });

  it('reports YAML syntax errors with the line and never echoes secrets from the file', async () => {
    files['bad.yaml'] = 'language: en\naccounts:\n  - login: a\n    password: hunter2\n   bad: [\n';
    const error = await loadConfigFile('bad.yaml', { env: {}, readText }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/not valid YAML at line \d/);
    expect((error as Error).message).not.toContain('hunter2');
  });

  it('says so when the file is missing, and where to start from', async () => {
    const english = { LANG: 'en_GB.UTF-8' };
    await expect(loadConfigFile('nowhere.yaml', { env: english, readText })).rejects.toThrow('nowhere.yaml: file not found');
    await expect(loadConfigFile('./config.yaml', { env: english, readText })).rejects.toThrow(/copy config\.example\.yaml .*to \.\/config\.yaml/);
    // No file names a language: the terminal's, else Polish (the config's default).
    await expect(loadConfigFile('nowhere.yaml', { env: {}, readText })).rejects.toThrow('nowhere.yaml: nie ma pliku; skopiuj config.example.yaml');
    await expect(loadConfigFile('nowhere.yaml', { env: { LANG: 'uk_UA.UTF-8' }, readText })).rejects.toThrow('nowhere.yaml: файл не знайдено');
  });
});

describe('paths in a config file', () => {
  it("reads a relative data_dir and password_file from the config file's folder, not the working directory", async () => {
    files['/etc/d2m/config.yaml'] = 'accounts:\n  - login: "1234567u"\n    password_file: secrets/ania\ndata_dir: ./data\n';
    files['/etc/d2m/secrets/ania'] = 'from-the-file\n';
    const config = await loadConfigFile('/etc/d2m/config.yaml', { env: {}, readText });
    expect(config.data_dir).toBe('/etc/d2m/data');
    expect(config.accounts[0]?.password_file).toBe('/etc/d2m/secrets/ania');
    expect(config.accounts[0]?.password).toBe('from-the-file');
  });

  it('keeps an absolute data_dir as written', async () => {
    files['/etc/d2m/abs.yaml'] = 'accounts:\n  - login: "1234567u"\n    password: x\ndata_dir: /var/lib/d2m\n';
    expect((await loadConfigFile('/etc/d2m/abs.yaml', { env: {}, readText })).data_dir).toBe('/var/lib/d2m');
  });
});

describe('log_format', () => {
  it('is auto unless set, and takes text or json', async () => {
    expect((await buildConfig({ accounts: [{ login: 'a', password: 'b' }] }, 'c', { env: {} })).log_format).toBe('auto');
    expect((await buildConfig({ accounts: [{ login: 'a', password: 'b' }], log_format: 'json' }, 'c', { env: {} })).log_format).toBe('json');
    expect(await problemsOf({ accounts: [{ login: 'a', password: 'b' }], log_format: 'pretty' })).toHaveLength(1);
  });
});

describe('reading floor', () => {
  const withIntervals = (poll: Record<string, string>) => problemsOf({ accounts: [{ login: 'a', password: 'b' }], poll });

  it('refuses an interval under 5 minutes and a fast interval under 1 minute, naming the key', async () => {
    expect(await withIntervals({ interval: '1s', fast_interval: '30s' })).toEqual([
      "poll.interval: 1s is too often: at least 5m, to spare the portal and the family's account",
      "poll.fast_interval: 30s is too often: at least 1m, to spare the portal and the family's account",
    ]);
    expect(await withIntervals({ interval: '4m59s' })).toHaveLength(1);
    expect(await withIntervals({ school_interval: '1m' })).toEqual([
      "poll.school_interval: 1m is too often: at least 2m, to spare the portal and the family's account",
    ]);
  });

  it('accepts the floors themselves', async () => {
    expect(await withIntervals({ interval: '5m', fast_interval: '1m', school_interval: '2m' })).toEqual([]);
  });
});

describe('config messages in plain words', () => {
  const account = (extra: Record<string, unknown>) => ({ accounts: [{ login: 'a', password: 'b', ...extra }] });

  it('names the unset variable and nothing about empty text', async () => {
    expect(await problemsOf({ accounts: [{ login: '1234567u', password: '${ANIA_PASSWORD}' }] })).toEqual([
      'accounts[0].password: environment variable ANIA_PASSWORD is not set',
    ]);
  });

  it('asks to quote a login or a password that YAML reads as a number, without showing it', async () => {
    files['digits.yaml'] = 'language: en\naccounts:\n  - login: 1234567\n    password: 0123456\n';
    const error = (await loadConfigFile('digits.yaml', { env: {}, readText }).catch((e: unknown) => e)) as ConfigError;
    expect(error.problems).toEqual([
      'accounts[0].login: read as a number; put the value in quotes ("...")',
      'accounts[0].password: read as a number; put the value in quotes ("...")',
    ]);
    expect(error.message).not.toMatch(/123456/);
  });

  it('asks for true/false where YAML has yes', async () => {
    files['yes.yaml'] = 'language: en\naccounts:\n  - login: "1234567u"\n    password: x\n    downloads: yes\n';
    const error = (await loadConfigFile('yes.yaml', { env: {}, readText }).catch((e: unknown) => e)) as ConfigError;
    expect(error.problems).toEqual(['accounts[0].downloads: use true or false (without quotes)']);
  });

  it('asks for a unit on a bare number of minutes', async () => {
    expect(await problemsOf({ ...account({}), poll: { interval: 20 } })).toEqual(['poll.interval: a duration needs its unit, like 20m or 1h']);
  });

  it('flags a family-portal e-mail as login before any network use', async () => {
    const problems = await problemsOf({ accounts: [{ login: 'mama@example.com', password: 'b' }] });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^accounts\[0\]\.login: this is an e-mail address .*register login .*like 1234567u/);
  });
});
