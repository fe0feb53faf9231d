// One account's HTTP client: undici requests with that account's own cookie jar, per-request
// timeouts, and network failures turned into ConnectionError. undici is used by its package's public API
// alone (request, Agent), so that a fix of it comes with its next release and no change here
// (test/unit/layout/undici-public.test.ts holds it). It never follows redirects by itself:
// the login flow and the download rules decide which Location may be followed. Then what the portal
// client makes of an answer: server trouble (5xx, 429), a redirect to the login (a dead session), a
// closed module (Insufficient scopes, Disabled), the body as JSON with every string's control
// characters gone, and the origin and path of an address.
import { Agent, request, type Dispatcher } from 'undici';
import { CookieJar, type Cookie, type SerializedCookieJar } from 'tough-cookie';
import { announcedLength, readCapped, streamToFile } from './body.js';
import { ConnectionError, StorageError, UnexpectedResponseError } from './errors.js';
import type { Clock } from '../util/clock.js';
import { stripControls } from '../util/text.js';
import { knownNames } from '../util/redact.js';
import type { PortalUrls } from '../config/schema.js';
import { PortalTime } from './portal-time.js';
import { cutListsInText, type ListCap } from './list-caps.js';

const BROWSER_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/**
 * Most bytes of an answer held in memory when the caller gives no cap of its own (the login's pages,
 * the messages host): the gateway caps each resource lower (gateway.ts ANSWER_BYTES). Read, an answer of Polish
 * text costs about four times its size in the 64 MB heap.
 */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Connections to one address at once. Unbounded, undici's pool adds a client whenever all of its own are
 * busy and keeps it for good: a simulated month grew one address's pool from 60 to 83. Every child's reads
 * of a pass share the portal's address; those over the bound wait for a free connection (their timeout
 * runs meanwhile), as a browser's do over its six.
 */
export const CONNECTIONS_PER_ADDRESS = 12;
/** A connection made longer ago than this leaves its pool at the next request (keep-alive closes an idle one in seconds). */
const CLIENT_TTL_MS = 5 * 60_000;

/** The bridge's own Agent (not the global one Node's fetch shares), made at the first request of a client given none. */
let portalAgent: Agent | undefined;
const sharedAgent = (): Agent => (portalAgent ??= new Agent({ connections: CONNECTIONS_PER_ADDRESS, clientTtl: CLIENT_TTL_MS }));

export interface HttpRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  /** Stops the request, its body included, when it aborts (a download's deadline). */
  signal?: AbortSignal;
  /**
   * Most bytes of body held in memory (default http.ts's MAX_BODY_BYTES); a larger answer is refused as it
   * streams in (UnexpectedResponseError, code TooLarge).
   */
  maxBytes?: number;
  /**
   * Asked once the status and headers are in: a target makes the body stream into that file instead
   * of memory (a download), under the target's own limit. Undefined keeps the body in memory.
   */
  toFile?: (head: ResponseHead) => FileTarget | undefined;
}

export interface ResponseHead {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

export interface FileTarget {
  path: string;
  maxBytes: number;
}

export interface HttpResponse {
  status: number;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body; empty when it went to a file (see file). */
  body: Buffer;
  /** The file the body was streamed to (HttpRequest.toFile), with its size. */
  file?: { path: string; size: number };
  /** The Location header resolved against the request URL, if any. */
  location: string | undefined;
  text(): string;
}

export interface HttpClientOptions {
  account: string;
  clock: Clock;
  /** Where the requests go (a test's own Agent); the bridge's bounded Agent when not given. */
  dispatcher?: Dispatcher;
  timeoutMs?: number;
  /** The portal's time, shared by the bridge's clients (its own when not given): cookies are kept by it. */
  portalTime?: PortalTime;
}

/** An answer as it came: its status and its body read as JSON (undefined when it is empty or not JSON). */
export interface JsonAnswer {
  status: number;
  json: unknown;
}

/** One request and how it ended, for an observer (`check --trace`); the body only when it was kept. */
export interface HttpExchange {
  method: string;
  url: string;
  response?: HttpResponse;
  /** The failure's description when no answer came (a timeout, a refused connection). */
  failure?: string;
}

export class HttpClient {
  private jar = new CookieJar();
  private readonly portalTime: PortalTime;
  private readonly observers = new Set<(exchange: HttpExchange) => void>();

