// The browser-like password login of spec 5.2, step by step, in the account's own cookie jar.
import { CaptchaRequiredError, ConnectionError, UnexpectedResponseError, WrongCredentialsError } from './errors.js';
import { isServerTrouble, pathOf, safeOrigin, type HttpClient, type HttpResponse } from './http.js';
import type { PortalUrls } from '../config/schema.js';

export const CLIENT_ID = '46';
const MAX_LOGIN_HOPS = 10;
const CAPTCHA_MARKERS = /captcha|recaptcha|g-recaptcha|hcaptcha/i;

export interface LoginInput {
  http: HttpClient;
  urls: PortalUrls;
  account: string;
  login: string;
  password: string;
}

/** Logs in with the password; resolves when the portal host holds an oauth_token for this jar. */
export async function passwordLogin(input: LoginInput): Promise<void> {
  const { http, urls, account } = input;
  const context = { account };
  const siblings = [urls.base_url, urls.auth_url];

  // Step 1: the portal points at the authorization endpoint (with its state).
  const entry = await http.send({ url: `${urls.base_url}/loguj/portalRodzina`, headers: navigationHeaders('none') });
  failOnServerError(entry, account);
  if (!entry.location) {
    throw new UnexpectedResponseError(entry.status, 'login step 1: no redirect to the authorization host', {
      ...context,
      url: entry.url,
    });
  }

  // Step 2: open the login page, which sets the authorization host's session cookies.
  const loginPageUrl = checkedHop(entry.location, urls, account);
  const page = await http.send({ url: loginPageUrl, headers: navigationHeaders(fetchSite(entry.url, loginPageUrl, siblings)) });
  failOnServerError(page, account);

  // Step 3: post the credentials as the login page's script would.
  const authOrigin = new URL(urls.auth_url).origin;
  const form = new URLSearchParams({ action: 'login', login: input.login, pass: input.password });
  const answer = await http.send({
    method: 'POST',
    url: `${urls.auth_url}/OAuth/Authorization?client_id=${CLIENT_ID}`,
    body: form.toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
      accept: 'application/json, text/javascript, */*; q=0.01',
      origin: authOrigin,
      referer: loginPageUrl,
      'x-requested-with': 'XMLHttpRequest',
      'sec-fetch-dest': 'empty',
      'sec-fetch-mode': 'cors',
      'sec-fetch-site': 'same-origin',
    },
  });
  failOnServerError(answer, account);
  const answerText = answer.text();
  if (CAPTCHA_MARKERS.test(answerText)) {
    throw new CaptchaRequiredError('the portal asks for a captcha at login', { ...context, url: answer.url });
  }
  const { goTo, words } = readAnswer(answerText);
  if (goTo === undefined) {
    // No goTo is a wrong login or password (spec 5.2 rule 1); the portal's words say which (live-notes 13).
    throw new WrongCredentialsError('the portal did not accept the login and password', { ...context, url: answer.url, portalMessage: words });
  }

  // Step 4: follow goTo and every Location by hand, keeping cookies, until a page has none.
  let next: string | undefined = resolve(goTo, `${urls.auth_url}/OAuth/Authorization`);
  let hops = 0;
  // The login page's script starts this navigation; a browser then sends, on each redirect, the most
  // distant relation of any URL of the chain so far to that page (Fetch Metadata).
  let site: FetchSite = 'same-origin';
  while (next !== undefined) {
    if (hops === MAX_LOGIN_HOPS) {
      throw new UnexpectedResponseError(302, `login step 4: more than ${MAX_LOGIN_HOPS} redirects`, context);
    }
    hops++;
    site = farther(site, fetchSite(loginPageUrl, next, siblings));
    const hop = await http.send({ url: checkedHop(next, urls, account), headers: navigationHeaders(site) });
    failOnServerError(hop, account);
    if (CAPTCHA_MARKERS.test(hop.text())) {
      throw new CaptchaRequiredError('the portal asks for a captcha after login', { ...context, url: hop.url });
    }
    if (hop.status >= 400) {
      throw new UnexpectedResponseError(hop.status, `login step 4: ${pathOf(hop.url)} answered ${hop.status}`, context);
    }
    if (hop.status >= 300 && hop.status < 400 && hop.location === undefined) {
      throw new UnexpectedResponseError(hop.status, 'login step 4: a redirect without a valid Location', context);
    }
    next = hop.location;
  }

  if (!(await http.cookieValue(`${urls.base_url}/`, 'oauth_token'))) {
    throw new UnexpectedResponseError(200, 'login finished without a portal session (no oauth_token)', context);
  }
}

