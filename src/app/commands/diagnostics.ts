// The diagnostics bundle (interface 9.3): one redacted JSON a family attaches to a bug report. The
// version and Node, the config with every secret replaced and every login cut to a hint, per child the
// figures its runner keeps (engine/figures-store.ts: the road, each resource's last answer, the day's
// requests and logins, the session's age, a week of problems, the last login's transcript with
// `check --trace`'s redaction), and the data folder's files and sizes. Never a password, a token or
// cookie value, nor a child's data (no grade, no message text). `dziennik2mqtt diagnostics` builds it
// from what a running (or the last) bridge saved in data_dir; the web server's /diagnostics from the
// running bridge's memory.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { redactUrl } from '../../outputs/mqtt/client.js';
import { CHANGE_FEED_FOLDER } from '../../engine/change-feed/device.js';
import { FIGURES_FOLDER, FiguresStore, type SavedFigures } from '../../engine/figures-store.js';
import { safeName } from '../../util/files.js';
import { leaseFacts, peekLease } from '../../lease/lease.js';
import { isoWarsaw } from '../../util/time.js';
import { hint } from '../../util/text.js';
import { knownNames, redact } from '../../util/redact.js';
import { calendarFeedKey, peekToken } from '../../outputs/web/token.js';
import { CALENDAR_FEED_NAMES } from '../../rules/calendar-feeds.js';
import { VERSION } from '../../util/version.js';
import { systemClock } from '../../util/clock.js';
import type { CheckOptions } from './check.js';
import type { Config } from '../../config/schema.js';
import { madeStatus, peekMade } from '../../outputs/homeassistant/made.js';
import { plCompare } from '../../rules/order.js';

export const REDACTED = '**REDACTED**';

/** Keys whose values open something: replaced whole. */
const SECRET_KEYS = new Set(['password', 'token']);
/** Keys whose values name a person's account: cut to a hint (`12…u`). */
const HINT_KEYS = new Set(['login', 'email', 'username']);
/** Folders listed as a count and a size only: their names are a child's (attachments, homework files). */
const SUMMED_FOLDERS = new Set(['downloads']);
/** Folders whose files are named by a child's register login (or its id, which may be the login): cut to a hint. */
export const LOGIN_FOLDERS = new Set([
  'sessions',
  'checked',
  'figures',
  'identity',
  'states',
  'asked',
  'copies',
  'answers',
  'subjects',
  'messages',
  'seen',
  'feeds',
  'kindergarten',
  CHANGE_FEED_FOLDER,
]);
/** A fixed message's placeholders (features/messaging/compose.ts): what the bundle says of its text. */
const PLACEHOLDER = /\{(\w+)\}/g;
/** Entries listed at most (a data folder is small; a runaway one must not make the bundle huge). */
const MAX_FILES = 500;

/** The config as loaded, every secret `**REDACTED**`, logins, e-mails and user names cut to a hint, URLs without credentials. */
export function redactConfig(config: Config): unknown {
  const walk = (value: unknown, key: string | undefined): unknown => {
    if (key === 'messages' && Array.isArray(value)) return value.map(fixedMessageShape);
    if (typeof value === 'string') {
      if (key !== undefined && SECRET_KEYS.has(key)) return value === '' ? '' : REDACTED;
      if (key !== undefined && HINT_KEYS.has(key)) return value === '' ? '' : hint(value);
      if (/^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(value)) return redactUrl(value);
      return value;
    }
    if (Array.isArray(value)) return value.map((item) => walk(item, undefined));
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return value;
  };
  return walk(config, undefined);
}

/**
 * A fixed message as the bundle says it: its id, the kind of its recipient and the placeholders it
 * uses. Never its subject or body: a parent writes the child's full name there.
 */
function fixedMessageShape(message: unknown): unknown {
  if (message === null || typeof message !== 'object') return message;
  const { id, to, topic, body } = message as { id?: unknown; to?: unknown; topic?: unknown; body?: unknown };
  const text = `${typeof topic === 'string' ? topic : ''} ${typeof body === 'string' ? body : ''}`;
  const placeholders = [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => `{${m[1] ?? ''}}`))];
  const recipient = typeof to === 'string' ? to : to !== null && typeof to === 'object' ? (Object.keys(to)[0] ?? null) : null;
  return { id, to: recipient, placeholders };
}

export interface DataFile {
  path: string;
  bytes: number;
  /** A summed folder: how many files it holds. */
  files?: number;
}

