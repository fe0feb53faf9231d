// A config error speaks the language the config asks for (`language: pl`), also when YAML cannot read
// the file; and a password that begins with # (YAML reads a comment, the key holds nothing) gets the
// advice to quote it, never "expected string, received null".
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfigFile } from '../../../src/config/load.js';

async function problemsOf(text: string, env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  try {
    await loadConfigFile('config.yaml', { env, readText: async () => text });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('config errors', () => {
  it('advise quoting a password that begins with #', async () => {
    const problems = await problemsOf('language: en\naccounts:\n  - login: "1234567u"\n    password: #tajne123\n');
    expect(problems).toEqual([
      'accounts[0].password: empty: YAML reads what follows a # after a space as a comment, so a password beginning with # is lost. Put it in quotes: password: "#..."',
    ]);
    expect(problems.join()).not.toContain('tajne123');
  });

  it('speak Polish under language: pl, key paths and values to type left as they are', async () => {
    const problems = await problemsOf(
      'language: pl\nmqtt:\n  colour: red\naccounts:\n  - login: "1234567u"\n    password: #tajne\n  - email: rodzic@example.com\n    password: "${RODZIC}"\n',
    );
    expect(problems).toEqual([
      'accounts[1].password: zmienna środowiskowa RODZIC nie jest ustawiona',
      'mqtt.colour: nieznany klucz',
      'accounts[0].password: puste: YAML traktuje to, co stoi za # po spacji, jako komentarz, więc hasło zaczynające się od # znika. Ujmij je w cudzysłów: password: "#..."',
    ]);
  });

  it('speak the chosen language also when YAML cannot read the file', async () => {
    const problems = await problemsOf('language: uk\naccounts:\n  - login: "1234567u"\n   password: x\n');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^некоректний YAML у рядку 4, стовпці \d+: /);
  });

  it("speak Polish under language: pl for the schema's own refusals too, values to type left as they are", async () => {
    const problems = await problemsOf(
      'language: pl\nlog_level: loud\ndata_dir: ""\npoll:\n  interval: 1m\naccounts:\n  - login: "1234567u"\n    password: x\n  - email: rodzic.example.com\n    password: y\n',
    );
    expect(problems).toEqual([
      'accounts[1].email: adres e-mail, np. rodzic@example.com: login do portalu dla rodzin (Konto LIBRUS); login do dziennika, np. 1234567u, wpisuje się pod login:',
      'poll.interval: 1m to za często: co najmniej 5m, by oszczędzić portal i konto rodziny',
      'data_dir: nie może być puste',
      'log_level: wpisz jedną z wartości "fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent"',
    ]);
  });

  it('speak Ukrainian under language: uk', async () => {
    const problems = await problemsOf('language: uk\naccounts:\n  - login: rodzic@example.com\n    password: x\n    id: Ania\n');
    expect(problems).toEqual([
      'accounts[0].login: це адреса e-mail облікового запису сімейного порталу (Konto LIBRUS): вкажіть її в email: замість login:, щоб читати через сімейний портал, або вкажіть логін до журналу облікового запису батьків, цифри з u в кінці, як 1234567u, з його власним паролем',
      'accounts[0].id: лише малі літери, цифри та _',
    ]);
  });

  it('speak Polish when the config names no language, as the bridge will', async () => {
    const problems = await problemsOf('accounts:\n  - email: rodzic.example.com\n    password: y\n');
    expect(problems).toEqual([
      'accounts[0].email: adres e-mail, np. rodzic@example.com: login do portalu dla rodzin (Konto LIBRUS); login do dziennika, np. 1234567u, wpisuje się pod login:',
    ]);
    expect(await problemsOf('accounts:\n  - login: "1234567u"\n   password: x\n')).toEqual([expect.stringMatching(/^niepoprawny YAML w wierszu 3/)]);
  });

  it('refuse a language the bridge does not speak in Polish, the default, naming the three it does', async () => {
    const problems = await problemsOf('language: polski\naccounts:\n  - login: "1234567u"\n    password: x\n');
    expect(problems).toEqual(['language: wpisz jedną z wartości "pl"|"en"|"uk"']);
  });
});
