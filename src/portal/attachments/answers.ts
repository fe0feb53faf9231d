// What a download's URLs and answers mean (spec 4.6, 4.8). A URL is checked before any request is sent
// to it, so the account's cookies never reach a host the config does not name. An answer is the
// logged-out page, the "file does not exist" page (spec 4.6.7), an HTML waiting page or a file, whose
// name Content-Disposition gives.
import { UnexpectedResponseError } from '../errors.js';
import { header, isLoginRedirect, pageText, pathOf, safeOrigin, type HttpResponse, type ResponseHead } from '../http.js';
import type { PortalUrls } from '../../config/schema.js';

/** The URL if it parses and has the scheme and host (port included) of one of the allowed bases. */
export function onHost(url: string | undefined, allowed: readonly string[]): URL | undefined {
  if (url === undefined || !URL.canParse(url)) return undefined;
  const target = new URL(url);
  const ok = allowed.some((base) => safeOrigin(base) === target.origin);
  return ok && target.username === '' && target.password === '' ? target : undefined;
}

/**
 * The key's page on the sandbox that the portal's first step (a homework or school file) redirects to.
 * A page that says the file does not exist, any other answer but a redirect, a redirect without a
 * usable Location, or to any other scheme or host, is refused here: nothing is ever sent to it.
 */
export function keyPage(res: HttpResponse, sandboxUrl: string, about: { account: string; what: string }): URL {
  if (res.status === 200 && isHtml(res) && saysNotFound(pageText(res))) {
    throw failure(about, 200, 'the portal says the file does not exist', { url: res.url, code: 'NotFound' });
  }
  if (res.status < 300 || res.status >= 400)
    throw failure(about, res.status, `the portal answered ${res.status} without a redirect`, { url: res.url });
  if (!header(res, 'location')) throw failure(about, res.status, 'a redirect without a Location', { url: res.url });
  const target = onHost(res.location, [sandboxUrl]);
  if (target) return target;
  const where = res.location === undefined ? 'an invalid URL' : `another host (${safeOrigin(res.location) ?? pathOf(res.location)})`;
  throw failure(about, res.status, `refused a redirect to ${where}`, { url: res.url });
}

/** The single-use key of a sandbox CSTryToDownload URL, if it is one. */
export function singleUseKey(url: URL): string | undefined {
  if (url.searchParams.get('action') !== 'CSTryToDownload') return undefined;
  return url.searchParams.get('singleUseKey') || undefined;
}

/** A school file's web path (SchoolFiles.downloadUrl) as a URL on the portal host, or an error before any request. */
export function schoolFileUrl(path: string, baseUrl: string, account: string): URL {
  const target = URL.canParse(path, `${baseUrl}/`) ? onHost(new URL(path, `${baseUrl}/`).toString(), [baseUrl]) : undefined;
  if (target) return target;
  throw failure({ account, what: 'school file' }, 0, `${JSON.stringify(path.slice(0, 80))} is not a path on the portal host`);
}

/** The /get address of an attachment link: the link's path with /get appended, its query kept. */
export function attachmentGetUrl(link: URL): URL {
  const url = new URL(link.toString());
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/get`;
  return url;
}

/** The error of a download that failed for a reason other than the service being down. */
export function failure(about: { account: string; what: string }, status: number, reason: string, extra: { url?: string; code?: string } = {}) {
  return new UnexpectedResponseError(status, `${about.what}: ${reason}`, { account: about.account, ...extra });
}

/** Phrases of the portal's logged-out access-denied page (compared without case). */
const LOGGED_OUT = [/brak dost[eę]pu/, /nie jeste[sś] zalogowan/, /zaloguj si[eę]/, /sesja wygas/, /access denied/, /\/loguj\b/];
/** Phrases that plainly say the file does not exist. */
const NOT_FOUND = [/nie znaleziono/, /nie istnieje/, /not found/];

export function isHtml(res: ResponseHead): boolean {
  return /^\s*text\/html\b/i.test(header(res, 'content-type') ?? '');
}

/** A 200 that carries a file rather than a page: sent as an attachment, or anything but HTML. */
export function isFile(res: ResponseHead): boolean {
  return res.status === 200 && (/^\s*attachment\b/i.test(header(res, 'content-disposition') ?? '') || !isHtml(res));
}

export function saysNotFound(text: string): boolean {
  return NOT_FOUND.some((re) => re.test(text.toLowerCase()));
}

/**
 * A first-step answer (homework or school file) that means the web session is dead: a 401, a redirect
 * to the login, or a 200 HTML page without a redirect, unless that page plainly says the file does not
 * exist and is not the logged-out page (spec 4.6.7). Any other page counts as logged out, as the spec
 * reads: one login is cheap, and a page that is still there after it ends as SessionExpiredError.
 */
export function isDeadWebSession(res: HttpResponse, portal: Pick<PortalUrls, 'auth_url'>): boolean {
  if (res.status === 401) return true;
  if (res.status >= 300 && res.status < 400) return isLoginRedirect(res, portal);
  if (res.status !== 200 || isFile(res)) return false;
  const text = pageText(res).toLowerCase();
  return LOGGED_OUT.some((re) => re.test(text)) || !saysNotFound(text);
}

/**
 * The file name Content-Disposition gives, raw (it is made safe when saved): filename* (RFC 8187)
 * first, then filename, with UTF-8 sent as raw bytes recovered from the latin1 the HTTP layer reads.
 */
export function dispositionName(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const star = /(?:^|;)\s*filename\*\s*=\s*([\w!#$%&+^`{}~-]*)'[^']*'([^;\s]+)/i.exec(value);
  const decoded = star?.[2] ? decodeExtended(star[1] ?? '', star[2]) : undefined;
  if (decoded) return decoded;
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/i.exec(value);
  const name = plain?.[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain?.[2]?.trim();
  return name ? fromLatin1Bytes(name) : undefined;
}

function decodeExtended(charset: string, encoded: string): string | undefined {
  try {
    if (/^utf-?8$/i.test(charset)) return decodeURIComponent(encoded);
    const latin1 = encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return new TextDecoder(charset || 'iso-8859-1').decode(Buffer.from(latin1, 'latin1'));
  } catch {
    return undefined;
  }
}

/** Header values arrive as latin1; a name that is valid UTF-8 in those bytes was sent as UTF-8. */
function fromLatin1Bytes(text: string): string {
  const codes = [...text].map((c) => c.charCodeAt(0));
  if (!codes.some((c) => c >= 0x80) || codes.some((c) => c > 0xff)) return text;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(text, 'latin1'));
  } catch {
    return text;
  }
}
