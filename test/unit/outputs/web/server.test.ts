// The web server on a real port: what every answer carries (security headers, HEAD, conditional GET),
// what it refuses (a Host that is not the bridge's, methods, paths, a missing token), and that the token
// never reaches a log line.
import { connect } from 'node:net';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from '../../../../src/outputs/web/server.js';
import { bridgeNames } from '../../../../src/outputs/web/request.js';
import { calendarFeedKey } from '../../../../src/outputs/web/token.js';
import { healthRoute } from '../../../../src/outputs/web/health.js';
import { createLogger } from '../../../../src/util/log.js';
import { freePort } from '../../../helpers/ports.js';
import { HandData, send } from '../../../helpers/web.js';
import type { Route } from '../../../../src/outputs/web/types.js';

const TOKEN = 'Xy7-secret_token_of_the_family_0123456789ab';
const MODIFIED = Date.parse('2026-11-20T10:15:30Z');

let server: WebServer | undefined;
let logLines: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  logLines = [];
});

const page: Route = (req) =>
  req.segments.length === 0
    ? {
        status: 200,
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
        body: `<p>board ${req.query.get('view') ?? ''}${req.ingressPath}</p>`,
        modifiedAt: MODIFIED,
      }
    : undefined;
const broken: Route = (req) => {
  if (req.segments[0] === 'broken') throw new Error('the route fell over');
  return undefined;
};
const echo: Route = (req) => (req.segments[0] === 'echo' ? { status: 200, body: [...req.query.keys()].join(',') } : undefined);

async function start(data = new HandData(), extra: Partial<Parameters<typeof startWebServer>[0]> = {}): Promise<number> {
  const log = createLogger('debug', { write: (line: string) => void logLines.push(line) });
  server = await startWebServer({
    port: await freePort(),
    host: '127.0.0.1',
    routes: [healthRoute(data), broken, echo, page],
    data,
    token: TOKEN,
    log,
    ...extra,
  });
  return server.port;
}

const withToken = (path: string): string => `${path}${path.includes('?') ? '&' : '?'}token=${TOKEN}`;

