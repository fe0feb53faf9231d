// The browser-like password login, in the account's own cookie jar: spec 5.2 as the live portal runs it
// in 2026 (live-notes 16-20), the spec's own form still accepted. An answer it does not know is a
// changed login (LoginChangedError), never a wrong password.
import { atLoginStep, CaptchaRequiredError, LoginChangedError, unknownLoginPage, WrongCredentialsError, type LoginStep } from './errors.js';
import { pathOf, readJson, resolveLocation, safeOrigin, unlessDown, type HttpClient, type HttpResponse } from './http.js';
import type { PortalUrls } from '../config/schema.js';
import { PASSWORD_CHANGE_ADVISED } from './session-store.js';
import { parsedJson } from '../util/text.js';
import { redactAndCut } from '../util/redact.js';

export const CLIENT_ID = '46';
const MAX_LOGIN_HOPS = 10;

export interface LoginInput {
  http: HttpClient;
  urls: PortalUrls;
  account: string;
  login: string;
  password: string;
  /** The time for `?v=` and x-baner (default: Date.now). */
  now?: () => number;
  /** Math.random for x-baner (a test may fix it). */
  random?: () => number;
}

/** What a login learned beside the session: the portal advises changing the password (live-notes 19). */
export interface LoginOutcome {
  advice?: typeof PASSWORD_CHANGE_ADVISED;
  /** The Auth/TokenInfo answer that proved the new session (the account's resource cache keeps it). */
  proof?: unknown;
}

/** Logs in with the password; resolves once the portal host holds a session that Auth/TokenInfo accepts. */
export async function passwordLogin(input: LoginInput): Promise<LoginOutcome> {
  const flow = new LoginFlow(input);
  try {
    return await flow.run();
  } catch (error) {
    throw atLoginStep(error, flow.step);
  }
}

class LoginFlow {
  step: LoginStep = 'entry';
  private readonly siblings: string[];

  constructor(private readonly input: LoginInput) {
    this.siblings = [input.urls.base_url, input.urls.auth_url];
  }

  async run(): Promise<LoginOutcome> {
    const { http, urls } = this.input;
    const now = this.input.now ?? Date.now;
    // Step 1: the portal points at the authorization endpoint (with its state), as reached from the
    // family portal, which is a sibling of the register's hosts (live-notes 16).
    const entryUrl = `${urls.base_url}/loguj/portalRodzina?v=${Math.floor(now() / 1000)}`;
    const entry = this.checked(await http.send({ url: entryUrl, headers: navigationHeaders('same-site', FAMILY_PORTAL) }));
    if (!entry.location) throw this.changed('no redirect to the authorization host', entry);

    // Step 2: the login page, read through any redirect of the authorization URL (live-notes 16).
    this.step = 'login page';
    const { page, redirected } = await this.openLoginPage(entry.location, entry.url);
    // The credentials go to where the page led; the spec's page (no redirect) posts to its fixed address.
    const postUrl = redirected ? page.url : `${urls.auth_url}/OAuth/Authorization?client_id=${CLIENT_ID}`;

    // Step 3: post the credentials as the login page's script would.
    this.step = 'password';
    const form = new URLSearchParams({ action: 'login', login: this.input.login, pass: this.input.password });
    const answer = await this.post(postUrl, page.url, form);
    const next = this.readPasswordAnswer(answer);

    // Step 4: follow the chain to the portal, skipping an advised password change once.
    this.step = 'redirects';
    const outcome = await this.followChain(next, page.url);
    if (!(await http.cookieValue(`${urls.base_url}/`, 'oauth_token'))) {
      throw this.changed('the chain ended without a portal session (no oauth_token)');
    }

    // The new session proves itself before anything else is read (live-notes 20).
    this.step = 'session check';
    return { ...outcome, proof: await this.checkSession() };
  }

  private async openLoginPage(first: string, from: string): Promise<{ page: HttpResponse; redirected: boolean }> {
    let url = this.hop(first);
    let site = farther('same-site', fetchSite(from, url, this.siblings));
    for (let hops = 0; ; hops++) {
      const page = this.checked(await this.input.http.send({ url, headers: navigationHeaders(site) }));
      if (page.status < 300 || page.status >= 400) {
        if (page.status >= 400) throw this.changed(`${pathOf(page.url)} answered ${page.status}`, page);
        return { page, redirected: hops > 0 };
      }
      if (!page.location) throw this.changed('a redirect without a valid Location', page);
      if (hops === MAX_LOGIN_HOPS) throw this.changed(`more than ${MAX_LOGIN_HOPS} redirects`, page);
      const next = this.hop(page.location);
      site = farther(site, fetchSite(url, next, this.siblings));
      url = next;
    }
  }

