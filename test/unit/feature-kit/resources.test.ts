import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CADENCE, DAY, HOUR, MINUTE, ResourceCache } from '../../../src/feature-kit/resources.js';
import { UnexpectedResponseError } from '../../../src/portal/errors.js';
import { FakeClock } from '../../helpers/clock.js';
import { silentLogger } from '../../../src/util/log.js';
import type { Gateway } from '../../../src/portal/gateway.js';

const schema = z.looseObject({ n: z.number() });

/** A gateway that answers {n} counting its own calls, or fails as told. */
function fakeGateway(): { gateway: Gateway; calls: () => number; failWith: (e: Error | undefined) => void } {
  let calls = 0;
  let failure: Error | undefined;
  const gateway = {
    get: async () => {
      calls++;
      if (failure) throw failure;
      return { n: calls };
    },
  } as unknown as Gateway;
  return { gateway, calls: () => calls, failWith: (e) => (failure = e) };
}

function setup(alwaysFetch = false) {
  const clock = new FakeClock('2026-11-18T09:00:00+01:00');
  const fake = fakeGateway();
  const cache = new ResourceCache({ gateway: fake.gateway, clock, log: silentLogger(), alwaysFetch });
  return { clock, cache, ...fake };
}

describe('ResourceCache', () => {
  it('answers from memory while younger than the age the caller accepts', async () => {
    const { clock, cache, calls } = setup();
    const spec = { endpoint: 'Notes', schema, maxAgeMs: CADENCE.hourly };
    expect(await cache.get(spec)).toEqual({ n: 1 });
    clock.set(clock.now() + 30 * MINUTE);
    expect(await cache.get(spec)).toEqual({ n: 1 });
    clock.set(clock.now() + 30 * MINUTE);
    expect(await cache.get(spec)).toEqual({ n: 2 });
    expect(calls()).toBe(2);
  });

  it('fetches at once when the signal changed, and not while it holds', async () => {
    const { clock, cache, calls } = setup();
    const spec = (signal: string) => ({ endpoint: 'HomeWorks', schema, maxAgeMs: HOUR, signal });
    await cache.get(spec('1,2'));
    clock.set(clock.now() + 20 * MINUTE);
    expect(await cache.get(spec('1,2'))).toEqual({ n: 1 });
    expect(await cache.get(spec('1,2,3'))).toEqual({ n: 2 });
    expect(await cache.get(spec('1,2,3'))).toEqual({ n: 2 });
    clock.set(clock.now() + HOUR);
    expect(await cache.get(spec('1,2,3'))).toEqual({ n: 3 }); // an edit keeps the ids: the fallback age still holds
    expect(calls()).toBe(3);
  });

  it('asks for an optional list less often while it is empty', async () => {
    const clock = new FakeClock('2026-11-18T09:00:00+01:00');
    let list: string[] = [];
    let asked = 0;
    const gateway = { get: async () => (asked++, { list }) } as unknown as Gateway;
    const cache = new ResourceCache({ gateway, clock, log: silentLogger() });
    const spec = { endpoint: 'PointGrades', schema: z.looseObject({ list: z.array(z.string()) }), maxAgeMs: HOUR, list: (r: { list: string[] }) => r.list };
    await cache.get(spec);
    clock.set(clock.now() + 2 * HOUR);
    await cache.get(spec);
    expect(asked).toBe(1); // empty: not asked again within CADENCE.whileEmpty
    list = ['5'];
    clock.set(clock.now() + 4 * HOUR);
    expect(await cache.get(spec)).toEqual({ list: ['5'] });
    clock.set(clock.now() + HOUR);
    await cache.get(spec);
    expect(asked).toBe(3); // with grades in it: hourly again
  });

  it('fetches everything every time on the naive schedule', async () => {
    const { cache, calls } = setup(true);
    for (let i = 0; i < 3; i++) await cache.get({ endpoint: 'HomeWorks', schema, maxAgeMs: HOUR, signal: 'same' });
    expect(calls()).toBe(3);
    expect(cache.naive).toBe(true);
  });

  it('remembers a refusal and answers the last good copy on a failure when asked to', async () => {
    const { clock, cache, calls, failWith } = setup();
    failWith(new UnexpectedResponseError(403, 'forbidden'));
    expect(await cache.get({ endpoint: 'Ebiblio', schema, maxAgeMs: 0 })).toBeUndefined();
    expect(await cache.get({ endpoint: 'Ebiblio', schema, maxAgeMs: 0 })).toBeUndefined();
    expect(calls()).toBe(1);
    clock.set(clock.now() + DAY - MINUTE);
    expect(await cache.get({ endpoint: 'Ebiblio', schema, maxAgeMs: 0 })).toBeUndefined();
    expect(calls()).toBe(1); // still refused a minute before the day is out

    failWith(undefined);
    await cache.get({ endpoint: 'Subjects', schema, maxAgeMs: 0, staleOnError: true });
    failWith(new Error('socket hang up'));
    clock.set(clock.now() + MINUTE);
    expect(await cache.get({ endpoint: 'Subjects', schema, maxAgeMs: 0, staleOnError: true })).toEqual({ n: 2 });
    await expect(cache.get({ endpoint: 'Grades', schema, maxAgeMs: 0 })).rejects.toThrow('socket hang up');
  });

  it('reads a resource whose read failed again at the next look, whatever its age (a refresh that met a 503)', async () => {
    const { clock, cache, calls, failWith } = setup();
    const spec = { endpoint: 'Realizations', schema, maxAgeMs: CADENCE.daily };
    expect(await cache.get(spec)).toEqual({ n: 1 });
    failWith(new Error('503'));
    await expect(cache.get({ ...spec, askNow: true })).rejects.toThrow('503');
    failWith(undefined);
    clock.set(clock.now() + MINUTE);
    expect(await cache.get(spec)).toEqual({ n: 3 }); // a day's cadence, but the last read failed
    expect(await cache.get(spec)).toEqual({ n: 3 }); // read: the day's cadence again
    expect(calls()).toBe(3);
  });

  it('asks a refused resource again once the day is out (the school may have switched the module on)', async () => {
    const { clock, cache, calls, failWith } = setup();
    failWith(new UnexpectedResponseError(404, 'not found'));
    expect(await cache.get({ endpoint: 'Ebiblio', schema, maxAgeMs: 0 })).toBeUndefined();
    failWith(undefined);
    clock.set(clock.now() + DAY);
    expect(await cache.get({ endpoint: 'Ebiblio', schema, maxAgeMs: 0 })).toEqual({ n: 2 });
    expect(calls()).toBe(2);
  });
});

