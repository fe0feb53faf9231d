// Passes of an account's features: a feature runs only when something it takes in moved (a copy it
// reads was read anew, the output of a feature it reads is another, a refresh); two features reading
// one resource want one copy; a feature that reads a copy it did not say it reads fails loudly.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ResourceCache } from '../../../src/engine/cache.js';
import { registerResource, want } from '../../../src/engine/resource.js';
import { always } from '../../../src/engine/schedule.js';
import { AccountPlan } from '../../../src/runner/account-plan.js';
import { AccountFeatures } from '../../../src/runner/account-features.js';
import { FakeClock } from '../../helpers/clock.js';
import { tempDir } from '../../helpers/temp.js';
import { silentLogger } from '../../../src/util/log.js';
import type { Gateway } from '../../../src/portal/gateway.js';
import type { MessagesApi } from '../../../src/portal/messaging-api.js';
import type { Feature, FeatureAccess } from '../../../src/features/feature.js';
import type { Identity } from '../../../src/engine/identity.js';
import type { SourceContext } from '../../../src/engine/source.js';

const MINUTE = 60_000;
const schema = z.looseObject({ n: z.number() });
const NOTES = registerResource({ name: 'Notes', endpoint: 'Notes', schema, fresh: always(20 * MINUTE) });
const TYPES = registerResource({ name: 'Notes/Types', endpoint: 'Notes/Types', schema, fresh: always(24 * 60 * MINUTE) });

async function setup(extra: Feature[] = []) {
  const clock = new FakeClock('2026-11-18T15:00:00+01:00');
  const asked: string[] = [];
  const gateway = { get: async (endpoint: string) => (asked.push(endpoint), { n: asked.length }) } as unknown as Gateway;
  const log = silentLogger();
  const cache = new ResourceCache({ portal: { gateway, messages: {} as MessagesApi, identity: () => undefined, clock, log } });
  const runs = { notes: 0, summary: 0 };
  // `notes` reads a list every 20 minutes; `summary` reads a daily lookup and takes the notes' output.
  const notes: Feature = {
    name: 'notes',
    reads: () => [want(NOTES)],
    entities: [],
    create: () => ({
      compute: (ctx: SourceContext) => {
        runs.notes++;
        return Promise.resolve({ output: ctx.cache.get(NOTES) });
      },
    }),
  };
  const summary = {
    name: 'summary',
    reads: () => [want(TYPES)],
    inputs: ['notes'],
    entities: [],
    create: () => ({
      compute: (ctx: SourceContext) => {
        runs.summary++;
        ctx.cache.get(TYPES);
        return Promise.resolve({});
      },
    }),
  } as unknown as Feature;
  const access = { account: { login: 'ania' }, dataDir: await tempDir(), log, cache } as unknown as FeatureAccess;
  const features = new AccountFeatures([summary, notes, ...extra], access);
  await features.prepare();
  const identity = {} as Identity;
  // The account's planner outside lessons by day, with the intervals a config's defaults would give.
  const policy = { intervalMs: 20 * MINUTE, fastIntervalMs: 3 * MINUTE, schoolIntervalMs: 5 * MINUTE, fixedMoment: 'day' as const };
  const planner = new AccountPlan({ cache, policy, lessons: () => undefined, watch: () => undefined });
  /** A pass as the coordinator makes one: what is due read, then the features computed. */
  const pass = async (asked = false) => {
    cache.begin();
    for (const w of planner.of(features.runs.wants(identity, '2026-11-18'), clock.now(), { pass: { asked } }).due) await cache.read(w);
    const outcome = await features.compute({ identity, log, now: clock.now(), today: '2026-11-18', asked }, { startPass: false, unread: new Set() });
    cache.end();
    return outcome;
  };
  return { clock, pass, runs, asked, features, identity };
}

describe('which features a pass runs', () => {
  it('runs a feature when a copy it reads moved or an output it takes changed, and no other', async () => {
    const { clock, pass, runs } = await setup();
    await pass();
    expect(runs).toEqual({ notes: 1, summary: 1 });
    // Five minutes on: nothing either takes in moved.
    clock.set(clock.now() + 5 * MINUTE);
    await pass();
    expect(runs).toEqual({ notes: 1, summary: 1 });
    // The notes' copy is read again: they run, and the summary that takes their output runs too.
    clock.set(clock.now() + 16 * MINUTE);
    await pass();
    expect(runs).toEqual({ notes: 2, summary: 2 });
    clock.set(clock.now() + 5 * MINUTE);
    await pass();
    expect(runs).toEqual({ notes: 2, summary: 2 });
    // A refresh runs every feature.
    await pass(true);
    expect(runs).toEqual({ notes: 3, summary: 3 });
  });

  it('wants a copy two features read once: one read, one schedule', async () => {
    let meetings = 0;
    const second: Feature = {
      name: 'notes-again',
      reads: () => [want(NOTES)],
      entities: [],
      create: () => ({ compute: (ctx: SourceContext) => (meetings++, ctx.cache.get(NOTES), Promise.resolve({})) }),
    };
    const { clock, pass, asked, features, identity } = await setup([second]);
    expect(features.runs.wants(identity, '2026-11-18').filter((w) => w.res === NOTES)).toHaveLength(1);
    for (let minute = 0; minute < 6 * 60; minute += 1) {
      await pass();
      clock.set(clock.now() + MINUTE);
    }
    // Every 20 minutes over six hours, as one reader alone would: 18 reads, and the second reader ran at each.
    expect(asked.filter((e) => e === 'Notes')).toHaveLength(18);
    expect(meetings).toBe(18);
  });

  it('fails a feature that reads a copy it did not say it reads', async () => {
    const sly: Feature = {
      name: 'sly',
      reads: () => [want(NOTES)],
      entities: [],
      create: () => ({ compute: (ctx: SourceContext) => Promise.resolve({ output: ctx.cache.get(TYPES) }) }),
    };
    const { pass } = await setup([sly]);
    await expect(pass()).rejects.toThrow('feature sly reads Notes/Types without saying so');
  });
});
