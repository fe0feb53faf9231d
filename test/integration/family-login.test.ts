// The family road's way in against the simulated family portal (real HTTP, fake clock): the e-mail
// login's exact request sequence, the children with their tokens, a token renewed without a password
// login, and never a false "wrong password": Me's 401 is one, a captcha and an unknown answer are not,
// and each pauses password logins for its window.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_FAMILY, type PortalSimulator } from '../../src/simulator/index.js';
import { FamilyAccount } from '../../src/portal/family.js';
import { CaptchaRequiredError, LoginChangedError, LoginPausedError, problemReason, WrongCredentialsError } from '../../src/portal/errors.js';
import { silentLogger } from '../../src/util/log.js';
import { simulatorPerTest } from '../helpers/portal.js';
import type { FakeClock } from '../helpers/clock.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
const H = 3_600_000;
let sim: PortalSimulator;
let clock: FakeClock;
simulatorPerTest((world) => ({ sim, clock } = world));

function family(password = DEMO_FAMILY.password): FamilyAccount {
  return new FamilyAccount({ account: 'rodzina', email: DEMO_FAMILY.email, password, urls: sim.urls, clock, log: silentLogger(), timeoutMs: 5_000 });
}

const posts = (): number => sim.count({ host: 'family', method: 'POST', path: '/konto-librus/login/action' });

describe('the family login', () => {
  it('runs form, POST, Me, then lists the children: the exact request sequence', async () => {
    const account = family();
    const children = await account.children();
    expect(sim.requests.map((r) => `${r.host} ${r.method} ${r.path} ${r.status}`)).toEqual([
      'family GET /konto-librus/login 200',
      'family POST /konto-librus/login/action 302',
      'family GET /api/v3/Me 200',
      'family GET /api/v3/SynergiaAccounts 200',
    ]);
    expect(children.map((c) => [c.login, c.studentName, c.state])).toEqual([
      [ANIA.login, 'Ania Kowalska', 'active'],
      [JANEK.login, 'Jan Kowalski', 'active'],
    ]);
    expect(await account.token(JANEK.login)).toMatch(/^[0-9a-f]{64}$/);
    expect(sim.families.loginCount()).toBe(1);
  });

  it('renews a token that ended with fresh/<login>, without a password login', async () => {
    const account = family();
    const old = (await account.token(ANIA.login))!;
    sim.families.expireTokens(ANIA.login);
    const renewed = await account.renew(ANIA.login, old);
    expect(renewed).not.toBe(old);
    expect((await fetch(`${sim.urls.auth_url}/3.0/Me`, { headers: { Authorization: `Bearer ${renewed}` } })).status).toBe(200);
    // A second reader that held the same stale token gets the new one without asking again.
    expect(await account.renew(ANIA.login, old)).toBe(renewed);
    expect(sim.count({ path: `/api/v3/SynergiaAccounts/fresh/${ANIA.login}` })).toBe(1);
    expect([sim.families.loginCount(), posts()]).toEqual([1, 1]);
  });

  it('logs in again once when the portal session itself has ended', async () => {
    const account = family();
    const old = (await account.token(ANIA.login))!;
    sim.families.expireSessions();
    sim.families.expireTokens();
    expect(await account.renew(ANIA.login, old)).toMatch(/^[0-9a-f]{64}$/);
    expect(sim.families.loginCount()).toBe(2);
  });

  it('says a wrong password (Me 401) in the family portal’s words, and posts once per pause window', async () => {
    const account = family('wrong');
    const error = await account.children().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrongCredentialsError);
    expect((error as Error).message).toMatch(/family portal.*e-mail and password/);
    await clock.advance(30 * 60_000);
    const paused = await account.children().catch((e: unknown) => e);
    expect(paused).toBeInstanceOf(LoginPausedError);
    expect(problemReason(paused)).toBe('wrong_credentials');
    expect(posts()).toBe(1);
    await clock.advance(H);
    await account.children().catch(() => undefined);
    expect(posts()).toBe(2);
  });

  it('takes a captcha page for a captcha, never a wrong password', async () => {
    sim.families.captcha = true;
    const error = await family()
      .children()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CaptchaRequiredError);
    expect(problemReason(error)).toBe('captcha_required');
  });

  it('takes an answer it does not know for a changed login, paused for an hour', async () => {
    sim.failNext(1, 404, { host: 'family', path: '/konto-librus/login' });
    const account = family();
    const error = await account.children().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoginChangedError);
    expect(problemReason(error)).toBe('login_changed');
    await clock.advance(59 * 60_000);
    expect(problemReason(await account.children().catch((e: unknown) => e))).toBe('login_changed');
    expect(sim.count({ host: 'family', path: '/konto-librus/login' })).toBe(1);
  });

  it('takes a maintenance page for its form (status 200) for the portal down, a changed login once it has lasted 30 minutes', async () => {
    sim.failFor(2 * H, 200, { host: 'family', path: '/konto-librus/login' });
    const account = family();
    const reasons: string[] = [];
    for (const minutes of [0, 10, 19, 31]) {
      await clock.advance(minutes * 60_000);
      reasons.push(problemReason(await account.children().catch((e: unknown) => e)));
    }
    expect(reasons).toEqual(['service_down', 'service_down', 'service_down', 'login_changed']);
    expect(sim.count({ host: 'family', path: '/konto-librus/login' })).toBe(4);
  });

  it('lists a link that needs action without a token', async () => {
    sim.families.setLinkState(JANEK.login, 'requiring_an_action');
    const account = family();
    const janek = (await account.children()).find((c) => c.login === JANEK.login)!;
    expect(janek.state).toBe('requiring_an_action');
    expect(await account.token(JANEK.login)).toBeUndefined();
  });
});
