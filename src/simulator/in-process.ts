// The simulator reached without a socket: an undici Dispatcher (the bridge's `dispatcher` option) that hands each
// request to the host its origin names, in process, and gives the handler what that host's server would have written
// (hosts.ts `exchange`). The same handlers, cookies, log and faults as over HTTP, less the loopback's cost: the
// generated worlds (test/helpers/worlds) run hundreds of bridges' passes this way. A fault that needs the socket (a
// huge answer streamed, a reset connection) fails the request as the network would.
import { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import type { HostName, SimUrls } from './types.js';
import type { Written } from './hosts.js';

/** What the dispatcher needs of the simulator: where each host listens, and its answer to one request. */
export interface InProcessHosts {
  urls(): SimUrls;
  exchange(host: HostName, request: { method: string; path: string; headers: IncomingHttpHeaders; body: string }): Promise<Written>;
}

const URL_OF: Record<HostName, keyof SimUrls> = {
  portal: 'base_url',
  auth: 'auth_url',
  messages: 'messages_url',
  sandbox: 'sandbox_url',
  family: 'family_url',
};

export class InProcessDispatcher extends Dispatcher {
  constructor(private readonly hosts: InProcessHosts) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    void this.serve(options, handler);
    return true;
  }

  override close(): Promise<void> {
    return Promise.resolve();
  }

  override destroy(): Promise<void> {
    return Promise.resolve();
  }

  private async serve(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): Promise<void> {
    let aborted = false;
    handler.onConnect?.((error) => {
      if (aborted) return;
      aborted = true;
      handler.onError?.(error ?? new Error('aborted'));
    });
    try {
      const written = await this.hosts.exchange(this.hostOf(options.origin), {
        method: options.method,
        path: options.path,
        headers: headersOf(options.headers),
        body: bodyOf(options.body),
      });
      if (aborted) return;
      handler.onHeaders?.(written.status, rawHeaders(written.headers), () => undefined, '');
      handler.onData?.(Buffer.from(written.body));
      handler.onComplete?.([]);
    } catch (error) {
      if (aborted) return;
      aborted = true;
      handler.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private hostOf(origin: Dispatcher.DispatchOptions['origin']): HostName {
    const wanted = new URL(String(origin)).origin;
    const urls = this.hosts.urls();
    const host = (Object.keys(URL_OF) as HostName[]).find((name) => new URL(urls[URL_OF[name]]).origin === wanted);
    if (host === undefined) throw Object.assign(new Error(`simulator: no host at ${wanted}`), { code: 'ECONNREFUSED' });
    return host;
  }
}

/** A request's headers by lower-case name, from any form undici takes them in. */
function headersOf(headers: Dispatcher.DispatchOptions['headers']): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  if (headers === undefined || headers === null) return out;
  const pairs: [string, unknown][] = Array.isArray(headers)
    ? headers.flatMap((_, i) => (i % 2 === 0 ? [[String(headers[i]), headers[i + 1]] as [string, unknown]] : []))
    : Symbol.iterator in headers
      ? [...(headers as Iterable<[string, unknown]>)]
      : Object.entries(headers);
  for (const [name, value] of pairs) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.map(String) : String(value);
  return out;
}

function bodyOf(body: Dispatcher.DispatchOptions['body']): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  throw new Error('simulator: in process, a request body is a string or bytes');
}

/** Headers as undici's handlers take them: name, value, name, value (a Set-Cookie header once per cookie). */
function rawHeaders(headers: Written['headers']): Buffer[] {
  return Object.entries(headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).flatMap((one) => [Buffer.from(name), Buffer.from(one)]),
  );
}
