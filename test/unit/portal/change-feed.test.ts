// The client's change feed (portal/change-feed.ts) against the simulator over real HTTP, on each road the
// bridge reads a child on: the family road's API host by bearer token, the register road's cookie
// gateway (refused unless the simulated portal grants it), and both roads (while the register login
// fails). Every way it fails is typed; a dead token or session is renewed as for a data read.
import { describe, expect, it } from 'vitest';
import { ChangeFeed, CHANGE_FEED_APP_VERSION, type ChangeFeedChange } from '../../../src/portal/change-feed.js';
import {
  ChangeFeedDeviceLostError,
  ChangeFeedInvalidError,
  ChangeFeedRefusedError,
  UnexpectedResponseError,
  type ConnectionError,
} from '../../../src/portal/errors.js';
import { FamilyAccount } from '../../../src/portal/family.js';
import { PortalAccess } from '../../../src/engine/resources/portal-access.js';
import type { PortalObserver } from '../../../src/portal/observer.js';
import { DEMO_ACCOUNTS, DEMO_FAMILY, type PortalSimulator } from '../../../src/simulator/index.js';
import { REGISTER_BROKEN_WORDS } from '../../../src/simulator/live-schools.js';
import { silentLogger } from '../../../src/util/log.js';
import { portalClient, simulatorPerTest } from '../../helpers/portal.js';
import type { FakeClock } from '../../helpers/clock.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
let sim: PortalSimulator;
let clock: FakeClock;
simulatorPerTest((world) => ({ sim, clock } = world));

const config = (login: string, password = '') => ({ login, password, downloads: false, messages: [], write_messages: false });

function family(): FamilyAccount {
  return new FamilyAccount({
    account: 'rodzina',
    email: DEMO_FAMILY.email,
    password: DEMO_FAMILY.password,
    urls: sim.urls,
    clock,
    log: silentLogger(),
    timeoutMs: 5_000,
  });
}

/** The child's change feed on the family road, as the bridge's portal access builds the child's gateway. */
function familyChangeFeed(login = ANIA.login, observer?: PortalObserver): ChangeFeed {
  const access = new PortalAccess({
    account: config(login),
    urls: sim.urls,
    clock,
    log: silentLogger(),
    familyRoad: family(),
    timeoutMs: 5_000,
  });
  if (observer) access.observe(observer);
  return new ChangeFeed({ gateway: access.gateway, account: login });
}

/** The child's change feed on the register road (the cookie gateway). */
function registerChangeFeed(login = ANIA.login, password = ANIA.password): ChangeFeed {
  return new ChangeFeed({ gateway: portalClient({ sim, clock, login, password }).gateway, account: login });
}

async function failure(work: Promise<unknown>): Promise<Error> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the call was expected to fail').toBeInstanceOf(Error);
  return error as Error;
}

const changeFeedRequests = (method?: string) =>
  sim.requests
    .filter((r) => /\/(ChangeRegister|PushChanges)/.test(r.path) && (method === undefined || r.method === method))
    .map((r) => `${r.method} ${r.host} ${r.path}`);

