// The Home Assistant add-on's start-up: its flat options form (/data/options.json) becomes the same
// config object a config.yaml gives, and the broker comes from the Supervisor when none is set.
import { access, lstat, mkdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { buildConfig, ConfigError, formatPath, languageOf, refusalIn, type LoadOptions } from './load.js';
import { ADDON, ADDON_OPTIONS, messageIn, problemIn } from './problem-words.js';
import { configSchema, type Config, type ConfigInput, type FixedMessage, type LoginAccountInput } from './schema.js';
import { supervisorHostname, supervisorMqtt, SupervisorError, type MqttService, type SupervisorOptions } from './supervisor.js';
import { parsedJson } from '../util/text.js';

/** Where the Supervisor writes the options, keeps the add-on's private data, and mounts the media folder. */
export const ADDON_OPTIONS_PATH = '/data/options.json';
const ADDON_DATA_DIR = '/data';
/** The web server's port inside the add-on: config.yaml's ingress_port and its mapped port say 8099. */
export const ADDON_HTTP_PORT = 8099;
const ADDON_MEDIA_DIR = '/media/dziennik2mqtt';
/** Home Assistant's API through the Supervisor's proxy (config.yaml's `homeassistant_api: true`), with the add-on's token. */
export const SUPERVISOR_CORE_URL = 'http://supervisor/core';

/** The options form, as hassio-addon/config.yaml declares it (the Supervisor checked the types). */
interface AddonOptions {
  accounts?: { login?: string; email?: string; password?: string; id?: string; downloads?: boolean; write_messages?: boolean }[];
  messages_per_day?: number;
  messages?: { account?: string; id?: string; name?: string; to?: string; topic?: string; body?: string }[];
  poll_interval?: number;
  fast_interval?: number;
  school_interval?: number;
  quiet_hours?: string;
  downloads_max_mb?: number;
  log_level?: string;
  /** `/metrics` for Prometheus (the config's http.metrics). */
  http_metrics?: boolean;
  /** Each child's calendars and homework list made in Home Assistant (the config's homeassistant:); on unless false. */
  ha_entities?: boolean;
  /** The school year's averages and attendance in Home Assistant's statistics (the config's homeassistant.statistics); on unless false. */
  ha_statistics?: boolean;
  /** The MCP server announced to Home Assistant through the Supervisor (Assist asks the register); on unless false. */
  ha_assist?: boolean;
  language?: string;
  mqtt_url?: string;
  mqtt_username?: string;
  mqtt_password?: string;
  /** TLS to the broker (the config's mqtt.ca, mqtt.cert, mqtt.key, mqtt.reject_unauthorized), whoever named it. */
  mqtt_ca?: string;
  mqtt_cert?: string;
  mqtt_key?: string;
  mqtt_reject_unauthorized?: boolean;
}

/** True inside the add-on: the Supervisor gave a token and wrote the options file. */
export async function runningAsAddon(env: NodeJS.ProcessEnv, optionsPath = ADDON_OPTIONS_PATH): Promise<boolean> {
  if (!env.SUPERVISOR_TOKEN) return false;
  return access(optionsPath)
    .then(() => true)
    .catch(() => false);
}

/** Home Assistant's API as the app reaches it: the Supervisor's token, and the app's host name Home Assistant reaches it at. */
export interface AddonApi {
  token: string;
  hostname: string | undefined;
}

/**
 * Converts the options form to the config object that buildConfig validates. Pure. `mqtt` is the
 * broker the Supervisor named (used only when the form sets no mqtt_url); `api`, Home Assistant's API.
 */
export function configFromOptions(options: unknown, mqtt?: MqttService, api?: AddonApi) {
  return convertOptions(options, mqtt, api).raw;
}

/** An entry of the form's accounts: a login entry carries its fixed messages (the form lists them apart). */
type FormAccount =
  | { email: string; password: string; downloads?: boolean; write_messages?: boolean; messages?: undefined }
  | (LoginAccountInput & { messages: FixedMessage[] });

/**
 * The config object (`raw`), for every fixed message its place in the form's flat `messages` list
 * (`messageSlots`: `accounts[i].messages[j]`, the config's path, -> k in the form's `messages[k]`), and the
 * config paths the form spells differently (`formNames`: its fields are flat, no poll: or mqtt: groups).
 * A field the form leaves out is left out here too: the config's schema has its default.
 */
function convertOptions(options: unknown, mqtt?: MqttService, api?: AddonApi) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw refusal(['the options must be a mapping of keys'], undefined);
  }
  const o = options as AddonOptions;
  const problems: string[] = [];
  const accounts = formAccounts(o.accounts ?? [], problems);
  const messageSlots = placeMessages(o.messages ?? [], accounts, problems);
  if (problems.length > 0) throw refusal(problems, o.language);

  const broker = o.mqtt_url ? { url: o.mqtt_url, username: o.mqtt_username ?? '', password: o.mqtt_password ?? '' } : mqtt;
  const raw = {
    accounts,
    poll: {
      interval: minutes(o.poll_interval),
      fast_interval: minutes(o.fast_interval),
      school_interval: minutes(o.school_interval),
      quiet_hours: o.quiet_hours || undefined,
    },
    data_dir: ADDON_DATA_DIR,
    downloads_max_mb: o.downloads_max_mb,
    log_level: o.log_level as Config['log_level'] | undefined,
    language: o.language as Config['language'] | undefined,
    http: { port: ADDON_HTTP_PORT, bind: '0.0.0.0', ...(o.http_metrics === true ? { metrics: true } : {}) },
    messages_per_day: o.messages_per_day,
    // The calendars are fetched by Home Assistant from the app's web server, on the Supervisor's network.
    ...(o.ha_entities !== false && api
      ? {
          homeassistant: {
            url: SUPERVISOR_CORE_URL,
            token: api.token,
            statistics: o.ha_statistics !== false,
            ...(api.hostname ? { public_url: addonUrl(api.hostname) } : {}),
            // The app's MCP server reaches Home Assistant through the Supervisor's discovery (ha_assist), not the flow.
            assist: false,
          },
        }
      : {}),
    mqtt: {
      ...broker,
      ca: o.mqtt_ca || undefined,
      cert: o.mqtt_cert || undefined,
      key: o.mqtt_key || undefined,
      reject_unauthorized: o.mqtt_reject_unauthorized,
    },
  } satisfies ConfigInput;
  // The broker's fields are the form's only when the parent set mqtt_url; else the Supervisor named them.
  const tls = mqttNames('ca', 'cert', 'key', 'reject_unauthorized');
  const formNames = { ...INTERVAL_FORM_NAMES, ...tls, ...(o.mqtt_url ? mqttNames('url', 'username', 'password') : {}) };
  return { raw, messageSlots, formNames };
}

