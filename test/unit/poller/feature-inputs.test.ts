// A feature runs only when something it takes in changed: a copy it read is due, an input, the day; and
// what it asked tells the scheduler when it is due again.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MINUTE, ResourceCache } from '../../../src/feature-kit/resources.js';
import { steady } from '../../../src/feature-kit/plan.js';
import { FeatureInputs } from '../../../src/poller/feature-inputs.js';
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
  const skips = new FeatureInputs();
  const identity = {};
  const ctx = (inputs: Record<string, unknown> = { timetable: 'week 1' }, extra: Partial<SourceContext> = {}): SourceContext =>
    ({ cache, lookups: {}, inputs, identity, now: clock.now(), today: '2026-11-18', forced: false, log: silentLogger(), ...extra }) as SourceContext;
  /** One poll of the feature as the runner makes it: what it reads is recorded. */
  const poll = async (): Promise<void> => {
    const c = ctx();
    const recording = skips.begin(notes, c);
    await cache.get(spec);
    await skips.done(notes, c, recording);
  };
  return { clock, skips, notes, ctx, poll, calls: () => calls };
}

describe('FeatureInputs', () => {
  it('runs a first poll', async () => {
    const { skips, notes, ctx } = setup();
    expect(await skips.changed(notes, ctx())).toBe(true);
  });

  it('leaves the feature out while what it read is fresh, and runs it once it is due', async () => {
    const { clock, skips, notes, ctx, poll, calls } = setup();
    await poll();
    clock.set(clock.now() + 19 * MINUTE);
    expect(await skips.changed(notes, ctx())).toBe(false);
    clock.set(clock.now() + MINUTE);
    expect(await skips.changed(notes, ctx())).toBe(true);
    expect(calls()).toBe(1);
  });

  it('runs it when an input changed, on a new day, for a refresh, and with downloads on', async () => {
    const { skips, notes, ctx, poll } = setup();
    await poll();
    expect(await skips.changed(notes, ctx({ timetable: 'week 2' }))).toBe(true);
    expect(await skips.changed(notes, ctx(undefined, { today: '2026-11-19' }))).toBe(true);
    expect(await skips.changed(notes, ctx(undefined, { forced: true }))).toBe(true);
    expect(await skips.changed(notes, ctx(undefined, { downloads: {} as SourceContext['downloads'] }))).toBe(true);
    expect(await skips.changed(notes, ctx())).toBe(false);
  });

  it('runs it when a resource it read was read again by another poll', async () => {
    const { clock, skips, notes, ctx, poll } = setup();
    await poll();
    clock.set(clock.now() + 20 * MINUTE);
    await ctx().cache.get(spec);
    expect(await skips.changed(notes, ctx())).toBe(true);
  });

  it('always runs a fast-tier feature (its counters do not go through the cache), and after a failed poll', async () => {
    const fast = setup({ tier: 'fast' });
    await fast.poll();
    expect(await fast.skips.changed(fast.notes, fast.ctx())).toBe(true);
    const failed = setup();
    await failed.poll();
    failed.skips.forget(failed.notes, failed.ctx());
    expect(await failed.skips.changed(failed.notes, failed.ctx())).toBe(true);
  });

  it('tells the scheduler by when the copies it asked for must be read again, and nothing once it failed', async () => {
    const { clock, skips, notes, ctx, poll } = setup();
    await poll();
    const clockNow = { now: clock.now(), moment: 'lessons' as const, intervals: { news: 4 * MINUTE, normal: 20 * MINUTE, fast: 3 * MINUTE } };
    // A 20-minute row: due at 09:20, read by 09:22:30 at the latest.
    expect(skips.readBy(notes, ctx().cache, clockNow)).toBe(clock.now() + 22.5 * MINUTE);
    skips.forget(notes, ctx());
    expect(skips.readBy(notes, ctx().cache, clockNow)).toBeUndefined();
  });
});
