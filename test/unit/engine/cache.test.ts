// The account's one cache: a copy per declared resource (and key), read when its schedule says, at most
// once a pass; a refusal remembered, a failure answered until a read succeeds, a moved copy read at
// the next look, a copy two readers want read once.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ResourceCache } from '../../../src/engine/cache.js';
import { AccountPlan } from '../../../src/runner/account-plan.js';
import { messagingResource, registerResource, want, type Resource, type Want } from '../../../src/engine/resource.js';
import { always } from '../../../src/engine/schedule.js';
import { ConnectionError, UnexpectedResponseError } from '../../../src/portal/errors.js';
import { MessagesUnavailableError } from '../../../src/portal/messaging-policy.js';
import { FakeClock } from '../../helpers/clock.js';
import { silentLogger } from '../../../src/util/log.js';
import type { Gateway } from '../../../src/portal/gateway.js';
import type { MessagesApi } from '../../../src/portal/messaging-api.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const schema = z.looseObject({ n: z.number(), ids: z.array(z.string()).optional() });
const intervals = { news: 5 * MINUTE, normal: 20 * MINUTE, fast: 3 * MINUTE };

/** A gateway that answers {n} counting its calls per endpoint, or fails as told. */
function setup(resources?: readonly Resource[]) {
  const clock = new FakeClock('2026-11-18T09:00:00+01:00');
  const calls: string[] = [];
  let failure: Error | undefined;
  const gateway = {
    get: async (endpoint: string, _schema: unknown, { query }: { query?: Record<string, string> } = {}) => {
      calls.push(query ? `${endpoint}?${new URLSearchParams(query)}` : endpoint);
      if (failure) throw failure;
      return { n: calls.length, ids: [] };
    },
  } as unknown as Gateway;
  const cache = new ResourceCache({
    portal: { gateway, messages: {} as MessagesApi, identity: () => undefined, clock, log: silentLogger() },
    resources,
  });
  // The account's planner at one kind of moment (the pass's; 'by the clock': the wall clock's, its night
  // included), with the intervals above.
  type PassMoment = 'lessons' | 'night' | 'by the clock';
  let day: { moment: PassMoment; asked?: boolean; start?: boolean } = { moment: 'lessons' };
  const planner = () =>
    new AccountPlan({
      cache,
      policy: {
        intervalMs: intervals.normal,
        fastIntervalMs: intervals.fast,
        schoolIntervalMs: intervals.news,
        fixedMoment: day.moment === 'by the clock' ? undefined : day.moment,
      },
      lessons: () => undefined,
      watch: () => undefined,
    });
  const when = (w: Want) => planner().of([w], clock.now(), { pass: day }).rows[0]!;
  cache.plannedBy(when);
  const pass = (moment: PassMoment = 'lessons', more: { asked?: boolean; startPass?: boolean } = {}) => {
    day = { moment, asked: more.asked, start: more.startPass };
    cache.begin();
  };
  /** Reads the wants that are due now, as the coordinator's round does. */
  const readDue = async (...wants: ReturnType<typeof want>[]) => {
    for (const w of wants) if (cache.due(w)) await cache.read(w).catch(() => undefined);
  };
  return { clock, cache, calls, pass, readDue, when, failWith: (e: Error | undefined) => (failure = e) };
}

const NOTES = registerResource({ name: 'Notes', endpoint: 'Notes', schema, fresh: { ...always(HOUR), night: Infinity } });
const NEWS = registerResource({
  name: 'SchoolNotices',
  endpoint: 'SchoolNotices',
  schema,
  fresh: { ...always('normal'), lessons: 'news', night: Infinity },
  whenAsked: 'read',
});

