// The data gateway (spec 4.1): JSON resources read through zod schemas inside the account's session.
// Resource code asks for an endpoint and a schema; cookies, logins and retries stay in the session. The
// data are reached by a road: the register's cookie gateway (registerRoad), or the family road's API host
// by bearer token (family.ts), each with the hosts of the services beside the API; the gateway reads the
// same resources, shapes and parsing over either.
import type { z } from 'zod';
import { DISABLED_CODE, UnexpectedResponseError } from './errors.js';
import { isLoginRedirect, isServerTrouble, readJson, serverError, type HttpRequest, type HttpResponse, type JsonAnswer } from './http.js';
import { isDisabled, isInsufficientScopes, pageText, stringField } from './http.js';
import type { PortalSession } from './session.js';
import type { PortalUrls } from '../config/schema.js';
import type { HeavyAnswers } from './heavy-answers.js';
import { maskedEndpoint, observed, type PortalObserver } from './observer.js';
import type { ListCap } from './list-caps.js';

// How large a gateway answer may be, per resource. The bridge runs with a 64 MB heap, and reading an
// answer holds it twice for a moment: the decoded text and the parsed records. Polish text is two
// bytes a character in V8, so an answer of N bytes costs about 4N of heap (a 15.8 MB one took the
// heap past 64 MB). The caps follow what each resource holds (spec 2): a school year of records for
// the long lists (a declaration that says `yearOfRecords`, src/engine/resources/), one record or a short
// lookup for the rest, each with a wide margin, and small enough that two accounts reading their
// largest answer at once still fit beside the bridge.
const MB = 1024 * 1024;

/** A school year of records (a declaration's `yearOfRecords`): about 190 days of up to 10 lessons, or a school's announcements. */
export const LIST_ANSWER_BYTES = 4 * MB;
/** Any other answer: one record, a week, a month or a school's lookup (the largest, the skills list, is about 330 KB). */
export const ANSWER_BYTES = 2 * MB;
/** An answer at least this large is marked before it is read (portal/heavy-answers.ts), so that a crash while reading it is remembered. */
export const HEAVY_ANSWER_BYTES = MB;

const GATEWAY_PATH = '/gateway/api/2.0/';

/**
 * How data resources are reached: the register road's cookie gateway (the default), or the family
 * road's API host by bearer token (family.ts). Same resources, same shapes, same parsing.
 */
export interface DataRoad {
  /** The resource's address on this road (`endpoint` with its query). */
  url(endpoint: string): string;
  /** Sends inside the road's session, renewed once when the answer says it has ended. */
  send(request: HttpRequest): Promise<HttpResponse>;
  /** Where a service beside the API (the kindergarten's, `ms/...`, live-notes 34) can be asked on this road, in the order to try. */
  services?: readonly ServiceRoute[];
}

/** A host of the services beside the API: the register's gateway path, or the API host's. */
export type ServiceHost = 'gateway' | 'api';

/** One host a service is asked at, and how a request goes there. */
export interface ServiceRoute {
  host: ServiceHost;
  /** The address of `path` (such as `ms/kindergartens/activities-types`, with its query) there. */
  url(path: string): string;
  send(request: HttpRequest): Promise<HttpResponse>;
}

/** The register road: {base_url}/gateway/api/2.0 with the session's cookies (spec 4.1). */
export function registerRoad(session: PortalSession, urls: Pick<PortalUrls, 'base_url'>): DataRoad {
  const send = (request: HttpRequest) =>
    session.request(
      () => session.http.send(request),
      (r) => r.status === 401 && !isInsufficientScopes(r),
    );
  return {
    url: (endpoint) => `${urls.base_url}${GATEWAY_PATH}${endpoint}`,
    send,
    services: [{ host: 'gateway', url: (path) => `${urls.base_url}/gateway/${path}`, send }],
  };
}

export interface GatewayOptions {
  /** The session of the register's web pages (and, without `road`, of the data). */
  session: PortalSession;
  /** How the data resources are read (default: the register road over `session`). */
  road?: DataRoad;
  urls: PortalUrls;
  account: string;
  /** Called for every request sent to the portal (for counting). */
  onRequest?: (method: string, endpoint: string) => void;
  /** The resources whose answer broke a pass (none: `check`, which runs once). */
  heavy?: HeavyAnswers;
  /** Told how each resource answered (the diagnostics' figures). */
  observer?: PortalObserver;
}

