// Types shared by the simulator's parts: the five hosts, the request log, and the reply a route
// handler returns (handlers never touch node's response objects, which keeps them easy to test).
import type { IncomingHttpHeaders } from 'node:http';

export type HostName = 'portal' | 'auth' | 'messages' | 'sandbox' | 'family';

export const HOST_NAMES: readonly HostName[] = ['portal', 'auth', 'messages', 'sandbox', 'family'];

export interface SimUrls {
  base_url: string;
  auth_url: string;
  messages_url: string;
  sandbox_url: string;
  /** The family portal (the e-mail account's login and its children, live-notes 21-25). */
  family_url: string;
}

/** Selects requests, for counting and for fault injection; every given field must match. */
export interface RequestMatch {
  host?: HostName;
  method?: string;
  /** Exact path (without the query), or a pattern tested against it. */
  path?: string | RegExp;
  login?: string;
}

export interface SimRequest {
  host: HostName;
  method: string;
  /** Path without the query. */
  path: string;
  /** Raw query string without the leading '?', '' when none. */
  query: string;
  /** Whose session (or login attempt) made the request, when the simulator can tell. */
  login?: string;
  status: number;
  /** The simulator clock (options.now) when the request arrived. */
  at: number;
  /** Size of the answer's body in bytes. */
  bytes: number;
  /** The Sec-Fetch-Site header the client sent, if any (a browser sends one on every request). */
  fetchSite?: string;
}

/** One request as the route handlers see it: the body is already read. */
export interface Call {
  host: HostName;
  method: string;
  path: string;
  query: URLSearchParams;
  rawQuery: string;
  headers: IncomingHttpHeaders;
  cookies: Map<string, string>;
  body: string;
  at: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Set-Cookie header values. */
  cookies?: string[];
  body?: string;
  /** The login to record in the request log when the handler learned it (a login step). */
  login?: string;
}

/** What a host's handler must offer to the server loop. */
export interface HostHandler {
  /** The login behind a request before it is handled, for the log and for fault matching. */
  identify(call: Call): string | undefined;
  handle(call: Call): Reply | Promise<Reply>;
  /** How this host answers an injected failure of `status`, when not as every host does (faults.ts). */
  fault?(call: Call, status: number): Reply | undefined;
}