describe('the cache', () => {
  it('keeps a copy until its schedule says it is too old for the moment, and reads nothing at night for age alone', async () => {
    const { clock, cache, calls, pass, readDue } = setup();
    pass();
    await readDue(want(NEWS));
    expect(cache.get(NEWS)).toEqual({ n: 1, ids: [] });
    clock.set(clock.now() + 4 * MINUTE);
    pass();
    await readDue(want(NEWS));
    expect(calls).toEqual(['SchoolNotices']);
    clock.set(clock.now() + MINUTE);
    pass();
    await readDue(want(NEWS));
    expect(calls).toEqual(['SchoolNotices', 'SchoolNotices']);
    clock.set(clock.now() + 5 * HOUR);
    pass('night');
    await readDue(want(NEWS), want(NOTES));
    // Notes had no copy: read; the notices' copy is hours old, but the night reads nothing for its age.
    expect(calls).toEqual(['SchoolNotices', 'SchoolNotices', 'Notes']);
  });

  it('reads a copy once a pass however many readers want it, and again in the next pass when due', async () => {
    const { clock, cache, calls, pass } = setup();
    pass();
    await Promise.all([cache.read(want(NOTES)), cache.read(want(NOTES))]);
    expect(cache.due(want(NOTES))).toBe(false);
    expect(calls).toEqual(['Notes']);
    clock.set(clock.now() + HOUR);
    pass();
    expect(cache.due(want(NOTES))).toBe(true);
  });

  it('reads a lookup at once for an id a record names that it lacks, once per id; one still missing, again once 10 minutes old', async () => {
    const { clock, calls, pass, readDue } = setup();
    const LOOKUP = registerResource({
      endpoint: 'Grades/Comments',
      schema,
      fresh: always(DAY),
      missAgeMs: 10 * MINUTE,
      list: (v) => (v.ids ?? []).map((Id) => ({ Id })),
    });
    const lacking = (...missing: string[]) => want(LOOKUP, undefined, { missing });
    pass();
    await readDue(lacking('7701'));
    clock.set(clock.now() + 2 * MINUTE);
    pass();
    await readDue(lacking('7701')); // asked for, still missing: not again yet
    expect(calls).toEqual(['Grades/Comments']);
    await readDue(lacking('7701', '7702')); // a new id: at once
    expect(calls).toHaveLength(2);
    clock.set(clock.now() + 9 * MINUTE);
    pass();
    await readDue(lacking('7701', '7702'));
    expect(calls).toHaveLength(2);
    clock.set(clock.now() + MINUTE);
    pass();
    await readDue(lacking('7701', '7702'));
    expect(calls).toHaveLength(3);
  });

  it('reads a keyed resource once per key', async () => {
    const { cache, calls, pass, readDue } = setup();
    const WEEKS = registerResource({ name: 'Timetables', endpoint: 'Timetables', queryKey: 'weekStart', schema, fresh: always(HOUR) });
    pass();
    await readDue(want(WEEKS, '2026-11-16'), want(WEEKS, '2026-11-23'), want(WEEKS, '2026-11-16'));
    expect(calls).toEqual(['Timetables?weekStart=2026-11-16', 'Timetables?weekStart=2026-11-23']);
    expect(cache.get(WEEKS, '2026-11-23')).toEqual({ n: 2, ids: [] });
  });

  it('reads at once when the signal that vouches for a copy moved, and keeps it while it holds', async () => {
    const { clock, calls, pass, readDue, when } = setup();
    let ids = '1,2';
    const LIST = registerResource({
      name: 'HomeWorks',
      endpoint: 'HomeWorks',
      schema,
      fresh: always(5 * MINUTE),
      vouch: { by: 'ids', fresh: always(HOUR) },
      signal: () => ids,
    });
    pass();
    await readDue(want(LIST));
    clock.set(clock.now() + 30 * MINUTE);
    pass();
    await readDue(want(LIST));
    expect(calls).toHaveLength(1);
    ids = '1,2,3';
    await readDue(want(LIST));
    expect(calls).toHaveLength(2);
    expect(when(want(LIST)).at).toBeGreaterThan(clock.now());
  });

  it('reads what the bridge itself moved (a message opened, one sent) at the next look', async () => {
    const { cache, calls, pass, readDue, clock, when } = setup();
    pass();
    await readDue(want(NOTES));
    cache.end();
    cache.moved(NOTES);
    pass();
    expect(when(want(NOTES))).toMatchObject({ at: clock.now(), why: 'signal' });
    await readDue(want(NOTES));
    expect(calls).toEqual(['Notes', 'Notes']);
    expect(cache.due(want(NOTES))).toBe(false);
  });

  it('remembers a refusal for its time, and reads a refused module again once it is out', async () => {
    const { clock, cache, calls, pass, readDue, failWith } = setup();
    failWith(new UnexpectedResponseError(403, 'forbidden'));
    pass();
    await readDue(want(NOTES));
    expect(cache.refused(NOTES)).toBe(true);
    expect(cache.get(NOTES)).toBeUndefined();
    failWith(undefined);
    clock.set(clock.now() + 23 * HOUR);
    pass();
    await readDue(want(NOTES));
    expect(calls).toHaveLength(1);
    clock.set(clock.now() + HOUR);
    pass();
    await readDue(want(NOTES));
    expect(calls).toHaveLength(2);
    expect(cache.get(NOTES)).toEqual({ n: 2, ids: [] });
  });

  it('tells since when its answers are refusals: a failed read between two does not end them, an answer does', async () => {
    const { clock, cache, pass, readDue, failWith } = setup();
    const first = clock.now();
    failWith(new UnexpectedResponseError(403, 'forbidden'));
    pass();
    await readDue(want(NOTES));
    expect(cache.refusal(NOTES)).toEqual({ since: first, at: first });
    // Its refusal out, the portal is down: no answer, the refusals stand.
    clock.set(first + 24 * HOUR);
    failWith(new ConnectionError('down', { status: 503 }));
    pass();
    await readDue(want(NOTES));
    expect(cache.refusal(NOTES)).toEqual({ since: first, at: first });
    clock.set(clock.now() + HOUR);
    failWith(new UnexpectedResponseError(200, 'Disabled', { code: 'Disabled' }));
    pass();
    await readDue(want(NOTES));
    expect(cache.refusal(NOTES)).toEqual({ since: first, at: first + 25 * HOUR });
    clock.set(clock.now() + 24 * HOUR);
    failWith(undefined);
    pass();
    await readDue(want(NOTES));
    expect(cache.refusal(NOTES)).toBeUndefined();
  });

  it("answers a failed read's error until a read succeeds (its last good copy where the declaration says so), and tries again within `interval`", async () => {
    const { clock, cache, pass, readDue, failWith, when } = setup();
    const LOOKUP = registerResource({ name: 'Subjects', endpoint: 'Subjects', schema, fresh: always(HOUR), keepOnError: true });
    pass();
    await readDue(want(NOTES), want(LOOKUP));
    clock.set(clock.now() + HOUR);
    failWith(new UnexpectedResponseError(500, 'server error'));
    pass();
    await readDue(want(NOTES), want(LOOKUP));
    expect(() => cache.get(NOTES)).toThrow('server error');
    expect(cache.get(LOOKUP)).toEqual({ n: 2, ids: [] });
    // A failing portal is not asked in a loop: within `interval` (20 minutes), not at once.
    expect(when(want(NOTES)).by).toBe(clock.now() + 20 * MINUTE);
    failWith(undefined);
    clock.set(clock.now() + 20 * MINUTE);
    pass();
    await readDue(want(NOTES));
    expect(cache.get(NOTES)).toEqual({ n: 5, ids: [] });
  });

  it('stops at a failure of the host (the portal down): the copy is not marked, and the pass does not ask it again', async () => {
    const { cache, calls, pass, failWith } = setup();
    failWith(new ConnectionError('down', { account: 'a' }));
    pass();
    await expect(cache.read(want(NOTES))).rejects.toThrow('down');
    await expect(cache.read(want(NOTES))).rejects.toThrow('down');
    expect(calls).toHaveLength(1);
    expect(cache.get(NOTES)).toBeUndefined();
  });

  it('reads what a person asked for now, whatever its age; a refresh what its declaration says', async () => {
    const { cache, calls, pass, readDue } = setup();
    pass();
    await readDue(want(NOTES), want(NEWS));
    pass('lessons', { asked: true });
    await readDue(want(NOTES), want(NEWS));
    // NEWS reads on a refresh; Notes keeps its copy.
    expect(calls).toEqual(['Notes', 'SchoolNotices', 'SchoolNotices']);
    cache.end();
    await cache.read(want(NOTES));
    expect(calls).toHaveLength(4);
  });

  it("leaves what can wait for a start's second pass", async () => {
    const { calls, pass, readDue } = setup();
    const LATER = registerResource({ name: 'SchoolFiles', endpoint: 'SchoolFiles', schema, fresh: always(HOUR), notAtStart: true });
    pass('lessons', { startPass: true });
    await readDue(want(LATER));
    expect(calls).toEqual([]);
    pass();
    await readDue(want(LATER));
    expect(calls).toEqual(['SchoolFiles']);
  });

  it('reads at once at night what the bridge moved before its first read (a reply sent before the sent box was read)', async () => {
    const { clock, cache, calls, pass, readDue } = setup();
    clock.set('2026-11-18T23:10:00+01:00');
    const BOX = registerResource({ name: 'SentBox', endpoint: 'SentBox', schema, fresh: { ...always(HOUR), night: Infinity }, notAtStart: true });
    pass('by the clock', { startPass: true });
    await readDue(want(BOX));
    pass('by the clock');
    await readDue(want(BOX));
    // The night leaves a list riding along for 06:00: not read yet.
    expect(calls).toEqual([]);
    cache.end();
    cache.moved(BOX);
    pass('by the clock');
    await readDue(want(BOX));
    expect(calls).toEqual(['SentBox']);
    expect(cache.due(want(BOX))).toBe(false);
  });

  it('takes a school without the messages module as a refusal until the messaging client asks again', async () => {
    const { clock, cache, pass, readDue, when } = setup();
    const nextCheckAt = clock.now() + 6 * HOUR;
    const COUNTERS = messagingResource({
      name: 'counters',
      endpoints: ['/x'],
      read: () => Promise.reject(new MessagesUnavailableError('a', nextCheckAt)),
      fresh: always(3 * MINUTE),
    });
    pass();
    await readDue(want(COUNTERS));
    expect(cache.refused(COUNTERS)).toBe(true);
    expect(when(want(COUNTERS)).by).toBe(nextCheckAt);
  });

  it('counts each read of a copy (a feature that took in another count computes again)', async () => {
    const { clock, cache, pass, readDue } = setup();
    expect(cache.version(want(NOTES))).toBe(0);
    pass();
    await readDue(want(NOTES));
    expect(cache.version(want(NOTES))).toBe(1);
    clock.set(clock.now() + HOUR);
    pass();
    await readDue(want(NOTES));
    expect(cache.version(want(NOTES))).toBe(2);
    cache.seed(NOTES, { n: 9 }, clock.now());
    expect(cache.version(want(NOTES))).toBe(3);
  });

  it("reads a copy by the account's declaration of its name (the bench's transformed ones), not the want's own", async () => {
    const EVERY_5_MINUTES = registerResource({ name: 'Notes', endpoint: 'Notes', schema, fresh: always(5 * MINUTE) });
    const { clock, calls, pass, readDue, when } = setup([EVERY_5_MINUTES]);
    pass();
    await readDue(want(NOTES));
    clock.set(clock.now() + 5 * MINUTE);
    pass();
    await readDue(want(NOTES));
    // NOTES itself says an hour.
    expect(calls).toEqual(['Notes', 'Notes']);
    expect(when(want(NOTES)).at).toBe(clock.now() + 5 * MINUTE);
  });
});

