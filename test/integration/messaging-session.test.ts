// The messaging session against the simulated portal (real HTTP, fake clock): the /wiadomosci3
// bootstrap, every step of the recovery ladder, the 10-minute window and the no-module schedule.
import { describe, expect, it } from 'vitest';
import type { PortalSimulator } from '../../src/simulator/index.js';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatorPerTest } from '../helpers/portal.js';
import type { FakeClock } from '../helpers/clock.js';
import { ConnectionError, SessionExpiredError, UnexpectedResponseError } from '../../src/portal/errors.js';
import { MessagesUnavailableError } from '../../src/portal/messaging-policy.js';
import { meResponse } from '../../src/portal/schemas/identity.js';
import { messagingClient } from '../unit/features/messaging/sim-client.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const MIN = 60_000;
const COUNT = '/api/inbox/unreadMessagesCount';

let sim: PortalSimulator;
let clock: FakeClock;
simulatorPerTest((world) => ({ sim, clock } = world));

const bootstraps = () => sim.count({ host: 'portal', path: '/wiadomosci3' });
const countCalls = () => sim.count({ host: 'messages', path: COUNT });
const make = (timeoutMs?: number) => messagingClient({ sim, clock, login: ANIA.login, password: ANIA.password, timeoutMs });

describe('bootstrap (spec 5.4.1)', () => {
  it('bootstraps through /wiadomosci3 inside the main session and reads the 14 counters', async () => {
    const { api } = make();
    expect(api.available).toBeUndefined();
    const counts = await api.unreadCounts();
    expect(Object.keys(counts)).toHaveLength(14);
    expect(counts.inbox).toBe(1);
    expect(api.available).toBe(true);
    expect(sim.logins(ANIA.login)).toBe(1);
    expect(bootstraps()).toBe(1);
    expect(sim.count({ host: 'messages', path: '/bootstrap' })).toBe(1);
  });

  it('shares one bootstrap between concurrent calls', async () => {
    const { api } = make();
    await Promise.all([api.unreadCounts(), api.unreadCounts(), api.list('inbox'), api.me()]);
    expect(bootstraps()).toBe(1);
    expect(sim.logins()).toBe(1);
  });

  it('bootstraps again after every password login before the next messaging call', async () => {
    const { api, session, gateway } = make();
    await api.unreadCounts();
    await api.unreadCounts();
    expect(bootstraps()).toBe(1);
    sim.expireSessions(ANIA.login);
    await gateway.get('Me', meResponse); // the gateway sees the dead session and logs in
    expect(sim.logins()).toBe(2);
    await api.unreadCounts();
    expect(bootstraps()).toBe(2);
    await session.forceLogin();
    await api.unreadCounts();
    expect(bootstraps()).toBe(3);
  });
});