describe('the change feed on the family road (API host, bearer token)', () => {
  it('registers, reads what changed as FeedChanges, and acknowledges them', async () => {
    const changeFeed = familyChangeFeed();
    const device = await changeFeed.register();
    expect(device).toMatch(/^\d+$/);
    expect(sim.account(ANIA.login).changeFeed.deviceIds()).toEqual([Number(device)]);
    const ania = sim.account(ANIA.login);
    const grade = ania.addGrade({ subject: 5012, category: 302, grade: '5' });
    ania.editRecord('Grades', grade.Id as number, { Grade: '5+' });
    const notice = ania.addNotice({ Subject: 'Kiermasz', Content: 'Zapraszamy' });
    ania.removeRecord('HomeWorks', ania.addTest({ date: '2026-11-27', content: 'Sprawdzian' }).Id as number);

    const read = await changeFeed.changes(device);
    expect(read.unreadable).toBe(0);
    expect(read.timestamp).toBe(Math.floor(clock.now() / 1000));
    const shape = (c: ChangeFeedChange) => [c.kind, c.type, c.recordId];
    expect(read.changes.map(shape)).toEqual([
      ['Add', 'Grades', String(grade.Id)],
      ['Edit', 'Grades', String(grade.Id)],
      ['Add', 'SchoolNotices', notice.Id],
      ['Add', 'HomeWorks', expect.stringMatching(/^\d+$/)],
      ['Delete', 'HomeWorks', expect.stringMatching(/^\d+$/)],
    ]);
    expect(read.changes.every((c) => /^\d+$/.test(c.id) && c.addedAt === '2026-11-20 08:00:00')).toBe(true);
    expect(read.changes.find((c) => c.type === 'SchoolNotices')?.extraData).toBe('Kiermasz');
    expect(read.changes[0]).not.toHaveProperty('extraData');
    expect((await changeFeed.changes(device)).changes, 'listed until acknowledged').toHaveLength(5);

    await changeFeed.acknowledge(
      device,
      read.changes.map((c) => c.id),
    );
    expect((await changeFeed.changes(device)).changes).toEqual([]);
    expect(changeFeedRequests()).toEqual([
      'POST auth /3.0/ChangeRegister',
      'GET auth /3.0/PushChanges',
      'GET auth /3.0/PushChanges',
      `DELETE auth /3.0/PushChanges/${read.changes.map((c) => c.id).join(',')}`,
      'GET auth /3.0/PushChanges',
    ]);
  });

  it('acknowledges 31 changes in two calls of 30 and 1, each id once', async () => {
    const changeFeed = familyChangeFeed();
    const device = await changeFeed.register();
    for (let i = 0; i < 31; i++) sim.account(ANIA.login).addGrade({ subject: 5012, category: 302, grade: '4' });
    const ids = (await changeFeed.changes(device)).changes.map((c) => c.id);
    expect(ids).toHaveLength(31);
    await changeFeed.acknowledge(device, [...ids, ids[0]!, ids[5]!]);
    const deletes = sim.requests.filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => r.path.split('/').at(-1)!.split(',').length)).toEqual([30, 1]);
    expect(deletes.map((r) => [r.status, r.query])).toEqual([
      [204, `pushDevice=${device}`],
      [204, `pushDevice=${device}`],
    ]);
    expect((await changeFeed.changes(device)).changes).toEqual([]);
    await changeFeed.acknowledge(device, []);
    expect(sim.count({ method: 'DELETE' })).toBe(2);
  });

  it('renews a token that ended, as a data read does, without a password login', async () => {
    const changeFeed = familyChangeFeed();
    const device = await changeFeed.register();
    sim.account(ANIA.login).addGrade({ subject: 5012, category: 302, grade: '3' });
    sim.families.expireTokens(ANIA.login);
    await clock.advance(60_000);
    expect((await changeFeed.changes(device)).changes).toHaveLength(1);
    expect(sim.count({ path: `/api/v3/SynergiaAccounts/fresh/${ANIA.login}` })).toBe(1);
    expect(sim.families.loginCount()).toBe(1);
  });

  it('tells the observer each change feed answer, ids masked, the refusals by status and Code', async () => {
    const seen: string[] = [];
    const observer: PortalObserver = {
      answered: (resource, status) => seen.push(`${resource} ${status}`),
      login: () => ({ exchange: () => undefined, ended: () => undefined }),
      bootstrapped: () => undefined,
    };
    const changeFeed = familyChangeFeed(ANIA.login, observer);
    const device = await changeFeed.register();
    await changeFeed.acknowledge(device, ['1']);
    await failure(changeFeed.changes(String(Number(device) + 1000)));
    expect(seen).toEqual(['ChangeRegister ok', 'PushChanges/<id> ok', 'PushChanges 400 UnableToGetPushDevice']);
  });
});

