// One child's change feed against a scripted portal: a FilterInvalidValue or a forgotten device is
// registered again once and a second loss within the day waits until the next; a registration that
// cannot reach the portal waits an hour; the changes it lists move what they name, an unknown type is
// logged once and acknowledged; a change is acknowledged only when every list it names was read again,
// computed from, and what that published accepted by the broker; the diagnostics say what waits and why;
// while on, it lays its safety age over the lists it names and counts what a read for age alone found it missed.
import { describe, expect, it } from 'vitest';
import { ChildChangeFeed } from '../../../../src/engine/change-feed/child.js';
import { ResourceCache } from '../../../../src/engine/cache.js';
import { want, type Resource, type Want } from '../../../../src/engine/resource.js';
import { AccountPlan } from '../../../../src/runner/account-plan.js';
import { readDue } from '../../../../src/runner/pass-reads.js';
import type { Watch } from '../../../../src/engine/plan.js';
import { GRADE_COMMENTS, GRADES } from '../../../../src/engine/resources/grades.js';
import { lookup } from '../../../../src/engine/resources/lookups.js';
import { NOTICES } from '../../../../src/engine/resources/school.js';
import { LUCKY } from '../../../../src/features/lucky/resources.js';
import { RESOURCES } from '../../../../src/features/resources.js';
import { ChangeFeedDeviceStore } from '../../../../src/engine/change-feed/device.js';
import { FakeClock } from '../../../helpers/clock.js';
import { tempDir } from '../../../helpers/temp.js';
import { silentLogger } from '../../../../src/util/log.js';
import type { Gateway } from '../../../../src/portal/gateway.js';
import type { JsonAnswer } from '../../../../src/portal/http.js';
import type { MessagesApi } from '../../../../src/portal/messaging-api.js';

const HOUR = 60 * 60_000;
/** A pass whose features all computed and whose broker accepted everything. */
const HANDLED = { computed: () => true, delivered: async () => true };

interface Call {
  method: string;
  endpoint: string;
}

/** A gateway whose answers the test scripts: `changeFeed` for PushChanges reads, `register` for registrations. */
function portal() {
  const calls: Call[] = [];
  let devices = 0;
  const script = {
    register: (): JsonAnswer => ({ status: 200, json: { ChangeRegister: { Id: ++devices } } }),
    changeFeed: (): JsonAnswer => ({ status: 200, json: { Changes: [], ChangesTimestamp: 1 } }),
    lists: (): unknown => ({ Grades: [], SchoolNotices: [] }),
  };
  const gateway = {
    answer: async (method: string, endpoint: string): Promise<JsonAnswer> => {
      calls.push({ method, endpoint });
      if (endpoint === 'ChangeRegister') return script.register();
      if (method === 'DELETE') return { status: 204, json: undefined };
      return script.changeFeed();
    },
    get: async () => script.lists(),
  } as unknown as Gateway;
  return { gateway, calls, script };
}

