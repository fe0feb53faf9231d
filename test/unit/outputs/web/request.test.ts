// The web server's gate, decided before any route: which paths are refused (traversal, bad encoding,
// too long), which connections count as Home Assistant's ingress, and who needs the token.
import { describe, expect, it } from 'vitest';
import { cookieFor, calendarFeedKey } from '../../../../src/outputs/web/token.js';
import {
  bridgeNames,
  cookieValue,
  decideAccess,
  fromIngress,
  hostAllowed,
  ingressPathOf,
  parseTarget,
  SUPERVISOR_INGRESS_ADDRESS,
  trustedIngress,
} from '../../../../src/outputs/web/request.js';

const TOKEN = 'Zq3mC8Jx0vL6bT2nR9pW4kY7hD1sF5gA_-abcdefgh';

describe('parseTarget', () => {
  it('splits and decodes the path, keeps the query, and takes / as no segment', () => {
    expect(parseTarget('/')).toMatchObject({ ok: true, segments: [] });
    const calendarFeed = parseTarget('/calendar/ania/lessons.ics?token=abc&x=1');
    expect(calendarFeed).toMatchObject({ ok: true, segments: ['calendar', 'ania', 'lessons.ics'] });
    expect(calendarFeed.ok && calendarFeed.query.get('x')).toBe('1');
    expect(parseTarget('/calendar/zo%C5%9Bka/')).toMatchObject({ ok: true, segments: ['calendar', 'zośka'] });
  });

  it.each([
    '/calendar/../http-token',
    '/calendar/..',
    '/./health',
    '/calendar/%2e%2e/http-token',
    '/calendar/%2E%2E/x',
    '/calendar/ania%2f..%2fx',
    '/calendar/ania%2F..%2Fx',
    '/calendar/..%5chttp-token',
    '/calendar/a\\b',
    '/calendar/ania%00.ics',
    '//etc/passwd',
    '/calendar//ania',
  ])('refuses %s with 404 before any route', (target) => {
    expect(parseTarget(target)).toEqual({ ok: false, status: 404 });
  });

  it('answers bad percent-encoding with 400 and an over-long address with 414', () => {
    expect(parseTarget('/calendar/%E0%A4%A')).toEqual({ ok: false, status: 400 });
    expect(parseTarget('/%zz')).toEqual({ ok: false, status: 400 });
    expect(parseTarget('http://elsewhere/')).toEqual({ ok: false, status: 400 });
    expect(parseTarget(`/?q=${'a'.repeat(2100)}`)).toEqual({ ok: false, status: 414 });
  });
});

describe("the bridge's own names", () => {
  it('are localhost, the machine and its .local, and the name of each address the bridge is reached by; an address is no name', () => {
    expect([
      ...bridgeNames(['https://School.Example.org/', 'http://192.168.1.20:8099', 'http://[::1]:8099', undefined, 'not an address'], 'NAS'),
    ]).toEqual(['localhost', 'nas', 'nas.local', 'school.example.org']);
  });

  it('take a Host by its name or any IP address, the port aside; no other', () => {
    const names = bridgeNames([], 'nas');
    for (const host of [
      undefined,
      'localhost',
      'localhost:8099',
      'NAS.local',
      'nas.',
      '10.0.0.7',
      '10.0.0.7:1',
      '[::1]:8099',
      '[fe80::1]',
      '[::ffff:10.0.0.7]',
    ])
      expect(hostAllowed(host, names), String(host)).toBe(true);
    for (const host of [
      '',
      'evil.example',
      'evil.example:8099',
      'nas.evil.example',
      'localhost.evil.example',
      '[evil]:80',
      '10.0.0.7.nip.io',
      '[::1',
      'nas:8099:1',
    ])
      expect(hostAllowed(host, names), host).toBe(false);
  });
});

describe('ingress', () => {
  it('counts only the Supervisor proxy address, also as IPv4-mapped IPv6', () => {
    const proxy = SUPERVISOR_INGRESS_ADDRESS;
    expect(fromIngress('172.30.32.2', proxy)).toBe(true);
    expect(fromIngress('::ffff:172.30.32.2', proxy)).toBe(true);
    expect(fromIngress('172.30.32.1', proxy)).toBe(false);
    expect(fromIngress('172.30.32.20', proxy)).toBe(false);
    expect(fromIngress('127.0.0.1', proxy)).toBe(false);
    expect(fromIngress('::1', proxy)).toBe(false);
    expect(fromIngress(undefined, proxy)).toBe(false);
    expect(fromIngress('127.0.0.1', '127.0.0.1')).toBe(true);
  });

  it('trusts the Supervisor proxy only under the Supervisor (SUPERVISOR_TOKEN set), and no address without one', () => {
    expect(trustedIngress({ SUPERVISOR_TOKEN: 'abc' })).toBe('172.30.32.2');
    expect(trustedIngress({})).toBeUndefined();
    expect(trustedIngress({ SUPERVISOR_TOKEN: '' })).toBeUndefined();
    expect(fromIngress('172.30.32.2', undefined)).toBe(false);
  });

  it('takes the ingress path only in the shape Home Assistant sends', () => {
    expect(ingressPathOf('/api/hassio_ingress/AbC-12_x')).toBe('/api/hassio_ingress/AbC-12_x');
    expect(ingressPathOf('/api/hassio_ingress/x"><script>')).toBe('');
    expect(ingressPathOf('https://evil.example/')).toBe('');
    expect(ingressPathOf(undefined)).toBe('');
  });
});

