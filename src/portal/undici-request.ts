// undici's request() without the rest of undici's index: the index also builds fetch, WebSocket,
// EventSource, the caches and the mocks, about 3 MB of heap a bridge that only sends requests holds
// for nothing (see `npm run bench`). The modules the index wires together for request(), nothing else.
// Those paths are not undici's public API: package.json pins undici to one exact version, and
// test/unit/portal/undici-request.test.ts fails when an upgrade moves them.
import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';

const require = createRequire(import.meta.url);

type RequestApi = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

const requestApi = require('undici/lib/api/api-request.js') as RequestApi;
const Agent = require('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
// The symbols under which an Agent keeps its pools by origin, and a pool its clients (one connection each).
const { kClients: kAgentPools } = require('undici/lib/core/symbols.js') as { kClients: symbol };
const { kClients: kPoolClients } = require('undici/lib/dispatcher/pool-base.js') as { kClients: symbol };

/**
 * Connections to one address at once. Unbounded, undici's pool adds a client whenever all of its own are
 * busy and keeps it for good: a simulated month grew one address's pool from 60 to 83. Every child's reads
 * of a pass share the portal's address; those over the bound wait for a free connection (their timeout
 * runs meanwhile), as a browser's do over its six.
 */
export const CONNECTIONS_PER_ADDRESS = 12;
/** A client connected longer ago than this leaves its pool at the next request (keep-alive closes an idle one in seconds). */
const CLIENT_TTL_MS = 5 * 60_000;

/** The bridge's own Agent (not the global one node's fetch shares), made at the first request. */
let agent: UndiciAgent | undefined;
const portalAgent = (): Dispatcher => (agent ??= new Agent({ connections: CONNECTIONS_PER_ADDRESS, clientTtl: CLIENT_TTL_MS }));

/** How many clients (connections, open or to be reopened) the bridge's Agent holds for each address: the bench's figure. */
export function poolClients(): Record<string, number> {
  const pools = (agent as unknown as Record<symbol, Map<string, { dispatcher: object }>> | undefined)?.[kAgentPools];
  const sizes: Record<string, number> = {};
  for (const [origin, { dispatcher }] of pools ?? []) sizes[origin] = ((dispatcher as Record<symbol, unknown[]>)[kPoolClients] ?? []).length;
  return sizes;
}

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & {
  method: Dispatcher.HttpMethod;
  dispatcher?: Dispatcher;
};

/** As undici's `request(url, options)`: the URL split into origin and path, the bridge's bounded Agent by default. */
export function request(url: string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { dispatcher = portalAgent(), ...rest } = options;
  const parsed = new URL(url);
  return requestApi.call(dispatcher, { ...rest, origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` });
}
