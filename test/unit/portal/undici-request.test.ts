// The client reaches into undici's own files (src/portal/undici-request.ts) to leave its index out:
// those paths are not a public API, so undici is pinned to one exact version and this test fails the
// day an upgrade moves them, before a bridge fails at start.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../../../src/portal/undici-request.js';

const require = createRequire(import.meta.url);
const root = new URL('../../../', import.meta.url);

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ method: req.method, path: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("undici's internal request()", () => {
  it('sends a request and reads its answer through the internal modules', async () => {
    const res = await request(`${origin}/some/path?x=1`, { method: 'GET' });
    expect(res.statusCode).toBe(200);
    expect(await res.body.json()).toEqual({ method: 'GET', path: '/some/path?x=1' });
  });

  it('undici is pinned to one exact version, the one installed', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { dependencies: Record<string, string> };
    const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
      packages: Record<string, { version?: string; dependencies?: Record<string, string> }>;
    };
    const pinned = pkg.dependencies.undici;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(lock.packages['']?.dependencies?.undici).toBe(pinned);
    expect(lock.packages['node_modules/undici']?.version).toBe(pinned);
    expect((require('undici/package.json') as { version: string }).version).toBe(pinned);
  });
});
