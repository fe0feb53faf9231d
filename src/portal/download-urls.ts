// Where a download may go (spec 4.6.6, 4.6.8): each URL is checked before any request is sent to it,
// so the account's cookies never reach a host the config does not name.
import { UnexpectedResponseError } from './errors.js';
import type { HttpResponse } from './http.js';
import { pathOf } from './http.js';

/** The URL if it parses and has the scheme and host (port included) of one of the allowed bases. */
export function onHost(url: string | undefined, allowed: readonly string[]): URL | undefined {
  if (url === undefined) return undefined;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  const ok = allowed.some((base) => {
    const b = new URL(base);
    return b.protocol === target.protocol && b.host === target.host;
  });
  return ok && target.username === '' && target.password === '' ? target : undefined;
}

/**
 * The sandbox URL a redirect points to. A redirect without a usable Location, or to any other scheme
 * or host, is refused here: nothing is ever sent to it.
 */
export function sandboxRedirect(res: HttpResponse, sandboxUrl: string, account: string, what: string): URL {
  const raw = res.headers.location;
  const header = Array.isArray(raw) ? raw[0] : raw;
  if (header === undefined || header === '') {
    throw new UnexpectedResponseError(res.status, `${what}: a redirect without a Location`, { account, url: res.url });
  }
  const target = onHost(res.location, [sandboxUrl]);
  if (!target) {
    const where = res.location === undefined ? 'an invalid URL' : `another host (${safeOrigin(res.location)})`;
    throw new UnexpectedResponseError(res.status, `${what}: refused a redirect to ${where}`, { account, url: res.url });
  }
  return target;
}

/** The single-use key of a sandbox CSTryToDownload URL, if it is one. */
export function singleUseKey(url: URL): string | undefined {
  if (url.searchParams.get('action') !== 'CSTryToDownload') return undefined;
  const key = url.searchParams.get('singleUseKey');
  return key === null || key === '' ? undefined : key;
}

/** A school file's web path (SchoolFiles.downloadUrl) as a URL on the portal host, or an error before any request. */
export function schoolFileUrl(path: string, baseUrl: string, account: string): URL {
  let target: URL | undefined;
  try {
    target = onHost(new URL(path, `${baseUrl}/`).toString(), [baseUrl]);
  } catch {
    target = undefined;
  }
  if (!target) {
    throw new UnexpectedResponseError(0, `school file: ${JSON.stringify(path.slice(0, 80))} is not a path on the portal host`, { account });
  }
  return target;
}

/** The /get address of an attachment link: the link's path with /get appended, its query kept. */
export function attachmentGetUrl(link: URL): URL {
  const url = new URL(link.toString());
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/get`;
  return url;
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return pathOf(url);
  }
}
