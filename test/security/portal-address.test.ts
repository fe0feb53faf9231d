// Portal addresses (issue 20, item 11): the login and the session cookies travel to the four portal
// hosts, so each must be https; plain http only to this machine. And a login redirect may lead only to
// the configured portal and authorization hosts, whatever an answer's Location says.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/portal/http.js';
import { loginHopAllowed, passwordLogin } from '../../src/portal/login.js';
import { UnexpectedResponseError } from '../../src/portal/errors.js';
import { systemClock } from '../../src/util/clock.js';
import { refusal, buildMinimal } from '../helpers/config.js';
import { ensureBuilt, runBin } from '../helpers/faults-process.js';
import { tempDir } from '../helpers/temp.js';

const HTTPS = {
  base_url: 'https://synergia.librus.pl',
  auth_url: 'https://api.librus.pl',
  messages_url: 'https://wiadomosci.librus.pl',
  sandbox_url: 'https://sandbox.librus.pl',
};
const KEYS = Object.keys(HTTPS) as (keyof typeof HTTPS)[];

describe('portal addresses in the config', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('an http:// portal outside loopback: the bin exits 2 naming the key', async () => {
    const dir = await tempDir();
    const file = join(dir, 'config.yaml');
    const config = {
      language: 'en',
      mqtt: { url: 'mqtt://127.0.0.1:1883' },
      portal: { ...HTTPS, base_url: 'http://synergia.librus.pl' },
      accounts: [{ login: '1234567u', password: 'Kid-P4ssw0rd-a1' }],
      data_dir: join(dir, 'data'),
      http: { port: 0 },
    };
    await writeFile(file, stringify(config), { mode: 0o600 });
    const outcome = await runBin(['run', '--config', file], { cwd: dir });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(/portal\.base_url: must start with https:\/\//);
    expect(outcome.stderr).not.toContain('Kid-P4ssw0rd-a1');
  });

  it.each(KEYS)('portal.%s: http to a LAN or internet host, or another scheme, is refused naming the key', async (key) => {
    for (const address of [
      'http://synergia.librus.pl',
      'http://192.168.1.10:8080',
      'http://127.0.0.1.nip.io',
      'ftp://127.0.0.1/',
      'http://[fe80::1]/',
    ]) {
      const message = await refusal({ portal: { ...HTTPS, [key]: address } });
      expect(message, address).toContain(`portal.${key}: must start with https://`);
    }
  });

  it('https anywhere and plain http to loopback (the simulator, tests) are taken', async () => {
    for (const address of [
      'https://synergia.librus.pl',
      'http://127.0.0.1:4000',
      'http://127.0.0.4:1',
      'http://localhost:8080',
      'http://[::1]:9000',
    ]) {
      const config = await buildMinimal({ portal: { ...HTTPS, base_url: address } });
      expect(config.portal.base_url).toBe(address);
    }
  });
});

describe('login redirects', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  });

  /** A server on a loopback address answering with `handle`; every request it got is listed. */
  async function serve(address: string, handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; hits: string[] }> {
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => handle(req, res));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, address, resolve));
    return { url: `http://${address}:${(server.address() as AddressInfo).port}`, hits };
  }

  const redirect = (res: ServerResponse, to: string): void => void res.writeHead(302, { location: to }).end();

  async function login(portal: string, auth: string): Promise<unknown> {
    const http = new HttpClient({ account: 'test', clock: systemClock });
    const urls = {
      base_url: portal,
      auth_url: auth,
      messages_url: 'http://127.0.0.3:1',
      sandbox_url: 'http://127.0.0.4:1',
      family_url: 'http://127.0.0.5:1',
    };
    return passwordLogin({ http, urls, account: 'test', login: '1234567u', password: 'pw-secret-1' }).then(
      () => undefined,
      (e: unknown) => e,
    );
  }

  it('step 1 pointing the login page at another host: refused before any request goes there', async () => {
    const elsewhere = await serve('127.0.0.5', (_req, res) => void res.end('<html>login</html>'));
    const portal = await serve('127.0.0.1', (_req, res) => redirect(res, `${elsewhere.url}/OAuth/Authorization?client_id=46`));
    const error = await login(portal.url, 'http://127.0.0.2:1');
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(String(error)).toMatch(/refused a redirect to http:\/\/127\.0\.0\.5:\d+/);
    expect(elsewhere.hits).toEqual([]);
  });

  it('a hop after the password leading to another host: refused, the other host never sees the session', async () => {
    const elsewhere = await serve('127.0.0.5', (_req, res) => void res.end('ok'));
    let authUrl = '';
    const auth = await serve('127.0.0.2', (req, res) => {
      if (req.method === 'POST') return void res.end(JSON.stringify({ status: 'ok', goTo: '/OAuth/Authorization/2FA?client_id=46' }));
      if (req.url?.startsWith('/OAuth/Authorization/2FA')) return redirect(res, `${elsewhere.url}/steal`);
      res.end('<html>login page</html>');
    });
    authUrl = auth.url;
    const portal = await serve('127.0.0.1', (_req, res) => redirect(res, `${authUrl}/OAuth/Authorization?client_id=46`));
    const error = await login(portal.url, auth.url);
    expect(String(error)).toMatch(/refused a redirect to http:\/\/127\.0\.0\.5/);
    expect(auth.hits.some((h) => h.startsWith('GET /OAuth/Authorization/2FA'))).toBe(true);
    expect(elsewhere.hits).toEqual([]);
  });

  it('loginHopAllowed compares scheme, host and port', () => {
    const urls = { base_url: 'https://synergia.librus.pl', auth_url: 'https://api.librus.pl' };
    expect(loginHopAllowed('https://api.librus.pl/OAuth/Authorization/2FA', urls)).toBe(true);
    expect(loginHopAllowed('https://synergia.librus.pl/uczen/index', urls)).toBe(true);
    expect(loginHopAllowed('http://api.librus.pl/OAuth', urls)).toBe(false);
    expect(loginHopAllowed('https://api.librus.pl:8443/OAuth', urls)).toBe(false);
    expect(loginHopAllowed('https://api.librus.pl.evil.example/OAuth', urls)).toBe(false);
    expect(loginHopAllowed('not a url', urls)).toBe(false);
  });
});
