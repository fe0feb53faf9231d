// An entry of `accounts` takes `login` (the register road) or `email` (the family road, interface 9.1),
// never both; each mistake is refused by the key it is about, as the config's other mistakes are.
import { describe, expect, it } from 'vitest';
import { buildConfig, ConfigError } from '../../../src/config/load.js';
import { configFromOptions } from '../../../src/config/addon.js';

const files: Record<string, string> = { '/run/secrets/family': 'rodzina-secret\n' };
const readText = async (path: string): Promise<string> => {
  const text = files[path];
  if (text === undefined) throw Object.assign(new Error('nope'), { code: 'ENOENT' });
  return text;
};

async function problemsOf(accounts: unknown[]): Promise<string[]> {
  return buildConfig({ language: 'en', accounts }, 'config.yaml', { env: {}, readText }).then(
    () => [],
    (error: unknown) => {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    },
  );
}

describe('accounts: the family road', () => {
  it('takes an e-mail with its password from a file or ${ENV}, beside a login entry, and keeps them apart by road', async () => {
    const config = await buildConfig(
      {
        accounts: [
          { email: 'rodzic@example.com', password_file: '/run/secrets/family' },
          { login: '7654321u', password: 'x' },
          {
            email: 'drugi@example.com',
            password: '${FAMILY_PW}',
            children: [{ login: '1234567u', id: 'ania', messages: [{ id: 'sick', name: 'Chora', to: 'class_tutor', topic: 't', body: 'b' }] }],
          },
        ],
      },
      'config.yaml',
      { env: { FAMILY_PW: 'from-env' }, readText },
    );
    expect(config.accounts.map((a) => a.login)).toEqual(['7654321u']);
    expect(config.families).toEqual([
      { email: 'rodzic@example.com', password: 'rodzina-secret', password_file: '/run/secrets/family' },
      {
        email: 'drugi@example.com',
        password: 'from-env',
        children: [{ login: '1234567u', id: 'ania', downloads: false, write_messages: false, messages: [expect.objectContaining({ id: 'sick' })] }],
      },
    ]);
    expect(config.portal.family_url).toBe('https://portal.librus.pl');
  });

  it('refuses login and email in one entry, neither, and every mistake by its key', async () => {
    expect(await problemsOf([{ login: '1234567u', email: 'rodzic@example.com', password: 'x' }])).toEqual([
      'accounts[0].email: give login (the register road) or email (the family road), not both: one entry per road',
    ]);
    expect(await problemsOf([{ password: 'x' }])).toEqual(['accounts[0].login: required']);
    expect(await problemsOf([{ email: 'rodzic@example.com' }])).toEqual(['accounts[0].password: required (or password_file)']);
    expect(await problemsOf([{ email: '1234567u', password: 'x' }])).toEqual([
      "accounts[0].email: an e-mail address like rodzic@example.com (the family portal's login); a register login like 1234567u goes under login:",
    ]);
    expect(
      await problemsOf([{ email: 'rodzic@example.com', password: 'x', id: 'ania', children: [{ login: '1u', colour: 'red' }, { login: '1U' }] }]),
    ).toEqual([
      'accounts[0].children[0].colour: unknown key',
      'accounts[0].id: unknown key',
      'accounts[0].children[1].login: the same login as children[0].login; list each child once',
    ]);
    expect(
      await problemsOf([
        { email: 'a@example.com', password: 'x' },
        { email: 'A@example.com', password: 'y' },
      ]),
    ).toEqual(['accounts[1].email: the same e-mail as accounts[0].email; list each account once']);
  });

  it('says where an e-mail goes when it is given as a login', async () => {
    const [problem] = await problemsOf([{ login: 'mama@example.com', password: 'b' }]);
    expect(problem).toMatch(/^accounts\[0\]\.login: this is an e-mail address .*put it under email:/);
  });

  it('lets one child have both roads: its own login entry and an e-mail entry that lists it', async () => {
    const config = await buildConfig(
      {
        accounts: [
          { login: '1234567u', password: 'x', id: 'ania' },
          { email: 'rodzic@example.com', password: 'y', children: [{ login: '1234567u', id: 'ania' }] },
        ],
      },
      'c',
      { env: {} },
    );
    expect([config.accounts.length, config.families.length]).toEqual([1, 1]);
  });
});

describe('the app form', () => {
  it('takes an e-mail instead of a login, and refuses both or neither by the field', async () => {
    const raw = configFromOptions({
      accounts: [
        { email: 'rodzic@example.com', password: 'p' },
        { login: '1u', password: 'q' },
      ],
    });
    const config = await buildConfig(raw, 'add-on options', { env: {}, expandEnv: false });
    expect(config.families).toEqual([{ email: 'rodzic@example.com', password: 'p' }]);
    expect(config.accounts.map((a) => a.login)).toEqual(['1u']);
    expect(() => configFromOptions({ language: 'en', accounts: [{ login: '1u', email: 'rodzic@example.com', password: 'p' }] })).toThrow(
      /accounts\[0\]\.email: fill in the login \(the register road\) or the e-mail \(the family road\), not both/,
    );
    expect(() => configFromOptions({ language: 'en', accounts: [{ password: 'p' }] })).toThrow(
      /accounts\[0\]\.login: fill in the parent's register login \(like 1234567u\)/,
    );
  });

  it('takes downloads and write_messages on an app e-mail entry for every linked child, and refuses an id by name', async () => {
    const raw = configFromOptions({ accounts: [{ email: 'rodzic@example.com', password: 'p', downloads: true, write_messages: true }] });
    const config = await buildConfig(raw, 'options.json', { env: {} });
    expect(config.families[0]).toMatchObject({ email: 'rodzic@example.com', downloads: true, write_messages: true });
    expect(() => configFromOptions({ language: 'en', accounts: [{ email: 'rodzic@example.com', password: 'p', id: 'ania' }] })).toThrow(
      /accounts\[0\]\.id: an e-mail entry brings every linked child/,
    );
  });

  it('says how to send a fixed message when the app has an e-mail entry only', () => {
    const options = {
      language: 'en',
      accounts: [{ email: 'rodzic@example.com', password: 'p' }],
      messages: [{ id: 'sick', name: 'Chora', to: 'class_tutor', topic: 't', body: 'b' }],
    };
    expect(() => configFromOptions(options)).toThrow(
      /messages\[0\]\.account: a fixed message is sent from a login entry's account, and there is none: add the child's register login/,
    );
    expect(() => configFromOptions(options)).not.toThrow(/required when there is more than one account/);
  });
});
