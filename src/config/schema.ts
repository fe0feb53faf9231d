// The configuration schema: the single source of truth for keys, types and defaults. The example
// config and the add-on options are checked against it.
import { isIP } from 'node:net';
import { z } from 'zod';
import { parseDuration } from '../util/duration.js';
import { DEFAULT_LANGUAGE, LANGUAGES } from './language.js';

/** downloads_max_mb's default: the largest file saved, in MB. */
export const DEFAULT_DOWNLOADS_MAX_MB = 50;

/**
 * A duration with a floor: a typo such as `interval: 1s` would otherwise poll the portal with the
 * family's login every second. Tests and the demo that want faster polling set Config.poll after
 * validation; the file never can.
 */
const duration = (fallback: string, floor: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const ms = parseDuration(text);
      if (ms === undefined || ms <= 0) {
        ctx.addIssue({ code: 'custom', message: `not a duration: "${text}" (use 90s, 3m, 1h)` });
        return z.NEVER;
      }
      if (ms < (parseDuration(floor) as number)) {
        ctx.addIssue({ code: 'custom', message: `${text} is too often: at least ${floor}, to spare the portal and the family's account` });
        return z.NEVER;
      }
      return ms;
    });

/** The floors under poll.interval, poll.fast_interval and poll.school_interval. */
const POLL_FLOOR = { interval: '5m', fast_interval: '1m', school_interval: '2m' } as const;

/**
 * The register login (like 1234567u), never the family portal's e-mail: parents confuse the two
 * (spec live-notes 4); an e-mail belongs under `email:`, the family road (interface 9.1).
 */
const login = z
  .string()
  .min(1)
  .refine((v) => !v.includes('@'), {
    message:
      'this is an e-mail address (the Librus Rodzina family account): put it under email: instead of login: for the family road, ' +
      'or use the register login of the parent account, digits ending in u like 1234567u, with its own password',
  });

/** The family portal's e-mail (a "Konto LIBRUS"), never a register login. */
const email = z
  .string()
  .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'an e-mail address like rodzic@example.com (the family portal\'s login); a register login like 1234567u goes under login:');

const slug = z.string().regex(/^[a-z0-9_]+$/, 'only lowercase letters, digits and _');

const recipient = z.union([
  z.literal('class_tutor'),
  z.strictObject({ teacher: z.string().min(1) }),
  z.strictObject({ account_id: z.string().min(1) }),
]);

const fixedMessage = z.strictObject({
  id: slug,
  name: z.string().min(1),
  to: recipient,
  topic: z.string().min(1),
  body: z.string().min(1),
});

/** What a child of the bridge takes, under its own `login` entry or in an `email` entry's `children`. */
const childOptions = {
  id: slug.refine((v) => v !== 'bridge', '"bridge" is reserved for the bridge itself').optional(),
  downloads: z.boolean().default(false),
  messages: z.array(fixedMessage).default([]),
  /** Home Assistant and MQTT may reply and write free text in the parent's name (interface 7.1). */
  write_messages: z.boolean({ error: 'true or false' }).default(false),
};

const secret = { password: z.string().min(1).optional(), password_file: z.string().min(1).optional() };

/** One password or one password file; a child's fixed messages with unique ids. */
function checkSecret(a: { password?: string; password_file?: string }, ctx: z.RefinementCtx): void {
  if (a.password === undefined && a.password_file === undefined) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: 'required (or password_file)' });
  }
  if (a.password !== undefined && a.password_file !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['password_file'], message: 'give password or password_file, not both' });
  }
}

function checkMessages(messages: { id: string }[], ctx: z.RefinementCtx, at: (string | number)[] = []): void {
  const seen = new Set<string>();
  messages.forEach((m, i) => {
    if (seen.has(m.id)) ctx.addIssue({ code: 'custom', path: [...at, 'messages', i, 'id'], message: `duplicate id "${m.id}"` });
    seen.add(m.id);
  });
}