describe('recovery ladder (spec 5.4.3-5)', () => {
  it('on a 401 (messaging session expired) bootstraps once and retries, without a login', async () => {
    const { api } = make();
    await api.unreadCounts();
    sim.messaging.expireSessions(ANIA.login);
    await expect(api.unreadCounts()).resolves.toMatchObject({ inbox: 1 });
    expect(bootstraps()).toBe(2);
    expect(countCalls()).toBe(3);
    expect(sim.logins()).toBe(1);
  });

  it('recovers when the messaging session dies of age on the clock', async () => {
    const { api } = make();
    await api.unreadCounts();
    await clock.advance(39 * MIN);
    await api.unreadCounts();
    expect(bootstraps()).toBe(1);
    await clock.advance(2 * MIN);
    await api.unreadCounts();
    expect(bootstraps()).toBe(2);
    expect(sim.logins()).toBe(1);
  });

  it('renews a session as old as the last one that died before calling, not after a rejection', async () => {
    const { api } = make();
    const rejected = () => countCalls() - calls;
    let calls = 0;
    // The first session dies of age (40 minutes): one rejected call teaches the client that age.
    for (let minute = 0; minute <= 40; minute += 20) {
      await api.unreadCounts();
      calls++;
      if (minute < 40) await clock.advance(20 * MIN);
    }
    expect(rejected()).toBe(1);
    expect(bootstraps()).toBe(2);
    // The next six sessions are renewed at 40 minutes, ahead of their death: no rejected call.
    for (let session = 0; session < 6; session++) {
      await clock.advance(20 * MIN);
      await api.unreadCounts();
      await clock.advance(20 * MIN);
      await api.unreadCounts();
      calls += 2;
    }
    expect(rejected()).toBe(1);
    expect(bootstraps()).toBe(8);
    // Then one session is let run into its rejection, in case the portal keeps them longer now.
    await clock.advance(20 * MIN);
    await api.unreadCounts();
    await clock.advance(20 * MIN);
    await api.unreadCounts();
    calls += 2;
    expect(rejected()).toBe(2);
    expect(bootstraps()).toBe(9);
    expect(sim.logins()).toBe(1);
  });

  it('learns nothing from a session rejected young (another cause than age)', async () => {
    const { api } = make();
    await api.unreadCounts();
    await clock.advance(5 * MIN);
    sim.messaging.expireSessions(ANIA.login);
    await api.unreadCounts();
    expect(bootstraps()).toBe(2);
    // Had 5 minutes been learned as the lifetime, this call would bootstrap first.
    await clock.advance(6 * MIN);
    await api.unreadCounts();
    expect(bootstraps()).toBe(2);
  });

  it.each([403, 400, 409])('on a %i bootstraps once and retries', async (status) => {
    const { api } = make();
    await api.unreadCounts();
    sim.failNext(1, status, { host: 'messages', path: COUNT });
    await expect(api.unreadCounts()).resolves.toMatchObject({ inbox: 1 });
    expect(bootstraps()).toBe(2);
    expect(sim.logins()).toBe(1);
  });

  it('raises a 403 that survives the new bootstrap as it is: no login, no pause', async () => {
    const { api } = make();
    await api.unreadCounts();
    sim.failNext(2, 403, { host: 'messages', path: COUNT });
    const error = await api.unreadCounts().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).status).toBe(403);
    expect(sim.logins()).toBe(1);
    expect(bootstraps()).toBe(2);
    await expect(api.unreadCounts()).resolves.toBeTruthy();
  });

  it('on a second 401 logs in with the password, bootstraps and retries once more', async () => {
    const { api } = make();
    await api.unreadCounts();
    sim.failNext(2, 401, { host: 'messages', path: COUNT });
    await expect(api.unreadCounts()).resolves.toMatchObject({ inbox: 1 });
    expect(sim.logins()).toBe(2);
    expect(bootstraps()).toBe(3);
    expect(countCalls()).toBe(4);
  });

  it('logs in when the new bootstrap answers Brak dostępu after a 401 (the main session died)', async () => {
    const { api } = make();
    await api.unreadCounts();
    sim.messaging.expireSessions(ANIA.login);
    sim.expireSessions(ANIA.login);
    await expect(api.unreadCounts()).resolves.toMatchObject({ inbox: 1 });
    expect(sim.logins()).toBe(2);
    expect(bootstraps()).toBe(3);
    expect(api.available).toBe(true);
  });

  it('after a failed login round raises at once for 10 minutes without logging in, then asks again', async () => {
    const { api } = make();
    await api.unreadCounts();
    sim.failNext(3, 401, { host: 'messages', path: COUNT });
    await expect(api.unreadCounts()).rejects.toBeInstanceOf(SessionExpiredError);
    expect(sim.logins()).toBe(2);
    const requests = sim.count();
    await clock.advance(10 * MIN - 1_000);
    await expect(api.unreadCounts()).rejects.toBeInstanceOf(SessionExpiredError);
    await expect(api.me()).rejects.toBeInstanceOf(SessionExpiredError);
    expect(sim.count()).toBe(requests);
    expect(sim.logins()).toBe(2);
    await clock.advance(1_000);
    await expect(api.unreadCounts()).resolves.toMatchObject({ inbox: 1 });
    expect(sim.logins()).toBe(2);
  });

  it("a login that works after the window began (the gateway's, after maintenance broke the ladder's own) ends the window", async () => {
    const { api, gateway } = make();
    await api.unreadCounts();
    sim.failNext(2, 401, { host: 'messages', path: COUNT });
    sim.failNext(1, 503, { host: 'portal', path: '/gateway/api/2.0/Auth/TokenInfo' });
    await expect(api.unreadCounts()).rejects.toBeInstanceOf(ConnectionError); // the ladder's login met the 503
    await expect(api.unreadCounts()).rejects.toBeInstanceOf(ConnectionError); // the window
    sim.expireSessions(ANIA.login);
    await clock.advance(MIN);
    await gateway.get('Me', meResponse); // the gateway logs in again, and it works
    await expect(api.unreadCounts()).resolves.toMatchObject({ inbox: 1 }); // a minute in, not ten
  });

  it('raises a 404 at once without a bootstrap (no such mailbox)', async () => {
    const { api } = make();
    await api.unreadCounts();
    sim.failNext(1, 404, { host: 'messages', path: COUNT });
    const error = await api.unreadCounts().catch((e: unknown) => e);
    expect((error as UnexpectedResponseError).status).toBe(404);
    expect(bootstraps()).toBe(1);
  });

  it.each([500, 502, 503, 504, 429])('raises a %i as a connection error without recovery', async (status) => {
    const { api } = make();
    await api.unreadCounts();
    sim.failNext(1, status, { host: 'messages', path: COUNT });
    const error = await api.unreadCounts().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).status).toBe(status);
    expect(bootstraps()).toBe(1);
    expect(sim.logins()).toBe(1);
  });

  it('raises a timeout as a connection error without recovery', async () => {
    const { api } = make(300);
    await api.unreadCounts();
    sim.setLatency(1_000, { host: 'messages', path: COUNT });
    await expect(api.unreadCounts()).rejects.toBeInstanceOf(ConnectionError);
    expect(bootstraps()).toBe(1);
    sim.setLatency(0);
  });

  it('raises a success answer that is not JSON as an unexpected response', async () => {
    const { api } = make();
    await api.unreadCounts();
    sim.failNext(1, 200, { host: 'messages', path: COUNT });
    const error = await api.unreadCounts().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(bootstraps()).toBe(1);
  });
});