/** The form's accounts as the config's entries: a login entry (the register road) or an e-mail entry (the family road); what is wrong, in `problems`. */
function formAccounts(entries: NonNullable<AddonOptions['accounts']>, problems: string[]): FormAccount[] {
  if (entries.length === 0) problems.push('accounts: add at least one account (a login and password)');
  return entries.map((a, i): FormAccount => {
    const login = a.login?.trim();
    const email = a.email?.trim();
    if (login && email) problems.push(`accounts[${i}].email: fill in the login (the register road) or the e-mail (the family road), not both`);
    else if (!login && !email) problems.push(`accounts[${i}].login: fill in the parent's register login (like 1234567u)`);
    if (!a.password) problems.push(`accounts[${i}].password: fill in the password of that ${email && !login ? 'e-mail' : 'login'}`);
    if (login || !email) {
      const entry = { login: a.login ?? '', password: a.password ?? '', ...(a.id ? { id: a.id } : {}) };
      return { ...entry, downloads: a.downloads ?? false, write_messages: a.write_messages ?? false, messages: [] };
    }
    // An e-mail entry brings every child linked to it, with the id of its first name (the form has no list
    // of children): its downloads and write_messages go to each of them; an id cannot name them all.
    if (a.id?.trim()) {
      problems.push(
        `accounts[${i}].id: an e-mail entry brings every linked child, each named by its first name; leave id empty, or give the child a login entry of its own (its register login) to choose its id`,
      );
    }
    return { email, password: a.password ?? '', ...(a.downloads ? { downloads: true } : {}), ...(a.write_messages ? { write_messages: true } : {}) };
  });
}

/**
 * The form's flat list of fixed messages, each put in its login entry's `messages` (`accounts`, changed); where each
 * went, `accounts[i].messages[j]` -> its k in the form's `messages[k]`; what is wrong, in `problems`.
 */
function placeMessages(messages: NonNullable<AddonOptions['messages']>, accounts: FormAccount[], problems: string[]): Map<string, number> {
  const logins = accounts.filter((a) => 'login' in a);
  const messageSlots = new Map<string, number>();
  messages.forEach((m, i) => {
    if (logins.length === 0) {
      problems.push(
        `messages[${i}].account: a fixed message is sent from a login entry's account, and there is none: add the child's register login (like 1234567u) as an account of its own (it is read on the register road, the e-mail entry standing behind it), or remove the message`,
      );
      return;
    }
    const owner = messageOwner(m.account, logins, ['messages', i, 'account'], problems);
    const to = recipient(m.to ?? '', ['messages', i, 'to'], problems);
    if (owner === undefined || to === undefined) return;
    messageSlots.set(formatPath(['accounts', accounts.indexOf(owner), 'messages', owner.messages.length]), i);
    owner.messages.push({ id: m.id ?? '', name: m.name ?? '', to, topic: m.topic ?? '', body: m.body ?? '' });
  });
  return messageSlots;
}