  /** Where the chain goes on after the password, or why it stops. */
  private readPasswordAnswer(answer: HttpResponse): string {
    const text = answer.text();
    if (CAPTCHA_MARKERS.test(text))
      throw new CaptchaRequiredError('the portal asks for a captcha at login', { account: this.input.account, url: answer.url });
    const read = readLoginAnswer(text);
    if (read.kind === 'unknown') {
      const changed = this.changed(`${read.what} (HTTP ${answer.status})`, answer);
      // An HTML page where the login's answer belongs (a maintenance page with status 200): the portal down
      // for now, as the same page with 503 is; the session calls it a changed login once it lasts.
      throw answer.status === 200 && /^\s*</.test(text) ? unknownLoginPage(changed) : changed;
    }
    if (read.kind === 'refused') {
      if (read.aboutCredentials) {
        throw new WrongCredentialsError('the portal did not accept the login and password', {
          account: this.input.account,
          url: answer.url,
          ...(read.words === undefined ? {} : { portalMessage: read.words }),
        });
      }
      throw this.changed('the portal refused the login with words that are not about the password', answer, read.words);
    }
    // Success goes on from goTo, else from Location, else from PerformLogin (live-notes 18).
    const { auth_url } = this.input.urls;
    const next =
      read.goTo !== undefined
        ? resolveLocation(read.goTo, answer.url)
        : (answer.location ?? `${auth_url}/OAuth/Authorization/PerformLogin?client_id=${CLIENT_ID}`);
    if (next === undefined) throw this.changed('goTo is not an address', answer);
    return next;
  }

  /**
   * The login page's script starts this navigation; a browser then sends, on each redirect, the most
   * distant relation of any URL of the chain so far to that page (Fetch Metadata).
   */
  private async followChain(start: string, initiator: string): Promise<LoginOutcome> {
    const outcome: LoginOutcome = {};
    let next: string | undefined = start;
    let page = initiator;
    let site: FetchSite = 'same-origin';
    for (let hops = 0; next !== undefined; hops++) {
      if (hops === MAX_LOGIN_HOPS) throw this.changed(`more than ${MAX_LOGIN_HOPS} redirects`);
      const url = this.hop(next);
      site = farther(site, fetchSite(page, url, this.siblings));
      const res = this.checked(await this.input.http.send({ url, headers: navigationHeaders(site) }));
      const text = res.text();
      if (CAPTCHA_MARKERS.test(text))
        throw new CaptchaRequiredError('the portal asks for a captcha after login', { account: this.input.account, url: res.url });
      if (res.status >= 400) throw this.changed(`${pathOf(res.url)} answered ${res.status}`, res);
      if (res.status >= 300 && res.status < 400 && res.location === undefined) throw this.changed('a redirect without a valid Location', res);
      if (res.status < 300 && REQUIRED_ACTIONS_MARKER.test(text)) {
        if (outcome.advice) throw this.changed('the portal asked for an action again after it was skipped', res);
        next = await this.skipRequiredActions(res);
        outcome.advice = PASSWORD_CHANGE_ADVISED;
        // That page's script starts the navigation anew.
        page = res.url;
        site = 'same-origin';
        continue;
      }
      next = res.location;
    }
    return outcome;
  }

  /** "Remind me later" (live-notes 19): a POST of action=requiredActions&skip=true to the page's address. */
  private async skipRequiredActions(page: HttpResponse): Promise<string> {
    this.step = 'required actions';
    const answer = await this.post(page.url, page.url, new URLSearchParams({ action: 'requiredActions', skip: 'true' }));
    const read = readLoginAnswer(answer.text());
    const next = read.kind === 'ok' ? (read.goTo !== undefined ? resolveLocation(read.goTo, answer.url) : answer.location) : undefined;
    if (next === undefined) throw this.changed('skipping the advised password change was not accepted', answer);
    this.step = 'redirects';
    return next;
  }

  /** Auth/TokenInfo with the new session: its answer, which only a live session gets. */
  private async checkSession(): Promise<unknown> {
    const res = this.checked(
      await this.input.http.send({ url: `${this.input.urls.base_url}/gateway/api/2.0/Auth/TokenInfo`, headers: { accept: 'application/json' } }),
    );
    const json = res.status === 200 ? readJson(res) : undefined;
    if (!json || typeof json !== 'object') throw this.changed(`Auth/TokenInfo did not accept the new session (HTTP ${res.status})`, res);
    return json;
  }

  private post(url: string, pageUrl: string, form: URLSearchParams): Promise<HttpResponse> {
    const now = this.input.now ?? Date.now;
    const random = this.input.random ?? Math.random;
    return this.input.http
      .send({ method: 'POST', url: this.hop(url), body: form.toString(), headers: scriptPostHeaders(pageUrl, now(), random()) })
      .then((res) => this.checked(res));
  }

  /** A 5xx or 429 during login is the service being down, never a wrong password (live-notes 3). */
  private checked(res: HttpResponse): HttpResponse {
    return unlessDown(res, 'login', this.input.account);
  }

  private hop(url: string): string {
    if (loginHopAllowed(url, this.input.urls)) return url;
    throw this.changed(`refused a redirect to ${safeOrigin(url) ?? 'an invalid address'} (not the portal or authorization host)`);
  }

