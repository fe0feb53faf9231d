// Never a false "wrong password" (issue 27): under the live login a wrong password is still
// wrong_credentials with one POST per pause window; an answer the login does not know is login_changed,
// keeps the last good data, and password logins then wait an hour between tries.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';
import { buildConfig } from '../../src/config/load.js';
import { runCheck } from '../../src/app/commands/check.js';
import { SessionStore } from '../../src/portal/session-store.js';
import { silentLogger } from '../../src/util/log.js';
import { MQTT_URL } from '../helpers/mqtt.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const GENERIC = 'Wystąpił błąd. Odśwież stronę i spróbuj ponownie.';
// Over HTTP: the login's answers, as the sockets carry them, are this file's subject.
const school = simulatedSchool('2026-11-18T09:10:00+01:00', { portal: 'http' });
const loginPosts = (): number => school.sim.count({ host: 'auth', method: 'POST', path: '/OAuth/Authorization' });

describe('a login that fails under login-2026', () => {
  it('keeps a wrong password wrong_credentials, with one POST per pause window', async () => {
    school.sim.setLoginSwitch('login-2026', true);
    const h = await school.start({ accounts: [{ login: ANIA.login, password: 'not-this-one', id: 'ania' }] });
    await h.runUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON');
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'wrong_credentials', portal_message: 'Nieprawidłowy login i/lub hasło.' });
    await h.advanceMinutes(55);
    expect(loginPosts()).toBe(1);
    await h.advanceMinutes(10);
    expect(loginPosts()).toBe(2);
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'wrong_credentials' });
  });

  it('calls words that are not about the password login_changed, keeping them, and tries hourly', async () => {
    school.sim.setLoginSwitch('login-2026', true);
    school.sim.refuseLogin(ANIA.login, { message: GENERIC, as: 'string' });
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania' }], language: 'en' });
    await h.runUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON');
    const attributes = h.attributes('ania', 'problem') ?? {};
    expect(attributes).toMatchObject({ reason: 'login_changed', portal_message: GENERIC });
    expect(String(attributes.message)).toMatch(/login has changed.*not a wrong password.*last good data.*Update.*check --trace/s);

    // The logins that follow: one an hour, however often the bridge passes meanwhile.
    await h.advanceMinutes(59);
    expect(loginPosts()).toBe(1);
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'login_changed' });
    await h.advanceMinutes(2);
    expect(loginPosts()).toBe(2);
    await h.advanceMinutes(60);
    expect(loginPosts()).toBe(3);
  });
});

describe('an answer the login does not know', () => {
  it('is login_changed, keeps the last good data, and the next login an hour later recovers', async () => {
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania' }] });
    await h.runUntil(() => h.state('ania', 'newest_grade') !== undefined && h.state('ania', 'problem') === 'OFF', 'first passes');
    const grade = h.state('ania', 'newest_grade');

    // The session dies, and the password POST answers an empty 404 (not JSON, no status).
    school.sim.expireSessions();
    school.sim.failNext(1, 404, { host: 'auth', method: 'POST', path: '/OAuth/Authorization' });
    // Minute by minute until the refused login and no further: the hour's pause is counted from it.
    for (let minute = 0; minute < 25 && h.state('ania', 'problem') !== 'ON'; minute++) await h.advanceMinutes(1);
    await h.runUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON');
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'login_changed' });
    expect(h.state('ania', 'newest_grade')).toBe(grade);
    expect(loginPosts()).toBe(2);

    await h.advanceMinutes(40);
    expect(loginPosts()).toBe(2);
    await h.advanceMinutes(30);
    await h.runUntil(() => h.state('ania', 'problem') === 'OFF', 'problem OFF again');
    expect(loginPosts()).toBe(3);
  });
});

describe('a login page it does not know (interface 14.4)', () => {
  const maintenance = { host: 'auth', path: '/OAuth/Authorization' } as const;

  it('is service_down while it lasts under 30 minutes: a minute of maintenance page at the login delays the news by minutes, not an hour', async () => {
    // The login page and its POST answer the maintenance page with status 200 for the bridge's first 60 seconds.
    school.sim.failFor(60_000, 200, maintenance);
    const since = school.clock.now();
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania' }] });
    await h.runUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON');
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'service_down' });
    const minutes = await school.minutesUntil(h, since, () => h.state('ania', 'newest_grade') !== undefined && h.state('ania', 'problem') === 'OFF');
    expect(minutes).toBeLessThanOrEqual(5);
    // The login that met the page, and the one that came through.
    expect(loginPosts()).toBe(2);
  });

  it('becomes login_changed, with its hour between logins, once the same page has lasted 30 minutes', async () => {
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania' }] });
    await h.runUntil(() => h.state('ania', 'problem') === 'OFF', 'first passes');
    school.sim.expireSessions();
    school.sim.failFor(3 * 60 * 60_000, 200, maintenance);
    const since = school.clock.now();
    await h.advanceUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON', 25);
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'service_down' });
    await h.advanceUntil(() => h.attributes('ania', 'problem')?.reason === 'login_changed', 'login_changed', 60);
    expect(school.clock.now() - since).toBeGreaterThanOrEqual(30 * 60_000);
    const posts = loginPosts();
    await h.advanceMinutes(55);
    expect(loginPosts()).toBe(posts);
  });
});

describe('check after a false wrong password (interface 14.4)', () => {
  it('ends the login pause it left, so that the next start reads at once', async () => {
    school.sim.refuseLogin(ANIA.login, { message: 'Nieprawidłowy login i/lub hasło.', as: 'string' });
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania' }] });
    await h.runUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON');
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'wrong_credentials' });
    const store = new SessionStore(h.dataDir, ANIA.login);
    expect((await store.load())?.pause).toMatchObject({ reason: 'wrong_credentials' });

    // The portal's refusal was false: a check logs the account in.
    school.sim.refuseLogin(ANIA.login, null);
    const config = await buildConfig(
      {
        mqtt: { url: MQTT_URL, base_topic: h.base },
        portal: school.sim.urls,
        accounts: [{ login: ANIA.login, password: ANIA.password }],
        data_dir: h.dataDir,
        http: { port: 0 },
      },
      'test',
      { env: {} },
    );
    let text = '';
    expect(await runCheck({ config, out: { write: (t: string) => (text += t) }, log: silentLogger(), clock: school.clock })).toBe(0);
    expect(text).toContain(`OK   ${ANIA.login}`);

    const logins = school.sim.logins(ANIA.login);
    await h.restart();
    await h.advanceUntil(() => h.state('ania', 'problem') === 'OFF', 'problem OFF after the restart', 2);
    expect(school.sim.logins(ANIA.login)).toBeGreaterThan(logins);
  });
});
