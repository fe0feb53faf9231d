// A tiny browser for talking to the simulator by hand in tests: fetch with manual redirects and a
// minimal cookie jar (host-only cookies keyed by host name, path-matched), plus the login steps 1-4.
// Written for the tests alone; it shares nothing with the portal client.
import { request, type Dispatcher } from 'undici';
import type { PortalSimulator } from '../../src/simulator/index.js';

interface Cookie {
  value: string;
  path: string;
}

export class TinyBrowser {
  /** host name -> cookie name -> cookie; ports are ignored, as browsers ignore them. */
  readonly cookies = new Map<string, Map<string, Cookie>>();

  /**
   * `dispatcher`: where the requests go instead of the sockets (the simulator's in-process one, `sim.dispatcher()`):
   * the same hosts' handlers and answers without the loopback, for a reader that logs in hundreds of times (the
   * generated worlds' reference, reference/portal.ts).
   */
  constructor(private readonly dispatcher?: Dispatcher) {}

  cookie(url: string, name: string): string | undefined {
    return this.cookies.get(new URL(url).hostname)?.get(name)?.value;
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const jar = this.cookies.get(target.hostname);
    const sent = [...(jar ?? [])]
      .filter(([, c]) => target.pathname === c.path || target.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map(([name, c]) => `${name}=${c.value}`);
    if (sent.length) headers.set('Cookie', sent.join('; '));
    const res =
      this.dispatcher === undefined
        ? await fetch(url, { ...init, headers, redirect: 'manual' })
        : await dispatched(url, init, headers, this.dispatcher);
    for (const line of res.headers.getSetCookie()) this.store(target.hostname, line);
    return res;
  }

  get(url: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(url, { headers });
  }

  private store(host: string, line: string): void {
    const [pair = '', ...attrs] = line.split(';').map((p) => p.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const path = attrs.find((a) => /^path=/i.test(a))?.slice(5) ?? '/';
    const maxAge = attrs.find((a) => /^max-age=/i.test(a))?.slice(8);
    const jar = this.cookies.get(host) ?? new Map<string, Cookie>();
    this.cookies.set(host, jar);
    if (maxAge !== undefined && Number(maxAge) <= 0) jar.delete(name);
    else jar.set(name, { value, path });
  }
}

/** One request through `dispatcher`, its answer as fetch's (a body of text only: the login form). */
async function dispatched(url: string, init: RequestInit, headers: Headers, dispatcher: Dispatcher): Promise<Response> {
  const answer = await request(url, {
    method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
    headers: Object.fromEntries(headers),
    body: init.body as string | undefined,
    dispatcher,
  });
  const told = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) for (const one of [value ?? []].flat()) told.append(name, one);
  const body = await answer.body.arrayBuffer();
  return new Response([204, 205, 304].includes(answer.statusCode) ? null : body, { status: answer.statusCode, headers: told });
}

/** The headers a browser's XHR sends with the login form (spec 5.2 step 3). */
export function loginHeaders(authUrl: string): Record<string, string> {
  return {
    'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8',
    'X-Requested-With': 'XMLHttpRequest',
    Origin: authUrl,
    Referer: `${authUrl}/OAuth/Authorization?client_id=46&response_type=code&scope=mydata`,
    'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
    'Sec-Fetch-Site': 'same-origin',
    'Sec-Fetch-Mode': 'cors',
    'Sec-Fetch-Dest': 'empty',
  };
}

export function loginForm(login: string, password: string): string {
  return new URLSearchParams({ action: 'login', login, pass: password }).toString();
}

/** Steps 1 and 2: returns the browser holding the authorization host's cookies. */
export async function openLoginPage(sim: PortalSimulator, browser = new TinyBrowser()): Promise<TinyBrowser> {
  const first = await browser.get(`${sim.urls.base_url}/loguj/portalRodzina`);
  const location = first.headers.get('location');
  if (first.status !== 302 || !location) throw new Error(`step 1 answered ${first.status}`);
  const second = await browser.get(location);
  if (second.status !== 200) throw new Error(`step 2 answered ${second.status}`);
  return browser;
}

/** Follows Location headers from a URL until an answer has none (at most `limit` hops). */
export async function follow(browser: TinyBrowser, url: string, limit = 10): Promise<{ res: Response; hops: number; body: string }> {
  let current = url;
  for (let hops = 0; ; hops++) {
    const res = await browser.get(current);
    const location = res.headers.get('location');
    if (!location) return { res, hops, body: await res.text() };
    if (hops >= limit) throw new Error(`more than ${limit} redirects`);
    current = new URL(location, current).toString();
  }
}

/** The whole login by hand (steps 1-4); returns the browser with a live portal session. */
export async function logIn(sim: PortalSimulator, login: string, password: string, fresh = new TinyBrowser()): Promise<TinyBrowser> {
  const browser = await openLoginPage(sim, fresh);
  const { auth_url } = sim.urls;
  const res = await browser.request(`${auth_url}/OAuth/Authorization?client_id=46`, {
    method: 'POST',
    headers: loginHeaders(auth_url),
    body: loginForm(login, password),
  });
  const answer = (await res.json()) as { goTo?: string };
  if (!answer.goTo) throw new Error(`step 3 refused: ${JSON.stringify(answer)}`);
  await follow(browser, new URL(answer.goTo, auth_url).toString());
  if (!browser.cookie(sim.urls.base_url, 'oauth_token')) throw new Error('no oauth_token after login');
  return browser;
}

/** GET a gateway endpoint with the browser's cookies and parse the JSON answer. */
export async function gatewayGet<T = unknown>(
  sim: PortalSimulator,
  browser: TinyBrowser,
  endpoint: string,
): Promise<{ status: number; body: T; res: Response }> {
  const res = await browser.get(`${sim.urls.base_url}/gateway/api/2.0/${endpoint}`);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, res };
}