describe('no messages module (spec 5.4.2)', () => {
  it('asks again after 5 minutes for the first three answers in a row, then hourly, and after a login', async () => {
    sim.messaging.setModuleAbsent(ANIA.login, true);
    const { api, session } = make();
    const tryNow = async () => {
      await expect(api.unreadCounts()).rejects.toBeInstanceOf(MessagesUnavailableError);
      return bootstraps();
    };
    expect(await tryNow()).toBe(1);
    expect(api.available).toBe(false);
    expect(sim.count({ host: 'messages' })).toBe(0);
    await clock.advance(5 * MIN - 1_000);
    expect(await tryNow()).toBe(1);
    await clock.advance(1_000);
    expect(await tryNow()).toBe(2);
    await clock.advance(5 * MIN);
    expect(await tryNow()).toBe(3);
    await clock.advance(5 * MIN);
    expect(await tryNow()).toBe(4); // the fourth in a row: from now on hourly
    await clock.advance(5 * MIN);
    expect(await tryNow()).toBe(4);
    await clock.advance(54 * MIN);
    expect(await tryNow()).toBe(4);
    await clock.advance(1 * MIN);
    expect(await tryNow()).toBe(5);
    await clock.advance(10 * MIN);
    expect(await tryNow()).toBe(5);
    await session.forceLogin();
    expect(await tryNow()).toBe(6);
    sim.messaging.setModuleAbsent(ANIA.login, false);
    await session.forceLogin();
    await expect(api.unreadCounts()).resolves.toMatchObject({ inbox: 1 });
    expect(api.available).toBe(true);
  });

  it('a 403 whose new bootstrap answers Brak dostępu reports the module as absent, without a login', async () => {
    const { api } = make();
    await api.unreadCounts();
    sim.failNext(1, 403, { host: 'messages', path: COUNT });
    sim.messaging.setModuleAbsent(ANIA.login, true);
    await expect(api.unreadCounts()).rejects.toBeInstanceOf(MessagesUnavailableError);
    expect(api.available).toBe(false);
    expect(sim.logins()).toBe(1);
  });

  it('probe() tells check whether the module answers', async () => {
    sim.messaging.setModuleAbsent(ANIA.login, true);
    const { client } = make();
    await expect(client.probe()).resolves.toBe(false);
    sim.messaging.setModuleAbsent(ANIA.login, false);
    const other = make();
    await expect(other.client.probe()).resolves.toBe(true);
  });
});