describe('a module the school switched off (live-notes 9)', () => {
  it('is a refusal remembered about a day, even where a 403 is asked again within the hour, and askNow asks at once', async () => {
    const { clock, cache, calls, failWith } = setup();
    failWith(new UnexpectedResponseError(200, 'Timetables: Disabled', { code: 'Disabled', resource: 'Timetables' }));
    const spec = { endpoint: 'Timetables', schema, maxAgeMs: 0, refusedForMs: CADENCE.hourly };
    expect(await cache.get(spec)).toBeUndefined();
    clock.set(clock.now() + 2 * HOUR);
    expect(await cache.get(spec)).toBeUndefined();
    expect(calls()).toBe(1);
    expect(await cache.get({ ...spec, askNow: true })).toBeUndefined();
    expect(calls()).toBe(2);
    clock.set(clock.now() + DAY);
    failWith(undefined);
    expect(await cache.get(spec)).toEqual({ n: 3 });
  });

  it('keeps an unknown Code an unexpected answer', async () => {
    const { cache, failWith } = setup();
    failWith(new UnexpectedResponseError(400, 'Notes: SomethingNew', { code: 'SomethingNew' }));
    await expect(cache.get({ endpoint: 'Notes', schema, maxAgeMs: 0 })).rejects.toBeInstanceOf(UnexpectedResponseError);
  });
});

/** A pass's moment, as the runner sets it (a Wednesday lesson at the default intervals). */
const pass = { moment: 'lessons' as const, intervals: { news: 5 * MINUTE, normal: 20 * MINUTE, fast: 3 * MINUTE }, refresh: false, pass: true };