/** A file's size; 0 when it cannot be read. */
const sizeOf = async (path: string): Promise<number> => (await stat(path).catch(() => undefined))?.size ?? 0;

/** The data folder's files and sizes; the downloads summed. */
export async function dataFolderFiles(config: Config) {
  const files: DataFile[] = [];
  const sum = async (dir: string): Promise<{ files: number; bytes: number }> => {
    const inside = (await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])).filter((entry) => !entry.isDirectory());
    const sizes = await Promise.all(inside.map((e) => sizeOf(join(e.parentPath, e.name))));
    return { bytes: sizes.reduce((total, size) => total + size, 0), files: inside.length };
  };
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(join(config.data_dir, relative), { withFileTypes: true });
    for (const entry of entries.sort((a, b) => plCompare(a.name, b.name))) {
      if (files.length >= MAX_FILES) return;
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      // A file named by a login is listed under its hint: its size says what a bug report needs.
      const shown =
        LOGIN_FOLDERS.has(relative) && !entry.isDirectory()
          ? `${relative}/${hint(entry.name.replace(/\.json$/, ''))}${entry.name.endsWith('.json') ? '.json' : ''}`
          : path;
      if (entry.isDirectory() && relative === '' && SUMMED_FOLDERS.has(entry.name)) {
        files.push({ path: `${path}/`, ...(await sum(join(config.data_dir, path))) });
      } else if (entry.isDirectory()) {
        await walk(path);
      } else {
        files.push({ path: shown, bytes: await sizeOf(join(config.data_dir, path)) });
      }
    }
  };
  try {
    await walk('');
  } catch (error) {
    return { path: config.data_dir, error: (error as NodeJS.ErrnoException).code ?? 'unreadable' };
  }
  return { path: config.data_dir, files, ...(files.length >= MAX_FILES ? { truncated: true as const } : {}) };
}

const minutes = (ms: number): number => Math.max(0, Math.floor(ms / 60_000));

/** One child's part of the bundle, from its runner's figures (saved or live). */
export function childPart(figures: SavedFigures, now: number): Record<string, unknown> {
  const age = (at: number | undefined): number | null => (at === undefined ? null : minutes(now - at));
  const when = (at: number | undefined): string | null => (at === undefined ? null : isoWarsaw(at));
  const total = Object.values(figures.requests).reduce((sum, n) => sum + n, 0);
  return {
    id: figures.child,
    road: figures.road,
    figures_saved_at: when(figures.saved_at),
    session: { logged_in_at: when(figures.logged_in_at), age_minutes: age(figures.logged_in_at) },
    day: {
      date: figures.day,
      requests: total,
      requests_by_resource: sortedRecord(figures.requests),
      password_logins: figures.logins,
      failed_password_logins: figures.failed_logins,
      messaging_bootstraps: figures.bootstraps,
    },
    resources: Object.fromEntries(
      Object.entries(figures.reads)
        .sort(([a], [b]) => plCompare(a, b))
        .map(([resource, read]) => [
          resource,
          {
            status: read.status,
            at: when(read.at),
            age_minutes: age(read.at),
            last_success: when(read.ok_at),
            last_success_age_minutes: age(read.ok_at),
          },
        ]),
    ),
    problems_7_days: figures.problems.map((p) => ({ ...p, at: when(p.at) })),
    last_login:
      figures.last_login === undefined
        ? null
        : { at: when(figures.last_login.at), outcome: figures.last_login.outcome, transcript: figures.last_login.transcript },
    // The planner's rows: read from `at` on, by `by` at the latest, and why (an age, a signal that moved, a refusal that ends, a retry).
    next_reads: (figures.next_reads ?? []).map((r) => ({ row: r.row, at: when(r.at), by: when(r.by ?? r.at), why: r.why })),
    // The portal's change feed: on since when, or why not; and the changes its slow safety reads found that it never named.
    change_feed:
      figures.change_feed === undefined
        ? null
        : {
            on: figures.change_feed.on,
            road: figures.change_feed.road,
            since: when(figures.change_feed.since),
            why_not: figures.change_feed.why ?? null,
            // Changes are acknowledged once handled: what the change feed lists that waits, and why (read failed, not computed, broker away).
            last_read: when(figures.change_feed.lastRead),
            pending: figures.change_feed.pending ?? [],
            acknowledged: figures.change_feed.acknowledged ?? 0,
          },
    feed_missed: sortedRecord(figures.feed_missed ?? {}),
    // The school year the bridge goes by (interface 13.1): the dates and class of the identity last read, and when.
    school_year: figures.school_year === undefined ? null : { ...figures.school_year, read_at: when(figures.school_year.read_at) },
    // A school or a kindergarten (interface 12.2): where a kindergarten's plan comes from, or where its search stands.
    account_kind: figures.plan?.account_kind ?? 'school',
    ...(figures.plan?.plan_source === undefined ? {} : { plan_source: figures.plan.plan_source }),
    ...(figures.plan?.plan_search === undefined ? {} : { plan_search: figures.plan.plan_search }),
  };
}