describe('every way the change feed fails, typed', () => {
  it('a refused registration: 403 (the paid add-on) and 400, with the status and the portal’s Code', async () => {
    const changeFeed = familyChangeFeed();
    for (const [status, code] of [
      [403, 'AccessDeny'],
      [400, 'InvalidRequest'],
    ] as const) {
      sim.account(ANIA.login).changeFeed.refuseRegistration(status);
      const error = await failure(changeFeed.register());
      expect(error).toBeInstanceOf(ChangeFeedRefusedError);
      expect([(error as ChangeFeedRefusedError).status, (error as ChangeFeedRefusedError).code, error.name]).toEqual([
        status,
        code,
        'FeedRefusedError',
      ]);
    }
    sim.account(ANIA.login).changeFeed.refuseRegistration(null);
    expect(await changeFeed.register()).toMatch(/^\d+$/);
  });

  it('DeviceRegistered: the id it gives, or a refusal when it gives none', async () => {
    const changeFeed = familyChangeFeed();
    const first = await changeFeed.register();
    sim.account(ANIA.login).changeFeed.alreadyRegistered = 'with-id';
    expect(await changeFeed.register()).toBe(first);
    sim.account(ANIA.login).changeFeed.alreadyRegistered = 'without-id';
    const error = await failure(changeFeed.register());
    expect([error.name, (error as ChangeFeedRefusedError).status, (error as ChangeFeedRefusedError).code]).toEqual([
      'FeedRefusedError',
      400,
      'DeviceRegistered',
    ]);
  });

  it('a forgotten or another account’s device: FeedDeviceLostError on a read and on an acknowledgement, the id in no message', async () => {
    const changeFeed = familyChangeFeed();
    const device = await changeFeed.register();
    const janeks = await familyChangeFeed(JANEK.login).register();
    for (const work of [() => changeFeed.changes(janeks), () => changeFeed.acknowledge(janeks, ['7'])]) {
      const error = await failure(work());
      expect(error).toBeInstanceOf(ChangeFeedDeviceLostError);
      expect(error.message).not.toContain(janeks);
    }
    sim.account(ANIA.login).changeFeed.forgetDevice(Number(device));
    expect(await failure(changeFeed.changes(device))).toBeInstanceOf(ChangeFeedDeviceLostError);
  });

  it('no usable device: FeedInvalidError (FilterInvalidValue), and an id that is none is refused before any request', async () => {
    const changeFeed = familyChangeFeed();
    const error = await failure(changeFeed.changes(''));
    expect([error.name, (error as ChangeFeedInvalidError).status, (error as ChangeFeedInvalidError).code]).toEqual([
      'FeedInvalidError',
      400,
      'FilterInvalidValue',
    ]);
    const device = await changeFeed.register();
    const before = sim.requests.length;
    expect(await failure(changeFeed.acknowledge(device, ['12', '1/../x']))).toBeInstanceOf(ChangeFeedInvalidError);
    expect(sim.requests.length).toBe(before);
  });

  it('maintenance (JSON or the portal’s page), a 5xx and a dropped connection: ConnectionError', async () => {
    const changeFeed = familyChangeFeed();
    const device = await changeFeed.register();
    sim.failNext(1, 503, { host: 'auth', path: '/3.0/PushChanges' });
    const down = await failure(changeFeed.changes(device));
    expect([down.name, (down as ConnectionError).status]).toEqual(['ConnectionError', 503]);
    sim.failNext(1, 500, { host: 'auth', path: '/3.0/ChangeRegister' });
    expect((await failure(changeFeed.register())) as ConnectionError).toMatchObject({ name: 'ConnectionError', status: 500 });
    sim.failNext(1, 0, { host: 'auth', method: 'DELETE' });
    expect((await failure(changeFeed.acknowledge(device, ['1']))).name).toBe('ConnectionError');
    // A maintenance said with 200, as some of the portal's modules answer their states.
    sim.account(ANIA.login).setResource('PushChanges', { Status: 'Maintenance' });
    expect((await failure(changeFeed.changes(device))).name).toBe('ConnectionError');
  });

  it('reads the portal’s shapes leniently, and refuses an answer it cannot use', async () => {
    const changeFeed = familyChangeFeed();
    const device = await changeFeed.register();
    const account = sim.account(ANIA.login);
    account.setResource('PushChanges', {
      Changes: [
        { Id: 5, Resource: { Id: 12, Type: 'Homeworks/Something' }, Type: 'modify', AddDate: '2026-11-20 07:59:00', extraData: 'tekst' },
        { Id: '6', Resource: null, Type: 'Delete', extraData: null },
        { Id: 'no good', Resource: { Id: '1', Type: 'Grades' }, Type: 'Add' },
        { Resource: { Id: '2', Type: 'Grades' }, Type: 'Add' },
        { Id: 5, Resource: { Id: 13, Type: 'Grades' }, Type: 'Add' },
      ],
      ChangesTimestamp: '1763622000',
    });
    expect(await changeFeed.changes(device)).toEqual({
      changes: [
        { id: '5', kind: 'Edit', type: 'Homeworks/Something', recordId: '12', addedAt: '2026-11-20 07:59:00', extraData: 'tekst' },
        { id: '6', kind: 'Delete', type: '', recordId: '' },
      ],
      timestamp: 1763622000,
      unreadable: 2,
    });
    account.setResource('PushChanges', { Code: 'UnableToGetPushDevice' });
    expect(await failure(changeFeed.changes(device)), 'the Code at 200 too').toBeInstanceOf(ChangeFeedDeviceLostError);
    account.setResource('PushChanges', { Status: 'Ok' });
    expect(await failure(changeFeed.changes(device))).toBeInstanceOf(UnexpectedResponseError);
    account.setResource('ChangeRegister', { ChangeRegister: { Url: 'x' } });
    expect(await failure(changeFeed.register())).toBeInstanceOf(UnexpectedResponseError);
    account.setResource('ChangeRegister', { Status: 'Disabled' });
    expect((await failure(changeFeed.register())) as ChangeFeedRefusedError).toMatchObject({
      name: 'FeedRefusedError',
      status: 200,
      code: 'Disabled',
    });
  });
});

