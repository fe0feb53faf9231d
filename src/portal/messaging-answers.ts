// What the messaging client makes of an answer (spec 5.4.5): JSON on a 2xx, else the error it stands
// for; a rejection that a new bootstrap did not cure; and the hosts a bootstrap's redirects may follow.
import { SessionExpiredError, UnexpectedResponseError } from './errors.js';
import { isServerTrouble, readJson, safeOrigin, serverError, type HttpResponse } from './http.js';
import type { PortalUrls } from '../config/schema.js';

/** A non-rejection answer: JSON on a 2xx, else the error of spec 5.4.5, raised as it is. */
export function messagingJson(res: HttpResponse, path: string, account: string): unknown {
  if (isServerTrouble(res.status)) throw serverError(res, path, account);
  if (res.status < 200 || res.status >= 300) throw new UnexpectedResponseError(res.status, `${path}: status ${res.status}`, { account });
  const json = readJson(res);
  if (json === undefined) throw new UnexpectedResponseError(res.status, `${path}: the answer is not JSON`, { account });
  return json;
}

/** The error of a call still rejected after a new bootstrap. */
export function rejectedAfterBootstrap(res: HttpResponse, path: string, account: string): Error {
  if (res.status === 401) return new SessionExpiredError(`${path}: the messaging host rejected a fresh session`, { account });
  return new UnexpectedResponseError(res.status, `${path}: status ${res.status} after a new bootstrap`, { account });
}

/** Only the four configured hosts; cookies never go anywhere else. */
export function configuredHost(url: string, urls: PortalUrls): boolean {
  const origin = safeOrigin(url);
  const { base_url, auth_url, messages_url, sandbox_url } = urls;
  return origin !== undefined && [base_url, auth_url, messages_url, sandbox_url].some((u) => safeOrigin(u) === origin);
}