/** The register road: one child's register login (spec 5.2). */
const loginAccount = z.strictObject({ login, ...secret, ...childOptions }).superRefine((a, ctx) => {
  checkSecret(a, ctx);
  checkMessages(a.messages, ctx);
});

/** A linked child picked from an e-mail account, with its id and what it may do. */
const familyChild = z.strictObject({ login, ...childOptions }).superRefine((c, ctx) => checkMessages(c.messages, ctx));

/** The family road (live-notes 21-27): the family portal's e-mail, every linked child or those listed. */
const familyAccount = z
  .strictObject({
    email,
    ...secret,
    children: z.array(familyChild).min(1, 'list at least one child, or leave children: out for every linked child').optional(),
    /** Without `children:`, for every linked child: as a login entry's (the app's form has no list of children). */
    downloads: z.boolean({ error: 'true or false' }).optional(),
    write_messages: z.boolean({ error: 'true or false' }).optional(),
  })
  .superRefine((a, ctx) => {
    checkSecret(a, ctx);
    const seen = new Map<string, number>();
    a.children?.forEach((c, i) => {
      const key = c.login.trim().toLowerCase();
      const first = seen.get(key);
      if (first !== undefined) ctx.addIssue({ code: 'custom', path: ['children', i, 'login'], message: `the same login as children[${first}].login; list each child once` });
      else seen.set(key, i);
    });
  });

/**
 * An entry of `accounts`: `login` (the register road) or `email` (the family road), never both; the
 * entry is read by the schema of its road, so a mistake is named by the key it is about.
 */
const account = z.unknown().transform((raw, ctx): z.output<typeof loginAccount> | z.output<typeof familyAccount> => {
  const entry = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
  if (entry && 'login' in entry && 'email' in entry) {
    ctx.addIssue({ code: 'custom', path: ['email'], message: 'give login (the register road) or email (the family road), not both: one entry per road' });
    return z.NEVER;
  }
  const parsed = (entry && 'email' in entry ? familyAccount : loginAccount).safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: issue.path } as Parameters<typeof ctx.addIssue>[0]);
  return z.NEVER;
});

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
  let parsed: URL;
  try {
    parsed = new URL(address);
  } catch {
    return false;
  }
  if (parsed.protocol === 'https:') return true;
  if (parsed.protocol !== 'http:') return false;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

const quietHours = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/, 'use HH:MM-HH:MM, e.g. 22:00-06:00');

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
    port: z
      .number({ error: 'a port number from 1 to 65535, or 0 to turn the web server off' })
      .int('a whole number')
      .min(0, 'a port number from 1 to 65535, or 0 to turn the web server off')
      .max(65535, 'a port number from 1 to 65535, or 0 to turn the web server off')
      .default(8099),
    bind: z
      .string()
      .refine((v) => isIP(v) !== 0, 'an IP address: 0.0.0.0 for every interface, 127.0.0.1 for this machine only')
      .default('0.0.0.0'),
    /** `/metrics` in Prometheus' text format, behind the token or its own key (interface 9.3); off by default. */
    metrics: z.boolean({ error: 'true or false' }).default(false),
  })
  .prefault({});

