// The copies a feature keeps itself (the messaging host's): the scheduler reads a due one before the
// feature computes, with the read the feature told it; within one pass a copy is asked for once, its
// answer or its error standing for the feature's own read; a command between passes asks again.
import { describe, expect, it } from 'vitest';
import { OwnReads } from '../../../src/feature-kit/own-reads.js';
import { MINUTE, ResourceCache } from '../../../src/feature-kit/resources.js';
import { AWAKE, type PlanRow } from '../../../src/feature-kit/plan.js';
import { FakeClock } from '../../helpers/clock.js';
import { silentLogger } from '../../../src/util/log.js';
import type { Gateway } from '../../../src/portal/gateway.js';

const COUNTERS: PlanRow = { resource: 'messaging inbox/unreadMessagesCount', fresh: AWAKE, refresh: 'read' };
const intervals = { news: 5 * MINUTE, normal: 20 * MINUTE, fast: 3 * MINUTE };

function setup() {
  const clock = new FakeClock('2026-11-18T09:00:00+01:00');
  const cache = new ResourceCache({ gateway: {} as Gateway, clock, log: silentLogger() });
  const reads = new OwnReads<'counts'>();
  let asked = 0;
  let failure: Error | undefined;
  const fetch = async (): Promise<number> => {
    asked++;
    if (failure) throw failure;
    return asked;
  };
  let kept: number | undefined;
  const read = async (now: number) => (kept = await reads.read('counts', now, fetch));
  /** A pass: the scheduler's reads of what the last one recorded, then the feature's look at its copy. */
  const pass = async (): Promise<void> => {
    const recording = { specs: [], own: [] };
    cache.at({ moment: 'lessons', intervals, refresh: false, pass: true });
    await cache.readDueOwn(last, clock.now());
    cache.record(recording);
    if (reads.due(cache, COUNTERS, 'counts', {}, read)) await read(clock.now()).catch(() => undefined);
    cache.record(undefined);
    last = recording.own;
    cache.at({ moment: 'lessons', intervals, refresh: false });
  };
  let last: Parameters<ResourceCache['readDueOwn']>[0] = [];
  return { clock, cache, reads, pass, read, asked: () => asked, kept: () => kept, failWith: (e?: Error) => (failure = e) };
}

describe('OwnReads under the scheduler', () => {
  it('is read by the scheduler once due, and the feature finds it read', async () => {
    const t = setup();
    await t.pass();
    expect(t.asked()).toBe(1);
    expect(t.cache.readsByOrigin().features).toEqual({ 'messaging inbox/unreadMessagesCount (no copy)': 1 });
    t.clock.set(t.clock.now() + 2 * MINUTE);
    await t.pass();
    expect(t.asked()).toBe(1);
    t.clock.set(t.clock.now() + 2 * MINUTE);
    await t.pass();
    expect(t.asked()).toBe(2);
    expect(t.kept()).toBe(2);
    expect(t.cache.readsByOrigin().scheduler).toBe(1);
  });

  it('asks a copy whose read failed once a pass; the next pass asks again', async () => {
    const t = setup();
    await t.pass();
    t.clock.set(t.clock.now() + 4 * MINUTE);
    const down = new Error('messages: 503');
    t.failWith(down);
    await t.pass();
    // The scheduler's read failed; the feature's read in the same pass met its error without a request.
    expect(t.asked()).toBe(2);
    t.failWith(undefined);
    t.clock.set(t.clock.now() + MINUTE);
    await t.pass();
    expect(t.asked()).toBe(3);
    expect(t.kept()).toBe(3);
  });

  it('asks again for a command between passes, even at the same instant', async () => {
    const t = setup();
    await t.pass();
    await t.read(t.clock.now());
    expect(t.asked()).toBe(2);
  });
});
