// The login flow and the session policy against the simulated portal (real HTTP, fake clock).
import { describe, expect, it } from 'vitest';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import type { PortalSimulator } from '../../src/simulator/index.js';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import type { FakeClock } from '../helpers/clock.js';
import { CaptchaRequiredError, LoginPausedError, UnexpectedResponseError, WrongCredentialsError } from '../../src/portal/errors.js';
import { meResponse } from '../../src/portal/schemas/identity.js';
import { portalClient, tempDir, simulatorPerTest } from '../helpers/portal.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const JANEK = DEMO_ACCOUNTS[1]!;
const H = 3_600_000;

let sim: PortalSimulator;
let clock: FakeClock;
simulatorPerTest((world) => ({ sim, clock } = world));

const client = (extra: { dataDir?: string; password?: string; login?: string } = {}) =>
  portalClient({ sim, clock, login: extra.login ?? ANIA.login, password: extra.password ?? ANIA.password, dataDir: extra.dataDir });

describe('login (spec 5.2)', () => {
  it('logs in through every step and reads Me with the session cookies', async () => {
    const { gateway } = client();
    const { Me } = await gateway.get('Me', meResponse);
    expect(Me.User?.FirstName).toBeTruthy();
    expect(sim.logins(ANIA.login)).toBe(1);
    const steps = sim.requests.slice(0, 4).map((r) => `${r.host} ${r.method} ${r.path}`);
    expect(steps).toEqual([
      'portal GET /loguj/portalRodzina',
      'auth GET /OAuth/Authorization',
      'auth POST /OAuth/Authorization',
      'auth GET /OAuth/Authorization/2FA',
    ]);
  });

  it('treats an answer without goTo as wrong credentials and then pauses logins for an hour', async () => {
    const { gateway } = client({ password: 'not-the-password' });
    await expect(gateway.get('Me', meResponse)).rejects.toBeInstanceOf(WrongCredentialsError);
    await expect(gateway.get('Me', meResponse)).rejects.toBeInstanceOf(LoginPausedError);
    clock.set(clock.now() + 59 * 60_000);
    await expect(gateway.get('Me', meResponse)).rejects.toBeInstanceOf(LoginPausedError);
    expect(sim.count({ host: 'auth', method: 'POST' })).toBe(1);
    clock.set(clock.now() + 2 * 60_000);
    await expect(gateway.get('Me', meResponse)).rejects.toBeInstanceOf(WrongCredentialsError);
    expect(sim.count({ host: 'auth', method: 'POST' })).toBe(2);
  });

  it('lifts the wrong-credentials pause when the password in the config changes', async () => {
    const dataDir = await tempDir();
    await expect(client({ dataDir, password: 'old' }).gateway.get('Me', meResponse)).rejects.toBeInstanceOf(WrongCredentialsError);
    const same = client({ dataDir, password: 'old' });
    await same.session.restore();
    await expect(same.gateway.get('Me', meResponse)).rejects.toBeInstanceOf(LoginPausedError);
    const fixed = client({ dataDir });
    await fixed.session.restore();
    await expect(fixed.gateway.get('Me', meResponse)).resolves.toBeTruthy();
  });

  it.each(['login', 'redirect'] as const)('raises CaptchaRequiredError for a captcha in step %s and waits 30 minutes', async (where) => {
    sim.requireCaptcha(ANIA.login, where);
    const { gateway } = client();
    await expect(gateway.get('Me', meResponse)).rejects.toBeInstanceOf(CaptchaRequiredError);
    sim.requireCaptcha(ANIA.login, false);
    clock.set(clock.now() + 29 * 60_000);
    await expect(gateway.get('Me', meResponse)).rejects.toBeInstanceOf(LoginPausedError);
    clock.set(clock.now() + 60_000);
    await expect(gateway.get('Me', meResponse)).resolves.toBeTruthy();
  });

  it('gives up after 10 redirect hops', async () => {
    sim.setRedirectLoop(true);
    const { gateway } = client();
    const error = await gateway.get('Me', meResponse).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toMatch(/more than 10 redirects/);
    const post = sim.requests.findIndex((r) => r.method === 'POST');
    expect(sim.requests.length - post - 1).toBe(10);
  });

  it('never mistakes a 503 at login for a wrong password', async () => {
    sim.failNext(1, 503, { host: 'auth', method: 'POST' });
    const { gateway } = client();
    const error = await gateway.get('Me', meResponse).catch((e: unknown) => e);
    expect((error as Error).name).toBe('ConnectionError');
    await expect(gateway.get('Me', meResponse)).resolves.toBeTruthy();
  });

  it('saves the jar (0600, DeviceCookie with Path=/OAuth) and reuses it after a restart without logging in', async () => {
    const dataDir = await tempDir();
    await client({ dataDir }).gateway.get('Me', meResponse);
    const file = join(dataDir, 'sessions', `${ANIA.login}.json`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { cookies: { cookies: { key: string; path: string }[] } };
    expect(saved.cookies.cookies.find((c) => c.key === 'DeviceCookie')?.path).toBe('/OAuth');
    expect(JSON.stringify(saved)).not.toContain(ANIA.password);

    const restarted = client({ dataDir });
    await restarted.session.restore();
    clock.set(clock.now() + 30 * 60_000);
    await restarted.gateway.get('Me', meResponse);
    expect(sim.logins(ANIA.login)).toBe(1);
  });

  it('keeps two accounts apart: each sees its own child', async () => {
    const ania = client();
    const janek = client({ login: JANEK.login, password: JANEK.password });
    const [a, j] = await Promise.all([ania.gateway.get('Me', meResponse), janek.gateway.get('Me', meResponse)]);
    expect(a.Me.User?.FirstName).not.toBe(j.Me.User?.FirstName);
    const again = await ania.gateway.get('Me', meResponse);
    expect(again.Me.User?.FirstName).toBe(a.Me.User?.FirstName);
    expect(sim.logins()).toBe(2);
  });
});

describe('session policy (spec 5.3.5)', () => {
  it('refreshes when the session is 2 hours old, without a password login', async () => {
    const { gateway } = client();
    await gateway.get('Me', meResponse);
    clock.set(clock.now() + 2 * H - 60_000);
    await gateway.get('Me', meResponse);
    expect(sim.count({ path: '/refreshToken' })).toBe(0);
    clock.set(clock.now() + 60_000);
    await gateway.get('Me', meResponse);
    expect(sim.count({ path: '/refreshToken' })).toBe(1);
    expect(sim.logins(ANIA.login)).toBe(1);
  });

  it('counts a refresh without a new oauth_token as failed: logs in and does not refresh again for 30 minutes', async () => {
    const { gateway } = client();
    await gateway.get('Me', meResponse);
    sim.setRefreshWithoutToken(true);
    clock.set(clock.now() + 2 * H);
    await gateway.get('Me', meResponse);
    expect(sim.count({ path: '/refreshToken' })).toBe(1);
    expect(sim.logins(ANIA.login)).toBe(2);
  });

  it('logs in once for 20 concurrent requests on a dead session', async () => {
    const { gateway } = client();
    await gateway.get('Me', meResponse);
    sim.expireSessions(ANIA.login);
    const results = await Promise.all(Array.from({ length: 20 }, () => gateway.get('Me', meResponse)));
    expect(results).toHaveLength(20);
    expect(sim.logins(ANIA.login)).toBe(2);
  });

  it('never logs in again for a 401 Insufficient scopes', async () => {
    const { gateway } = client();
    await gateway.get('Me', meResponse);
    const error = await gateway.get('SchoolInfo', z.unknown()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).status).toBe(401);
    expect(sim.logins(ANIA.login)).toBe(1);
  });

  it('logs in again when the assumed 20 hour lifetime is over', async () => {
    const { gateway } = client();
    await gateway.get('Me', meResponse);
    for (let h = 1; h <= 20; h++) {
      clock.set(clock.now() + H);
      await gateway.get('Me', meResponse);
    }
    expect(sim.logins(ANIA.login)).toBe(2);
  });
});