describe('the change feed on the register road (cookie gateway)', () => {
  it('is refused there (403: not on this road) until the portal grants it, then works with the session’s cookies', async () => {
    const changeFeed = registerChangeFeed();
    const refused = await failure(changeFeed.register());
    expect([refused.name, (refused as ChangeFeedRefusedError).status]).toEqual(['FeedRefusedError', 403]);
    expect(changeFeedRequests()).toEqual(['POST portal /gateway/api/2.0/ChangeRegister']);

    sim.account(ANIA.login).changeFeed.gatewayGranted = true;
    const device = await changeFeed.register();
    sim.account(ANIA.login).addPlanChange({ kind: 'cancelled', OrgDate: '2026-11-23', OrgLessonNo: 2 });
    const [change] = (await changeFeed.changes(device)).changes;
    expect(change).toMatchObject({ kind: 'Add', type: 'Calendars/Substitutions' });
    await changeFeed.acknowledge(device, [change!.id]);
    expect((await changeFeed.changes(device)).changes).toEqual([]);
    expect(sim.requests.filter((r) => r.host === 'portal' && /PushChanges/.test(r.path)).every((r) => r.login === ANIA.login && r.status < 300)).toBe(
      true,
    );
  });

  it('logs in again when the session died, as a data read does', async () => {
    sim.account(ANIA.login).changeFeed.gatewayGranted = true;
    const changeFeed = registerChangeFeed();
    const device = await changeFeed.register();
    sim.expireSessions(ANIA.login);
    expect((await changeFeed.changes(device)).changes).toEqual([]);
    expect(sim.logins(ANIA.login)).toBe(2);
  });

  it('goes the family road with the child’s reads while the register login fails', async () => {
    sim.refuseLogin(ANIA.login, { message: REGISTER_BROKEN_WORDS, as: 'object' });
    const access = new PortalAccess({
      account: config(ANIA.login, ANIA.password),
      urls: sim.urls,
      clock,
      log: silentLogger(),
      alsoFamilyRoad: family(),
      timeoutMs: 5_000,
    });
    const changeFeed = new ChangeFeed({ gateway: access.gateway, account: ANIA.login });
    // The login decides the road (a request sent during that first login still goes the register road's way).
    await access.session.ensure();
    expect(access.roads?.road).toBe('family');
    const device = await changeFeed.register();
    expect(changeFeedRequests()).toEqual(['POST auth /3.0/ChangeRegister']);
    expect((await changeFeed.changes(device)).changes).toEqual([]);
  });

  it('sends sendPush 0 and its app version as JSON: the portal refuses a registration without a version', async () => {
    expect(CHANGE_FEED_APP_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    const gateway = portalClient({ sim, clock, login: ANIA.login, password: ANIA.password }).gateway;
    sim.account(ANIA.login).changeFeed.gatewayGranted = true;
    const error = await failure(new ChangeFeed({ gateway, account: ANIA.login, appVersion: '' }).register());
    expect([error.name, (error as ChangeFeedRefusedError).code]).toEqual(['FeedRefusedError', 'InvalidRequest']);
    expect(await new ChangeFeed({ gateway, account: ANIA.login, appVersion: '7.0.0' }).register()).toMatch(/^\d+$/);
  });
});
