// `dashboard`: prints the wall-tablet dashboard for the configured children it knows. The children and their
// entities are what the bridge itself would announce: the features' entities for each account and the
// child's identity saved in data_dir (read only, no login), so the dashboard can name nothing the
// bridge does not publish.
import { AccountChild } from './poller/child.js';
import { accountEntities } from './features/index.js';
import { dashboardYaml, type DashboardChild, type DashboardLang } from './ha/dashboard.js';
import { silentLogger } from './util/log.js';
import type { Config } from './config/schema.js';

export interface DashboardOptions {
  config: Config;
  out: { write(text: string): unknown };
  err: { write(text: string): unknown };
  /** Overrides the config's `language` (the `--lang` option). */
  lang?: DashboardLang;
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
  options.out.write(dashboardYaml(children, options.lang ?? options.config.language));
  return 0;
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
