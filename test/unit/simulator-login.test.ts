// The simulator's login flow (spec 5.2, 4.2), driven by hand step by step over real HTTP.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PortalSimulator } from '../../src/simulator/index.js';
import { follow, loginForm, loginHeaders, logIn, openLoginPage, TinyBrowser } from '../helpers/simulator.js';

const ANIA = { login: '1234567u', password: 'demo-ania' };
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

function postLogin(browser: TinyBrowser, body: string, headers = loginHeaders(sim.urls.auth_url)): Promise<Response> {
  return browser.request(`${sim.urls.auth_url}/OAuth/Authorization?client_id=46`, { method: 'POST', headers, body });
}

describe('login steps by hand', () => {
  it('walks steps 1-4 and ends with the portal session cookies', async () => {
    const browser = new TinyBrowser();
    const { base_url, auth_url } = sim.urls;
    expect(new Set(Object.values(sim.urls).map((u) => new URL(u).hostname)).size).toBe(5);

    const first = await browser.get(`${base_url}/loguj/portalRodzina`);
    expect(first.status).toBe(302);
    const location = new URL(first.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(`${auth_url}/OAuth/Authorization`);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ client_id: '46', response_type: 'code', scope: 'mydata' });
    expect(location.searchParams.get('state')).toMatch(/^[0-9a-f]{16,}$/);

    const second = await browser.get(location.toString());
    expect(second.status).toBe(200);
    const setCookies = second.headers.getSetCookie();
    expect(setCookies.find((c) => c.startsWith('DeviceCookie='))).toMatch(/Path=\/OAuth; Max-Age=31536000/);
    expect(setCookies.find((c) => c.startsWith('AUTHSESSID='))).toMatch(/Path=\/;/);

    const third = await postLogin(browser, loginForm(ANIA.login, ANIA.password));
    expect(third.status).toBe(200);
    expect(await third.json()).toEqual({ status: 'ok', goTo: '/OAuth/Authorization/2FA?client_id=46' });
    expect(sim.logins(ANIA.login)).toBe(1);
    expect(browser.cookie(base_url, 'oauth_token')).toBeUndefined();

    const { res, hops } = await follow(browser, `${auth_url}/OAuth/Authorization/2FA?client_id=46`);
    expect(res.status).toBe(200);
    expect(hops).toBeGreaterThanOrEqual(3);
    expect(browser.cookie(base_url, 'oauth_token')).toMatch(/^[0-9a-f]{40}$/);
    expect(browser.cookie(base_url, 'DZIENNIKSID')).toBeTruthy();
    expect(browser.cookie(base_url, 'SDZIENNIKSID')).toBeTruthy();
    expect(browser.cookie(auth_url, 'oauth_token')).toBeUndefined();
    const hosts = sim.requests.map((r) => `${r.host} ${r.method} ${r.path} ${r.status}`);
    expect(hosts.slice(0, 4)).toEqual([
      'portal GET /loguj/portalRodzina 302',
      'auth GET /OAuth/Authorization 200',
      'auth POST /OAuth/Authorization 200',
      'auth GET /OAuth/Authorization/2FA 302',
    ]);
    expect(hosts.at(-1)).toMatch(/^portal GET \S+ 200$/);
    expect(sim.requests.at(-1)?.login).toBe(ANIA.login);
  });

  it('ends the chain with oauth_token Max-Age=600 set on the portal host', async () => {
    const browser = await openLoginPage(sim);
    const answer = (await (await postLogin(browser, loginForm(ANIA.login, ANIA.password))).json()) as { goTo: string };
    let url = new URL(answer.goTo, sim.urls.auth_url).toString();
    const tokenCookies: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await browser.get(url);
      tokenCookies.push(...res.headers.getSetCookie().filter((c) => c.startsWith('oauth_token=')));
      const next = res.headers.get('location');
      if (!next) break;
      url = new URL(next, url).toString();
    }
    expect(tokenCookies.length).toBeGreaterThan(0);
    for (const c of tokenCookies) expect(c).toMatch(/Max-Age=600/);
  });

  it('keeps an existing DeviceCookie instead of issuing a new one', async () => {
    const browser = await openLoginPage(sim);
    const device = browser.cookie(sim.urls.auth_url, 'DeviceCookie');
    const again = await browser.get(`${sim.urls.auth_url}/OAuth/Authorization?client_id=46&response_type=code&scope=mydata&state=x`);
    expect(again.headers.getSetCookie().some((c) => c.startsWith('DeviceCookie='))).toBe(false);
    expect(browser.cookie(sim.urls.auth_url, 'DeviceCookie')).toBe(device);
  });

  it('refuses step 3 without the browser-like headers or without the step 2 cookie', async () => {
    const browser = await openLoginPage(sim);
    const headers = loginHeaders(sim.urls.auth_url);
    const form = loginForm(ANIA.login, ANIA.password);
    const { 'X-Requested-With': _, ...noXhr } = headers;
    expect((await postLogin(browser, form, noXhr)).status).toBe(400);
    expect((await postLogin(browser, form, { ...headers, Origin: 'http://elsewhere.example' })).status).toBe(403);
    const { Referer: __, ...noReferer } = headers;
    expect((await postLogin(browser, form, noReferer)).status).toBe(403);
    expect((await postLogin(browser, form, { ...headers, 'User-Agent': 'node' })).status).toBe(403);
    const stranger = await postLogin(new TinyBrowser(), form);
    expect(stranger.status).toBe(400);
    expect(await stranger.json()).not.toHaveProperty('goTo');
    expect(sim.logins()).toBe(0);
  });

  it('answers a wrong password without goTo and counts no login', async () => {
    const browser = await openLoginPage(sim);
    const res = await postLogin(browser, loginForm(ANIA.login, 'wrong'));
    expect(res.status).toBe(401);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).not.toHaveProperty('goTo');
    expect(JSON.stringify(body)).toContain('Nieprawidłowy login i/lub hasło.');
    expect(sim.logins(ANIA.login)).toBe(0);
    expect(sim.requests.at(-1)).toMatchObject({ host: 'auth', method: 'POST', login: ANIA.login, status: 401 });
  });

  it('accepts a changed password only after the change', async () => {
    sim.account(ANIA.login).password = 'new-secret';
    await expect(logIn(sim, ANIA.login, ANIA.password)).rejects.toThrow(/step 3 refused/);
    await expect(logIn(sim, ANIA.login, 'new-secret')).resolves.toBeInstanceOf(TinyBrowser);
    expect(sim.logins(ANIA.login)).toBe(1);
  });

  it('demands a captcha in step 3 when asked, even for the right password', async () => {
    sim.requireCaptcha(ANIA.login, 'login');
    const browser = await openLoginPage(sim);
    const text = await (await postLogin(browser, loginForm(ANIA.login, ANIA.password))).text();
    expect(text).toContain('g-recaptcha');
    expect(JSON.parse(text)).not.toHaveProperty('goTo');
    expect(sim.logins()).toBe(0);
    sim.requireCaptcha(ANIA.login, false);
    await expect(logIn(sim, ANIA.login, ANIA.password)).resolves.toBeInstanceOf(TinyBrowser);
  });

  it("applies a '*' captcha to every login", async () => {
    sim.requireCaptcha('*', 'login');
    await expect(logIn(sim, '7654321u', 'demo-janek')).rejects.toThrow(/g-recaptcha/);
  });

  it('shows a captcha page inside the redirect chain when asked', async () => {
    sim.requireCaptcha(ANIA.login, 'redirect');
    const browser = await openLoginPage(sim);
    const res = await postLogin(browser, loginForm(ANIA.login, ANIA.password));
    const { goTo } = (await res.json()) as { goTo: string };
    const end = await follow(browser, new URL(goTo, sim.urls.auth_url).toString());
    expect(end.res.status).toBe(200);
    expect(end.body).toContain('g-recaptcha');
    expect(browser.cookie(sim.urls.base_url, 'oauth_token')).toBeUndefined();
    expect(sim.logins(ANIA.login)).toBe(1);
  });

  it('redirects forever in step 4 when the loop is on', async () => {
    sim.setRedirectLoop(true);
    const browser = await openLoginPage(sim);
    const { goTo } = (await (await postLogin(browser, loginForm(ANIA.login, ANIA.password))).json()) as { goTo: string };
    await expect(follow(browser, new URL(goTo, sim.urls.auth_url).toString(), 10)).rejects.toThrow(/more than 10 redirects/);
    expect(sim.count({ host: 'auth', method: 'GET', path: /^\/OAuth\/Authorization\/2FA/ })).toBe(11);
    sim.setRedirectLoop(false);
    await expect(logIn(sim, ANIA.login, ANIA.password)).resolves.toBeInstanceOf(TinyBrowser);
  });

  it('sends a step 4 without a logged-in auth session back to the login page', async () => {
    const browser = await openLoginPage(sim);
    const end = await follow(browser, `${sim.urls.auth_url}/OAuth/Authorization/2FA?client_id=46`);
    expect(end.res.status).toBe(200);
    expect(browser.cookie(sim.urls.base_url, 'oauth_token')).toBeUndefined();
  });

  it('answers the dead password grant with unsupported_grant_type', async () => {
    const res = await fetch(`${sim.urls.auth_url}/OAuth/Token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', client_id: '28', username: ANIA.login, password: ANIA.password }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'unsupported_grant_type' });
  });
});