  constructor(private readonly options: HttpClientOptions) {
    this.portalTime = options.portalTime ?? new PortalTime();
  }

  /** Tells `listener` of every request from now on; returns the function that stops it. */
  observe(listener: (exchange: HttpExchange) => void): () => void {
    this.observers.add(listener);
    return () => this.observers.delete(listener);
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    if (this.observers.size === 0) return this.exchange(req);
    const method = req.method ?? 'GET';
    try {
      const response = await this.exchange(req);
      for (const observer of this.observers) observer({ method, url: req.url, response });
      return response;
    } catch (error) {
      for (const observer of this.observers) observer({ method, url: req.url, failure: error instanceof Error ? error.name : 'error' });
      throw error;
    }
  }

  private async exchange(req: HttpRequest): Promise<HttpResponse> {
    // The portal sends oauth_token with Max-Age=600 on every answer although the session behind it
    // lives about a day; the server, not the cookie's age, says when it is dead (a 401), so expired
    // cookies are still sent.
    const cookie = (await this.liveCookies(req.url)).map((c) => c.cookieString()).join('; ');
    const headers: Record<string, string> = { 'user-agent': BROWSER_USER_AGENT, ...lowerKeys(req.headers ?? {}) };
    if (cookie) headers.cookie = cookie;
    const timeoutMs = req.timeoutMs ?? this.options.timeoutMs ?? 30_000;
    let res: Dispatcher.ResponseData;
    let body: Buffer = EMPTY;
    let file: HttpResponse['file'];
    let portalNow: Date;
    try {
      res = await request(req.url, {
        method: req.method ?? 'GET',
        headers,
        body: req.body,
        dispatcher: this.options.dispatcher ?? sharedAgent(),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: req.signal ? AbortSignal.any([req.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs),
      });
      const head = { status: res.statusCode, headers: res.headers };
      portalNow = this.portalTime.answered(header(head, 'date'), this.options.clock.now());
      const announced = announcedLength(header(head, 'content-length'));
      const target = req.toFile?.(head);
      if (target) {
        const size = await streamToFile(res.body, target.path, target.maxBytes, announced, () => this.tooLarge(req, head.status, target.maxBytes));
        file = { path: target.path, size };
      } else {
        const limit = req.maxBytes ?? MAX_BODY_BYTES;
        body = await readCapped(res.body, limit, announced, () => this.tooLarge(req, head.status, limit));
      }
    } catch (error) {
      // Our own refusals and the disk's failures are not the network's.
      if (error instanceof UnexpectedResponseError || error instanceof StorageError) throw error;
      throw new ConnectionError(`${req.method ?? 'GET'} ${pathOf(req.url)} failed: ${describeNetworkError(error)}`, {
        account: this.options.account,
        url: req.url,
        cause: error,
      });
    }
    await this.storeCookies(res.headers['set-cookie'], req.url, portalNow);
    const locationHeader = header({ headers: res.headers }, 'location');
    return {
      status: res.statusCode,
      url: req.url,
      headers: res.headers,
      body,
      ...(file ? { file } : {}),
      location: locationHeader ? resolveLocation(locationHeader, req.url) : undefined,
      text: () => body.toString('utf8'),
    };
  }

  /** An answer over its limit: the portal answered, but nothing the bridge takes (code TooLarge). */
  private tooLarge(req: HttpRequest, status: number, limit: number): UnexpectedResponseError {
    return new UnexpectedResponseError(status, `${req.method ?? 'GET'} ${pathOf(req.url)}: the answer is larger than ${megabytes(limit)}, refused`, {
      account: this.options.account,
      url: req.url,
      code: 'TooLarge',
    });
  }

  /** The value of a cookie the jar would send to url (expired ones included, see send()). */
  async cookieValue(url: string, name: string): Promise<string | undefined> {
    return (await this.liveCookies(url)).find((c) => c.key === name)?.value;
  }

  /** Cookies for url, past their Max-Age or not (a cookie the server deleted is no longer in the jar). */
  private liveCookies(url: string): Promise<Cookie[]> {
    return this.jar.getCookies(url, { expire: false });
  }

  /** Replaces the jar (with one restored from data_dir). */
  useJar(jar: CookieJar): void {
    this.jar = jar;
    // Its cookies are masked wherever they would stand, as those set from now on are.
    for (const cookie of jar.serializeSync()?.cookies ?? []) knownNames.cookie(typeof cookie.value === 'string' ? cookie.value : undefined);
  }

  serialize(): Promise<SerializedCookieJar> {
    return this.jar.serialize();
  }

  /** Keeps an answer's cookies as set at `at`, the portal's moment of that answer (its Date header). */
  private async storeCookies(header: string | string[] | undefined, url: string, at: Date): Promise<void> {
    if (!header) return;
    for (const line of Array.isArray(header) ? header : [header]) {
      const cookie = await this.jar.setCookie(line, url, { now: at, ignoreError: true });
      knownNames.cookie(cookie?.value);
      // RFC 6265 5.3: a cookie already expired when it comes replaces the one of its name and is gone
      // too, which is how a server deletes one. tough-cookie stores it anyway (it expires cookies when
      // asked for them, and the bridge asks without expiring: see exchange()), so it is taken out here.
      if (cookie && deadOnArrival(cookie, at)) await removeCookie(this.jar, cookie);
    }
  }
}

/**
 * Whether a cookie set at `at` had expired by then, by tough-cookie's own expiry (Max-Age over Expires:
 * a positive Max-Age keeps a cookie whatever its Expires says; Max-Age=0 or an Expires already past ends it).
 */
function deadOnArrival(cookie: Cookie, at: Date): boolean {
  const expiry = cookie.expiryTime(at);
  return expiry !== undefined && expiry <= at.getTime();
}

async function removeCookie(jar: CookieJar, cookie: Cookie): Promise<void> {
  if (cookie.domain && cookie.path) await jar.store.removeCookie(cookie.domain, cookie.path, cookie.key);
}

const EMPTY = Buffer.alloc(0);

/** 16777216 -> "16 MB". */
function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

/** `location` read against `base`; undefined when it is no address. */
export function resolveLocation(location: string, base: string): string | undefined {
  return URL.canParse(location, base) ? new URL(location, base).toString() : undefined;
}

/** A header's value (the first, when it came more than once); `name` in lower case. */
export function header(res: Pick<ResponseHead, 'headers'>, name: string): string | undefined {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
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

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timed out';
  return (error as { code?: string }).code ?? error.message;
}

/** 5xx and 429: the portal is down, in maintenance or busy; never a reason to log in again. */
export function isServerTrouble(status: number): boolean {
  return status >= 500 || status === 429;
}

/** The answer, unless it is server trouble (a 5xx or 429: the service down, never a wrong password, live-notes 3). */
export function unlessDown(res: HttpResponse, what: string, account: string): HttpResponse {
  if (!isServerTrouble(res.status)) return res;
  throw new ConnectionError(`${what}: ${pathOf(res.url)} answered ${res.status}`, { account, url: res.url, status: res.status });
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
 * with CR LF must not add lines to a calendar feed, a device name or a log.
 */
export function readJson(res: HttpResponse, lists?: ListCap): unknown {
  if (res.body.length === 0) return undefined;
  try {
    const text = lists === undefined ? res.text() : cutListsInText(res.body, lists.max, lists.cut).toString('utf8');
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
  return URL.canParse(url) ? new URL(url).origin : undefined;
}

export function pathOf(url: string): string {
  return URL.canParse(url) ? new URL(url).pathname : '(invalid url)';
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
