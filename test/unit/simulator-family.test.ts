// The simulator's family road (live-notes 21-26), walked by hand with the tests' tiny browser (no client
// code): the e-mail login with its form token, Me, the linked children and their bearer tokens, the API
// host's data (the gateway's, resource by resource), a token's renewal, the one-time token into the
// register web session, and the switches tests and `demo --quirks` flip.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_FAMILY, PortalSimulator, type SynergiaAccountEntry } from '../../src/simulator/index.js';
import { applyLiveQuirks, FAMILY_QUIRKS, LIVE_QUIRKS, parseQuirks } from '../../src/simulator/live-schools.js';
import { follow, gatewayGet, loginForm, loginHeaders, logIn, openLoginPage, TinyBrowser } from '../helpers/simulator.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
let sim: PortalSimulator;

beforeEach(async () => {
  sim = new PortalSimulator({ now: () => Date.parse('2026-11-18T09:10:00+01:00') });
  await sim.start();
});
afterEach(() => sim.stop());

/** The form's hidden _token, read as a browser's form would send it. */
async function openForm(browser: TinyBrowser): Promise<string> {
  const res = await browser.get(`${sim.urls.family_url}/konto-librus/login`);
  expect(res.status).toBe(200);
  const token = /name="_token" value="([^"]+)"/.exec(await res.text())?.[1];
  if (!token) throw new Error('no _token in the form');
  return token;
}

function postCredentials(browser: TinyBrowser, email: string, password: string, token: string): Promise<Response> {
  return browser.request(`${sim.urls.family_url}/konto-librus/login/action`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Referer: `${sim.urls.family_url}/konto-librus/login` },
    body: new URLSearchParams({ email, password, _token: token }).toString(),
  });
}

async function familyLogin(email = DEMO_FAMILY.email, password = DEMO_FAMILY.password): Promise<TinyBrowser> {
  const browser = new TinyBrowser();
  const res = await postCredentials(browser, email, password, await openForm(browser));
  expect(res.status).toBe(302);
  return browser;
}

async function children(browser: TinyBrowser): Promise<SynergiaAccountEntry[]> {
  const res = await browser.get(`${sim.urls.family_url}/api/v3/SynergiaAccounts`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { accounts: SynergiaAccountEntry[] }).accounts;
}

