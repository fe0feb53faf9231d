// The dashboard's link to the bridge's own family board: in the add-on its ingress panel (the
// Supervisor names the slug), else this machine's http.port, or where --board-url says; never the token.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildConfig } from '../../../src/config/load.js';
import { runDashboard, type DashboardOptions } from '../../../src/app/commands/dashboard.js';
import { dashboard } from '../../../src/outputs/homeassistant/dashboard.js';
import { parseArgs } from '../../../src/cli.js';
import { ENTITIES } from '../../../src/features/index.js';
import { loadOrCreateToken } from '../../../src/outputs/web/token.js';
import { tempDir } from '../../helpers/temp.js';

interface Card {
  type: string;
  heading?: string;
  tap_action?: { action: string; navigation_path?: string; url_path?: string };
  cards?: Card[];
}
type View = { path: string; sections: Card[] };
/** The link as a parent meets it: its words, where a tap goes, and whether it opens in place (a Home Assistant path) or apart. */
type Link = { name: string | undefined; url: string | undefined; inPlace: boolean };

const ania = { id: 'ania', name: 'Ania', entities: ENTITIES };
const jan = { id: 'jan', name: 'Jan', entities: ENTITIES };

/** The family view's link to the board, if any: a heading that acts when tapped. */
function boardLink(views: View[]): Link | undefined {
  const family = views.find((v) => v.path === 'family');
  const card = family?.sections
    .flatMap((s) => s.cards ?? [])
    .find((c) => c.type === 'heading' && c.tap_action !== undefined && /board|tablica/i.test(c.heading ?? ''));
  const action = card?.tap_action;
  if (!action) return undefined;
  return { name: card.heading, url: action.action === 'navigate' ? action.navigation_path : action.url_path, inPlace: action.action === 'navigate' };
}

let supervisor: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (supervisor ? supervisor.close(() => resolve()) : resolve()));
  supervisor = undefined;
});

async function printed(
  http: { port: number; bind?: string },
  extra: Partial<DashboardOptions> = {},
): Promise<{ views: View[]; out: string; err: string; token: string }> {
  const dataDir = await tempDir();
  const token = (await loadOrCreateToken(dataDir)).value;
  const config = await buildConfig({ accounts: [{ login: '1234567u', password: 'x', id: 'ania' }], data_dir: dataDir, http }, 'test', { env: {} });
  let out = '';
  let err = '';
  const code = await runDashboard({ config, out: { write: (t: string) => (out += t) }, err: { write: (t: string) => (err += t) }, ...extra });
  expect(code).toBe(0);
  return { views: (parse(out, { version: '1.1' }) as { views: View[] }).views, out, err, token };
}

describe('the link to the family board', () => {
  it('comes after the children on the family view: a path navigates, an address opens', () => {
    const byPath = dashboard([ania, jan], 'pl', { boardUrl: '/hassio/ingress/abc_dziennik2mqtt' }) as { views: View[] };
    const family = byPath.views[0]!;
    // The children's columns stay first and unchanged.
    expect(family.sections.slice(0, 2).map((s) => (s.cards![0] as { heading?: string }).heading)).toEqual(['Ania', 'Jan']);
    expect(boardLink(byPath.views)).toEqual({ name: 'Tablica rodziny', url: '/hassio/ingress/abc_dziennik2mqtt', inPlace: true });
    const byUrl = dashboard([ania], 'en', { boardUrl: 'http://192.168.1.5:8099/' }) as { views: View[] };
    expect(boardLink(byUrl.views)).toEqual({ name: 'Family board', url: 'http://192.168.1.5:8099/', inPlace: false });
    expect(boardLink((dashboard([ania]) as { views: View[] }).views)).toBeUndefined();
  });

  it("points by default at this machine's http.port, without the token", async () => {
    const { views, out, token } = await printed({ port: 8123, bind: '127.0.0.1' });
    expect(boardLink(views)?.url).toBe('http://127.0.0.1:8123/');
    expect(out).not.toContain(token);
  });

  it('is left out in a container (its own address is not the one to type), saying why', async () => {
    const { views, err } = await printed({ port: 8099 }, { container: true });
    expect(boardLink(views)).toBeUndefined();
    expect(err).toContain('--board-url');
    const outside = await printed({ port: 8099 }, { container: false });
    expect(boardLink(outside.views)?.url).toMatch(/^http:\/\/\d+\.\d+\.\d+\.\d+:8099\/$/);
  });

  it('is left out with the web server off, and --board-url overrides', async () => {
    expect(boardLink((await printed({ port: 0 })).views)).toBeUndefined();
    const chosen = await printed({ port: 8099 }, { boardUrl: 'https://szkola.example.org/' });
    expect(boardLink(chosen.views)?.url).toBe('https://szkola.example.org/');
    expect(parseArgs(['dashboard', '--board-url', '/hassio/ingress/x']).boardUrl).toBe('/hassio/ingress/x');
    expect(() => parseArgs(['dashboard', '--board-url', 'javascript:alert(1)'])).toThrow(/board-url/);
  });

  it('in the add-on opens its ingress panel, by the slug the Supervisor gives; no link when it cannot say', async () => {
    let auth: string | undefined;
    supervisor = createServer((req, res) => {
      auth = req.headers.authorization;
      res.setHeader('Content-Type', 'application/json');
      res.end(req.url === '/addons/self/info' ? JSON.stringify({ result: 'ok', data: { slug: 'a0d7b954_dziennik2mqtt' } }) : '{}');
    });
    await new Promise<void>((resolve) => supervisor!.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(supervisor.address() as AddressInfo).port}`;
    process.env.SUPERVISOR_TOKEN = 'sv-token';
    try {
      const { views } = await printed({ port: 8099 }, { addon: true, supervisor: { baseUrl } });
      expect(boardLink(views)?.url).toBe('/hassio/ingress/a0d7b954_dziennik2mqtt');
      expect(auth).toBe('Bearer sv-token');
      const away = await printed({ port: 8099 }, { addon: true, supervisor: { baseUrl: 'http://127.0.0.1:1' } });
      expect(boardLink(away.views)).toBeUndefined();
      expect(away.err).toContain('--board-url');
    } finally {
      delete process.env.SUPERVISOR_TOKEN;
    }
  });
});