describe('a pass: the scheduler reads what is due, one request per copy', () => {

  it('reads the due copies before the features, which then find them read', async () => {
    const { clock, cache, calls } = setup();
    const notes = { endpoint: 'Notes', schema, maxAgeMs: HOUR };
    const subjects = { endpoint: 'Subjects', schema, maxAgeMs: DAY };
    cache.at(pass);
    await cache.get(notes);
    await cache.get(subjects);
    clock.set(clock.now() + 2 * HOUR);
    cache.at(pass);
    await cache.readDue([notes, subjects]);
    expect(calls()).toBe(3);
    expect(await cache.get(notes)).toEqual({ n: 3 });
    expect(await cache.get(subjects)).toEqual({ n: 2 });
    expect(calls()).toBe(3);
    expect(cache.readsByOrigin()).toMatchObject({ scheduler: 1, late: [] });
  });

  it('asks a copy that failed once a pass: a second feature meets the same error, the next pass asks again', async () => {
    const { clock, cache, calls, failWith } = setup();
    const subjects = { endpoint: 'Subjects', schema, maxAgeMs: DAY };
    cache.at(pass);
    await cache.get(subjects);
    clock.set(clock.now() + 2 * DAY);
    const down = new UnexpectedResponseError(503, 'Subjects: 503');
    failWith(down);
    cache.at(pass);
    await expect(cache.get(subjects)).rejects.toBe(down);
    await expect(cache.get(subjects)).rejects.toBe(down);
    // A lookup that answers its last copy on a failure does so again, still without a request.
    expect(await cache.get({ ...subjects, staleOnError: true })).toEqual({ n: 1 });
    expect(calls()).toBe(2);
    failWith(undefined);
    cache.at(pass);
    expect(await cache.get(subjects)).toEqual({ n: 3 });
  });

  it('does not read again what a refresh or a command needed at once, and stops at a failure that is not one resource\'s', async () => {
    const { clock, cache, calls, failWith } = setup();
    const lucky = { endpoint: 'LuckyNumbers', schema, maxAgeMs: HOUR, askNow: true };
    const notes = { endpoint: 'Notes', schema, maxAgeMs: HOUR };
    cache.at(pass);
    await cache.get(lucky);
    await cache.get(notes);
    clock.set(clock.now() + 10 * MINUTE);
    cache.at(pass);
    await cache.readDue([lucky, notes]);
    expect(calls()).toBe(2);
    clock.set(clock.now() + 2 * HOUR);
    cache.at(pass);
    const dead = new Error('the session is dead');
    failWith(dead);
    await expect(cache.readDue([lucky, notes])).rejects.toBe(dead);
  });

  it('counts a read the scheduler was given and a feature made by age as late', async () => {
    const { clock, cache } = setup();
    const notes = { endpoint: 'Notes', schema, maxAgeMs: HOUR };
    cache.at(pass);
    await cache.get(notes);
    clock.set(clock.now() + 2 * HOUR);
    cache.at(pass);
    // Given before it was due (a stale clock), read later by the feature: the table was not the schedule.
    clock.set(clock.now() - 90 * MINUTE);
    await cache.readDue([notes]);
    clock.set(clock.now() + 90 * MINUTE);
    await cache.get(notes);
    expect(cache.readsByOrigin().late).toEqual(['Notes (age)']);
  });
});

describe('a copy no feature wants any more', () => {
  it('is not read by the scheduler after its wantedUntil (last week\'s timetable on a Monday)', async () => {
    const { clock, cache, calls } = setup();
    const lastWeek = { endpoint: 'Timetables', schema, maxAgeMs: HOUR, query: { weekStart: '2026-11-16' }, wantedUntil: clock.now() + HOUR };
    cache.at(pass);
    await cache.get(lastWeek);
    clock.set(clock.now() + 2 * HOUR);
    cache.at(pass);
    await cache.readDue([lastWeek]);
    expect(calls()).toBe(1);
  });
});
