// undici's request() without the rest of undici's index: the index also builds fetch, WebSocket,
// EventSource, the caches and the mocks, about 3 MB of heap a bridge that only sends requests holds
// for nothing (see `npm run bench`). The same two modules the index wires together, nothing else.
// Those paths are not undici's public API: package.json pins undici to one exact version, and
// test/unit/portal/undici-request.test.ts fails when an upgrade moves them.
import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';

const require = createRequire(import.meta.url);

type RequestApi = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

const requestApi = require('undici/lib/api/api-request.js') as RequestApi;
// The global Agent, shared with node's own fetch as undici's index shares it.
const { getGlobalDispatcher } = require('undici/lib/global.js') as { getGlobalDispatcher(): Dispatcher };

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & {
  method: Dispatcher.HttpMethod;
  dispatcher?: Dispatcher;
};

/** As undici's `request(url, options)`: the URL split into origin and path, the global Agent by default. */
export function request(url: string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { dispatcher = getGlobalDispatcher(), ...rest } = options;
  const parsed = new URL(url);
  return requestApi.call(dispatcher, { ...rest, origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` });
}
