// Fault injection, the request log and the servers' lifecycle.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PortalSimulator } from '../../src/simulator/index.js';
import { gatewayGet, logIn } from '../helpers/simulator.js';
import type { TinyBrowser } from '../helpers/simulator.js';
import { freePort } from '../helpers/ports.js';
import { SimTap } from '../helpers/faults-sim.js';
import { waitUntil } from '../helpers/mqtt.js';

const ANIA = { login: '1234567u', password: 'demo-ania' };
const JANEK = { login: '7654321u', password: 'demo-janek' };
let sim: PortalSimulator;
let browser: TinyBrowser;

beforeEach(async () => {
  sim = new PortalSimulator({ now: () => Date.parse('2026-11-20T08:00:00+01:00') });
  await sim.start();
  browser = await logIn(sim, ANIA.login, ANIA.password);
});

afterEach(async () => {
  await sim.stop();
});

describe('failNext', () => {
  it('answers the next N matching requests with a 503 maintenance page, then normally', async () => {
    sim.failNext(2, 503, { path: '/gateway/api/2.0/Me' });
    for (let i = 0; i < 2; i++) {
      const res = await browser.get(`${sim.urls.base_url}/gateway/api/2.0/Me`);
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(await res.text()).toContain('Przerwa techniczna');
      expect((await gatewayGet(sim, browser, 'Schools')).status).toBe(200);
    }
    expect((await gatewayGet(sim, browser, 'Me')).status).toBe(200);
    expect(sim.count({ path: '/gateway/api/2.0/Me', login: ANIA.login })).toBe(3);
  });

  it('answers 500 with an empty HTML body and 429 with Retry-After', async () => {
    sim.failNext(1, 500, { host: 'portal' });
    sim.failNext(1, 429, { host: 'portal' });
    const first = await browser.get(`${sim.urls.base_url}/gateway/api/2.0/Me`);
    expect([first.status, await first.text()]).toEqual([500, '']);
    const second = await browser.get(`${sim.urls.base_url}/gateway/api/2.0/Me`);
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('60');
  });

  it('can fail only the requests of one login, including its login POST', async () => {
    const janek = await logIn(sim, JANEK.login, JANEK.password);
    sim.failNext(1, 503, { login: JANEK.login });
    expect((await gatewayGet(sim, browser, 'Me')).status).toBe(200);
    expect((await janek.get(`${sim.urls.base_url}/gateway/api/2.0/Me`)).status).toBe(503);
    sim.failNext(1, 503, { host: 'auth', method: 'POST', login: ANIA.login });
    await expect(logIn(sim, ANIA.login, ANIA.password)).rejects.toThrow();
    expect(sim.logins(ANIA.login)).toBe(1);
  });
});

describe('request log', () => {
  it('records host, method, path, query, status, login and time, and resets', async () => {
    await gatewayGet(sim, browser, 'Timetables?weekStart=2026-11-16');
    const last = sim.requests.at(-1);
    expect(last).toEqual({
      host: 'portal',
      method: 'GET',
      path: '/gateway/api/2.0/Timetables',
      query: 'weekStart=2026-11-16',
      login: ANIA.login,
      status: 200,
      at: Date.parse('2026-11-20T08:00:00+01:00'),
      bytes: expect.any(Number),
    });
    expect(last?.bytes).toBeGreaterThan(1000);
    // Login page, password POST and two redirect hops.
    expect(sim.count({ host: 'auth' })).toBe(4);
    expect(sim.count({ path: /Timetables/ })).toBe(1);
    expect(sim.logins()).toBe(1);
    sim.resetCounts();
    expect(sim.requests).toHaveLength(0);
    expect(sim.count()).toBe(0);
    expect(sim.logins()).toBe(0);
  });

  it('listens on the messages and sandbox hosts, with 404 for unknown paths', async () => {
    for (const url of [sim.urls.messages_url, sim.urls.sandbox_url]) {
      const res = await fetch(`${url}/no/such/path`);
      expect(res.status).toBe(404);
    }
    expect(sim.count({ host: 'messages' })).toBe(1);
    expect(sim.count({ host: 'sandbox' })).toBe(1);
  });
});

describe('latency and lifecycle', () => {
  it('delays matching requests until cleared', async () => {
    // Held for ten minutes, longer than any test may run: an answer that comes at all was not delayed.
    const tap = new SimTap(sim);
    const ME = '/gateway/api/2.0/Me';
    sim.setLatency(600_000, { path: ME });
    let held = 'pending';
    const first = gatewayGet(sim, browser, 'Me').then(
      () => (held = 'answered'),
      () => (held = 'cut off'),
    );
    // The delay is chosen when the request arrives: clear it only once this one is being held.
    await waitUntil(() => tap.arrived({ path: ME }) === 1, 'the first Me request to arrive');
    expect((await gatewayGet(sim, browser, 'Schools')).status).toBe(200);
    sim.setLatency(0, { path: ME });
    expect((await gatewayGet(sim, browser, 'Me')).status).toBe(200);
    // The second Me was answered, the first one (sent before it) still waits.
    expect(sim.count({ path: ME })).toBe(1);
    expect(held).toBe('pending');
    await sim.stop();
    await first;
    expect(held).toBe('cut off');
  });

  it('stops at once, even with a request waiting on latency', async () => {
    // Ten minutes of latency: a stop that waited for the request would outlast the test's timeout.
    const tap = new SimTap(sim);
    sim.setLatency(600_000);
    const pending = fetch(`${sim.urls.base_url}/gateway/api/2.0/Me`).then(
      () => 'answered',
      () => 'failed',
    );
    await waitUntil(() => tap.inFlight === 1, 'the request to be held');
    await sim.stop();
    expect(await pending).toBe('failed');
    expect(sim.count({ path: '/gateway/api/2.0/Me' })).toBe(0); // it was never answered
  });

  it('listens on a fixed port on all five loopback addresses when asked', async () => {
    const port = await freePort();
    const fixed = new PortalSimulator({ port });
    expect(() => fixed.urls).toThrow(/not started/);
    await fixed.start();
    try {
      expect(fixed.urls).toEqual({
        base_url: `http://127.0.0.1:${port}`,
        auth_url: `http://127.0.0.2:${port}`,
        messages_url: `http://127.0.0.3:${port}`,
        sandbox_url: `http://127.0.0.4:${port}`,
        family_url: `http://127.0.0.5:${port}`,
      });
      expect((await fetch(`${fixed.urls.base_url}/loguj/portalRodzina`, { redirect: 'manual' })).status).toBe(302);
    } finally {
      await fixed.stop();
    }
  });
});