/**
 * A login redirect may lead only to the configured portal or authorization host (scheme, host and
 * port): the cookies and the browser-like headers of the login are for them, never for a host an
 * answer names.
 */
export function loginHopAllowed(url: string, urls: Pick<PortalUrls, 'base_url' | 'auth_url'>): boolean {
  const origin = safeOrigin(url);
  return origin !== undefined && (origin === safeOrigin(urls.base_url) || origin === safeOrigin(urls.auth_url));
}

function checkedHop(url: string, urls: PortalUrls, account: string): string {
  if (loginHopAllowed(url, urls)) return url;
  throw new UnexpectedResponseError(302, `login: refused a redirect to ${safeOrigin(url) ?? 'an invalid address'} (not the portal or authorization host)`, {
    account,
  });
}

/** The most of a refusal's words kept: enough for any sentence a login page shows. */
const MAX_WORDS = 300;

/**
 * Step 3's answer: its goTo, else the portal's own words from `errors` (live-notes 13: each item a
 * string or an object {message}).
 */
function readAnswer(text: string): { goTo?: string; words?: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: no goTo, which the spec treats as wrong credentials.
    return {};
  }
  if (!json || typeof json !== 'object') return {};
  const { goTo, errors } = json as { goTo?: unknown; errors?: unknown };
  if (typeof goTo === 'string' && goTo !== '') return { goTo };
  const items = Array.isArray(errors) ? errors : errors === undefined ? [] : [errors];
  const said = items
    .map((item: unknown) => (typeof item === 'string' ? item : item && typeof item === 'object' ? (item as { message?: unknown }).message : undefined))
    .filter((m): m is string => typeof m === 'string' && m.trim() !== '')
    .map((m) => m.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim());
  const words = [...new Set(said)].join(' ').slice(0, MAX_WORDS);
  return words === '' ? {} : { words };
}

function resolve(path: string, base: string): string | undefined {
  try {
    return new URL(path, base).toString();
  } catch {
    return undefined;
  }
}

/** A 5xx or 429 during login is the service being down, never a wrong password (live-notes 3). */
function failOnServerError(res: HttpResponse, account: string): void {
  if (isServerTrouble(res.status)) {
    throw new ConnectionError(`login: ${pathOf(res.url)} answered ${res.status}`, { account, url: res.url, status: res.status });
  }
}

type FetchSite = 'none' | 'same-origin' | 'same-site' | 'cross-site';

/**
 * Sec-Fetch-Site of a request from a page at `from` to `to`. The portal and the authorization host are
 * sibling subdomains of one site (live-notes 14), so a hop between the two configured hosts is
 * same-site, whatever addresses a test gives them; other hosts are compared by their registrable part.
 */
export function fetchSite(from: string, to: string, siblings: readonly string[] = []): FetchSite {
  const a = new URL(from);
  const b = new URL(to);
  if (a.origin === b.origin) return 'same-origin';
  const origins = new Set(siblings.map((url) => new URL(url).origin));
  if (origins.has(a.origin) && origins.has(b.origin)) return 'same-site';
  return a.protocol === b.protocol && siteOf(a.hostname) === siteOf(b.hostname) ? 'same-site' : 'cross-site';
}

/** The registrable part of a host name, roughly: its last two labels (an IP address stays whole). */
function siteOf(hostname: string): string {
  if (/^[\d.]+$/.test(hostname) || hostname.includes(':')) return hostname;
  return hostname.split('.').slice(-2).join('.');
}

const DISTANCE: readonly FetchSite[] = ['none', 'same-origin', 'same-site', 'cross-site'];

function farther(a: FetchSite, b: FetchSite): FetchSite {
  return DISTANCE.indexOf(a) >= DISTANCE.indexOf(b) ? a : b;
}

function navigationHeaders(site: FetchSite): Record<string, string> {
  return {
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'accept-language': 'pl-PL,pl;q=0.9,en;q=0.8',
    'sec-fetch-dest': 'document',
    'sec-fetch-mode': 'navigate',
    'sec-fetch-site': site,
    'upgrade-insecure-requests': '1',
  };
}
