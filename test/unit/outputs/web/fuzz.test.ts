// Random paths and query strings against the web server (seeded, 2000 cases): never a 5xx, never a
// child's data without the token, never the token echoed in an answer or a log line.
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from '../../../../src/outputs/web/server.js';
import { healthRoute } from '../../../../src/outputs/web/health.js';
import { cookieFor } from '../../../../src/outputs/web/token.js';
import { createLogger } from '../../../../src/util/log.js';
import { seeded } from '../../../helpers/faults.js';
import { freePort } from '../../../helpers/ports.js';
import { HandData } from '../../../helpers/web.js';
import type { Route } from '../../../../src/outputs/web/types.js';

const SEED = 0x14_2026;
const CASES = 2000;
const TOKEN = 'fuzzToken_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
/** What only a page with the token may show. */
const SECRET_DATA = 'LUCKY-NUMBER-17';

const PIECES = [
  '',
  'calendar',
  'ania',
  'zosia',
  'lessons.ics',
  'agenda.ics',
  'free-days.ics',
  'health',
  'api',
  'events',
  'http-token',
  '.',
  '..',
  '%2e',
  '%2e%2e',
  '%2E%2e',
  '.%2e',
  '%2f',
  '%2F',
  '%5c',
  '%5C',
  '\\',
  '%00',
  '%',
  '%zz',
  '%e0%a4%a',
  '%C5%9B',
  '~',
  '*',
  ';',
  ',',
  "'",
  '"',
  '<script>',
  '%3Cscript%3E',
  'a'.repeat(300),
  '?',
  '#',
  '&',
  '=',
  '+',
  '@',
  ':',
  '!',
];
const QUERY_KEYS = ['token', 'TOKEN', 'token[]', 'child', 'x', '', '%74oken', 'tok%65n'];

function tokenVariant(random: () => number): string {
  const variants = [TOKEN, TOKEN.slice(1), `${TOKEN}x`, TOKEN.toUpperCase(), encodeURIComponent(TOKEN), '', 'null', `${TOKEN}%00`, `%${TOKEN}`];
  return variants[Math.floor(random() * variants.length)] as string;
}

function randomTarget(random: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const segments = Array.from({ length: Math.floor(random() * 6) }, () => pick(PIECES));
  let target = `/${segments.join(random() < 0.1 ? '//' : '/')}`;
  const pairs = Math.floor(random() * 4);
  const query: string[] = [];
  for (let i = 0; i < pairs; i++) {
    const key = pick(QUERY_KEYS);
    query.push(`${key}=${key.toLowerCase().includes('token') || random() < 0.2 ? tokenVariant(random) : pick(PIECES)}`);
  }
  if (query.length > 0) target += `?${query.join(pick(['&', ';', '&&']))}`;
  return target;
}

describe('the web server under random paths and queries', () => {
  let server: WebServer;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const logLines: string[] = [];

  beforeAll(async () => {
    const data = new HandData();
    data.setChild('ania', { lucky_number: { state: '17' } });
    // Stand-ins for the board and the calendar feeds: they show the child's data to whoever gets through.
    const board: Route = (req) =>
      req.segments.length === 0 ? { status: 200, body: `${SECRET_DATA} ${[...req.query.values()].join(' ')}` } : undefined;
    const calendarFeed: Route = (req) =>
      req.segments[0] === 'calendar' && req.segments[1] === 'ania' && req.segments.length === 3
        ? { status: 200, body: `BEGIN:VCALENDAR ${SECRET_DATA}` }
        : undefined;
    const log = createLogger('debug', { write: (line: string) => void logLines.push(line) });
    server = await startWebServer({
      port: await freePort(),
      host: '127.0.0.1',
      routes: [healthRoute(data), calendarFeed, board],
      data,
      token: TOKEN,
      log,
    });
  });

  afterAll(async () => {
    agent.destroy();
    await server.close();
  });

  function get(target: string, method: string, headers: Record<string, string>): Promise<{ status: number; body: string; headers: string }> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: target, method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: JSON.stringify(res.headers) }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  }

  it(`answers ${CASES} random requests (seed ${SEED.toString(16)}) without a 5xx or a leak`, async () => {
    const random = seeded(SEED);
    const statuses = new Map<number, number>();
    for (let i = 0; i < CASES; i++) {
      const target = randomTarget(random);
      const method = random() < 0.9 ? 'GET' : (['HEAD', 'POST', 'PUT', 'DELETE', 'TRACE'][Math.floor(random() * 5)] as string);
      const withCookie = random() < 0.15;
      // The board's cookie holds the token's HMAC: sent right, as a variant's HMAC, or as a raw (old-style) token.
      const variant = withCookie ? tokenVariant(random) : '';
      const headers: Record<string, string> = withCookie ? { cookie: `dziennik2mqtt_board=${random() < 0.7 ? cookieFor(variant) : variant}` } : {};
      const answer = await get(target, method, headers);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const what = `#${i} ${method} ${target} ${JSON.stringify(headers)}`;
      expect(answer.status, what).toBeLessThan(500);
      // The token as sent: in ?token= however its name is percent-encoded, or in the cookie.
      const mark = target.indexOf('?');
      const sent = mark === -1 ? null : new URLSearchParams(target.slice(mark + 1)).get('token');
      const hadToken = sent === TOKEN || headers.cookie === `dziennik2mqtt_board=${cookieFor(TOKEN)}`;
      if (!hadToken) expect(answer.body, what).not.toContain(SECRET_DATA);
      if (answer.body.includes(SECRET_DATA)) expect(answer.status, what).toBe(200);
      // The token never goes out, not even in the cookie the board sets for a right ?token=.
      expect(answer.body, what).not.toContain(TOKEN);
      expect(answer.headers, what).not.toContain(TOKEN);
    }
    // The random mix reached every kind of answer, so the checks above were exercised.
    for (const status of [200, 400, 401, 404, 405])
      expect(statuses.get(status) ?? 0, `status ${status} in ${JSON.stringify([...statuses])}`).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(TOKEN);
  });
});
