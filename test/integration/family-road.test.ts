// The family road under the same portal access the bridge builds (PortalAccess): one e-mail login reads
// both demo children's identity and records through the same gateway code and schemas as the register
// road, with the same results; a token that ends is renewed without a password login; the messaging
// session opens through AutoLoginToken, after which messages are listed, opened and sent as on the
// register road; a 403 is a refusal (not on this road), never a login problem.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_FAMILY, type PortalSimulator } from '../../src/simulator/index.js';
import { FamilyAccount } from '../../src/portal/family.js';
import { PortalAccess } from '../../src/engine/resources/portal-access.js';
import { fetchIdentity } from '../../src/engine/resources/identity.js';
import { gradesResponse } from '../../src/portal/schemas/grades.js';
import { luckyNumberResponse } from '../../src/portal/schemas/identity.js';
import { portalMessageOf, problemReason, UnexpectedResponseError } from '../../src/portal/errors.js';
import { createLogger, silentLogger, type Logger } from '../../src/util/log.js';
import { sendBody } from '../../src/features/messaging/compose.js';
import { simulatorPerTest } from '../helpers/portal.js';
import type { FakeClock } from '../helpers/clock.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
let sim: PortalSimulator;
let clock: FakeClock;
simulatorPerTest((world) => ({ sim, clock } = world));

const account = (login: string) => ({ login, password: '', downloads: false, messages: [], write_messages: false });

function familyRoad(): { family: FamilyAccount; access: (login: string, childLog?: Logger) => PortalAccess } {
  const log = silentLogger();
  const family = new FamilyAccount({
    account: 'rodzina',
    email: DEMO_FAMILY.email,
    password: DEMO_FAMILY.password,
    urls: sim.urls,
    clock,
    log,
    timeoutMs: 5_000,
  });
  return {
    family,
    access: (login, childLog = log) =>
      new PortalAccess({ account: account(login), urls: sim.urls, clock, log: childLog, familyRoad: family, timeoutMs: 5_000 }),
  };
}

function registerRoad(login: string, password: string): PortalAccess {
  return new PortalAccess({ account: { ...account(login), password }, urls: sim.urls, clock, log: silentLogger(), timeoutMs: 5_000 });
}

/** The records as read, with each road's own address in their Url fields made one. */
const sameUrls = (value: unknown): string =>
  JSON.stringify(value).replaceAll(`${sim.urls.base_url}/gateway/api/2.0`, 'API').replaceAll(`${sim.urls.auth_url}/3.0`, 'API');

describe('the family road under the bridge’s portal access', () => {
  it('reads both children with one e-mail login, as the register road reads them', async () => {
    const { access } = familyRoad();
    for (const child of [ANIA, JANEK]) {
      const family = access(child.login).gateway;
      const register = registerRoad(child.login, child.password).gateway;
      const [viaFamily, viaRegister] = await Promise.all([
        fetchIdentity(family, clock.now(), silentLogger()),
        fetchIdentity(register, clock.now(), silentLogger()),
      ]);
      expect(viaFamily, child.login).toEqual(viaRegister);
      for (const [endpoint, schema] of [
        ['Grades', gradesResponse],
        ['LuckyNumbers', luckyNumberResponse],
      ] as const) {
        expect(sameUrls(await family.get(endpoint, schema)), endpoint).toBe(sameUrls(await register.get(endpoint, schema)));
      }
    }
    expect(sim.families.loginCount()).toBe(1);
    expect(sim.count({ host: 'auth', path: /^\/3\.0\// })).toBeGreaterThan(6);
    expect(sim.count({ host: 'portal', path: /^\/gateway\/api\/2\.0\/Grades$/, login: JANEK.login })).toBe(1);
  });

  it('renews a token that ended and reads on, without a password login, saying so about the child', async () => {
    const { access } = familyRoad();
    const lines: string[] = [];
    const childLog = createLogger('debug', { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) }, { format: 'json' });
    const gateway = access(ANIA.login, childLog.child({ account: 'ania' })).gateway;
    await gateway.get('Grades', gradesResponse);
    sim.families.expireTokens();
    await clock.advance(60_000);
    expect((await gateway.get('Grades', gradesResponse)).Grades.length).toBeGreaterThan(0);
    expect(sim.count({ path: `/api/v3/SynergiaAccounts/fresh/${ANIA.login}` })).toBe(1);
    expect([sim.families.loginCount(), sim.count({ method: 'POST', path: '/konto-librus/login/action' })]).toEqual([1, 1]);
    // The line names the child by its id, and the e-mail entry whose token it was.
    const renewal = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((l) => String(l.msg).includes('token has ended'));
    expect(renewal.map((l) => [l.account, l.family])).toEqual([['ania', 'rodzina']]);
  });

  it('takes a 403 of a data resource for a refusal of that resource, not for a login problem', async () => {
    sim.families.forbid(ANIA.login, 'LuckyNumbers');
    const error = await familyRoad()
      .access(ANIA.login)
      .gateway.get('LuckyNumbers', luckyNumberResponse)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).refused).toBe(true);
    expect(problemReason(error)).toBe('unexpected_response');
  });

  it('says a child whose link needs action by its own reason and the portal’s state', async () => {
    sim.families.setLinkState(JANEK.login, 'need-activation');
    const error = await familyRoad()
      .access(JANEK.login)
      .gateway.get('Grades', gradesResponse)
      .catch((e: unknown) => e);
    expect(problemReason(error)).toBe('link_needs_action');
    expect(portalMessageOf(error)).toBe('need-activation');
  });

  it('opens the messaging session through AutoLoginToken, then lists, opens and sends messages as the register road does', async () => {
    const { access } = familyRoad();
    const child = access(ANIA.login);
    expect(await child.messaging.probe()).toBe(true);
    const path = sim.requests.map((r) => `${r.host} ${r.method} ${r.path.replace(/\/loguj\/token\/[^/]+\//, '/loguj/token/<token>/')}`);
    expect(path).toEqual(
      expect.arrayContaining([
        'auth POST /2.0/AutoLoginToken',
        'portal GET /loguj/token/<token>/przenies/uczen/widok/centrum_powiadomien',
        'portal GET /wiadomosci3',
      ]),
    );
    expect(sim.logins()).toBe(0);
    const inbox = await child.messages.list('inbox');
    expect(inbox.items.length).toBeGreaterThan(0);
    const opened = await child.messages.message('inbox', inbox.items[0]!.id);
    expect(opened.message.length).toBeGreaterThan(0);
    // One send, to a teacher the messaging module names, with the body the fixed messages post.
    const [teacher] = await child.messages.teacherSubjects();
    const reply = await child.messages.postMessage(sendBody(teacher!.accountId, { topic: 'Nieobecność', html: '<p>Ania jest chora.</p>' }));
    expect(reply.status).toBe(201);
    expect(sim.messaging.sent.map((m) => [m.login, m.topic, m.content])).toEqual([[ANIA.login, 'Nieobecność', '<p>Ania jest chora.</p>']]);
    expect(sim.families.loginCount()).toBe(1);
  });
});
