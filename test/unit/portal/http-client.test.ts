// The portal's HTTP client as the bridge uses it, through undici's public API (src/portal/http.ts): a request
// goes out with its method, path, query, headers and body and its answer is read; one that gets no answer in
// its time fails as a connection failure saying so; a client given a dispatcher (a test's own Agent) sends
// through it. None of it reaches into undici's files, so undici follows its releases (package.json).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError } from '../../../src/portal/errors.js';
import { HttpClient } from '../../../src/portal/http.js';
import { systemClock } from '../../../src/util/clock.js';

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    // /silent takes the request and never answers.
    if (req.url === '/silent') return;
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method, path: req.url, accept: req.headers.accept, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (options: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) =>
  new HttpClient({ account: 'test', clock: systemClock, timeoutMs: 5_000, ...options });

describe("the portal's HTTP client", () => {
  it('sends the method, path, query, headers and body, and reads the answer', async () => {
    const res = await client().send({ method: 'POST', url: `${origin}/some/path?x=1`, headers: { Accept: 'application/json' }, body: '{"a":1}' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text())).toEqual({ method: 'POST', path: '/some/path?x=1', accept: 'application/json', body: '{"a":1}' });
  });

  it('fails a request with no answer within its time as a connection failure that says so', async () => {
    const started = Date.now();
    const sent = client().send({ url: `${origin}/silent`, timeoutMs: 300 });
    await expect(sent).rejects.toBeInstanceOf(ConnectionError);
    await expect(sent).rejects.toThrow('GET /silent failed: timed out');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('sends through the dispatcher it is given', async () => {
    const seen: string[] = [];
    const agent = new Agent().compose((dispatch) => (options, handler) => {
      seen.push(`${options.method} ${options.path}`);
      return dispatch(options, handler);
    });
    try {
      const res = await client({ dispatcher: agent }).send({ url: `${origin}/through?y=2` });
      expect(JSON.parse(res.text())).toMatchObject({ path: '/through?y=2' });
      expect(seen).toEqual(['GET /through?y=2']);
    } finally {
      await agent.close();
    }
  });
});
