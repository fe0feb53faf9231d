// The configuration schema: the single source of truth for keys, types and defaults. The example
// config and the add-on options are checked against it.
import { isIP } from 'node:net';
import * as z from 'zod';
import type { BrokerOrigin } from './broker-origin.js';
import { parseDuration } from '../util/duration.js';
import { DEFAULT_LANGUAGE, LANGUAGES } from './language.js';
import { account, seenAt, type AccountConfig, type AccountInput, type FamilyAccountConfig } from './accounts-schema.js';

export type { AccountConfig, AccountInput, FamilyAccountConfig, FamilyChildConfig, LoginAccountInput } from './accounts-schema.js';

/** downloads_max_mb's default: the largest file saved, in MB. */
export const DEFAULT_DOWNLOADS_MAX_MB = 50;

/**
 * A duration with a floor: a typo such as `interval: 1s` would otherwise read the portal with the
 * family's login every second. Tests and the demo that want faster reading set Config.poll after
 * validation; the file never can.
 */
const duration = (fallback: string, floor: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const ms = parseDuration(text) ?? 0;
      if (ms >= (parseDuration(floor) as number)) return ms;
      const tooOften = `${text} is too often: at least ${floor}, to spare the portal and the family's account`;
      ctx.addIssue({ code: 'custom', message: ms <= 0 ? `not a duration: "${text}" (use 90s, 3m, 1h)` : tooOften });
      return z.NEVER;
    });

/** The floors under poll.interval, poll.fast_interval and poll.school_interval. */
const INTERVAL_FLOORS = { interval: '5m', fast_interval: '1m', school_interval: '2m' } as const;

/**
 * A portal address: https only, since the login and the session cookies travel over it; plain http
 * only to this machine (the simulator, the tests), never across a network.
 */
const portalUrl = z
  .string()
  .url()
  .refine((v) => isHttpsOrLoopback(v), 'must start with https:// (plain http:// only for a loopback host such as 127.0.0.1)');

/** https, or http to localhost, 127.0.0.0/8 or ::1. */
export function isHttpsOrLoopback(address: string): boolean {
  if (!URL.canParse(address)) return false;
  const parsed = new URL(address);
  if (parsed.protocol === 'https:') return true;
  if (parsed.protocol !== 'http:') return false;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

/** The path of a PEM file (buildConfig reads it: a file it cannot read is refused with its key). */
const tlsFile = z.string().min(1, 'the path of a PEM file').optional();

/** A whole number from `min` to `max`: anything else is refused with `message` (a fraction with `fraction`). */
const wholeNumber = (min: number, max: number, message: string, fraction = message) =>
  z.number({ error: message }).int(fraction).min(min, message).max(max, message);

/** A broker's address, as mqtt.js takes it; DZIENNIK2MQTT_MQTT_URL is held to the same (load.ts). */
export const BROKER_URL = /^(mqtts?|wss?|tcp|ssl):\/\//;

/** One level of an MQTT topic (the base topic, the discovery prefix): no / + # or space. */
const topicLevel = z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only');

const quietHours = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/, 'use HH:MM-HH:MM, e.g. 22:00-06:00');

/** How a subject's average is counted (grading.average): by the categories' weights, or every grade at weight 1. */
export type Averaging = 'weighted' | 'arithmetic';

/** The average from which each grade 2..6 is given; a school's statute may set other ones. */
export const DEFAULT_GRADE_THRESHOLDS: readonly number[] = [1.75, 2.75, 3.75, 4.75, 5.5];

const gradeThresholds = z
  .array(z.number().min(1, 'each threshold is at least 1').max(6, 'each threshold is at most 6'), {
    error: 'five numbers, e.g. [1.75, 2.75, 3.75, 4.75, 5.5]',
  })
  .length(5, 'five numbers: the average from which each grade 2, 3, 4, 5 and 6 is given')
  .refine((t) => t.every((v, i) => i === 0 || v > (t[i - 1] ?? 0)), 'the five numbers must increase')
  .default(() => [...DEFAULT_GRADE_THRESHOLDS]);