function api(path: string, token: string, method = 'GET'): Promise<Response> {
  return fetch(`${sim.urls.auth_url}/${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
}

describe('the family portal on its own address', () => {
  it('logs the e-mail in, proves it with Me, and lists both demo children with a bearer token each', async () => {
    expect(new URL(sim.urls.family_url).hostname).toBe('127.0.0.5');
    const browser = await familyLogin();
    expect((await browser.get(`${sim.urls.family_url}/api/v3/Me`)).status).toBe(200);
    const linked = await children(browser);
    expect(linked.map((c) => [c.login, c.studentName, c.state])).toEqual([
      [ANIA.login, 'Ania Kowalska', 'active'],
      [JANEK.login, 'Jan Kowalski', 'active'],
    ]);
    expect(linked.every((c) => /^[0-9a-f]{64}$/.test(c.accessToken))).toBe(true);
    expect(sim.families.loginCount(DEMO_FAMILY.email)).toBe(1);
  });

  it('sends a wrong password back to the form, and only Me says it (401)', async () => {
    const browser = new TinyBrowser();
    const res = await postCredentials(browser, DEMO_FAMILY.email, 'wrong', await openForm(browser));
    expect([res.status, res.headers.get('location')]).toEqual([302, `${sim.urls.family_url}/konto-librus/login`]);
    expect((await browser.get(`${sim.urls.family_url}/api/v3/Me`)).status).toBe(401);
    expect(sim.families.loginCount()).toBe(0);
  });

  it('refuses a POST without the form token (419) and answers a captcha page when the switch is on', async () => {
    const browser = new TinyBrowser();
    await openForm(browser);
    expect((await postCredentials(browser, DEMO_FAMILY.email, DEMO_FAMILY.password, 'forged')).status).toBe(419);
    sim.families.captcha = true;
    const page = await postCredentials(browser, DEMO_FAMILY.email, DEMO_FAMILY.password, await openForm(browser));
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/g-recaptcha/);
    expect((await browser.get(`${sim.urls.family_url}/api/v3/Me`)).status).toBe(401);
  });
});

describe('the API host by bearer token', () => {
  it('answers every resource with the gateway’s data and shapes (its own addresses in Url)', async () => {
    const token = (await children(await familyLogin()))[0]!.accessToken;
    const register = await logIn(sim, ANIA.login, ANIA.password);
    for (const resource of ['Me', 'Grades', 'Attendances', 'HomeWorks', 'LuckyNumbers', 'SchoolNotices', 'Timetables?weekStart=2026-11-16']) {
      const viaGateway = JSON.stringify((await gatewayGet(sim, register, resource)).body).replaceAll(`${sim.urls.base_url}/gateway/api/2.0`, 'API');
      const res = await api(`3.0/${resource}`, token);
      expect(res.status, resource).toBe(200);
      expect((await res.text()).replaceAll(`${sim.urls.auth_url}/3.0`, 'API'), resource).toBe(viaGateway);
    }
    expect(sim.requests.filter((r) => r.host === 'auth' && r.path === '/3.0/Grades').map((r) => r.login)).toEqual([ANIA.login]);
  });

  it('refuses Messages and a forbidden resource with 403, and a bearer never opens the cookie gateway', async () => {
    const token = (await children(await familyLogin()))[0]!.accessToken;
    expect((await api('3.0/Messages', token)).status).toBe(403);
    sim.families.forbid(ANIA.login, 'Grades');
    expect((await api('3.0/Grades', token)).status).toBe(403);
    expect((await api('3.0/Attendances', token)).status).toBe(200);
    const gateway = await fetch(`${sim.urls.base_url}/gateway/api/2.0/Me`, { headers: { Authorization: `Bearer ${token}` } });
    expect(gateway.status).toBe(401);
  });

  it('renews a token that ended with SynergiaAccounts/fresh/<login>, without a password login', async () => {
    const browser = await familyLogin();
    const old = (await children(browser))[1]!.accessToken;
    sim.families.expireTokens(JANEK.login);
    expect((await api('3.0/Me', old)).status).toBe(401);
    const fresh = await browser.get(`${sim.urls.family_url}/api/v3/SynergiaAccounts/fresh/${JANEK.login}`);
    const entry = (await fresh.json()) as SynergiaAccountEntry;
    expect(entry.login).toBe(JANEK.login);
    expect(entry.accessToken).not.toBe(old);
    expect((await api('3.0/Me', entry.accessToken)).status).toBe(200);
    expect(sim.families.loginCount()).toBe(1);
    sim.families.expireSessions();
    expect((await browser.get(`${sim.urls.family_url}/api/v3/SynergiaAccounts/fresh/${JANEK.login}`)).status).toBe(401);
  });

  it('opens the register web session with a one-time AutoLoginToken, after which /wiadomosci3 bootstraps', async () => {
    const token = (await children(await familyLogin()))[0]!.accessToken;
    const answer = await api('2.0/AutoLoginToken', token, 'POST');
    const { Token } = (await answer.json()) as { Token: string };
    const browser = new TinyBrowser();
    const path = `/loguj/token/${Token}/przenies/uczen/widok/centrum_powiadomien`;
    const opened = await browser.get(`${sim.urls.base_url}${path}`);
    expect(opened.status).toBe(302);
    expect(browser.cookie(sim.urls.base_url, 'DZIENNIKSID')).toBeTruthy();
    const { res } = await follow(browser, `${sim.urls.base_url}/wiadomosci3`);
    expect([res.status, new URL(res.url).origin]).toEqual([200, sim.urls.messages_url]);
    // Once only.
    const again = await new TinyBrowser().get(`${sim.urls.base_url}${path}`);
    expect(again.headers.get('location')).toMatch(/\/loguj\/portalRodzina$/);
  });

  it('gives a link that needs action no token, and says its state', async () => {
    sim.families.setLinkState(JANEK.login, 'requiring_an_action');
    const linked = await children(await familyLogin());
    expect(linked.map((c) => [c.login, c.state, c.accessToken === ''])).toEqual([
      [ANIA.login, 'active', false],
      [JANEK.login, 'requiring_an_action', true],
    ]);
  });
});

describe('--quirks for the family road', () => {
  it('names them one by one (all leaves them out) and turns each on', async () => {
    expect(parseQuirks('all')).toEqual([...LIVE_QUIRKS]);
    expect(parseQuirks(FAMILY_QUIRKS.join(','))).toEqual([...FAMILY_QUIRKS]);
    applyLiveQuirks(
      sim,
      DEMO_ACCOUNTS.map((a) => a.login),
      [...FAMILY_QUIRKS],
    );
    expect(sim.families.captcha).toBe(true);
    expect(sim.families.tokenLifetimeMs).toBe(10 * 60_000);
    expect(sim.families.isForbidden(ANIA.login, 'LuckyNumbers')).toBe(true);
    sim.families.captcha = false;
    expect((await children(await familyLogin())).map((c) => c.state)).toEqual(['active', 'requiring_an_action']);
    // register-broken: the register login refuses with words that are not about the password.
    const browser = await openLoginPage(sim);
    const res = await browser.request(`${sim.urls.auth_url}/OAuth/Authorization?client_id=46`, {
      method: 'POST',
      headers: loginHeaders(sim.urls.auth_url),
      body: loginForm(ANIA.login, ANIA.password),
    });
    expect(await res.json()).toEqual({ status: 'error', errors: [{ message: expect.stringContaining('153') }] });
  });
});
