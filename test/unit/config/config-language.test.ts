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
    const problems = await problemsOf('accounts:\n  - login: "1234567u"\n    password: #tajne123\n');
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
});