/** The built-in web server (interface 6.1): port 0 turns it off, so 0 never means "any free port" here. */
const http = z
  .strictObject({
    port: wholeNumber(0, 65535, 'a port number from 1 to 65535, or 0 to turn the web server off', 'a whole number').default(8099),
    bind: z
      .string()
      .refine((v) => isIP(v) !== 0, 'an IP address: 0.0.0.0 for every interface, 127.0.0.1 for this machine only')
      .default('0.0.0.0'),
    /** `/metrics` in Prometheus' text format, behind the token or its own key (interface 9.3); off by default. */
    metrics: z.boolean({ error: 'true or false' }).default(false),
  })
  .prefault({});

/** An http(s) address of Home Assistant or of the bridge as Home Assistant reaches it (a home network's, plain http too). */
const httpAddress = z
  .string()
  .url()
  .refine((v) => /^https?:\/\//.test(v), 'an http:// or https:// address')
  .transform((v) => v.replace(/\/+$/, ''));

/**
 * Home Assistant's API (interface 15.4): each child's calendars and homework list made and kept there. Off
 * without it (the app sets it from its form's `ha_entities`); `token_file` is read by buildConfig.
 */
const homeassistant = z
  .strictObject({
    url: httpAddress,
    token: z.string().min(1).optional(),
    token_file: z.string().min(1).optional(),
    /** The bridge's web server as Home Assistant reaches it: the calendars' addresses start with it. */
    public_url: httpAddress.optional(),
    /** The school year's averages and attendance imported into Home Assistant's statistics (interface 16.3); on unless false. */
    statistics: z.boolean({ error: 'true or false' }).default(true),
    /**
     * Home Assistant's Assist asks the register (interface 16.4): the bridge makes the Model Context Protocol
     * entry pointing at its MCP server (at public_url), unless the family deleted it.
     */
    assist: z.boolean({ error: 'true or false' }).default(true),
  })
  .refine((h) => (h.token === undefined) !== (h.token_file === undefined), {
    path: ['token'],
    message: 'give token (a long-lived access token of an administrator) or token_file, one of the two',
  })
  .optional();

export const configSchema = z
  .strictObject({
    mqtt: z
      .strictObject({
        url: z.string().regex(BROKER_URL, 'must start with mqtt:// or mqtts://').default('mqtt://127.0.0.1:1883'),
        username: z.string().default(''),
        password: z.string().default(''),
        base_topic: topicLevel.default('dziennik2mqtt'),
        discovery_prefix: topicLevel.default('homeassistant'),
        /** TLS to a broker of one's own (mqtts://), zigbee2mqtt's names: PEM files, read at each connect. */
        ca: tlsFile,
        cert: tlsFile,
        key: tlsFile,
        /** false: any certificate is taken (a test broker), still encrypted; unset: true, as mqtt.js has it. */
        reject_unauthorized: z.boolean({ error: 'true or false' }).optional(),
      })
      .prefault({})
      .superRefine((m, ctx) => {
        // A client certificate is nothing without its key, nor the key without it.
        if ((m.cert === undefined) !== (m.key === undefined))
          ctx.addIssue({
            code: 'custom',
            path: [m.cert === undefined ? 'cert' : 'key'],
            message: `needed with mqtt.${m.cert === undefined ? 'key' : 'cert'}: the client certificate and its private key go together`,
          });
      }),
    portal: z
      .strictObject({
        base_url: portalUrl.default('https://synergia.librus.pl'),
        auth_url: portalUrl.default('https://api.librus.pl'),
        messages_url: portalUrl.default('https://wiadomosci.librus.pl'),
        sandbox_url: portalUrl.default('https://sandbox.librus.pl'),
        /** The family portal: the e-mail account's login and its linked children (interface 9.1). */
        family_url: portalUrl.default('https://portal.librus.pl'),
      })
      .prefault({}),
    accounts: z.array(account).min(1, 'at least one account is needed'),
    poll: z
      .strictObject({
        interval: duration('20m', INTERVAL_FLOORS.interval),
        fast_interval: duration('3m', INTERVAL_FLOORS.fast_interval),
        /** News (a grade, an announcement, a plan change, a test) while lessons are on; see docs/polling.md. */
        school_interval: duration('5m', INTERVAL_FLOORS.school_interval),
        quiet_hours: quietHours.optional(),
      })
      .prefault({}),
    data_dir: z.string().min(1).default('./data'),
    /** The largest file a download saves (MB); a bigger one is refused as it streams in. */
    downloads_max_mb: wholeNumber(1, 1024, 'a whole number of megabytes, 1 to 1024').default(DEFAULT_DOWNLOADS_MAX_MB),
    log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** text: one readable line per entry; json: one JSON object per line; auto: see log.ts. */
    log_format: z.enum(['auto', 'text', 'json']).default('auto'),
    /** Names in Home Assistant, the dashboard and problem messages; entity ids never change with it. */
    language: z.enum(LANGUAGES).default(DEFAULT_LANGUAGE),
    grading: z
      .strictObject({
        thresholds: gradeThresholds,
        /** How a subject's average is counted: by the categories' weights, or a plain mean where the school says so. */
        average: z.enum(['weighted', 'arithmetic'] satisfies Averaging[], { error: 'weighted or arithmetic' }).default('weighted'),
      })
      .prefault({}),
    http,
    homeassistant,
    /** Once a day the project's release feed, for the update entity's newest release (interface 18.3); false: never read. */
    updates: z.boolean({ error: 'true or false' }).default(true),
    /** Every message a child's account sends counts: fixed ones, replies and written ones (interface 7.1). */
    messages_per_day: z
      .number({ error: 'a whole number of messages, 0 to 100' })
      .int('a whole number')
      .min(0, 'at least 0 (0: the bridge sends nothing)')
      .max(100, 'at most 100 a day')
      .default(10),
  })
  .superRefine((c, ctx) => {
    const ids = new Set<string>();
    // One login is one session, one journal and one set of files in data_dir: listed twice, the
    // bridge would run two passes and send a command's message twice. A child an e-mail entry lists may
    // also have its own login entry: one child, two roads (interface 9.1).
    const logins = new Map<string, number>();
    const emails = new Map<string, number>();
    c.accounts.forEach((a, i) => {
      if ('email' in a) {
        const first = seenAt(emails, a.email.trim().toLowerCase(), i);
        const message = `the same e-mail as accounts[${first}].email; list each account once`;
        if (first !== undefined) ctx.addIssue({ code: 'custom', path: ['accounts', i, 'email'], message });
        return;
      }
      const first = seenAt(logins, a.login.trim().toLowerCase(), i);
      const message = `the same login as accounts[${first}].login ("${a.login}"); list each account once`;
      if (first !== undefined) ctx.addIssue({ code: 'custom', path: ['accounts', i, 'login'], message });
      if (a.id === undefined) return;
      if (ids.has(a.id)) ctx.addIssue({ code: 'custom', path: ['accounts', i, 'id'], message: `duplicate id "${a.id}"` });
      ids.add(a.id);
    });
  });

type SchemaOutput = z.output<typeof configSchema>;

/** Splits `accounts` by road: the register's login entries and the family portal's e-mail entries. */
export function byRoad(accounts: SchemaOutput['accounts']): { accounts: AccountConfig[]; families: FamilyAccountConfig[] } {
  const families = accounts.filter((entry): entry is FamilyAccountConfig => 'email' in entry);
  return { accounts: accounts.filter((entry): entry is AccountConfig => !('email' in entry)), families };
}

/** The config as written (before defaults). */
export type ConfigInput = Omit<z.input<typeof configSchema>, 'accounts'> & { accounts: AccountInput[] };
/**
 * The config after validation and defaults; durations are in milliseconds. `accounts` holds the login
 * entries, `families` the e-mail entries, each in the order written.
 */
export type Config = Omit<SchemaOutput, 'accounts'> &
  ReturnType<typeof byRoad> & {
    /** Where `mqtt.url` came from (the config file's key when not said): advice names the place to change it. */
    brokerFrom?: BrokerOrigin;
    /**
     * Under the Supervisor (the app): its token, whether the MCP server is announced to Home Assistant (the
     * form's `ha_assist`; withdrawn when false) and the web server's address on the Supervisor's network.
     */
    supervisor?: AddonAnnouncement;
  };

/** What the app announces to Home Assistant through the Supervisor (interface 16.4). */
export interface AddonAnnouncement {
  token: string;
  assist: boolean;
  /** `http://<the app's host name>:8099`; undefined when the Supervisor would not name the host. */
  publicUrl: string | undefined;
  /** The Supervisor's address: http://supervisor unless told (tests point it at a model). */
  baseUrl?: string;
}
export type FixedMessage = AccountConfig['messages'][number];
export type MqttConfig = Config['mqtt'];
export type PortalUrls = Config['portal'];
export type HttpConfig = Config['http'];
export type HomeAssistantConfig = NonNullable<Config['homeassistant']>;