/** The app's web server as Home Assistant reaches it on the Supervisor's network. */
const addonUrl = (hostname: string): string => `http://${hostname}:${ADDON_HTTP_PORT}`;

const INTERVAL_FORM_NAMES: Record<string, string> = {
  'poll.interval': 'poll_interval',
  'poll.fast_interval': 'fast_interval',
  'poll.school_interval': 'school_interval',
  'poll.quiet_hours': 'quiet_hours',
  downloads_max_mb: 'downloads_max_mb',
};
/** The form's names of the config's mqtt keys: `mqtt.ca` is `mqtt_ca`. */
const mqttNames = (...keys: string[]): Record<string, string> => Object.fromEntries(keys.map((key) => [`mqtt.${key}`, `mqtt_${key}`]));

/**
 * A problem found by the config's own checks ("accounts[0].messages[1].id: duplicate id") renamed to
 * the field a parent sees in the form ("messages[3].id"), so the log points at what to correct.
 */
function inFormTerms(problem: string, { messageSlots, formNames }: Omit<ReturnType<typeof convertOptions>, 'raw'>): string {
  const [, path, rest] = /^([\w.[\]]+)(: [\s\S]*)$/.exec(problem) ?? [];
  if (path === undefined || rest === undefined) return problem;
  const message = /^(accounts\[\d+\]\.messages\[\d+\])(\.to\b)?(.*)$/.exec(path);
  if (message?.[1] !== undefined) {
    const slot = messageSlots.get(message[1]);
    // `to` is one line in the form and an object in the config: its inner keys mean nothing there.
    if (slot !== undefined) return `messages[${slot}]${message[2] ?? message[3] ?? ''}${rest}`;
  }
  return `${formNames[path] ?? path}${rest}`;
}

/** What the Supervisor could not give, said in the form's language. */
function inLanguage(language: unknown): (error: unknown) => never {
  const lang = languageOf(language);
  return (error) => {
    if (error instanceof ConfigError) throw refusalIn(lang, ADDON[lang], error.problems);
    if (error instanceof SupervisorError) throw new SupervisorError(messageIn(error.message, lang), error.status, { cause: error });
    throw error;
  };
}

/** The form's refusal in the language the form chose (the Supervisor's form always has one: pl unless changed). */
function refusal(problems: string[], language: unknown): ConfigError {
  const lang = languageOf(language);
  return refusalIn(lang, ADDON_OPTIONS[lang], problems);
}

/** `to` in the form is one line: class_tutor, teacher:Name Surname or account:<id>. */
function recipient(text: string, path: (string | number)[], problems: string[]): FixedMessage['to'] | undefined {
  const value = text.trim();
  if (value === 'class_tutor') return 'class_tutor';
  const [, kind, rest] = /^(teacher|account):\s*(.*)$/.exec(value) ?? [];
  if (kind === 'teacher' && rest) return { teacher: rest.trim() };
  if (kind === 'account' && rest) return { account_id: rest.trim() };
  problems.push(`${formatPath(path)}: must be class_tutor, teacher:Name Surname or account:<id> (got "${value}")`);
  return undefined;
}

/** A message names its account by login or id; with one account it may leave it empty. */
function messageOwner<A extends { login: string; id?: string }>(
  name: string | undefined,
  accounts: A[],
  path: (string | number)[],
  problems: string[],
): A | undefined {
  const wanted = name?.trim();
  if (!wanted) {
    if (accounts.length === 1) return accounts[0];
    problems.push(`${formatPath(path)}: required when there is more than one account (the login or id of the account that sends it)`);
    return undefined;
  }
  const found = accounts.find((a) => a.login === wanted || a.id === wanted);
  if (!found)
    problems.push(
      `${formatPath(path)}: no login entry has the login or id "${wanted}" (a fixed message goes from a login entry's account; a child of an e-mail entry needs a login entry of its own for it)`,
    );
  return found;
}

/** The form's whole minutes as the config's duration; none, the config's default. */
function minutes(value: number | undefined): string | undefined {
  return value === undefined ? undefined : `${value}m`;
}

export interface AddonLoadOptions extends LoadOptions {
  optionsPath?: string;
  supervisor?: Omit<SupervisorOptions, 'token'>;
  /** False for commands that never connect (dashboard): the Supervisor is then not asked. */
  needsBroker?: boolean;
}