export class Gateway {
  private readonly road: DataRoad;

  constructor(private readonly options: GatewayOptions) {
    this.road = options.road ?? registerRoad(options.session, options.urls);
  }

  /**
   * GET a resource and read it through its schema; an answer over `maxBytes` is refused unread (ANSWER_BYTES), and with
   * `lists` each list in its text is cut to its most before it is parsed (list-caps.ts cutListsInText).
   */
  async get<S extends z.ZodType>(
    endpoint: string,
    schema: S,
    { query, maxBytes = ANSWER_BYTES, lists }: { query?: Record<string, string>; maxBytes?: number; lists?: ListCap } = {},
  ): Promise<z.output<S>> {
    const { heavy, account } = this.options;
    const until = await heavy?.heldUntil(endpoint);
    if (until !== undefined) {
      throw new UnexpectedResponseError(0, `${endpoint}: not asked before ${new Date(until).toISOString()}, its answer broke an earlier pass`, {
        account,
        code: 'TooLarge',
        resource: endpoint,
      });
    }
    return this.observed(endpoint, async () => {
      const parsed = await this.call('GET', endpoint, query, undefined, maxBytes, (json) => schema.safeParse(json), lists);
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        const where = first ? ` at ${first.path.join('.') || '(root)'}: ${first.message}` : '';
        throw new UnexpectedResponseError(200, `${endpoint}: unexpected shape${where}`, { account: this.options.account, resource: endpoint });
      }
      return parsed.data;
    });
  }

  /** POST to an endpoint (JSON body when given); resolves to the parsed answer, if any. */
  async post(endpoint: string, body?: unknown, maxBytes = ANSWER_BYTES): Promise<unknown> {
    return this.observed(endpoint, () => this.call('POST', endpoint, undefined, body, maxBytes, (json) => json));
  }

  /**
   * A resource's answer as it came, status and JSON (undefined when the body is not JSON), for a caller
   * to whom a refusal's Code says something (the change feed). The session or token is renewed as for
   * get(); 5xx and 429 still throw ConnectionError (serverError), the network ConnectionError.
   */
  async answer(method: 'GET' | 'POST' | 'DELETE', endpoint: string, options: { query?: Record<string, string>; body?: unknown } = {}) {
    return this.observed(
      endpoint,
      async () => {
        const res = await this.exchange(method, endpoint, options.query, options.body);
        return { status: res.status, json: readJson(res) };
      },
      answered,
    );
  }

  /** The hosts a service beside the API is tried at on this road, in order. */
  serviceHosts(): ServiceHost[] {
    return (this.road.services ?? []).map((s) => s.host);
  }

  /** GET of a service beside the API (`ms/...`) at one host of the road, as it came; 5xx, 429 and the network throw ConnectionError. */
  async service(host: ServiceHost, path: string, query: Record<string, string> = {}): Promise<JsonAnswer> {
    const route = this.road.services?.find((s) => s.host === host);
    if (!route) return { status: 404, json: undefined };
    const url = route.url(`${path}?${new URLSearchParams(query).toString()}`.replace(/\?$/, ''));
    const work = async (): Promise<JsonAnswer> => {
      this.options.onRequest?.('GET', path);
      const res = await route.send({ method: 'GET', url, headers: { accept: 'application/json' }, maxBytes: ANSWER_BYTES });
      if (isServerTrouble(res.status)) throw serverError(res, path, this.options.account);
      return { status: res.status, json: readJson(res) };
    };
    return this.observed(path, work, answered);
  }

  /** Runs one request and tells the observer how it ended (by default "ok" once it resolves). */
  private observed<T>(endpoint: string, work: () => Promise<T>, outcome?: (result: T) => string): Promise<T> {
    return observed(this.options.observer, maskedEndpoint(endpoint), work, outcome);
  }

  /** A web page of the portal host (HTML), e.g. /informacja, decoded in its declared charset. */
  async page(path: string): Promise<string> {
    const { session, urls, account } = this.options;
    return this.observed(path, async () => {
      this.options.onRequest?.('GET', path);
      const res = await session.request(
        () => session.http.send({ url: `${urls.base_url}${path}`, headers: { accept: 'text/html' } }),
        (r) => r.status === 401 || isLoginRedirect(r, urls),
      );
      if (isServerTrouble(res.status)) throw serverError(res, path, account);
      if (res.status !== 200) throw new UnexpectedResponseError(res.status, `${path} answered ${res.status}`, { account });
      return pageText(res);
    });
  }

  /** The answer's JSON as `read` reads it; one large enough is marked before it is read, and cleared after (see HeavyAnswers). */
  private async call<T>(
    method: 'GET' | 'POST',
    endpoint: string,
    query: Record<string, string> | undefined,
    body: unknown,
    maxBytes: number,
    read: (json: unknown) => T,
    lists?: ListCap,
  ): Promise<T> {
    const { heavy } = this.options;
    const res = await this.exchange(method, endpoint, query, body, maxBytes);
    // Marked on disk before it is read: should reading it take the process down, the next start knows.
    const heavyAnswer =
      heavy !== undefined &&
      res.body.length >= HEAVY_ANSWER_BYTES &&
      (await heavy.mark(endpoint, 'unfinished').then(
        () => true,
        () => false,
      ));
    try {
      return read(this.judge(res, readJson(res, lists), endpoint));
    } finally {
      // It was read: whatever it said, it did not take the process down.
      if (heavyAnswer) await heavy?.clear(endpoint).catch(() => undefined);
    }
  }

  /** One request on the road, counted; server trouble (5xx, 429) throws, any other answer is handed back. */
  private async exchange(
    method: 'GET' | 'POST' | 'DELETE',
    endpoint: string,
    query?: Record<string, string>,
    body?: unknown,
    maxBytes = ANSWER_BYTES,
  ): Promise<HttpResponse> {
    const { account, heavy } = this.options;
    const search = query ? `?${new URLSearchParams(query).toString()}` : '';
    this.options.onRequest?.(method, endpoint);
    const res = await this.road
      .send({
        method,
        url: this.road.url(`${endpoint}${search}`),
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        maxBytes,
      })
      .catch(async (error: unknown) => {
        if (error instanceof UnexpectedResponseError && error.code === 'TooLarge') await heavy?.mark(endpoint, 'too_large').catch(() => undefined);
        throw error;
      });
    if (isServerTrouble(res.status)) throw serverError(res, endpoint, account);
    return res;
  }

  /** The JSON of a 2xx answer; any other answer, or one that is not JSON or says Disabled, throws. */
  private judge(res: HttpResponse, json: unknown, endpoint: string): unknown {
    const { account } = this.options;
    if (res.status >= 200 && res.status < 300) {
      if (json === undefined) {
        if (res.body.length === 0) return undefined;
        throw new UnexpectedResponseError(res.status, `${endpoint}: the answer is not JSON`, { account, resource: endpoint });
      }
      // A module the school switched off answers 200 {"Status":"Disabled"} instead of its root key
      // (live-notes 9): a refusal like a 403, decided here once for every resource.
      if (isDisabled(json))
        throw new UnexpectedResponseError(res.status, `${endpoint}: ${DISABLED_CODE}`, { account, code: DISABLED_CODE, resource: endpoint });
      return json;
    }
    const code = json && typeof json === 'object' ? stringField(json, 'Code') : undefined;
    const detail = res.status === 401 ? 'Insufficient scopes' : (code ?? `status ${res.status}`);
    throw new UnexpectedResponseError(res.status, `${endpoint}: ${detail}`, { account, code, resource: endpoint });
  }
}

/** How the observer counts an answer handed back as it came: "ok" for a 2xx, else the status and its Code. */
function answered({ status, json }: JsonAnswer): string {
  if (status >= 200 && status < 300) return 'ok';
  const code = json !== null && typeof json === 'object' ? stringField(json, 'Code') : undefined;
  return code !== undefined && /^[A-Za-z_]{1,40}$/.test(code) ? `${status} ${code}` : String(status);
}
