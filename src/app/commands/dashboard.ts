// `dashboard`: prints the wall-tablet dashboard for the configured children it knows. The children and their
// entities are what the bridge itself would announce: the features' entities for each account and what the
// bridge (or `check`) saved in data_dir (read only, no login): each child's identity, and the children the
// family portal listed for an `email` entry, the modules the portal refuses each child (their entities
// leave the device, so their boxes leave the dashboard), the entities that follow the data (each subject's
// average, which the school year's graph names) and whether the child is a kindergarten's (its
// card then shows a kindergarten's day). So the dashboard can name nothing the bridge does not publish.
import { AccountChild } from '../../runner/child.js';
import { familySessionName, linkedAccounts, loginKey } from '../../runner/family-road.js';
import { accountEntities, FEATURES } from '../../features/index.js';
import type { EntityDef } from '../../features/kit/entities.js';
import { dashboardYaml, type DashboardChild, type DashboardLang } from '../../outputs/homeassistant/dashboard.js';
import { loadLinkedChildren } from '../../runner/linked-children.js';
import { AbsentModules } from '../../features/kit/modules.js';
import { AnsweredListsStore, RefusedModulesStore } from '../../portal/login-records.js';
import { FiguresStore } from '../../engine/figures-store.js';
import type { AccountKind } from '../../features/timetable/kindergarten.js';
import { silentLogger } from '../../util/log.js';
import { supervisorSelfSlug, type SupervisorOptions } from '../../config/supervisor.js';
import { HOST_PLACEHOLDER, webBaseUrl } from '../../outputs/web/token.js';
import type { AccountConfig, Config } from '../../config/schema.js';

export interface DashboardOptions {
  config: Config;
  out: { write(text: string): unknown };
  err: { write(text: string): unknown };
  /** Overrides the config's `language` (the `--lang` option). */
  lang?: DashboardLang;
  /** Where the link to the family board goes (`--board-url`); by default see boardUrlFor. */
  boardUrl?: string;
  /** Running as the Home Assistant add-on: the board is its ingress panel. */
  addon?: boolean;
  supervisor?: Omit<SupervisorOptions, 'token'>;
  /** Whether this runs in a container (default: looked up); tests set it. */
  container?: boolean;
}

export async function runDashboard(options: DashboardOptions): Promise<number> {
  const board = options.boardUrl === undefined ? await boardUrlFor(options) : { url: options.boardUrl };
  const made = await makeDashboard(options.config, { lang: options.lang, boardUrl: board.url });
  for (const note of [...made.notes, ...(board.note ? [board.note] : [])]) options.err.write(`dashboard: ${note}\n`);
  if (made.text === undefined) return 1;
  options.out.write(made.text);
  return 0;
}

/**
 * The dashboard of the children known so far (the running bridge writes it too, dashboard-file.ts), or why
 * not: `text` undefined when no child is known; `notes` say what is left out and why.
 */
export async function makeDashboard(config: Config, extras: { lang?: DashboardLang; boardUrl?: string }, announced?: Announced) {
  const { children, unknown, unlisted } = announced ?? (await announcedChildren(config));
  const notes: string[] = [];
  // The known children still get their dashboard; the missing ones are named with what to do.
  const leftOut = children.length > 0 ? ' and is left out' : '';
  if (unknown.length > 0) {
    notes.push(
      `the child of ${unknown.map((l) => `login ${l}`).join(', ')} is not known yet${leftOut}. Run \`dziennik2mqtt check\` or run the bridge once so that it ` +
        "learns the child's name (or give the account an id in the config), then print the dashboard again.",
    );
  }
  if (unlisted.length > 0) {
    // Named by the entry's place, as the log names it, never by the e-mail.
    notes.push(
      `the children of the e-mail entry ${unlisted.join(', ')} are not known yet${children.length > 0 ? ' and are left out' : ''}. Run \`dziennik2mqtt check\` ` +
        "or run the bridge once so that it lists them from the family portal (or list them under the entry's children: with their ids), then print the dashboard again.",
    );
  }
  if (children.length === 0) return { text: undefined, children, notes };
  const text = dashboardYaml(children, extras.lang ?? config.language, {
    boardUrl: extras.boardUrl,
    baseTopic: config.mqtt.base_topic,
    statistics: config.homeassistant?.statistics === true,
  });
  return { text, children, notes };
}

/**
 * The board's address as Home Assistant's users reach it: in the add-on its ingress panel (no token
 * needed there); else this machine's address and http.port, where a tablet needs the token once
 * (then its cookie); none with the web server off. `note` says why there is none when a person would
 * expect one.
 */