function sortedRecord(record: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => plCompare(a, b)));
}

export interface BundleInput {
  config: Config;
  now: number;
  /** Where the figures come from: the running bridge's memory, or what the bridge saved. */
  source: 'running bridge' | 'saved by the bridge';
  /** The bridge's own figures (the running bridge's, or what its lock says). */
  bridge: Record<string, unknown>;
  /** Per child the bridge reads (login entries first, then the family road's), its figures (undefined when no bridge has read it yet). */
  accounts: readonly (SavedFigures | undefined)[];
  /** Logins known beside the config's (the family road's children, by their saved files). */
  logins?: readonly string[];
}

/** The bundle as a JSON text. */
export async function diagnosticsBundle(input: BundleInput): Promise<string> {
  const { config, now } = input;
  const bundle = {
    dziennik2mqtt: VERSION,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    generated_at: isoWarsaw(now),
    source: input.source,
    bridge: input.bridge,
    config: redactConfig(config),
    children: input.accounts.map((figures, i) =>
      figures === undefined ? { account: i, figures: null, note: 'no pass saved yet for this account' } : { account: i, ...childPart(figures, now) },
    ),
    data_dir: await dataFolderFiles(config),
  };
  // A login stands in a file's name (sessions/<login>.json) and is a child's id until its name is known:
  // the whole text passes the one redaction, with the config's names and secrets, the portal's listed ones,
  // the logins the saved figures were written under, and the web token with every key made from it (what
  // another's answer quoted may be kept in a file the bundle shows: homeassistant.json's last problem).
  maskWebKeys(
    config.data_dir,
    input.accounts.flatMap((figures) => figures?.child ?? []),
  );
  const names = knownNames.copy();
  names.addConfig(config);
  names.add(...(input.logins ?? []));
  return redact(`${JSON.stringify(bundle, null, 2)}\n`, names);
}

/** The web token in data_dir (read, never made) and its keys, each child's calendar feeds' among them, masked from now on. */
function maskWebKeys(dataDir: string, children: readonly string[]): void {
  const token = peekToken(dataDir);
  if (token === undefined) return;
  for (const child of children) for (const name of CALENDAR_FEED_NAMES) calendarFeedKey(token, child, name);
}

/** As `check` is run, as far as the bundle reads it. */
export type DiagnosticsOptions = Pick<CheckOptions, 'config' | 'out' | 'clock'>;

/**
 * `dziennik2mqtt diagnostics`: the bundle from what the bridge saved in data_dir (after each pass), so
 * it runs beside a running bridge without disturbing it (no lock taken, nothing written or moved).
 */
export async function runDiagnostics(options: DiagnosticsOptions): Promise<number> {
  const { config } = options;
  const now = (options.clock ?? systemClock).now();
  const lease = await peekLease(config.data_dir);
  // Every child the bridge saved figures of: the login entries', then the family road's (listed by the portal, not the config).
  const own = new Set(config.accounts.map((a) => safeName(a.login)));
  const saved = (await readdir(join(config.data_dir, FIGURES_FOLDER)).catch(() => [] as string[]))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5));
  const logins = [...config.accounts.map((a) => a.login), ...saved.filter((name) => !own.has(name)).sort()];
  const accounts = await Promise.all(logins.map((login) => new FiguresStore(config.data_dir, login).peek()));
  const { record, running = false } = lease ?? {};
  const seen = running && record ? { pid: record.pid, started_at: record.since } : {};
  const bridge = {
    running,
    ...seen,
    ...(record ? { lease: leaseFacts(record) } : {}),
    ...(config.homeassistant ? { home_assistant: madeStatus(await peekMade(config.data_dir)) } : {}),
  };
  options.out.write(await diagnosticsBundle({ config, now, source: 'saved by the bridge', bridge, accounts, logins }));
  return 0;
}