describe('what the cache lets go of (a bridge that runs all year)', () => {
  const WEEKS = registerResource({
    name: 'Timetables',
    endpoint: 'Timetables',
    queryKey: 'weekStart',
    schema,
    fresh: always(HOUR),
    byPeriod: true,
  });
  const MAILBOX = registerResource({ name: 'a message', endpoint: 'Messages/<id>', schema, fresh: always(HOUR) });

  it('keeps only the weeks still wanted after a term of passes, and every copy of another kind', async () => {
    const { cache, pass, readDue } = setup();
    const mondays = Array.from({ length: 20 }, (_, n) => new Date(Date.UTC(2026, 8, 7 + 7 * n)).toISOString().slice(0, 10));
    for (const [n, monday] of mondays.entries()) {
      pass();
      // This week and the next, as the timetable feature wants them, and a message read once and kept.
      const wants = [want(WEEKS, monday), want(WEEKS, mondays[n + 1] ?? '2027-01-25'), want(NOTES), want(MAILBOX, `m${n}`)];
      await readDue(...wants);
      cache.forget(wants);
      cache.end();
    }
    const weeksKept = mondays.filter((m) => cache.peek(WEEKS, m) !== undefined);
    expect(weeksKept).toEqual([mondays.at(-1)]);
    expect(cache.peek(WEEKS, '2027-01-25')).toBeDefined();
    expect(cache.peek(NOTES)).toBeDefined();
    // A copy a feature decides from (a sent message whose reading it follows) is not the cache's to drop.
    expect(cache.peek(MAILBOX, 'm0')).toBeDefined();
  });
});
