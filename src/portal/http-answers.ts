// What the portal client makes of an answer: server trouble (5xx, 429) and its error, a redirect to the
// login (a dead session), a closed module (Insufficient scopes, Disabled), the body as JSON with every
// string's control characters gone, and the origin and path of an address.
import { ConnectionError } from './errors.js';
import { stripControls } from '../util/text.js';
import type { HttpResponse } from './http-messages.js';
import type { PortalUrls } from '../config/schema.js';

/** 5xx and 429: the portal is down, in maintenance or busy; never a reason to log in again. */
export function isServerTrouble(status: number): boolean {
  return status >= 500 || status === 429;
}

/** The error for a server-trouble answer (see isServerTrouble) to `what`. */
export function serverError(res: HttpResponse, what: string, account: string): ConnectionError {
  const reason = res.status === 429 ? 'too many requests' : res.status === 503 ? 'the portal is in maintenance' : 'server error';
  return new ConnectionError(`${what}: ${res.status} (${reason})`, { account, status: res.status });
}

/** A redirect to the login (the auth host, or a /loguj page): the session behind the request is dead. */
export function isLoginRedirect(res: HttpResponse, urls: Pick<PortalUrls, 'auth_url'>): boolean {
  if (res.status < 300 || res.status >= 400 || !res.location) return false;
  return safeOrigin(res.location) === safeOrigin(urls.auth_url) || /\/loguj/.test(pathOf(res.location));
}

/**
 * The body as JSON; undefined when it is empty or not JSON. Every portal answer the bridge reads
 * comes through here, so here every string loses its control characters (line feeds stay): a name
 * with CR LF must not add lines to a feed, a device name or a log.
 */
export function readJson(res: HttpResponse): unknown {
  if (res.body.length === 0) return undefined;
  try {
    const text = res.text();
    // The reviver costs about twice the parse: only when a control character can be in a string.
    return (MAY_HOLD_CONTROLS.test(text) ? JSON.parse(text, cleanStrings) : JSON.parse(text)) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * JSON text whose strings may hold a control character other than a line feed: the escapes for CR,
 * tab, backspace and form feed, a \u escape of C0, DEL or C1, or a raw DEL or C1 character (a raw C0
 * character is not valid JSON).
 */
const MAY_HOLD_CONTROLS = /\\[rtbf]|\\u00(?:[01]|7[fF]|[89])|[\u007f-\u009f]/;

function cleanStrings(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? stripControls(value) : value;
}

export function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '(invalid url)';
  }
}

/** A 401 whose body says Insufficient scopes: the session is alive, the module is closed. */
export function isInsufficientScopes(res: HttpResponse): boolean {
  return /insufficient scopes/i.test(res.text());
}

/** An answer that says the module is switched off for this school (`{"Status": "Disabled"}`). */
export function isDisabled(json: unknown): boolean {
  return json !== null && typeof json === 'object' && !Array.isArray(json) && stringField(json, 'Status')?.toLowerCase() === 'disabled';
}

/** A field of an answer's object when it is a string. */
export function stringField(obj: object, key: string): string | undefined {
  const value = (obj as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}
