// The web server's decisions about a request before any route sees it, as pure functions: is its Host one of
// the bridge's own names, is the path acceptable (no traversal), does it come through Home Assistant's
// ingress, does it carry the token.
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { cookieFor, calendarFeedKey, metricsKey, tokenMatches } from './token.js';
import { CALENDAR_FEED_NAMES, type CalendarFeedName } from '../../rules/calendar-feeds.js';

/** Longer request targets are refused with 414: no page or calendar feed needs one. */
const MAX_URL_LENGTH = 2048;

/** The address the Supervisor's ingress proxy connects from (Home Assistant's add-on network). */
export const SUPERVISOR_INGRESS_ADDRESS = '172.30.32.2';

/**
 * The ingress proxy to trust: the Supervisor's, only when the bridge runs under it (the Supervisor sets
 * SUPERVISOR_TOKEN in every add-on). Elsewhere 172.30.32.2 may be any machine (a Docker network), so
 * nothing is let in without the token.
 */
export function trustedIngress(env: NodeJS.ProcessEnv): string | undefined {
  return env.SUPERVISOR_TOKEN ? SUPERVISOR_INGRESS_ADDRESS : undefined;
}

/**
 * The cookie the board's page sets, so the tablet needs the token in its address only once. It holds
 * cookieFor(token), never the token: a cookie read off a tablet does not give the calendar feeds' addresses.
 */
export const BOARD_COOKIE = 'dziennik2mqtt_board';

export type ParsedTarget = { ok: true; segments: string[]; query: URLSearchParams } | { ok: false; status: 400 | 404 | 414 };

/**
 * Splits a request target into decoded path segments and the query. A segment that is empty (other
 * than a trailing one), `.`, `..`, or holds `/`, `\` or NUL once decoded means 404: such a path can
 * only be an attempt to reach something outside the routes.
 */
export function parseTarget(target: string): ParsedTarget {
  if (target.length > MAX_URL_LENGTH) return { ok: false, status: 414 };
  if (!target.startsWith('/')) return { ok: false, status: 400 };
  const mark = target.indexOf('?');
  const path = mark === -1 ? target : target.slice(0, mark);
  const raw = path.slice(1).split('/');
  if (raw.length > 0 && raw[raw.length - 1] === '') raw.pop();
  const segments: string[] = [];
  for (const part of raw) {
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return { ok: false, status: 400 };
    }
    if (segment === '' || segment === '.' || segment === '..' || /[/\\\0]/.test(segment)) return { ok: false, status: 404 };
    segments.push(segment);
  }
  return { ok: true, segments, query: new URLSearchParams(mark === -1 ? '' : target.slice(mark + 1)) };
}

/**
 * The bridge's own names a request's Host may give: `localhost`, this machine's host name (the app's, under the
 * Supervisor, which names the container after it) and its `.local` form, and the host of each address the bridge
 * is reached by (`homeassistant.public_url`, the app's announced one). An IP address is always its own: see hostAllowed.
 */
export function bridgeNames(addresses: readonly (string | undefined)[], machine = hostname()): ReadonlySet<string> {
  const names = new Set(['localhost']);
  const own = machine.toLowerCase();
  if (own !== '') names.add(own).add(`${own}.local`);
  for (const address of addresses) {
    if (address === undefined || !URL.canParse(address)) continue;
    const host = new URL(address).hostname.toLowerCase().replace(/\.$/, '');
    if (isIP(host.replace(/^\[|\]$/g, '')) === 0) names.add(host);
  }
  return names;
}

/**
 * Whether a request's Host is one of the bridge's own names (DNS rebinding: a page whose site's name was made to
 * point at this machine reaches the bridge with that name as its Host). An IP address is taken whatever it is:
 * a browser sends one only for a page opened by that address, never for another site's, and the address a family
 * types may be no interface of the bridge's own (Docker publishes the port at the host's). No Host at all is no
 * browser's (HTTP/1.0 tools, health checks).
 */
export function hostAllowed(host: string | undefined, names: ReadonlySet<string>): boolean {
  if (host === undefined) return true;
  const value = host.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d*)?$/.exec(value);
  if (bracketed) return isIP(bracketed[1] ?? '') === 6;
  const name = value.replace(/:\d*$/, '').replace(/\.$/, '');
  return isIP(name) !== 0 || names.has(name);
}

/** An IPv4 address written as IPv4-mapped IPv6 (`::ffff:10.0.0.5`) as plain IPv4; others as they are. */
export function plainAddress(remoteAddress: string): string {
  return remoteAddress.startsWith('::ffff:') ? remoteAddress.slice('::ffff:'.length) : remoteAddress;
}

