// `dashboard`: prints the wall-tablet dashboard for the configured children it knows. The children and their
// entities are what the bridge itself would announce: the features' entities for each account and the
// child's identity saved in data_dir (read only, no login), so the dashboard can name nothing the
// bridge does not publish.
import { AccountChild } from './poller/child.js';
import { accountEntities } from './features/index.js';
import { dashboardYaml, type DashboardChild, type DashboardLang } from './ha/dashboard.js';
import { silentLogger } from './util/log.js';
import { supervisorSelfSlug, type SupervisorOptions } from './config/supervisor.js';
import { HOST_PLACEHOLDER, webBaseUrl } from './web/token.js';
import type { Config } from './config/schema.js';

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
  const { children, unknown } = await announcedChildren(options.config);
  if (unknown.length > 0) {
    // The known children still get their dashboard; the missing ones are named with what to do.
    options.err.write(
      `dashboard: the child of ${unknown.map((l) => `login ${l}`).join(', ')} is not known yet${children.length > 0 ? ' and is left out' : ''}. ` +
        'Run `dziennik2mqtt check` or run the bridge once so that it learns the child\'s name (or give the account an id in the ' +
        'config), then print the dashboard again.\n',
    );
  }
  if (children.length === 0) return 1;
  const boardUrl = options.boardUrl ?? (await boardUrlFor(options));
  options.out.write(dashboardYaml(children, options.lang ?? options.config.language, { boardUrl, baseTopic: options.config.mqtt.base_topic }));
  return 0;
}

/**
 * The board's address as Home Assistant's users reach it: in the add-on its ingress panel (no token
 * needed there); else this machine's address and http.port, where a tablet needs the token once
 * (then its cookie); none with the web server off.
 */
async function boardUrlFor(options: DashboardOptions): Promise<string | undefined> {
  const { http } = options.config;
  if (options.addon) {
    const slug = await supervisorSelfSlug({ token: process.env.SUPERVISOR_TOKEN, ...options.supervisor });
    if (slug) return `/hassio/ingress/${slug}`;
    options.err.write('dashboard: the Supervisor did not name this add-on, so the family board is not linked (give --board-url).\n');
    return undefined;
  }
  if (http.port === 0) return undefined;
  const base = webBaseUrl(http.bind, http.port, options.container);
  if (base.includes(HOST_PLACEHOLDER)) {
    options.err.write("dashboard: in a container the board's address outside it is not known, so the board is not linked (give --board-url http://<host>:<port>/).\n");
    return undefined;
  }
  return `${base}/`;
}

/**
 * What the bridge announces for each account, from its config and what the last run saved in
 * data_dir (the child's name). `unknown` lists the logins whose child id is not configured and not
 * yet learned.
 */
export async function announcedChildren(config: Config): Promise<{ children: DashboardChild[]; unknown: string[] }> {
  const children: DashboardChild[] = [];
  const unknown: string[] = [];
  for (const account of config.accounts) {
    const child = new AccountChild({ account, dataDir: config.data_dir, log: silentLogger(), language: config.language });
    await child.restore();
    if (account.id === undefined && !child.identity?.firstName) {
      unknown.push(account.login);
      continue;
    }
    const device = child.device(accountEntities(account));
    const name = child.identity?.firstName || (account.id ? account.id.charAt(0).toUpperCase() + account.id.slice(1) : device.name);
    children.push({ id: device.id, name, entities: device.entities });
  }
  return { children, unknown };
}
