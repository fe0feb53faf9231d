// Passes of an account's features: a feature runs only when something it takes in changed (a copy it
// reads fell due, the output of a feature it reads is another, a refresh), counted over passes.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DAY, MINUTE, ResourceCache } from '../../../src/feature-kit/resources.js';
import { steady } from '../../../src/feature-kit/plan.js';
import { AccountFeatures } from '../../../src/poller/account-features.js';
import { FakeClock } from '../../helpers/clock.js';
import { tempDir } from '../../helpers/temp.js';
import { silentLogger } from '../../../src/util/log.js';
import type { Gateway } from '../../../src/portal/gateway.js';
import type { Feature, FeatureAccess } from '../../../src/features/feature.js';
import type { Identity } from '../../../src/feature-kit/identity.js';
import type { SourceContext } from '../../../src/feature-kit/source.js';

const schema = z.looseObject({ n: z.number() });
const NOTES = steady('Notes', 20 * MINUTE);
const TYPES = steady('Notes/Types', DAY);

async function setup() {
  const clock = new FakeClock('2026-11-18T15:00:00+01:00');
  let answers = 0;
  const gateway = { get: async () => ({ n: ++answers }) } as unknown as Gateway;
  const log = silentLogger();
  const cache = new ResourceCache({ gateway, clock, log });
  cache.at({ moment: 'afternoon', intervals: { news: 4 * MINUTE, normal: 20 * MINUTE, fast: 3 * MINUTE }, refresh: false });
  const runs = { notes: 0, summary: 0 };
  // `notes` reads a list every 20 minutes; `summary` reads a daily lookup and takes the notes' output.
  const notes = {
    name: 'notes',
    tier: 'normal',
    plan: [NOTES],
    entities: [],
    create: () => ({
      poll: async (ctx: SourceContext) => {
        runs.notes++;
        return { states: {}, output: await ctx.cache.get({ endpoint: 'Notes', schema, row: NOTES }) };
      },
    }),
  } as Feature;
  const summary = {
    name: 'summary',
    tier: 'normal',
    plan: [TYPES],
    inputs: ['notes'],
    entities: [],
    create: () => ({
      poll: async (ctx: SourceContext) => {
        runs.summary++;
        await ctx.cache.get({ endpoint: 'Notes/Types', schema, row: TYPES });
        return { states: {} };
      },
    }),
  } as unknown as Feature;
  const access = { account: { login: 'ania' }, dataDir: await tempDir(), log } as unknown as FeatureAccess;
  const features = new AccountFeatures([summary, notes], access);
  await features.prepare();
  const identity = {} as Identity;
  const pass = async (forced = false): Promise<void> => {
    const now = clock.now();
    await features.poll(['normal'], { cache, identity, log, now, today: '2026-11-18', forced }, log);
  };
  return { clock, pass, runs };
}

describe('which features a pass runs', () => {
  it('runs a feature when a copy it reads fell due or an output it takes changed, and no other', async () => {
    const { clock, pass, runs } = await setup();
    await pass();
    expect(runs).toEqual({ notes: 1, summary: 1 });
    // Five minutes on: nothing either takes in changed.
    clock.set(clock.now() + 5 * MINUTE);
    await pass();
    expect(runs).toEqual({ notes: 1, summary: 1 });
    // The notes' copy is due: they run, read another answer, and the summary that takes it runs too.
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
});
