// The built-in web server (interface 6.5) on Node's own http: refuses a Host that is none of the bridge's
// names (17.1), lets in GET and HEAD with the token (or through ingress), hands the decoded path to the
// routes, and adds what every answer needs: the security headers, HEAD, conditional GET. It answers from
// memory only and never waits on the portal.
// Its limits (interface 7.4): short header and request timeouts, connections per address
// (connections.ts), and the number and backlog of event streams (streams.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { BOARD_COOKIE, bridgeNames, decideAccess, fromIngress, hostAllowed, ingressPathOf, isMcp, originAllowed, parseTarget } from './request.js';
import { CONNECTION_LIMITS, closeSilent, limitConnections } from './connections.js';
import { MAX_STREAMS, droppedWaiting } from './streams.js';
import { cookieFor } from './token.js';
import { plain, SECURITY_HEADERS, send, sendFile } from './answers.js';
import type { Route, WebData, WebRequest, WebResponse } from './types.js';
import type { Logger } from '../../util/log.js';
import { systemClock, type Clock } from '../../util/clock.js';
import { FOREIGN_HOST, UNAUTHORIZED } from '../../i18n/web-text.js';
import { errorText } from '../../util/text.js';

export interface WebServerOptions {
  /** 1..65535: the config's port 0 means "off" and never reaches here (tests take a free port). */
  port: number;
  host: string;
  routes: readonly Route[];
  data: WebData;
  /** The access token, or where to ask for it on each request (it can be rotated while running). */
  token: string | (() => string);
  log: Logger;
  /**
   * The ingress proxy to let in without the token: the Supervisor's (172.30.32.2) only when running
   * under it (request.ts trustedIngress), a test's 127.0.0.1; undefined trusts no address.
   */
  ingressAddress?: string;
  /** Times the silent connections (default the system clock; a test's fake one moves at will). */
  clock?: Clock;
  /** The MCP server at `/mcp` (interface 16.4): given the requests let in there, any method; none: 404. */
  mcp?: (req: IncomingMessage, res: ServerResponse) => void;
  /** The names a request's Host may give besides an IP address (request.ts bridgeNames); default localhost and this machine's. */
  names?: ReadonlySet<string>;
}

/** The server as started: its address as bound (http://host:port), its port, endStreams() and close(). */
export type WebServer = Awaited<ReturnType<typeof startWebServer>>;

/**
 * A request's headers must arrive within this, the whole request within REQUEST_TIMEOUT_MS: a socket
 * that sends nothing (closeSilent) or a byte now and then (Node's own timeouts, looked at every
 * CHECK_INTERVAL_MS) is closed instead of holding a place. An event stream is not affected: its
 * request is complete.
 */
export const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 15_000;
const CHECK_INTERVAL_MS = 1_000;

const BAD_TARGET = { 400: 'Bad address.\n', 404: 'Not found.\n', 414: 'Address too long.\n' };

/** The cookie lives long: a wall tablet should not need the token again for years. */
const COOKIE_MAX_AGE_S = 10 * 365 * 24 * 3600;

/** Starts listening; rejects when the address cannot be bound (EADDRINUSE, EACCES). */
export async function startWebServer(options: WebServerOptions) {
  if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65535) {
    throw new RangeError(`web server port must be 1..65535 (0 turns the server off before this), got ${options.port}`);
  }
  const streams = new Set<ServerResponse>();
  const names = options.names ?? bridgeNames([]);
  const timeouts = { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: CHECK_INTERVAL_MS };
  const server = createServer(timeouts, (req, res) => {
    // Whatever goes wrong in one answer (a route's bad header value, say) must not reach the process.
    try {
      handle(req, res, options, streams, names);
    } catch (error) {
      options.log.warn({ path: pathOf(req), err: errorText(error) }, 'web answer failed');
      if (!res.headersSent) plain(res, 500, 'Internal error.\n');
      else res.destroy();
    }
  });
  limitConnections(server, CONNECTION_LIMITS, options.ingressAddress);
  closeSilent(server, options.clock ?? systemClock, HEADERS_TIMEOUT_MS);
  const port = await listen(server, options.port, options.host);
  let closing: Promise<void> | undefined;
  // Ends every open event stream (after a token rotation: they were let in with the old one).
  const endStreams = (): void => streams.forEach((res) => res.end());
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    port,
    endStreams,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        endStreams();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** Listens on `port` (0: one the system picks) and resolves to the port bound; rejects when it cannot be bound. */
