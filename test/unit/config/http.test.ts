// The `http` key (interface 6.1): the web server on 8099 on every interface unless set, port 0 turns
// it off, and a wrong port or address is refused with the key named.
import { describe, expect, it } from 'vitest';
import { buildMinimal as build, refusal } from '../../helpers/config.js';

describe('config http', () => {
  it('defaults to port 8099 on every interface', async () => {
    expect((await build({})).http).toEqual({ port: 8099, bind: '0.0.0.0', metrics: false });
    expect((await build({ http: {} })).http).toEqual({ port: 8099, bind: '0.0.0.0', metrics: false });
  });

  it('takes another port, 0 (off), and a local or IPv6 address', async () => {
    expect((await build({ http: { port: 8123, bind: '127.0.0.1' } })).http).toEqual({ port: 8123, bind: '127.0.0.1', metrics: false });
    expect((await build({ http: { metrics: true } })).http.metrics).toBe(true);
    expect((await build({ http: { port: 0 } })).http.port).toBe(0);
    expect((await build({ http: { bind: '::' } })).http.bind).toBe('::');
  });

  it.each([
    ['a port above 65535', { port: 70000 }, 'http.port', /65535/],
    ['a negative port', { port: -1 }, 'http.port', /65535/],
    ['a fractional port', { port: 80.5 }, 'http.port', /whole number/],
    ['a port as text', { port: 'eighty' }, 'http.port', /port/],
    ['a host name for bind', { bind: 'localhost' }, 'http.bind', /IP address/],
    ['an empty bind', { bind: '' }, 'http.bind', /IP address/],
  ])('refuses %s, naming the key', async (_what, http, key, reason) => {
    const message = await refusal({ http });
    expect(message).toContain(key);
    expect(message).toMatch(reason);
  });

  it('refuses an unknown key under http', async () => {
    expect(await refusal({ http: { token: 'abc' } })).toContain('http.token: unknown key');
  });
});