export const configSchema = z
  .strictObject({
    mqtt: z
      .strictObject({
        url: z.string().regex(/^(mqtts?|wss?|tcp|ssl):\/\//, 'must start with mqtt:// or mqtts://').default('mqtt://127.0.0.1:1883'),
        username: z.string().default(''),
        password: z.string().default(''),
        base_topic: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only').default('dziennik2mqtt'),
        discovery_prefix: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only').default('homeassistant'),
      })
      .prefault({}),
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
        interval: duration('20m', POLL_FLOOR.interval),
        fast_interval: duration('3m', POLL_FLOOR.fast_interval),
        /** News (a grade, an announcement, a plan change, a test) while lessons are on; see docs/polling.md. */
        school_interval: duration('4m', POLL_FLOOR.school_interval),
        quiet_hours: quietHours.optional(),
      })
      .prefault({}),
    data_dir: z.string().min(1).default('./data'),
    /** The largest file a download saves (MB); a bigger one is refused as it streams in. */
    downloads_max_mb: z
      .number({ error: 'a whole number of megabytes, 1 to 1024' })
      .int('a whole number of megabytes, 1 to 1024')
      .min(1, 'a whole number of megabytes, 1 to 1024')
      .max(1024, 'a whole number of megabytes, 1 to 1024')
      .default(DEFAULT_DOWNLOADS_MAX_MB),
    log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** text: one readable line per entry; json: one JSON object per line; auto: see log.ts. */
    log_format: z.enum(['auto', 'text', 'json']).default('auto'),
    /** Names in Home Assistant, the dashboard and problem messages; entity ids never change with it. */
    language: z.enum(LANGUAGES).default(DEFAULT_LANGUAGE),
    grading: z.strictObject({ thresholds: gradeThresholds }).prefault({}),
    http,
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
    // bridge would poll twice and send a command's message twice. A child an e-mail entry lists may
    // also have its own login entry: one child, two roads (interface 9.1).
    const logins = new Map<string, number>();
    const emails = new Map<string, number>();
    c.accounts.forEach((a, i) => {
      if ('email' in a) {
        const key = a.email.trim().toLowerCase();
        const first = emails.get(key);
        if (first !== undefined) ctx.addIssue({ code: 'custom', path: ['accounts', i, 'email'], message: `the same e-mail as accounts[${first}].email; list each account once` });
        else emails.set(key, i);
        return;
      }
      const key = a.login.trim().toLowerCase();
      const first = logins.get(key);
      if (first !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['accounts', i, 'login'], message: `the same login as accounts[${first}].login ("${a.login}"); list each account once` });
      } else logins.set(key, i);
      if (a.id === undefined) return;
      if (ids.has(a.id)) ctx.addIssue({ code: 'custom', path: ['accounts', i, 'id'], message: `duplicate id "${a.id}"` });
      ids.add(a.id);
    });
  });

type SchemaOutput = z.output<typeof configSchema>;
/** A `login` entry: one child on the register road. */
export type AccountConfig = z.output<typeof loginAccount>;
/** An `email` entry: the family road to every linked child (or those of `children`). */
export type FamilyAccountConfig = z.output<typeof familyAccount>;
export type FamilyChildConfig = z.output<typeof familyChild>;

/** Splits `accounts` by road: the register's login entries and the family portal's e-mail entries. */
export function byRoad(accounts: SchemaOutput['accounts']): { accounts: AccountConfig[]; families: FamilyAccountConfig[] } {
  const logins: AccountConfig[] = [];
  const families: FamilyAccountConfig[] = [];
  for (const entry of accounts) {
    if ('email' in entry) families.push(entry);
    else logins.push(entry);
  }
  return { accounts: logins, families };
}

/** An entry of `accounts` as written: a login entry or an e-mail entry. */
export type LoginAccountInput = z.input<typeof loginAccount>;
export type AccountInput = LoginAccountInput | z.input<typeof familyAccount>;
/** The config as written (before defaults). */
export type ConfigInput = Omit<z.input<typeof configSchema>, 'accounts'> & { accounts: AccountInput[] };
/**
 * The config after validation and defaults; durations are in milliseconds. `accounts` holds the login
 * entries, `families` the e-mail entries, each in the order written.
 */
export type Config = Omit<SchemaOutput, 'accounts'> & { accounts: AccountConfig[]; families: FamilyAccountConfig[] };
export type FixedMessage = AccountConfig['messages'][number];
export type MqttConfig = Config['mqtt'];
export type PortalUrls = Config['portal'];
export type HttpConfig = Config['http'];