export function listen(server: NetServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Only the path is ever logged: the query may hold the token. */
function pathOf(req: IncomingMessage): string {
  return (req.url ?? '').split('?', 1)[0]?.slice(0, 200) ?? '';
}

function handle(
  req: IncomingMessage,
  res: ServerResponse,
  options: WebServerOptions,
  streams: Set<ServerResponse>,
  names: ReadonlySet<string>,
): void {
  const logPath = pathOf(req);
  const method = req.method ?? '';
  const target = parseTarget(req.url ?? '/');
  // Before anything else: a name that is not the bridge's may be a page of another site (DNS rebinding). Ingress
  // carries the name Home Assistant is opened by, which the bridge cannot know; its proxy's address vouches for it.
  const foreign = !fromIngress(req.socket.remoteAddress, options.ingressAddress) && !hostAllowed(req.headers.host, names);
  if (foreign && !keyed(req, target, options)) {
    options.log.debug({ path: logPath }, "web request by a name that is not the bridge's refused");
    return plain(res, 403, FOREIGN_HOST[options.data.language], {}, method === 'HEAD');
  }
  if (options.mcp && target.ok && isMcp(target.segments)) return mcpRequest(req, res, target, options, options.mcp);
  if (method !== 'GET' && method !== 'HEAD') {
    return plain(res, 405, 'Only GET and HEAD.\n', { Allow: 'GET, HEAD' });
  }
  const head = method === 'HEAD';
  const parsed = parseTarget(req.url ?? '/');
  if (!parsed.ok) return plain(res, parsed.status, BAD_TARGET[parsed.status], {}, head);
  const token = typeof options.token === 'string' ? options.token : options.token();
  const access = accessOf(req, parsed, options, token);
  if (!access.allowed) {
    options.log.debug({ path: logPath }, 'web request without the access token');
    // In the family's language (a parent meets it on the tablet), the commands as they are.
    return plain(res, 401, UNAUTHORIZED[options.data.language], {}, head);
  }
  const extra: Record<string, string> = {};
  // The board's own address with a right ?token=: from now on the cookie stands for it.
  if (access.via === 'query' && parsed.segments.length === 0) {
    extra['Set-Cookie'] = `${BOARD_COOKIE}=${cookieFor(token)}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${COOKIE_MAX_AGE_S}`;
  }
  const request: WebRequest = {
    method: head ? 'HEAD' : 'GET',
    segments: parsed.segments,
    query: withoutToken(parsed.query, token),
    headers: req.headers,
    trusted: access.via !== 'open',
    via: access.via,
    ingressPath: access.via === 'ingress' ? ingressPathOf(req.headers['x-ingress-path']) : '',
  };
  let answer: WebResponse | undefined;
  try {
    // The first route that knows the path answers.
    answer = options.routes.reduce<WebResponse | undefined>((found, route) => found ?? route(request), undefined);
  } catch (error) {
    options.log.warn({ path: logPath, err: errorText(error) }, 'web route failed');
    return plain(res, 500, 'Internal error.\n', {}, head);
  }
  if (!answer) return plain(res, 404, 'Not found.\n', extra, head);
  if (answer.stream) return openStream(res, answer, answer.stream, { ...extra, ...SECURITY_HEADERS }, { head, streams, log: options.log, logPath });
  if (answer.file !== undefined) return sendFile(res, answer, answer.file, { ...extra, ...SECURITY_HEADERS }, head);
  if (answer.later) return sendLater(req, res, answer.later, { extra, head, log: options.log, logPath });
  send(req, res, answer, extra, head);
}

/**
 * Whether a request by a name that is not the bridge's asks for a page or a calendar feed with a key of its own:
 * the token in its address, the board's cookie, a calendar feed's or the metrics' key. A page of another site has
 * none of them (a cookie goes by the name the browser thinks it is on), while a phone subscribed to a calendar feed
 * and a tablet keep the name they were given: in the app the board's Calendars button gives Home Assistant's own
 * (`homeassistant.local`), on a NAS its name, neither known here. The MCP server and `/health` take no such
 * request.
 */
function keyed(req: IncomingMessage, target: ReturnType<typeof parseTarget>, options: WebServerOptions): boolean {
  if (!target.ok || isMcp(target.segments) || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  const access = accessOf(req, target, options);
  return access.allowed && access.via !== 'open';
}

/** How a request is let in (request.ts decideAccess), from what it carries and the token in force. */
function accessOf(
  req: IncomingMessage,
  target: { segments: string[]; query: URLSearchParams },
  options: WebServerOptions,
  token = typeof options.token === 'string' ? options.token : options.token(),
) {
  return decideAccess({
    segments: target.segments,
    query: target.query,
    cookieHeader: req.headers.cookie,
    remoteAddress: req.socket.remoteAddress,
    token,
    ingressAddress: options.ingressAddress,
    authorization: req.headers.authorization,
  });
}

/**
 * A request to `/mcp`: a foreign browser origin is refused (403) before anything else, then the token is asked
 * for (401, as `?key=` or a bearer token); what is let in goes to the MCP server whatever its method.
 */
function mcpRequest(
  req: IncomingMessage,
  res: ServerResponse,
  parsed: { segments: string[]; query: URLSearchParams },
  options: WebServerOptions,
  mcp: (req: IncomingMessage, res: ServerResponse) => void,
): void {
  if (!originAllowed(req.headers.origin, req.headers.host)) {
    options.log.debug({ path: '/mcp' }, 'MCP request from a foreign browser origin refused');
    return plain(res, 403, 'Forbidden: this origin may not call the MCP server.\n');
  }
  const access = accessOf(req, parsed, options);
  if (!access.allowed) {
    options.log.debug({ path: '/mcp' }, 'MCP request without the access token');
    return plain(res, 401, UNAUTHORIZED[options.data.language], { 'WWW-Authenticate': 'Bearer' });
  }
  mcp(req, res);
}

/** An answer the route makes asynchronously; a failure is a 500, logged by its path only. */
function sendLater(
  req: IncomingMessage,
  res: ServerResponse,
  later: () => Promise<WebResponse>,
  context: { extra: Record<string, string>; head: boolean; log: Logger; logPath: string },
): void {
  later().then(
    (answer) => send(req, res, answer, context.extra, context.head),
    (error: unknown) => {
      context.log.warn({ path: context.logPath, err: errorText(error) }, 'web route failed');
      if (!res.headersSent) plain(res, 500, 'Internal error.\n', {}, context.head);
    },
  );
}

/** The query without the token or a calendar feed's key, under any name: a route cannot echo them into a page or a link. */
function withoutToken(query: URLSearchParams, token: string): URLSearchParams {
  return new URLSearchParams([...query].filter(([key, value]) => key !== 'token' && key !== 'key' && !key.includes(token) && !value.includes(token)));
}

/** A long-lived answer (server-sent events): kept in `streams`, so that close() can end it. */
function openStream(
  res: ServerResponse,
  answer: WebResponse,
  stream: (res: ServerResponse) => void,
  headers: Record<string, string>,
  context: { head: boolean; streams: Set<ServerResponse>; log: Logger; logPath: string },
): void {
  // The page fetches `api/board` instead when refused (EventSource gives up on a 503).
  if (!context.head && context.streams.size >= MAX_STREAMS) {
    // debug: whoever holds 16 streams open on purpose could otherwise fill the log with refusals.
    context.log.debug({ path: context.logPath, open: context.streams.size }, 'event stream refused: too many open');
    return plain(res, 503, 'Too many open event streams.\n', { 'Retry-After': '60' });
  }
  res.writeHead(answer.status, { 'Cache-Control': 'no-store', ...answer.headers, ...headers });
  if (context.head) return void res.end();
  context.streams.add(res);
  res.on('close', () => {
    context.streams.delete(res);
    const waiting = droppedWaiting(res);
    if (waiting !== undefined)
      context.log.warn({ path: context.logPath, waiting_bytes: waiting }, 'event stream dropped: its reader fell too far behind');
  });
  try {
    stream(res);
  } catch (error) {
    context.log.warn({ path: context.logPath, err: errorText(error) }, 'web stream failed');
    res.end();
  }
}