export async function boardUrlFor(options: Pick<DashboardOptions, 'config' | 'addon' | 'supervisor' | 'container'>) {
  const { http } = options.config;
  if (options.addon) {
    const slug = await supervisorSelfSlug({ token: process.env.SUPERVISOR_TOKEN, ...options.supervisor });
    if (slug) return { url: `/hassio/ingress/${slug}`, slug };
    return { note: 'the Supervisor did not name this add-on, so the family board is not linked (give --board-url).' };
  }
  if (http.port === 0) return {};
  const base = webBaseUrl(http.bind, http.port, options.container);
  if (base.includes(HOST_PLACEHOLDER)) {
    return {
      note: "in a container the board's address outside it is not known, so the board is not linked (give --board-url http://<host>:<port>/).",
    };
  }
  return { url: `${base}/` };
}

/** The children announcedChildren finds, and the logins and e-mail entries it cannot name yet. */
export type Announced = Awaited<ReturnType<typeof announcedChildren>>;

/**
 * What the dashboard takes of a child beyond its identity: the entities its device declares (AbsentModules.declares),
 * those that follow the data (a subject's average), its kind.
 */
export interface LiveChild {
  absent: Pick<AbsentModules, 'declares'>;
  dynamic: readonly EntityDef[];
  kind: AccountKind | undefined;
}

/** A child's LiveChild as the last run saved it in data_dir. */
async function savedChild(dataDir: string, login: string): Promise<LiveChild> {
  const kind = (await new FiguresStore(dataDir, login).load().catch(() => undefined))?.plan?.account_kind;
  const absent = new AbsentModules(
    new RefusedModulesStore(dataDir, login),
    silentLogger(),
    () => kind === 'kindergarten',
    new AnsweredListsStore(dataDir, login),
  );
  await absent.load();
  const dynamic = (await Promise.all(FEATURES.map((f) => f.savedEntities?.(dataDir, login) ?? []))).flat();
  return { absent, dynamic, kind };
}

/**
 * What the bridge announces for each child, from its config and what the last run saved in data_dir:
 * the login entries' children, then the e-mail entries' (those the family portal listed, a child with a
 * login entry of its own left to that entry, as the bridge reads it). `unknown` lists the logins whose
 * child id is not configured and not yet learned; `unlisted` the e-mail entries (by their log label)
 * whose children were never listed.
 */
export async function announcedChildren(config: Config, live?: (account: AccountConfig) => LiveChild | undefined) {
  const children: DashboardChild[] = [];
  const unknown: string[] = [];
  const unlisted: string[] = [];
  const taken = new Set(config.accounts.map((a) => loginKey(a.login)));
  const add = async (account: AccountConfig, listedName?: string): Promise<void> => {
    const child = new AccountChild({ account, dataDir: config.data_dir, log: silentLogger(), language: config.language });
    await child.restore();
    if (account.id === undefined && !child.identity?.firstName) {
      unknown.push(account.login);
      return;
    }
    // The entities the device declares (not those of the modules refused for a day; a kindergarten child's only
    // once their lists have answered) and the kind of account: as the running bridge knows them, else as the
    // last run saved them.
    const { absent, dynamic, kind } = live?.(account) ?? (await savedChild(config.data_dir, account.login));
    const announced = [...accountEntities(account), ...dynamic].filter((e) => absent.declares(e, kind !== 'kindergarten'));
    const device = child.device(announced, kind === 'kindergarten');
    const name = child.identity?.firstName || listedName || (account.id ? account.id.charAt(0).toUpperCase() + account.id.slice(1) : device.name);
    children.push({ id: device.id, name, entities: device.entities, ...(kind ? { kind } : {}) });
  };
  for (const account of config.accounts) await add(account);
  for (const [n, entry] of config.families.entries()) {
    const listed = entry.children ? [] : await loadLinkedChildren(config.data_dir, familySessionName(entry.email));
    if (listed === undefined) {
      unlisted.push(`family${n + 1}`);
      continue;
    }
    for (const account of linkedAccounts(entry, listed)) {
      if (taken.has(loginKey(account.login))) continue;
      taken.add(loginKey(account.login));
      const studentName = listed.find((c) => loginKey(c.login) === loginKey(account.login))?.studentName;
      await add(account, studentName?.split(/\s+/)[0]);
    }
  }
  return { children, unknown, unlisted };
}
