// A feature's poll is skipped only while nothing it read would be read again and nothing it depends on changed.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MINUTE, ResourceCache } from '../../../src/feature-kit/resources.js';
import { steady } from '../../../src/feature-kit/plan.js';
import { PollSkips } from '../../../src/poller/poll-skip.js';
import { FakeClock } from '../../helpers/clock.js';
import { silentLogger } from '../../../src/util/log.js';
import type { Gateway } from '../../../src/portal/gateway.js';
import type { Feature } from '../../../src/features/feature.js';
import type { SourceContext } from '../../../src/feature-kit/source.js';

const schema = z.looseObject({ n: z.number() });
const ROW = steady('Notes', 20 * MINUTE);
const spec = { endpoint: 'Notes', schema, row: ROW };

function setup(feature: Partial<Feature> = {}) {
  const clock = new FakeClock('2026-11-18T09:00:00+01:00');
  let calls = 0;
  const gateway = { get: async () => ({ n: ++calls }) } as unknown as Gateway;
  const cache = new ResourceCache({ gateway, clock, log: silentLogger() });
  cache.at({ moment: 'lessons', intervals: { news: 4 * MINUTE, normal: 20 * MINUTE, fast: 3 * MINUTE }, refresh: false });
  const notes: Feature = { name: 'notes', tier: 'normal', plan: [ROW], inputs: ['timetable'], entities: [], create: () => ({}), ...feature };
  const skips = new PollSkips();
  const identity = {};
  const ctx = (inputs: Record<string, unknown> = { timetable: 'week 1' }, extra: Partial<SourceContext> = {}): SourceContext =>
    ({ cache, gateway, lookups: {}, inputs, identity, now: clock.now(), today: '2026-11-18', forced: false, log: silentLogger(), ...extra }) as SourceContext;
  /** One poll of the feature as the runner makes it: what it reads is recorded. */
  const poll = async (): Promise<void> => {
    const c = ctx();
    const recording = skips.begin(notes, c);
    await cache.get(spec);
    await skips.done(notes, c, recording);
  };
  return { clock, skips, notes, ctx, poll, calls: () => calls };
}

describe('PollSkips', () => {
  it('never skips a first poll', async () => {
    const { skips, notes, ctx } = setup();
    expect(await skips.unchanged(notes, ctx())).toBe(false);
  });

  it('skips while what the poll read is fresh, and polls once it is due', async () => {
    const { clock, skips, notes, ctx, poll, calls } = setup();
    await poll();
    clock.set(clock.now() + 19 * MINUTE);
    expect(await skips.unchanged(notes, ctx())).toBe(true);
    clock.set(clock.now() + MINUTE);
    expect(await skips.unchanged(notes, ctx())).toBe(false);
    expect(calls()).toBe(1);
  });

  it('polls when an input changed, on a new day, for a refresh, and with downloads on', async () => {
    const { skips, notes, ctx, poll } = setup();
    await poll();
    expect(await skips.unchanged(notes, ctx({ timetable: 'week 2' }))).toBe(false);
    expect(await skips.unchanged(notes, ctx(undefined, { today: '2026-11-19' }))).toBe(false);
    expect(await skips.unchanged(notes, ctx(undefined, { forced: true }))).toBe(false);
    expect(await skips.unchanged(notes, ctx(undefined, { downloads: {} as SourceContext['downloads'] }))).toBe(false);
    expect(await skips.unchanged(notes, ctx())).toBe(true);
  });

  it('polls when a resource it read was read again by another poll', async () => {
    const { clock, skips, notes, ctx, poll } = setup();
    await poll();
    clock.set(clock.now() + 20 * MINUTE);
    await ctx().cache.get(spec);
    expect(await skips.unchanged(notes, ctx())).toBe(false);
  });

  it('never skips a fast-tier feature (its counters do not go through the cache) nor after a failed poll', async () => {
    const fast = setup({ tier: 'fast' });
    await fast.poll();
    expect(await fast.skips.unchanged(fast.notes, fast.ctx())).toBe(false);
    const failed = setup();
    await failed.poll();
    failed.skips.forget(failed.notes, failed.ctx());
    expect(await failed.skips.unchanged(failed.notes, failed.ctx())).toBe(false);
  });
});
