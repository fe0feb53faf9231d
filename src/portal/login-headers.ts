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
