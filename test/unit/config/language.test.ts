// The `language` key: Polish unless set, only pl or en, and the add-on's form passes it through.
import { describe, expect, it } from 'vitest';
import { buildConfig, ConfigError } from '../../../src/config/load.js';
import { configFromOptions } from '../../../src/config/addon.js';

const accounts = [{ login: '1234567u', password: 'x' }];
const build = (raw: Record<string, unknown>) => buildConfig({ accounts, ...raw }, 'test', { env: {} });

describe('config language', () => {
  it('is pl when not set, en when set', async () => {
    expect((await build({})).language).toBe('pl');
    expect((await build({ language: 'en' })).language).toBe('en');
  });

  it('refuses a language the bridge does not speak, naming the key', async () => {
    const error = await build({ language: 'de' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect(String((error as Error).message)).toContain('language');
  });

  it("comes from the add-on's options form, Polish when the form has none", async () => {
    const form = { accounts: [{ login: '1234567u', password: 'x' }], poll_interval: 20, fast_interval: 3, log_level: 'info' };
    const fromForm = (options: object) => buildConfig(configFromOptions(options), 'add-on options', { env: {} });
    expect((await fromForm({ ...form, language: 'en' })).language).toBe('en');
    expect((await fromForm({ ...form, language: 'pl' })).language).toBe('pl');
    expect((await fromForm(form)).language).toBe('pl');
  });
});
