// What the app needs to show its refused options in Home Assistant (interface 13.2), read leniently from
// the same form the checks refused: the family's language and the broker to publish the refusal on.
import { readFile } from 'node:fs/promises';
import type { Language } from './language.js';
import { languageOf } from './load.js';
import { configSchema, type MqttConfig } from './schema.js';
import { supervisorMqtt, type SupervisorOptions } from './supervisor.js';

export interface RefusedSetting {
  language: Language;
  /** Undefined when no broker can be named (no mqtt_url and the Supervisor names none). */
  mqtt: MqttConfig | undefined;
}

export interface RefusedSettingOptions {
  optionsPath: string;
  env: NodeJS.ProcessEnv;
  readText?: (path: string) => Promise<string>;
  supervisor?: Omit<SupervisorOptions, 'token'>;
}

/** The form's language (Polish when it names none the bridge speaks) and its broker, as far as they can be read. */
export async function refusedSetting(options: RefusedSettingOptions): Promise<RefusedSetting> {
  const text = await (options.readText ?? ((p: string) => readFile(p, 'utf8')))(options.optionsPath).catch(() => '{}');
  let form: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) form = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: the defaults below.
  }
  const word = (key: string): string | undefined => (typeof form[key] === 'string' && form[key] !== '' ? (form[key] as string) : undefined);
  const language = languageOf(word('language'));
  const url = options.env.DZIENNIK2MQTT_MQTT_URL || word('mqtt_url');
  const broker = url
    ? { url, username: word('mqtt_username') ?? '', password: word('mqtt_password') ?? '' }
    : await supervisorMqtt({ ...options.supervisor, token: options.env.SUPERVISOR_TOKEN }).catch(() => undefined);
  const mqtt = broker === undefined ? undefined : configSchema.shape.mqtt.safeParse(broker);
  return { language, mqtt: mqtt?.success ? mqtt.data : undefined };
}