  private changed(message: string, res?: HttpResponse, words?: string): LoginChangedError {
    return new LoginChangedError(this.step, message, {
      account: this.input.account,
      ...(res === undefined ? {} : { url: res.url, status: res.status }),
      ...(words === undefined ? {} : { portalMessage: words }),
    });
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

// Reading what the login's POSTs answer (live-notes 13, 18, 19): a success, a refusal with its words,
// or something the bridge does not know. Only words about the login, the password or the account make
// a refusal a wrong password; anything else is a changed login, never a false "wrong password".

export type LoginAnswer =
  | { kind: 'ok'; goTo?: string }
  | { kind: 'refused'; words?: string; aboutCredentials: boolean }
  | { kind: 'unknown'; what: string };

/** The most of a refusal's words kept: enough for any sentence a login page shows. */
const MAX_WORDS = 300;

/**
 * Words that speak of the login, the password or a locked account (Polish and English, with and
 * without diacritics): "Nieprawidłowy login i/lub hasło", "Konto zostało zablokowane", "Invalid password".
 */
const ABOUT_CREDENTIALS = /login|has(ł|l)|password|konto|konta|account|zablokow|blokad|locked|credential|u(ż|z)ytkownik/i;

export const CAPTCHA_MARKERS = /captcha|recaptcha|g-recaptcha|hcaptcha/i;
export const REQUIRED_ACTIONS_MARKER = /requiredActions/;

/** A POST's answer: `status: "ok"` (goTo optional), `status: "error"` with its words, or unknown. */
export function readLoginAnswer(text: string): LoginAnswer {
  const json = parsedJson(text);
  if (json === undefined) return { kind: 'unknown', what: 'the answer is not JSON' };
  if (!json || typeof json !== 'object' || Array.isArray(json)) return { kind: 'unknown', what: 'the answer is not a JSON object' };
  const { status, goTo, errors } = json as { status?: unknown; goTo?: unknown; errors?: unknown };
  const next = typeof goTo === 'string' && goTo !== '' ? goTo : undefined;
  // The spec's form carries goTo beside status ok; an answer with a goTo alone is read as it was.
  if (status === 'ok' || (status === undefined && next !== undefined)) return next === undefined ? { kind: 'ok' } : { kind: 'ok', goTo: next };
  if (status !== 'error') return { kind: 'unknown', what: status === undefined ? 'the answer has no status' : 'the answer has an unknown status' };
  const words = wordsOf(errors);
  return { kind: 'refused', aboutCredentials: words !== undefined && ABOUT_CREDENTIALS.test(words), ...(words === undefined ? {} : { words }) };
}

/** The words of `errors`: each item a string or an object {message} (live-notes 13), tags dropped. */
function wordsOf(errors: unknown): string | undefined {
  const items: unknown[] = Array.isArray(errors) ? errors : errors === undefined ? [] : [errors];
  const said = items.flatMap((item) => {
    const m = typeof item === 'string' ? item : (item as { message?: unknown } | null)?.message;
    // Tags and whitespace, in any run, are one space.
    return typeof m === 'string' && m.trim() !== '' ? [m.replace(/(?:<[^>]*>|\s)+/g, ' ').trim()] : [];
  });
  const words = redactAndCut([...new Set(said)].join(' '), MAX_WORDS);
  return words === '' ? undefined : words;
}

// The headers a desktop browser sends on each request of the login: Fetch Metadata (which site asked),
// the XHR headers of the login page's script, and its x-baner (live-notes 14, 17).

export type FetchSite = 'none' | 'same-origin' | 'same-site' | 'cross-site';

/** The family portal's address: where a parent's browser comes from to the register (live-notes 16). */
export const FAMILY_PORTAL = 'https://portal.librus.pl/';

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

/** On a redirect a browser sends the most distant relation of any URL of the chain so far. */
export function farther(a: FetchSite, b: FetchSite): FetchSite {
  return DISTANCE.indexOf(a) >= DISTANCE.indexOf(b) ? a : b;
}

export function navigationHeaders(site: FetchSite, referer?: string): Record<string, string> {
  return {
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'accept-language': 'pl-PL,pl;q=0.9,en;q=0.8',
    ...(referer === undefined ? {} : { referer }),
    'sec-fetch-dest': 'document',
    'sec-fetch-mode': 'navigate',
    'sec-fetch-site': site,
    'upgrade-insecure-requests': '1',
  };
}

/** A POST of the login page's script to its own host (the credentials, "remind me later"). */
export function scriptPostHeaders(pageUrl: string, now: number, random: number): Record<string, string> {
  return {
    'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
    accept: 'application/json, text/javascript, */*; q=0.01',
    origin: new URL(pageUrl).origin,
    referer: pageUrl,
    'x-requested-with': 'XMLHttpRequest',
    'x-baner': xBaner(random, now),
    'sec-fetch-dest': 'empty',
    'sec-fetch-mode': 'cors',
    'sec-fetch-site': 'same-origin',
  };
}

/**
 * The login page's x-baner (live-notes 17): the strings of a random number and of the time in
 * milliseconds, each character moved up by 20 code points, joined by "_".
 */
export function xBaner(random: number, now: number): string {
  const shift = (text: string): string => String.fromCharCode(...[...text].map((ch) => ch.charCodeAt(0) + 20));
  return `${shift(String(random))}_${shift(String(Math.trunc(now)))}`;
}
