// What a download answer means: the logged-out page, the "file does not exist" page (spec 4.6.7), an
// HTML waiting page or a file, and the file's name from Content-Disposition.
import type { HttpResponse, ResponseHead } from './http.js';

/** Phrases of the portal's logged-out access-denied page (compared without case). */
const LOGGED_OUT = [/brak dost[eę]pu/, /nie jeste[sś] zalogowan/, /zaloguj si[eę]/, /sesja wygas/, /access denied/, /\/loguj\b/];
/** Phrases that plainly say the file does not exist. */
const NOT_FOUND = [/nie znaleziono/, /nie istnieje/, /not found/];

export function header(res: ResponseHead, name: string): string | undefined {
  const value = res.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function isHtml(res: ResponseHead): boolean {
  return /^\s*text\/html\b/i.test(header(res, 'content-type') ?? '');
}

/** The body as text in the charset the answer declares (header, then <meta>), UTF-8 otherwise. */
export function pageText(res: HttpResponse): string {
  const declared =
    /charset\s*=\s*["']?([\w.:-]+)/i.exec(header(res, 'content-type') ?? '')?.[1] ??
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(res.body.subarray(0, 4096).toString('latin1'))?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(res.body);
  } catch {
    return res.body.toString('utf8');
  }
}

function isLoggedOutPage(text: string): boolean {
  const lower = text.toLowerCase();
  return LOGGED_OUT.some((re) => re.test(lower));
}

export function saysNotFound(text: string): boolean {
  const lower = text.toLowerCase();
  return NOT_FOUND.some((re) => re.test(lower));
}

/**
 * A first-step answer (homework or school file) that means the web session is dead: a 401, a redirect
 * to the login, or a 200 HTML page without a redirect, unless that page plainly says the file does not
 * exist and is not the logged-out page (spec 4.6.7). Any other page counts as logged out, as the spec
 * reads: one login is cheap, and a page that is still there after it ends as SessionExpiredError.
 */
export function isDeadWebSession(res: HttpResponse, portal: { base_url: string; auth_url: string }): boolean {
  if (res.status === 401) return true;
  if (res.status >= 300 && res.status < 400) return isLoginRedirect(res.location, portal);
  if (res.status !== 200 || isFile(res)) return false;
  const text = pageText(res);
  return isLoggedOutPage(text) || !saysNotFound(text);
}

function isLoginRedirect(location: string | undefined, portal: { base_url: string; auth_url: string }): boolean {
  if (location === undefined) return false;
  try {
    const target = new URL(location);
    if (target.origin === new URL(portal.auth_url).origin) return true;
    return target.origin === new URL(portal.base_url).origin && /^\/loguj(\/|$)/.test(target.pathname);
  } catch {
    return false;
  }
}

/** A 200 that carries a file rather than a page: sent as an attachment, or anything but HTML. */
export function isFile(res: ResponseHead): boolean {
  if (res.status !== 200) return false;
  return /^\s*attachment\b/i.test(header(res, 'content-disposition') ?? '') || !isHtml(res);
}

/**
 * The file name Content-Disposition gives, raw (it is made safe when saved): filename* (RFC 8187)
 * first, then filename, with UTF-8 sent as raw bytes recovered from the latin1 the HTTP layer reads.
 */
export function dispositionName(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const star = /(?:^|;)\s*filename\*\s*=\s*([\w!#$%&+^`{}~-]*)'[^']*'([^;\s]+)/i.exec(value);
  if (star?.[2]) {
    const decoded = decodeExtended(star[1] ?? '', star[2]);
    if (decoded) return decoded;
  }
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/i.exec(value);
  const name = plain?.[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain?.[2]?.trim();
  return name ? fromLatin1Bytes(name) : undefined;
}

function decodeExtended(charset: string, encoded: string): string | undefined {
  try {
    if (/^utf-?8$/i.test(charset)) return decodeURIComponent(encoded);
    const bytes = Buffer.from(
      encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    );
    return new TextDecoder(charset || 'iso-8859-1').decode(bytes);
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