/** True when the connection comes from the trusted ingress proxy; never when none is trusted. */
export function fromIngress(remoteAddress: string | undefined, ingressAddress: string | undefined): boolean {
  return remoteAddress !== undefined && ingressAddress !== undefined && plainAddress(remoteAddress) === ingressAddress;
}

/** The ingress path prefix as Home Assistant sends it, or '' when it does not look like one. */
export function ingressPathOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && /^\/api\/hassio_ingress\/[A-Za-z0-9_-]+$/.test(value) ? value : '';
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  const part = header?.split(';').find((p) => p.includes('=') && p.slice(0, p.indexOf('=')).trim() === name);
  return part?.slice(part.indexOf('=') + 1).trim();
}

/**
 * How a request was let in: through ingress, with the token in its query, with the board's cookie,
 * with one calendar feed's own key (that calendar feed only), or not at all on an open path (`/health`).
 */
export type AccessVia = 'open' | 'ingress' | 'query' | 'cookie' | 'key';

export type Access = { allowed: true; via: AccessVia } | { allowed: false };

export interface AccessQuestion {
  segments: readonly string[];
  query: URLSearchParams;
  cookieHeader: string | undefined;
  remoteAddress: string | undefined;
  token: string;
  /** The trusted ingress proxy's address; undefined outside the Supervisor (see trustedIngress). */
  ingressAddress?: string;
  /** The Authorization header (`/metrics` takes its key as a bearer token too). */
  authorization?: string | undefined;
}

/**
 * Who may see what: ingress needs nothing more, everything but `/health` needs the token (or the
 * board's cookie); a calendar feed also opens with its own key (calendarFeedKey), `/metrics` with its own (metricsKey,
 * in `?key=` or as a bearer token), each opening nothing else. `/health`
 * is open, and says `via` too: with the token it may name the children.
 */
export function decideAccess(q: AccessQuestion): Access {
  if (fromIngress(q.remoteAddress, q.ingressAddress)) return { allowed: true, via: 'ingress' };
  // The MCP server takes the token itself, as `?key=` or a bearer token (what an MCP client can be given): never `?token=`
  // (the board's, which no MCP address names) nor the board's cookie.
  if (isMcp(q.segments)) {
    const given = q.query.get('key') ?? bearer(q.authorization);
    return tokenMatches(given ?? undefined, q.token) ? { allowed: true, via: 'key' } : { allowed: false };
  }
  // Both are compared (in constant time), so the answer's timing does not tell which one was present.
  const byQuery = tokenMatches(q.query.get('token') ?? undefined, q.token);
  const byCookie = tokenMatches(cookieValue(q.cookieHeader, BOARD_COOKIE), cookieFor(q.token));
  if (byQuery) return { allowed: true, via: 'query' };
  if (byCookie) return { allowed: true, via: 'cookie' };
  const calendarFeed = calendarFeedOf(q.segments);
  if (calendarFeed !== undefined && tokenMatches(q.query.get('key') ?? undefined, calendarFeedKey(q.token, calendarFeed.child, calendarFeed.name)))
    return { allowed: true, via: 'key' };
  if (q.segments.length === 1 && q.segments[0] === 'metrics' && tokenMatches(q.query.get('key') ?? bearer(q.authorization), metricsKey(q.token)))
    return { allowed: true, via: 'key' };
  if (q.segments.length === 1 && q.segments[0] === 'health') return { allowed: true, via: 'open' };
  return { allowed: false };
}

/** `/mcp`: the MCP server's one address. */
export function isMcp(segments: readonly string[]): boolean {
  return segments.length === 1 && segments[0] === 'mcp';
}

/**
 * Whether a request's `Origin` may reach the MCP server: none (a program, not a browser page), or the bridge's
 * own (the address the request came to, its Host). A page of any other site is refused: it could otherwise
 * call the tools from a family member's browser (DNS rebinding included, the Host then being the attacker's).
 */
export function originAllowed(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  if (host === undefined || origin === 'null') return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** The token of an `Authorization: Bearer <token>` header. */
function bearer(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
}

/** The child and calendar feed a path `/calendar/<child>/<name>.ics` names, or undefined for any other path. */
export function calendarFeedOf(segments: readonly string[]): { child: string; name: CalendarFeedName } | undefined {
  const [first, child, file] = segments;
  if (segments.length !== 3 || first !== 'calendar' || child === undefined) return undefined;
  const name = CALENDAR_FEED_NAMES.find((calendarFeed) => `${calendarFeed}.ics` === file);
  return name === undefined ? undefined : { child, name };
}