async function setup(onMissed?: (res: Resource) => void) {
  const clock = new FakeClock('2026-11-18T10:00:00+01:00');
  const lines: string[] = [];
  const log = {
    ...silentLogger(),
    info: (_f: unknown, msg?: string) => lines.push(String(msg ?? _f)),
    warn: () => undefined,
  } as unknown as ReturnType<typeof silentLogger>;
  const p = portal();
  const changeFeed = new ChildChangeFeed({
    gateway: p.gateway,
    store: new ChangeFeedDeviceStore(await tempDir(), 'ania'),
    road: () => 'family',
    resources: RESOURCES,
    onMissed,
    clock,
    log,
  });
  await changeFeed.load();
  const cache = new ResourceCache({ portal: { gateway: p.gateway, messages: {} as MessagesApi, identity: () => undefined, clock, log } });
  /** One pass's change feed, as the pass plugs it in: a device when none, the change feed read, its changes taken (a lost device registered again at once). */
  const pass = async () => {
    cache.begin();
    await changeFeed.beforeReads(cache);
    for (let round = 0; round < 2; round++) {
      const w = changeFeed.want();
      if (w) await cache.read(w).catch(() => undefined);
      await changeFeed.afterRound(cache);
    }
    return { end: () => cache.end() };
  };
  // The account's planner in lessons, handed the change feed's watch (or none: the declarations' own ages).
  const planner = (watch = () => changeFeed.watch()) =>
    new AccountPlan({
      cache,
      policy: { intervalMs: 20 * 60_000, fastIntervalMs: 3 * 60_000, schoolIntervalMs: 5 * 60_000, fixedMoment: 'lessons' },
      lessons: () => undefined,
      watch,
    });
  const when = (w: Want, watch?: () => Watch | undefined) => planner(watch).of([w], clock.now()).rows[0]!;
  /** Reads what the planner says is due of `wants`, as the pass does, the change feed told of a read for its age alone. */
  const readDueOf = (...wants: Want[]) =>
    readDue(
      cache,
      () => planner().of(wants, clock.now()).due,
      new Set(),
      new Map(),
      undefined,
      (res, before, value) => changeFeed.readForAge(res, before, value),
    );
  return { clock, changeFeed, cache, pass, lines, when, readDueOf, ...p };
}

