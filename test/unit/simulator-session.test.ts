// Server-side sessions of the simulator: lifetime, refreshToken, expiry on demand, the token cookie
// re-sent on every answer, web pages, and accounts kept apart.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PortalSimulator } from '../../src/simulator/index.js';
import { gatewayGet, logIn, TinyBrowser } from '../helpers/simulator.js';

const ANIA = { login: '1234567u', password: 'demo-ania' };
const JANEK = { login: '7654321u', password: 'demo-janek' };
const H = 3_600_000;
let sim: PortalSimulator;
let now: number;

beforeEach(async () => {
  now = Date.parse('2026-11-20T08:00:00+01:00');
  sim = new PortalSimulator({ now: () => now });
  await sim.start();
});

afterEach(async () => {
  await sim.stop();
});

type Me = { Me: { Account: { Login: string }; User: { FirstName: string } } };

describe('the session', () => {
  it('re-sends the same oauth_token with Max-Age=600 (and its Expires by the portal’s clock) on every gateway answer', async () => {
    const browser = await logIn(sim, ANIA.login, ANIA.password);
    const token = browser.cookie(sim.urls.base_url, 'oauth_token');
    const { res, status } = await gatewayGet(sim, browser, 'Me');
    expect(status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('oauth_token='));
    expect(cookie).toBe(`oauth_token=${token}; Path=/; Max-Age=600; HttpOnly; SameSite=Lax; Expires=${new Date(now + 600_000).toUTCString()}`);
    expect(res.headers.get('date')).toBe(new Date(now).toUTCString());
  });

  it('answers the dead-session 401 after expireSessions, without the words Insufficient scopes', async () => {
    const browser = await logIn(sim, ANIA.login, ANIA.password);
    sim.expireSessions(ANIA.login);
    const { status, body, res } = await gatewayGet(sim, browser, 'Me');
    expect(status).toBe(401);
    expect(JSON.stringify(body)).not.toMatch(/scopes/i);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.getSetCookie().some((c) => c.startsWith('oauth_token='))).toBe(false);
  });

  it('expires only the sessions of the given login', async () => {
    const ania = await logIn(sim, ANIA.login, ANIA.password);
    const janek = await logIn(sim, JANEK.login, JANEK.password);
    sim.expireSessions(JANEK.login);
    expect((await gatewayGet(sim, ania, 'Me')).status).toBe(200);
    expect((await gatewayGet(sim, janek, 'Me')).status).toBe(401);
  });

  it('answers 401 without any session cookie', async () => {
    const { status } = await gatewayGet(sim, new TinyBrowser(), 'Me');
    expect(status).toBe(401);
  });

  it('dies 24 hours after the login', async () => {
    const browser = await logIn(sim, ANIA.login, ANIA.password);
    now += 24 * H - 1000;
    expect((await gatewayGet(sim, browser, 'Me')).status).toBe(200);
    now += 2000;
    expect((await gatewayGet(sim, browser, 'Me')).status).toBe(401);
  });

  it('refreshToken sets a new oauth_token, keeps the API working and extends the session by 24 h', async () => {
    const browser = await logIn(sim, ANIA.login, ANIA.password);
    const before = browser.cookie(sim.urls.base_url, 'oauth_token');
    now += 20 * H;
    const res = await browser.get(`${sim.urls.base_url}/refreshToken`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    const after = browser.cookie(sim.urls.base_url, 'oauth_token');
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    now += 23 * H;
    expect((await gatewayGet(sim, browser, 'Me')).status).toBe(200);
    now += 2 * H;
    expect((await gatewayGet(sim, browser, 'Me')).status).toBe(401);
  });

  it('lets the previous token work for a minute after a refresh, then not', async () => {
    const browser = await logIn(sim, ANIA.login, ANIA.password);
    const oldToken = browser.cookie(sim.urls.base_url, 'oauth_token') ?? '';
    // A fixed Cookie header: a jar would take the current token the answer re-sends.
    const withOld = () => fetch(`${sim.urls.base_url}/gateway/api/2.0/Me`, { headers: { Cookie: `oauth_token=${oldToken}` } });
    await browser.get(`${sim.urls.base_url}/refreshToken`);
    now += 30_000;
    const during = await withOld();
    expect(during.status).toBe(200);
    expect(during.headers.getSetCookie()[0]).toContain(`oauth_token=${browser.cookie(sim.urls.base_url, 'oauth_token')};`);
    now += 60_000;
    expect((await withOld()).status).toBe(401);
    expect((await gatewayGet(sim, browser, 'Me')).status).toBe(200);
  });

  it('answers refreshToken on a dead session with 401 and no new token', async () => {
    const browser = await logIn(sim, ANIA.login, ANIA.password);
    sim.expireSessions();
    const res = await browser.get(`${sim.urls.base_url}/refreshToken`);
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('can play a refresh that sets no new token', async () => {
    const browser = await logIn(sim, ANIA.login, ANIA.password);
    const before = browser.cookie(sim.urls.base_url, 'oauth_token');
    sim.setRefreshWithoutToken(true);
    const res = await browser.get(`${sim.urls.base_url}/refreshToken`);
    expect(res.status).toBe(200);
    expect(browser.cookie(sim.urls.base_url, 'oauth_token')).toBe(before);
  });

  it('serves /informacja with the register number, and redirects a dead session to the login', async () => {
    const browser = await logIn(sim, ANIA.login, ANIA.password);
    const page = await browser.get(`${sim.urls.base_url}/informacja`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toMatch(/<th>Nr w dzienniku<\/th><td>12<\/td>/);
    sim.expireSessions();
    const dead = await browser.get(`${sim.urls.base_url}/informacja`);
    expect(dead.status).toBe(302);
    expect(dead.headers.get('location')).toBe(`${sim.urls.base_url}/loguj/portalRodzina`);
  });

  it('keeps two accounts apart in separate browsers', async () => {
    const ania = await logIn(sim, ANIA.login, ANIA.password);
    const janek = await logIn(sim, JANEK.login, JANEK.password);
    const a = (await gatewayGet<Me>(sim, ania, 'Me')).body;
    const j = (await gatewayGet<Me>(sim, janek, 'Me')).body;
    expect(a.Me.User.FirstName).toBe('Ania');
    expect(j.Me.User.FirstName).toBe('Jan');
    expect(a.Me.Account.Login).toBe(ANIA.login);
    sim.account(ANIA.login).setLuckyNumber(3);
    sim.account(JANEK.login).setLuckyNumber(9);
    type Lucky = { LuckyNumber: { LuckyNumber: number } };
    expect((await gatewayGet<Lucky>(sim, ania, 'LuckyNumbers')).body.LuckyNumber.LuckyNumber).toBe(3);
    expect((await gatewayGet<Lucky>(sim, janek, 'LuckyNumbers')).body.LuckyNumber.LuckyNumber).toBe(9);
    expect(sim.logins()).toBe(2);
    expect(sim.count({ login: JANEK.login, host: 'portal', path: /^\/gateway/ })).toBe(2);
  });
});
