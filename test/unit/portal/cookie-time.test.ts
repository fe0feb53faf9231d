// Cookies kept as RFC 6265 says, by the portal's time (issue 64, point 4). The portal writes Expires by its
// own clock beside Max-Age; this machine's clock may be minutes or hours off. Max-Age wins over Expires, an
// Expires is judged at the portal's moment of the answer (its Date header), and a cookie the portal deletes
// (Max-Age=0, or an Expires already past with no Max-Age) is never sent again.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../../src/portal/http.js';
import { PortalTime } from '../../../src/portal/portal-time.js';
import { FakeClock } from '../../helpers/clock.js';
import { LogSink } from '../../helpers/faults.js';

const PORTAL_NOW = Date.parse('2026-11-18T09:10:00+01:00');
const MIN = 60_000;
const httpDate = (ms: number): string => new Date(ms).toUTCString();

/** The Set-Cookie lines the next answer carries (by path: /set sets, anything else only answers). */
let next: string[] = [];
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('Date', httpDate(PORTAL_NOW));
    res.setHeader('X-Cookie', req.headers.cookie ?? '');
    if (req.url === '/set') res.setHeader('Set-Cookie', next);
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A client whose clock is `aheadMs` off the portal's; what it sends after the portal set `cookies` in turn. */
async function sentAfter(aheadMs: number, ...cookies: string[][]): Promise<string> {
  const http = new HttpClient({ account: 'test', clock: new FakeClock(PORTAL_NOW + aheadMs), timeoutMs: 5_000 });
  for (const lines of cookies) {
    next = lines;
    await http.send({ url: `${base}/set` });
  }
  const res = await http.send({ url: `${base}/read` });
  return String(res.headers['x-cookie']);
}

describe('cookies by the portal’s time', () => {
  for (const aheadMs of [20 * MIN, 60 * MIN, -20 * MIN, -60 * MIN]) {
    it(`keeps a cookie with a positive Max-Age, whatever its Expires, with a clock ${aheadMs / MIN} minutes off`, async () => {
      const token = `oauth_token=abc; Path=/; Max-Age=600; Expires=${httpDate(PORTAL_NOW + 10 * MIN)}`;
      expect(await sentAfter(aheadMs, [token])).toBe('oauth_token=abc');
    });

    it(`keeps a cookie whose Expires is ahead by the portal's clock, with a clock ${aheadMs / MIN} minutes off`, async () => {
      expect(await sentAfter(aheadMs, [`sid=1; Path=/; Expires=${httpDate(PORTAL_NOW + 10 * MIN)}`])).toBe('sid=1');
    });

    it(`drops a cookie the portal deleted, with a clock ${aheadMs / MIN} minutes off`, async () => {
      const set = ['a=1; Path=/', 'b=2; Path=/', 'c=3; Path=/', 'd=4; Path=/'];
      const deleted = [
        'a=; Path=/; Max-Age=0',
        // Max-Age wins the other way too: a zero Max-Age deletes whatever the Expires says.
        `b=; Path=/; Max-Age=0; Expires=${httpDate(PORTAL_NOW + 10 * MIN)}`,
        'c=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
        // Five minutes past by the portal's clock, though ahead of a machine an hour behind it.
        `d=; Path=/; Expires=${httpDate(PORTAL_NOW - 5 * MIN)}`,
      ];
      expect(await sentAfter(aheadMs, set, deleted)).toBe('');
    });
  }

  it('says a skew over a minute once in the log, and not one under a minute', async () => {
    const logs = new LogSink();
    const portalTime = new PortalTime(logs.logger('info'));
    const clock = new FakeClock(PORTAL_NOW + 20 * MIN);
    const http = new HttpClient({ account: 'test', clock, timeoutMs: 5_000, portalTime });
    for (let i = 0; i < 3; i++) await http.send({ url: `${base}/read` });
    expect(logs.matching(/clock_skew_s/).map((l) => JSON.parse(l) as { clock_skew_s: number })).toEqual([
      expect.objectContaining({ clock_skew_s: 1200 }),
    ]);
    expect(portalTime.skewSeconds).toBe(1200);

    const agreeing = new PortalTime(logs.logger('info'));
    const near = new HttpClient({ account: 'test', clock: new FakeClock(PORTAL_NOW + 50_000), timeoutMs: 5_000, portalTime: agreeing });
    await near.send({ url: `${base}/read` });
    expect(agreeing.skewSeconds).toBeUndefined();
    expect(logs.matching(/clock_skew_s/)).toHaveLength(1);
  });
});