describe('decideAccess', () => {
  const ask = (over: Partial<Parameters<typeof decideAccess>[0]>) =>
    decideAccess({ segments: [], query: new URLSearchParams(), cookieHeader: undefined, remoteAddress: '192.168.1.20', token: TOKEN, ...over });

  it('lets /health in without the token, and nothing else', () => {
    expect(ask({ segments: ['health'] })).toEqual({ allowed: true, via: 'open' });
    // With the token it is not 'open': the answer may then name the children.
    expect(ask({ segments: ['health'], query: new URLSearchParams({ token: TOKEN }) })).toEqual({ allowed: true, via: 'query' });
    expect(ask({ segments: [] })).toEqual({ allowed: false });
    expect(ask({ segments: ['health', 'x'] })).toEqual({ allowed: false });
    expect(ask({ segments: ['calendar', 'ania', 'lessons.ics'] })).toEqual({ allowed: false });
  });

  it('takes the token from ?token= or its HMAC from the cookie, and refuses a wrong or partial one', () => {
    expect(ask({ query: new URLSearchParams({ token: TOKEN }) })).toEqual({ allowed: true, via: 'query' });
    expect(ask({ cookieHeader: `theme=dark; dziennik2mqtt_board=${cookieFor(TOKEN)}` })).toEqual({ allowed: true, via: 'cookie' });
    // The raw token is no cookie (the old form), and the cookie is no token.
    expect(ask({ cookieHeader: `dziennik2mqtt_board=${TOKEN}` })).toEqual({ allowed: false });
    expect(ask({ cookieHeader: `dziennik2mqtt_token=${TOKEN}` })).toEqual({ allowed: false });
    expect(ask({ query: new URLSearchParams({ token: cookieFor(TOKEN) }) })).toEqual({ allowed: false });
    expect(ask({ query: new URLSearchParams({ token: TOKEN.slice(0, -1) }) })).toEqual({ allowed: false });
    expect(ask({ query: new URLSearchParams({ token: `${TOKEN}x` }) })).toEqual({ allowed: false });
    expect(ask({ query: new URLSearchParams({ token: '' }) })).toEqual({ allowed: false });
    expect(ask({ cookieHeader: `other_token=${TOKEN}` })).toEqual({ allowed: false });
  });

  it('lets the MCP server in with the token as ?key= or a bearer token, never as ?token= nor by the cookie', () => {
    const mcp = ['mcp'];
    expect(ask({ segments: mcp, query: new URLSearchParams({ key: TOKEN }) })).toEqual({ allowed: true, via: 'key' });
    expect(ask({ segments: mcp, authorization: `Bearer ${TOKEN}` })).toEqual({ allowed: true, via: 'key' });
    expect(ask({ segments: mcp, query: new URLSearchParams({ token: TOKEN }) })).toEqual({ allowed: false });
    expect(ask({ segments: mcp, cookieHeader: `dziennik2mqtt_board=${cookieFor(TOKEN)}` })).toEqual({ allowed: false });
    expect(ask({ segments: mcp, query: new URLSearchParams({ key: TOKEN.slice(1) }) })).toEqual({ allowed: false });
  });

  it('lets a calendar feed in with its own key, and nothing else with that key', () => {
    const key = calendarFeedKey(TOKEN, 'ania', 'lessons');
    const withKey = new URLSearchParams({ key });
    expect(ask({ segments: ['calendar', 'ania', 'lessons.ics'], query: withKey })).toEqual({ allowed: true, via: 'key' });
    for (const segments of [
      ['calendar', 'ania', 'agenda.ics'],
      ['calendar', 'jan', 'lessons.ics'],
      ['calendar', 'ania', 'lessons'],
      [],
      ['api', 'board'],
      ['files', 'ania', '1', 'a.pdf'],
    ]) {
      expect(ask({ segments, query: withKey }), segments.join('/')).toEqual({ allowed: false });
    }
    expect(ask({ segments: ['calendar', 'ania', 'lessons.ics'], query: new URLSearchParams({ token: key }) })).toEqual({ allowed: false });
    expect(
      ask({
        segments: ['calendar', 'ania', 'lessons.ics'],
        query: new URLSearchParams({ key: calendarFeedKey('another token', 'ania', 'lessons') }),
      }),
    ).toEqual({ allowed: false });
    // The token still opens every calendar feed (the board's master key).
    expect(ask({ segments: ['calendar', 'ania', 'lessons.ics'], query: new URLSearchParams({ token: TOKEN }) })).toEqual({
      allowed: true,
      via: 'query',
    });
  });

  it('lets the trusted ingress proxy in without the token, and no one else by its address', () => {
    const proxy = SUPERVISOR_INGRESS_ADDRESS;
    expect(ask({ remoteAddress: '172.30.32.2', ingressAddress: proxy })).toEqual({ allowed: true, via: 'ingress' });
    expect(ask({ remoteAddress: '172.30.33.2', ingressAddress: proxy })).toEqual({ allowed: false });
    // Outside the Supervisor no proxy is trusted: 172.30.32.2 is any machine of a Docker network.
    expect(ask({ remoteAddress: '172.30.32.2' })).toEqual({ allowed: false });
  });
});

describe('cookieValue', () => {
  it('finds one cookie among others', () => {
    expect(cookieValue('a=1; b=2;c=3', 'c')).toBe('3');
    expect(cookieValue('a=1', 'b')).toBeUndefined();
    expect(cookieValue(undefined, 'a')).toBeUndefined();
  });
});
