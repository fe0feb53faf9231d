// The fault suite, sessions and modules: a session dying under many requests, a captcha appearing, the
// password changed on the portal, the messaging session expiring every few minutes, a school without
// the messages module, a closed module, and 429. Logins are counted over a simulated hour.
import { afterAll, describe, expect, it } from 'vitest';
import { FaultTable } from '../helpers/faults.js';
import { clearSimFaults } from '../helpers/faults-sim.js';
import { waitUntil } from '../helpers/mqtt.js';
import { GATEWAY, MIN, worldFor } from '../helpers/faults-world.js';

// Over HTTP (`portal: 'http'`): the sessions' cookies and requests in flight on the sockets (the tap counts them there) are the subject.

const table = new FaultTable('Fault table: sessions and modules');
afterAll(() => table.print());

const UNREAD_COUNT = '/api/inbox/unreadMessagesCount';

// Every test owns its world (simulator, clock, bridge): they run concurrently.
describe.concurrent('sessions and modules', () => {
  it('a session dying in the middle of a pass with many requests in flight: exactly one login', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    // Slow answers during the first pass (lookups and identity are read together), so that the session
    // can be killed while the simulator holds at least four gateway requests.
    w.sim.setLatency(150, { host: 'portal', path: GATEWAY });
    const h = await w.startApp();
    await w.clock.advance(0); // fires the first pass's timer
    await waitUntil(() => w.tap.inFlight >= 4 && w.sim.logins(w.login) === 1, 'four requests in flight', 10_000);
    const inFlight = w.tap.inFlight;
    const dead = w.sim.requests.length;
    w.sim.expireSessions(w.login);
    await w.untilFirstPass();
    const deadAnswers = w.sim.requests.slice(dead).filter((r) => r.host === 'portal' && r.status === 401).length;
    expect(deadAnswers).toBeGreaterThanOrEqual(4); // every request in flight met the dead session...
    expect(w.sim.logins(w.login)).toBe(2); // ...and they shared one login
    const end = await w.recover(() => clearSimFaults(w.sim));
    expect(w.sim.logins(w.login)).toBe(2);
    table.record({ fault: `session dead under ${inFlight} requests in flight`, ...end, secretLeaked: (await h.leaks()).length > 0 });
  });

  it('a captcha appearing mid-life: captcha_required, still available, at most one login per 30 minutes, back when cleared', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass();
    const before = w.snapshot();
    w.sim.requireCaptcha(w.login, 'login');
    w.sim.expireSessions(w.login);
    await h.runUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON', 20 * MIN);
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'captcha_required' });
    expect(h.state('ania', 'availability')).toBe('online'); // last good values stay on show (6.3)
    const first = w.passwordPosts();
    await h.advanceMinutes(60);
    // A 30-minute pause: one try at +30 and one at +60 at most in the hour after the first refusal.
    const inHour = w.passwordPosts() - first;
    expect(inHour).toBeLessThanOrEqual(2);
    expect(w.snapshot()).toEqual(before); // the last values stay, available, problem saying why
    expect(h.rec.texts(`${h.base}/ania/availability`)).not.toContain('offline');
    w.sim.requireCaptcha(w.login, false);
    const end = await w.recover(() => undefined, 31 * MIN);
    expect(w.sim.logins(w.login)).toBe(2);
    table.record({ fault: `captcha mid-life (${inHour} tries in the next hour)`, ...end, secretLeaked: (await h.leaks()).length > 0 });
  });

  it('the password changed on the portal: one failed login, none for an hour, then one try', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass();
    const before = w.snapshot();
    w.sim.account(w.login).password = 'changed-on-the-portal';
    w.sim.expireSessions(w.login);
    const posts = w.passwordPosts();
    // Minute by minute, so that the hour below counts from the refused login itself.
    await h.advanceUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON', 20);
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'wrong_credentials' });
    expect(h.state('ania', 'availability')).toBe('online'); // last good values stay on show (6.3)
    expect(w.passwordPosts()).toBe(posts + 1);
    await h.advanceMinutes(58);
    expect(w.passwordPosts()).toBe(posts + 1); // nothing in the hour
    expect(w.snapshot()).toEqual(before);
    // The parent sets the old password back on the portal; the bridge tries again after the hour.
    w.sim.account(w.login).password = w.password;
    const end = await w.recover(() => undefined, 5 * MIN);
    expect(w.passwordPosts()).toBe(posts + 2);
    table.record({ fault: 'password changed on the portal', ...end, secretLeaked: (await h.leaks()).length > 0 });
  });

  it('the messaging session expiring every 3 minutes for an hour: counts keep coming, no password login', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass();
    const logins = w.sim.logins(w.login);
    const okCounts = (): number => w.sim.requests.filter((r) => r.host === 'messages' && r.path === UNREAD_COUNT && r.status === 200).length;
    const counted = okCounts();
    const unread = Number(h.state('ania', 'unread_messages'));
    for (let i = 0; i < 20; i++) {
      w.sim.messaging.expireSessions(w.login);
      if (i === 10) w.sim.messaging.addMessage(w.login, { topic: 'Wycieczka', body: 'Proszę o zgodę.', from: 162002 });
      await h.advanceMinutes(3);
    }
    expect(okCounts() - counted).toBeGreaterThanOrEqual(20); // one good count per fast pass
    expect(h.state('ania', 'unread_messages')).toBe(String(unread + 1));
    expect(h.rec.on(`${h.base}/ania/event/message`)).toHaveLength(1);
    expect(w.sim.logins(w.login)).toBe(logins);
    expect(h.state('ania', 'problem')).toBe('OFF');
    const end = await w.recover(() => undefined);
    table.record({ fault: 'messaging session expiring every 3 min', ...end, secretLeaked: (await h.leaks()).length > 0 });
  });

  it('a refresh whose read of who the child is fails, the sessions dead: the new message comes all the same, by one login', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass();
    const messages = (): number => h.rec.on(`${h.base}/ania/event/message`).length;
    const before = messages();
    // A refresh reads the identity first (issue 64); the portal's 503 answers it, and both sessions are dead.
    w.sim.failNext(1, 503, { host: 'portal', path: GATEWAY });
    w.sim.messaging.expireSessions(w.login);
    w.sim.expireSessions(w.login);
    w.sim.messaging.addMessage(w.login, { topic: 'Zebranie', body: 'Zapraszam na zebranie.', from: 162002 });
    await w.refresh();
    expect({ messages: messages() - before, logins: w.sim.logins(w.login), reason: h.attributes('ania', 'problem')?.reason }).toEqual({
      messages: 1,
      logins: 2,
      reason: 'service_down',
    });
  });

  it('Brak dostępu (no messages module) and a closed library module: other entities fine, no problem', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    w.sim.messaging.setModuleAbsent(w.login, true);
    w.sim.account(w.login).setModuleStatus('EbiblioLendings', 403);
    const h = await w.firstPass();
    expect(h.state('ania', 'unread_messages')).toBe('None');
    expect(h.state('ania', 'average')).toBe('4.87');
    expect(h.state('ania', 'problem')).toBe('OFF');
    const bootstraps = (): number => w.sim.count({ host: 'portal', path: '/wiadomosci3' });
    const first = bootstraps();
    await h.advanceMinutes(60);
    // Asked again after 5 minutes for the first three answers, then hourly: not on every fast pass.
    expect(bootstraps() - first).toBeLessThanOrEqual(4);
    expect(w.sim.logins(w.login)).toBe(1);
    const end = await w.recover(() => undefined);
    table.record({ fault: 'Brak dostępu + a 403 module', ...end, secretLeaked: (await h.leaks()).length > 0 });
  });
});
