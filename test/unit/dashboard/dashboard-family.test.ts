// The dashboard of a family on the family road (issue 52, item 4): `dashboard` names the children the
// bridge (or `check`) learned from the family portal, without a login of its own; the running bridge
// with a dashboard file writes it when the children are first known, not only at start, and logs where.
// The real bridge (App) against the simulator on a fake clock; what it would publish goes nowhere.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { App } from '../../../src/app/app.js';
import { runCheck } from '../../../src/app/commands/check.js';
import { buildConfig } from '../../../src/config/load.js';
import { runDashboard } from '../../../src/app/commands/dashboard.js';
import { DEMO_ACCOUNTS, DEMO_FAMILY, type PortalSimulator } from '../../../src/simulator/index.js';
import { silentLogger } from '../../../src/util/log.js';
import type { Config } from '../../../src/config/schema.js';
import { simulatorPerTest } from '../../helpers/portal.js';
import { quietApp } from '../../helpers/publisher.js';
import { tempDir } from '../../helpers/temp.js';
import type { FakeClock } from '../../helpers/clock.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
const FAMILY = { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password };

let sim: PortalSimulator;
let clock: FakeClock;
let dataDir: string;

simulatorPerTest((world) => ({ sim, clock } = world), '2026-11-18T09:10:00+01:00');
beforeEach(async () => {
  dataDir = await tempDir();
});

async function configWith(accounts: unknown[]): Promise<Config> {
  return buildConfig({ portal: sim.urls, accounts, data_dir: dataDir, http: { port: 0 } }, 'test', { env: {} });
}

/** The bridge on the fake clock; `log` gets its lines as JSON. */
const bridge = (config: Config, extra: { dashboardFile?: string; log?: string[] } = {}): Promise<App> => quietApp(config, clock, extra);

/** Moves the clock minute by minute, each pass (and each listing again) due on the way run to its end. */
async function minutes(app: App, count: number): Promise<void> {
  for (let m = 0; m <= count; m++) {
    await clock.advance(m === 0 ? 0 : 60_000);
    await Promise.all([app.listed(), ...app.runners.map((p) => p.idle())]);
  }
}

async function dashboard(config: Config): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runDashboard({ config, container: false, out: { write: (t: string) => (out += t) }, err: { write: (t: string) => (err += t) } });
  return { code, out, err };
}

const viewTitles = (yaml: string): string[] => (parse(yaml, { version: '1.1' }) as { views: { title: string }[] }).views.map((v) => v.title);

/** The messages of the log lines that say a dashboard was written. */
const written = (lines: string[]): string[] =>
  lines.map((l) => (JSON.parse(l) as { msg: string }).msg).filter((msg) => msg.includes('dashboard') && msg.includes('written'));

describe('dashboard with an e-mail entry', () => {
  it('names both children once the bridge has run, without logging in itself', async () => {
    const config = await configWith([FAMILY]);
    const before = await dashboard(config);
    expect(before.code).toBe(1);
    expect(before.out).toBe('');
    expect(before.err).toContain('the children of the e-mail entry family1 are not known yet');
    expect(before.err).toContain('run the bridge once');
    expect(before.err).not.toContain(FAMILY.email);

    const app = await bridge(config);
    await minutes(app, 1);
    await app.stop();
    const logins = sim.families.loginCount();
    const after = await dashboard(config);
    expect(after.err).toBe('');
    expect(after.code).toBe(0);
    expect(viewTitles(after.out)).toEqual(['Rodzina', 'Ania', 'Jan', 'Mostek']);
    expect(after.out).toContain('sensor.ania_lucky_number');
    expect(after.out).toContain('sensor.jan_lucky_number');
    expect(sim.families.loginCount()).toBe(logins);
  });

  it('names both children right after `check`', async () => {
    const config = await configWith([FAMILY]);
    expect(await runCheck({ config, out: { write: () => true }, log: silentLogger(), clock })).toBe(0);
    const { code, out } = await dashboard(config);
    expect(code).toBe(0);
    expect(viewTitles(out)).toEqual(['Rodzina', 'Ania', 'Jan', 'Mostek']);
  });

  it('shows a child with a login entry of its own and on the e-mail entry once, as the bridge reads it', async () => {
    const config = await configWith([{ login: ANIA.login, password: ANIA.password }, FAMILY]);
    const app = await bridge(config);
    await minutes(app, 1);
    await app.stop();
    const { code, out } = await dashboard(config);
    expect(code).toBe(0);
    expect(viewTitles(out)).toEqual(['Rodzina', 'Ania', 'Jan', 'Mostek']);
  });
});

describe('the running bridge with a dashboard file', () => {
  it('writes it when a child is first known (its first poll), says where, and not again while nothing changes', async () => {
    const file = join(dataDir, 'dashboard.yaml');
    const log: string[] = [];
    const app = await bridge(await configWith([{ login: JANEK.login, password: JANEK.password }]), { dashboardFile: file, log });
    // Its name (and so its id) comes with the first pass.
    await expect(stat(file)).rejects.toThrow();
    await minutes(app, 30);
    await app.stop();
    expect(viewTitles(await readFile(file, 'utf8'))).toEqual(['Rodzina', 'Jan', 'Mostek']);
    expect(written(log)).toEqual([`the Home Assistant dashboard for jan was written to ${file}`]);
    expect(log.join('\n')).not.toContain(JANEK.password);
  });

  it('writes it at start for an e-mail entry, and when its children are listed late', async () => {
    const file = join(dataDir, 'dashboard.yaml');
    const log: string[] = [];
    sim.failNext(2, 503, { host: 'family' });
    const app = await bridge(await configWith([FAMILY]), { dashboardFile: file, log });
    await expect(stat(file)).rejects.toThrow();
    // Listed again after 1, then 2 minutes: the second try gets the list.
    await minutes(app, 4);
    await app.stop();
    expect(viewTitles(await readFile(file, 'utf8'))).toEqual(['Rodzina', 'Ania', 'Jan', 'Mostek']);
    expect(written(log)).toEqual([`the Home Assistant dashboard for ania, jan was written to ${file}`]);
    expect(log.join('\n')).not.toContain(FAMILY.password);
    expect(log.join('\n')).not.toContain(FAMILY.email);
  });
});