describe('the web server', () => {
  it('answers with the token and sets every security header, also on refusals', async () => {
    const port = await start();
    for (const [target, status] of [
      [withToken('/'), 200],
      ['/', 401],
      [withToken('/nothing-here'), 404],
      ['/calendar/../x', 404],
    ] as const) {
      const answer = await send(port, target);
      expect(answer.status, target).toBe(status);
      expect(answer.headers['content-security-policy']).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
      );
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('refuses a missing or wrong token with 401, a short hint and no data', async () => {
    const data = new HandData();
    data.setChild('ania', { lucky_number: { state: '7' } });
    const port = await start(data);
    for (const target of ['/', '/?token=wrong', `/?token=${TOKEN.slice(1)}`, '/calendar/ania/lessons.ics', '/nothing']) {
      const answer = await send(port, target);
      expect(answer.status, target).toBe(401);
      expect(answer.body).toContain('dziennik2mqtt check');
      expect(answer.body).not.toContain('board');
      expect(answer.body).not.toContain('ania');
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
    for (const cookie of ['dziennik2mqtt_board=nope', `dziennik2mqtt_board=${TOKEN}`, `dziennik2mqtt_token=${TOKEN}`]) {
      expect((await send(port, '/', { headers: { cookie } })).status, cookie).toBe(401);
    }
  });

  it('says the refusal in the family’s language, the command as it is', async () => {
    const data = new HandData();
    data.language = 'pl';
    const port = await start(data);
    const answer = await send(port, '/');
    expect(answer.status).toBe(401);
    expect(answer.body).toBe(
      'Brak tokenu dostępu albo jest błędny. Otwórz adres wypisany przy pierwszym uruchomieniu dziennik2mqtt albo uruchom `dziennik2mqtt check --show-token`, aby zobaczyć go ponownie.\n',
    );
  });

  it('sets the cookie on the board with a right ?token=, after which the page opens without it', async () => {
    const port = await start();
    const first = await send(port, withToken('/'));
    const cookie = String(first.headers['set-cookie']);
    // Never the token itself: its HMAC, which opens the board but cannot be turned into a calendar feed address.
    expect(cookie).toMatch(/^dziennik2mqtt_board=[A-Za-z0-9_-]{43};/);
    expect(cookie).not.toContain(TOKEN);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    expect(Number(/Max-Age=(\d+)/.exec(cookie)?.[1])).toBeGreaterThan(365 * 24 * 3600);
    const again = await send(port, '/', { headers: { cookie: cookie.split(';')[0] as string } });
    expect(again.status).toBe(200);
    expect(again.body).toContain('board');
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('never hands the token to a route', async () => {
    const port = await start();
    const answer = await send(port, withToken(`/echo?a=1&token[]=${TOKEN}&copy=x${TOKEN}`));
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('a');
  });

  it('allows only GET and HEAD: 405 with Allow otherwise, with or without the token', async () => {
    const port = await start();
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const answer = await send(port, withToken('/'), { method });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD');
      expect(answer.body).not.toContain('board');
    }
  });

  it('answers HEAD with the GET headers and no body', async () => {
    const port = await start();
    const get = await send(port, withToken('/'));
    const head = await send(port, withToken('/'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['last-modified']).toBe(get.headers['last-modified']);
  });

  it('sends ETag and Last-Modified, and 304 with no body when the client has the same', async () => {
    const port = await start();
    const get = await send(port, withToken('/'));
    expect(get.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(get.headers['last-modified']).toBe('Fri, 20 Nov 2026 10:15:30 GMT');
    const byTag = await send(port, withToken('/'), { headers: { 'if-none-match': get.headers.etag as string } });
    expect(byTag.status).toBe(304);
    expect(byTag.body).toBe('');
    expect(byTag.headers.etag).toBe(get.headers.etag);
    const byDate = await send(port, withToken('/'), { headers: { 'if-modified-since': 'Fri, 20 Nov 2026 10:15:30 GMT' } });
    expect(byDate.status).toBe(304);
    // Another body, another tag; an older date: the whole answer.
    const otherBody = await send(port, withToken('/?view=x'), { headers: { 'if-none-match': get.headers.etag as string } });
    expect(otherBody.status).toBe(200);
    const older = await send(port, withToken('/'), { headers: { 'if-modified-since': 'Fri, 20 Nov 2026 10:15:29 GMT' } });
    expect(older.status).toBe(200);
    // If-None-Match decides when both are sent.
    const both = await send(port, withToken('/'), { headers: { 'if-none-match': '"other"', 'if-modified-since': 'Fri, 20 Nov 2026 10:15:30 GMT' } });
    expect(both.status).toBe(200);
    // Without the token, the client's tags tell it nothing.
    expect((await send(port, '/', { headers: { 'if-none-match': get.headers.etag as string } })).status).toBe(401);
  });

  it('turns a failing route into 500 without detail, logged without the query', async () => {
    const port = await start();
    const answer = await send(port, withToken('/broken'));
    expect(answer.status).toBe(500);
    expect(answer.body).not.toContain('fell over');
    expect(logLines.join('\n')).toContain('the route fell over');
  });

  it('keeps the token out of every log line, also of refused and failing requests', async () => {
    const port = await start();
    await send(port, withToken('/'));
    await send(port, withToken('/broken'));
    await send(port, '/?token=guess-of-someone');
    await send(port, withToken('/calendar/../x'));
    await send(port, withToken('/x'), { method: 'POST' });
    await send(port, '/', { headers: { cookie: `dziennik2mqtt_board=${TOKEN}` } });
    expect(logLines.length).toBeGreaterThan(0);
    const all = logLines.join('\n');
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain('guess-of-someone');
  });

  it('/health is open: ok, degraded or down with counts, the children by id only with the token', async () => {
    const data = new HandData();
    data.setChild('ania');
    const port = await start(data);
    expect(JSON.parse((await send(port, '/health')).body)).toEqual({ status: 'ok', children: 1, online: 1 });
    data.setChild('bartek', {}, false);
    const degraded = await send(port, '/health');
    expect(degraded.status).toBe(200);
    expect(JSON.parse(degraded.body)).toEqual({ status: 'degraded', children: 2, online: 1 });
    const detailed = await send(port, withToken('/health'));
    expect(JSON.parse(detailed.body)).toEqual({
      status: 'degraded',
      children: 2,
      online: 1,
      by_child: { ania: { online: true }, bartek: { online: false } },
    });
    data.connected = false;
    const down = await send(port, '/health');
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body)).toEqual({ status: 'down', children: 2, online: 1, error: 'not connected to the MQTT broker' });
  });

  it('lets the ingress proxy in without the token and passes its path prefix on', async () => {
    const port = await start(new HandData(), { ingressAddress: '127.0.0.1' });
    const answer = await send(port, '/', { headers: { 'x-ingress-path': '/api/hassio_ingress/abc123' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('/api/hassio_ingress/abc123');
  });

  it('does not trust X-Ingress-Path from anyone else', async () => {
    const port = await start();
    const answer = await send(port, withToken('/'), { headers: { 'x-ingress-path': '/api/hassio_ingress/abc123' } });
    expect(answer.status).toBe(200);
    expect(answer.body).not.toContain('hassio_ingress');
    expect((await send(port, '/', { headers: { 'x-ingress-path': '/api/hassio_ingress/abc123' } })).status).toBe(401);
  });

  it('ends open streams on close, so a held page does not keep the bridge from stopping', async () => {
    const data = new HandData();
    const stream: Route = (req) =>
      req.segments[0] === 'events'
        ? { status: 200, headers: { 'Content-Type': 'text/event-stream' }, stream: (res) => void res.write('data: hello\n\n') }
        : undefined;
    const port = await freePort();
    const log = createLogger('silent');
    server = await startWebServer({ port, host: '127.0.0.1', routes: [stream], data, token: TOKEN, log });
    const ended = new Promise<string>((resolve, reject) => {
      void import('node:http').then(({ get }) => {
        get({ host: '127.0.0.1', port, path: withToken('/events') }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c.toString();
            if (text.includes('hello')) void server?.close();
          });
          res.on('end', () => resolve(text));
          res.on('error', reject);
        }).on('error', reject);
      });
    });
    await expect(ended).resolves.toContain('data: hello');
  });

  it('survives a route whose answer cannot be sent (a bad header value): 500, and the next request is fine', async () => {
    const data = new HandData();
    const badHeader: Route = (req) => (req.segments[0] === 'bad' ? { status: 200, headers: { 'X-Note': 'line\nbreak' }, body: 'x' } : undefined);
    const port = await freePort();
    server = await startWebServer({
      port,
      host: '127.0.0.1',
      routes: [badHeader, healthRoute(data)],
      data,
      token: TOKEN,
      log: createLogger('silent'),
    });
    expect((await send(port, withToken('/bad'))).status).toBe(500);
    expect((await send(port, '/health')).status).toBe(200);
  });

  it("refuses a Host that is none of the bridge's names with 403 before anything else, in the family's language, but a page or calendar feed asked with its key", async () => {
    const data = new HandData();
    data.language = 'pl';
    data.setChild('ania');
    const names = bridgeNames(['http://dziennik2mqtt.example.lan:8099', 'http://a0d7b954-dziennik2mqtt:8099']);
    const port = await start(data, { names, mcp: (_req, res) => void res.end('the MCP server') });
    const by = (host: string, target: string, more: Parameters<typeof send>[2] = {}) =>
      send(port, target, { ...more, headers: { ...more.headers, host } });
    const cookie = String((await send(port, withToken('/'))).headers['set-cookie']).split(';')[0] as string;
    // A page whose site's name was made to point at this machine (DNS rebinding): without a key of its own, any path, any method.
    for (const host of [
      'evil.example.com',
      `evil.example.com:${port}`,
      'localhost.evil.example',
      'dziennik2mqtt.example.lan.evil.example',
      '[evil]',
      'a0d7b954-dziennik2mqtt.evil',
    ]) {
      for (const target of ['/', '/health', '/nothing-here', '/calendar/../x', '/?token=wrong', '/mcp', `/mcp?key=${TOKEN}`]) {
        const answer = await by(host, target);
        expect(answer.status, `${host} ${target}`).toBe(403);
        expect(answer.body).toMatch(/^Ten adres nie jest własnym adresem dziennik2mqtt/);
      }
      // The MCP server takes no request by a foreign name, its token or not; nor does anything but GET and HEAD.
      expect((await by(host, '/mcp', { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } })).status, host).toBe(403);
      expect((await by(host, withToken('/'), { method: 'POST' })).status, host).toBe(403);
    }
    // A tablet or a phone by a name the bridge cannot know (Home Assistant's, a NAS's), with the token or the board's cookie.
    expect((await by('homeassistant.local:8099', withToken('/'))).status).toBe(200);
    expect((await by('nas.local:8099', '/', { headers: { cookie } })).status).toBe(200);
    // A calendar feed by its own key passes the name (this server has no calendar feed route: 404, not 403); a wrong key does not.
    expect((await by('homeassistant.local:8099', `/calendar/ania/lessons.ics?key=${calendarFeedKey(TOKEN, 'ania', 'lessons')}`)).status).toBe(404);
    expect((await by('homeassistant.local:8099', `/calendar/ania/lessons.ics?key=${calendarFeedKey(TOKEN, 'ania', 'agenda')}`)).status).toBe(403);
    // Its own names: localhost, this machine's (and its .local), public_url's, the app's; any IP address (Docker publishes
    // the port at the host's own, which the bridge cannot list), IPv6 in brackets; upper case and a trailing dot are the same name.
    const own = hostname().toLowerCase();
    for (const host of [
      `127.0.0.1:${port}`,
      '192.168.1.20:8099',
      `[::1]:${port}`,
      `localhost:${port}`,
      'LOCALHOST',
      own,
      `${own}.local:8099`,
      'dziennik2mqtt.example.lan:8099',
      'dziennik2mqtt.example.lan.',
      'a0d7b954-dziennik2mqtt:8099',
    ]) {
      expect((await by(host, withToken('/'))).status, host).toBe(200);
      expect((await by(host, '/health')).status, host).toBe(200);
      expect((await by(host, '/mcp', { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } })).body, host).toBe('the MCP server');
    }
  });

  it('takes a request without a Host (no browser sends one) and the ingress proxy by whatever name Home Assistant is opened', async () => {
    const port = await start(new HandData(), { ingressAddress: '127.0.0.1' });
    const viaIngress = await send(port, '/', { headers: { host: 'homeassistant.example.org:8123', 'x-ingress-path': '/api/hassio_ingress/abc123' } });
    expect(viaIngress.status).toBe(200);
    const old = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end('GET /health HTTP/1.0\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk: Buffer) => void (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(old).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('refuses port 0, which in the config means off', async () => {
    await expect(
      startWebServer({ port: 0, host: '127.0.0.1', routes: [], data: new HandData(), token: TOKEN, log: createLogger('silent') }),
    ).rejects.toThrow(/0 turns/);
  });
});
