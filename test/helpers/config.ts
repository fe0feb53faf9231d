// A config built from one account and the keys a test gives, and the message of one that is refused.
import { expect } from 'vitest';
import { buildConfig, ConfigError } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';

const accounts = [{ login: '1234567u', password: 'x' }];

export const buildMinimal = (raw: Record<string, unknown>): Promise<Config> => buildConfig({ accounts, ...raw }, 'test', { env: {} });

/** The ConfigError's message for a config that must be refused (the test fails if it is accepted). */
export async function refusal(raw: Record<string, unknown>): Promise<string> {
  // Refused in English, the language these tests read; a config naming no language is refused in Polish.
  const error = await buildMinimal({ language: 'en', ...raw }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return String((error as Error).message);
}
