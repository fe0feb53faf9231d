// The demo's `--quirks`: each name turns on what real schools answer (live-notes 8-15), seen through
// the simulator's own HTTP answers with the tests' tiny browser (no client code).
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, PortalSimulator } from '../../src/simulator/index.js';
import { applyLiveQuirks, LIVE_QUIRKS, parseQuirks } from '../../src/simulator/live-schools.js';
import { parseArgs } from '../../src/cli.js';
import { follow, gatewayGet, loginForm, loginHeaders, logIn, TinyBrowser } from '../helpers/simulator.js';

const ANIA = DEMO_ACCOUNTS[0]!;
let sim: PortalSimulator | undefined;
afterEach(() => sim?.stop());

describe('--quirks', () => {
  it('reads a list or all, and refuses a name it does not know', () => {
    expect(parseArgs(['demo', '--quirks', 'no-lucky,moved-lesson']).quirks).toBe('no-lucky,moved-lesson');
    expect(parseQuirks('no-lucky, moved-lesson')).toEqual(['no-lucky', 'moved-lesson']);
    expect(parseQuirks('all')).toEqual([...LIVE_QUIRKS]);
    expect(() => parseQuirks('no-lucky,typo')).toThrow(/unknown quirk typo/);
  });

  it('makes the simulated school answer as live schools do', async () => {
    sim = new PortalSimulator({ now: () => Date.parse('2026-11-18T09:10:00+01:00') });
    await sim.start();
    // The login quirks (login-2026, password-leak) change how the tiny browser must log in: their own
    // tests drive them, so this one logs in by the spec's flow first and then turns every quirk on.
    const browser = await logIn(sim, ANIA.login, ANIA.password);
    applyLiveQuirks(
      sim,
      DEMO_ACCOUNTS.map((a) => a.login),
      parseQuirks('all'),
    );
    expect((await gatewayGet(sim, browser, 'LuckyNumbers')).body).toEqual({ LuckyNumber: null });
    expect((await gatewayGet(sim, browser, 'EbiblioLendings')).body).toMatchObject({ Status: 'Disabled' });
    expect((await gatewayGet<{ Units: unknown[] }>(sim, browser, 'Units')).body.Units).toHaveLength(2);
    expect((await gatewayGet<{ Averages: unknown[] }>(sim, browser, 'Grades/Averages')).body.Averages).toHaveLength(2);
    const week = await gatewayGet<{ Timetable: Record<string, Record<string, unknown>[][]> }>(sim, browser, 'Timetables?weekStart=2026-11-16');
    const left = Object.values(week.body.Timetable)
      .flat(2)
      .filter((l) => l.NewDate !== undefined);
    expect(left).toEqual([expect.objectContaining({ IsCanceled: true, NewDate: '2026-11-26' })]);
    expect(sim.messaging.bootstrapRoute).toBe('auth');
  });
});

/** x-baner as the notes describe it (live-notes 17), built here by the test itself. */
const baner = (random: number, now: number): string =>
  [String(random), String(now)].map((text) => [...text].map((c) => String.fromCharCode(c.charCodeAt(0) + 20)).join('')).join('_');

describe('--quirks login-2026,password-leak', () => {
  it('plays the live login: the page behind a redirect, x-baner, ok without goTo, requiredActions skipped', async () => {
    sim = new PortalSimulator({ now: () => Date.parse('2026-11-18T09:10:00+01:00') });
    await sim.start();
    applyLiveQuirks(
      sim,
      DEMO_ACCOUNTS.map((a) => a.login),
      parseQuirks('login-2026,password-leak'),
    );
    const { base_url, auth_url } = sim.urls;
    const browser = new TinyBrowser();
    const entry = await browser.get(`${base_url}/loguj/portalRodzina?v=1795000000`);
    const authorize = await browser.get(entry.headers.get('location') ?? '');
    expect(authorize.status).toBe(302);
    const pageUrl = `${auth_url}/OAuth/Authorization?client_id=46`;
    expect(authorize.headers.get('location')).toBe(pageUrl);
    const page = await browser.get(pageUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="pass"');

    const post = (headers: Record<string, string>) =>
      browser.request(pageUrl, { method: 'POST', headers, body: loginForm(ANIA.login, ANIA.password) });
    const without = await post(loginHeaders(auth_url));
    expect(await without.json()).toEqual({ status: 'error', errors: ['Wystąpił błąd. Odśwież stronę i spróbuj ponownie.'] });
    expect(sim.logins(ANIA.login)).toBe(0);
    const accepted = await post({ ...loginHeaders(auth_url), 'x-baner': baner(0.8868, 1795000000000) });
    expect(await accepted.json()).toEqual({ status: 'ok' });

    const perform = `${auth_url}/OAuth/Authorization/PerformLogin?client_id=46`;
    const leak = await browser.get(perform);
    expect(leak.status).toBe(200);
    expect(await leak.text()).toContain('requiredActions');
    expect((await browser.get(`${auth_url}/OAuth/Authorization/Grant?client_id=46`)).status).toBe(403);
    const skip = await browser.request(perform, { method: 'POST', headers: loginHeaders(auth_url), body: 'action=requiredActions&skip=true' });
    const goTo = ((await skip.json()) as { status: string; goTo: string }).goTo;
    await follow(browser, new URL(goTo, auth_url).toString());
    expect(browser.cookie(base_url, 'oauth_token')).toBeTruthy();
  });
});