describe("a child's change feed", () => {
  it('a registration makes every list the change feed covers due at once: what changed before it, the change feed never names', async () => {
    const { clock, cache, pass, calls, script, when } = await setup();
    (await pass()).end();
    cache.begin();
    await cache.read(want(GRADES));
    await cache.read(want(NOTICES));
    cache.end();
    clock.set(clock.now() + 60_000);
    expect(when(want(GRADES)).at).toBeGreaterThan(clock.now());
    // The portal forgot the device: registered again in this pass, and its lists are due at once.
    script.changeFeed = () => ({ status: 400, json: { Status: 'Error', Code: 'UnableToGetPushDevice' } });
    const { end } = await pass();
    expect(calls.filter((c) => c.endpoint === 'ChangeRegister')).toHaveLength(2);
    expect(when(want(GRADES))).toMatchObject({ at: clock.now(), why: 'signal' });
    expect(when(want(NOTICES))).toMatchObject({ at: clock.now(), why: 'signal' });
    end();
  });

  it('while on, reads a list it names for its age alone at the safety age, and tells of a record such a read found that it never named', async () => {
    const missed: string[] = [];
    const { clock, cache, pass, script, when, readDueOf } = await setup((res) => missed.push(res.name));
    (await pass()).end();
    cache.begin();
    await cache.read(want(GRADES));
    cache.end();
    // Five minutes old in lessons by its own declaration; eight hours while the change feed vouches for it.
    const readAt = clock.now();
    expect(when(want(GRADES)).at).toBe(readAt + 8 * HOUR);
    clock.set(readAt + 8 * HOUR);
    script.lists = () => ({ Grades: [{ Id: 7 }] });
    cache.begin();
    expect(when(want(GRADES)).why).toBe('age');
    await readDueOf(want(GRADES));
    cache.end();
    expect(missed).toEqual(['Grades']);
    // Without the change feed's watch the planner knows only the declaration's age.
    expect(when(want(GRADES), () => undefined).at).toBe(clock.now() + 5 * 60_000);
  });

  it('while on, reads a lookup for its age alone weekly, not each morning, and at once for an id a record names that it lacks', async () => {
    const { clock, cache, pass, script, when } = await setup();
    (await pass()).end();
    script.lists = () => ({ Comments: [{ Id: '1' }] });
    cache.begin();
    await cache.read(want(GRADE_COMMENTS));
    cache.end();
    const readAt = clock.now();
    expect(when(want(GRADE_COMMENTS), () => undefined).at).toBe(readAt + 24 * HOUR - 10 * 60_000);
    expect(when(want(GRADE_COMMENTS))).toMatchObject({ at: readAt + 7 * 24 * HOUR, why: 'age' });
    expect(when(lookup(cache, GRADE_COMMENTS, ['1']))).toMatchObject({ at: readAt + 7 * 24 * HOUR, why: 'age' });
    expect(when(lookup(cache, GRADE_COMMENTS, ['2']))).toMatchObject({ at: readAt, why: 'missing' });
  });

  it("while on, asks the lucky number until the day's is known, then only when the change feed names a draw, or the morning after", async () => {
    const { clock, cache, pass, script, when } = await setup();
    (await pass()).end();
    const readLucky = async () => {
      cache.begin();
      await cache.read(want(LUCKY));
      cache.end();
    };
    // Only yesterday's number known: asked at its own age (fast_interval), change feed or not.
    script.lists = () => ({ inUse: true, entries: [{ LuckyNumber: 7, LuckyNumberDay: '2026-11-17' }] });
    await readLucky();
    expect(when(want(LUCKY))).toMatchObject({ at: clock.now() + 3 * 60_000, why: 'age' });
    expect(when(want(LUCKY), () => undefined)).toMatchObject({ at: clock.now() + 3 * 60_000, why: 'age' });
    // Today's known: without the change feed an hourly look for the next school day's; with it, none until the morning after.
    script.lists = () => ({ inUse: true, entries: [{ LuckyNumber: 12, LuckyNumberDay: '2026-11-18' }] });
    await readLucky();
    expect(when(want(LUCKY), () => undefined)).toMatchObject({ at: clock.now() + HOUR, why: 'settled' });
    expect(when(want(LUCKY))).toMatchObject({ at: Date.parse('2026-11-19T06:00:00+01:00'), why: 'settled' });
    // The school draws the next one, and the change feed names it: read at once.
    script.changeFeed = () => ({ status: 200, json: { Changes: [{ Id: 21, Type: 'Add', Resource: { Id: '2026-11-19', Type: 'LuckyNumbers' } }] } });
    clock.set(clock.now() + 5 * HOUR);
    const { end } = await pass();
    expect(when(want(LUCKY))).toMatchObject({ at: clock.now(), why: 'signal' });
    end();
  });

  it('registers a device and is on once the change feed answers', async () => {
    const { changeFeed, pass, calls } = await setup();
    (await pass()).end();
    expect(calls.map((c) => `${c.method} ${c.endpoint}`)).toEqual(['POST ChangeRegister', 'GET PushChanges']);
    expect(changeFeed.changeFeedStatus()).toMatchObject({ on: true, road: 'family' });
  });

  it.each([
    ['FilterInvalidValue', { status: 400, json: { Status: 'Error', Code: 'FilterInvalidValue' } }],
    ['UnableToGetPushDevice', { status: 400, json: { Status: 'Error', Code: 'UnableToGetPushDevice' } }],
  ])('after %s registers again once, and a second loss within the day waits for the next', async (_code, lost) => {
    const { clock, changeFeed, pass, calls, script } = await setup();
    (await pass()).end();
    script.changeFeed = () => lost;
    // Registered again in the pass that found it lost, and read at once: still lost.
    (await pass()).end();
    expect(calls.filter((c) => c.endpoint === 'ChangeRegister')).toHaveLength(2);
    clock.set(clock.now() + 5 * 60_000);
    (await pass()).end();
    expect(calls.filter((c) => c.endpoint === 'ChangeRegister')).toHaveLength(2);
    expect(changeFeed.changeFeedStatus()).toMatchObject({ on: false, why: expect.stringContaining('tomorrow') as unknown });
    script.changeFeed = () => ({ status: 200, json: { Changes: [] } });
    clock.set(clock.now() + 24 * HOUR);
    (await pass()).end();
    expect(calls.filter((c) => c.endpoint === 'ChangeRegister')).toHaveLength(3);
    expect(changeFeed.changeFeedStatus().on).toBe(true);
  });

  it('waits an hour after a registration that could not reach the portal', async () => {
    const { clock, changeFeed, pass, calls, script } = await setup();
    script.register = () => ({ status: 503, json: { Status: 'Maintenance' } });
    (await pass()).end();
    clock.set(clock.now() + 30 * 60_000);
    (await pass()).end();
    expect(calls.filter((c) => c.endpoint === 'ChangeRegister')).toHaveLength(1);
    expect(changeFeed.changeFeedStatus()).toMatchObject({ on: false, why: expect.stringContaining('registration failed') as unknown });
    clock.set(clock.now() + 31 * 60_000);
    (await pass()).end();
    expect(calls.filter((c) => c.endpoint === 'ChangeRegister')).toHaveLength(2);
  });

  it('moves what a change names, acknowledges it once its lists were read again, and an unknown type at once, logged once', async () => {
    const { clock, cache, changeFeed, pass, calls, script, lines, when } = await setup();
    (await pass()).end();
    await cache.read(want(GRADES)).catch(() => undefined);
    script.changeFeed = () => ({
      status: 200,
      json: {
        Changes: [
          { Id: 11, Type: 'Add', Resource: { Id: '1', Type: 'Grades' } },
          { Id: 12, Type: 'Add', Resource: { Id: '2', Type: 'SchoolNotices' } },
          { Id: 13, Type: 'Add', Resource: { Id: '3', Type: 'Homeroom' } },
          { Id: 14, Type: 'Add', Resource: { Id: '4', Type: 'Homeroom' } },
        ],
      },
    });
    const { end } = await pass();
    expect(when(want(GRADES))).toMatchObject({ at: clock.now(), why: 'signal' });
    // Grades read again in this pass, the notices not (a failure, say): 11 and the unknown type go.
    await cache.read(want(GRADES));
    await changeFeed.afterPublish(cache, [want(GRADES), want(NOTICES)], HANDLED);
    end();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.endpoint)).toEqual(['PushChanges/11,13,14']);
    expect(lines.filter((l) => l.includes('a type no list of the bridge is'))).toHaveLength(1);
    expect(changeFeed.changeFeedStatus()).toMatchObject({ pending: [{ type: 'SchoolNotices', why: 'read failed' }], acknowledged: 3 });
  });

  it('acknowledges a change only once what its lists feed computed from the new copy and the broker accepted what that published', async () => {
    const { cache, clock, changeFeed, pass, calls, script } = await setup();
    (await pass()).end();
    script.changeFeed = () => ({ status: 200, json: { Changes: [{ Id: 21, Type: 'Add', Resource: { Id: '1', Type: 'Grades' } }] } });
    const deletes = (): string[] => calls.filter((c) => c.method === 'DELETE').map((c) => c.endpoint);
    const tryPass = async (facts: typeof HANDLED): Promise<void> => {
      clock.set(clock.now() + 5 * 60_000);
      const { end } = await pass();
      await cache.read(want(GRADES));
      await changeFeed.afterPublish(cache, [want(GRADES)], facts);
      end();
    };
    // Read, but a feature reading the grades did not compute (a lookup of theirs failed, say).
    await tryPass({ ...HANDLED, computed: () => false });
    expect(deletes()).toEqual([]);
    expect(changeFeed.changeFeedStatus()).toMatchObject({ pending: [{ type: 'Grades', why: 'not computed' }], acknowledged: 0 });
    // Computed, but the broker is away: its states and events are not there yet.
    let asked = 0;
    await tryPass({ ...HANDLED, delivered: async () => (asked++, false) });
    expect(deletes()).toEqual([]);
    expect(asked).toBe(1);
    expect(changeFeed.changeFeedStatus()).toMatchObject({ pending: [{ type: 'Grades', why: 'broker away' }] });
    await tryPass(HANDLED);
    expect(deletes()).toEqual(['PushChanges/21']);
    expect(changeFeed.changeFeedStatus()).toMatchObject({ pending: [], acknowledged: 1, lastRead: clock.now() });
  });
});