/** The options file's text: the Supervisor's /data/options.json unless told another. */
function optionsText(options: AddonLoadOptions): Promise<string> {
  return (options.readText ?? ((p: string) => readFile(p, 'utf8')))(options.optionsPath ?? ADDON_OPTIONS_PATH);
}

/** Reads /data/options.json, asks the Supervisor for the broker when needed, and validates. */
export async function loadAddonConfig(options: AddonLoadOptions = {}): Promise<Config> {
  const env = options.env ?? process.env;
  const path = options.optionsPath ?? ADDON_OPTIONS_PATH;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await optionsText(options));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No options to name a language: Polish, the form's default.
    throw new ConfigError(path, [problemIn(code === 'ENOENT' ? 'file not found' : code ? `cannot read (${code})` : 'not valid JSON', 'pl')]);
  }
  const o = (parsed ?? {}) as AddonOptions;
  // The environment override (DZIENNIK2MQTT_MQTT_URL) wins in buildConfig, so the Supervisor need not be asked.
  const ask = (options.needsBroker ?? true) && !o.mqtt_url && !env.DZIENNIK2MQTT_MQTT_URL;
  const broker = ask ? await supervisorMqtt({ ...options.supervisor, token: env.SUPERVISOR_TOKEN }).catch(inLanguage(o.language)) : undefined;
  const token = env.SUPERVISOR_TOKEN;
  // The app's host name, for what Home Assistant fetches from it (the calendars) or connects to (the MCP server).
  const wanted = o.ha_entities !== false || o.ha_assist !== false;
  const hostname = wanted && token ? await supervisorHostname({ ...options.supervisor, token }) : undefined;
  const api = o.ha_entities !== false && token ? { token, hostname } : undefined;
  const { raw, ...names } = convertOptions(parsed, broker, api);
  try {
    // Never ${VAR}-expanded: a password typed into the form (Ab${HOME}9) is exactly what was typed.
    const config = await buildConfig(raw, ADDON_OPTIONS.en, { ...options, expandEnv: false, brokerFrom: o.mqtt_url ? 'form' : 'supervisor' });
    // Off, the announcement is withdrawn: the token is needed either way.
    const supervisor = token ? { token, assist: o.ha_assist !== false, publicUrl: hostname ? addonUrl(hostname) : undefined } : undefined;
    return supervisor ? { ...config, supervisor } : config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const problems = error.problems.map((p) => inFormTerms(p, names));
    throw refusal(problems, o.language);
  }
}

/**
 * Downloads are written under data_dir/downloads; inside the add-on that folder is a link to
 * /media/dziennik2mqtt, so that Home Assistant's media browser (and a dashboard) can show the files
 * while the cookie jars stay private in /data. Whatever is already there under that name (a folder, a link) is kept.
 */
export async function linkDownloads(config: Config, mediaDir = ADDON_MEDIA_DIR): Promise<void> {
  if (!config.accounts.some((a) => a.downloads)) return;
  const link = join(config.data_dir, 'downloads');
  const existing = await lstat(link).catch(() => undefined);
  if (existing) return;
  await mkdir(mediaDir, { recursive: true });
  await symlink(mediaDir, link, 'dir');
}

// What the app needs to show its refused options in Home Assistant (interface 13.2), read leniently from
// the same form the checks refused: the family's language and the broker to publish the refusal on.

/**
 * The form's language (Polish when it names none the bridge speaks) and its broker, as far as they can be
 * read: `mqtt` undefined when none can be named (no mqtt_url and the Supervisor names none).
 */
export async function refusedSetting(options: AddonLoadOptions = {}) {
  const env = options.env ?? process.env;
  const text = await optionsText(options).catch(() => '{}');
  const parsed = parsedJson(text);
  // Not JSON, or not a mapping: the defaults below.
  const form = (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {}) as Record<string, unknown>;
  const word = (key: string): string | undefined => (typeof form[key] === 'string' && form[key] !== '' ? (form[key] as string) : undefined);
  const language = languageOf(word('language'));
  const url = env.DZIENNIK2MQTT_MQTT_URL || word('mqtt_url');
  const broker = url
    ? { url, username: word('mqtt_username') ?? '', password: word('mqtt_password') ?? '' }
    : await supervisorMqtt({ ...options.supervisor, token: env.SUPERVISOR_TOKEN }).catch(() => undefined);
  const mqtt = broker === undefined ? undefined : configSchema.shape.mqtt.safeParse(broker);
  return { language, mqtt: mqtt?.success ? mqtt.data : undefined };
}
