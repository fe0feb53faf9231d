// One feature's pass outside a running bridge, as the coordinator makes one: the copies its reads say
// (and what their signals are read from) read when due (runner/pass-reads.ts's readDue, in rounds),
// then its computation. For the tests that drive a feature against the simulator without the whole bridge.
import { ResourceCache } from '../../src/engine/cache.js';
import { AccountPlan } from '../../src/runner/account-plan.js';
import { readDue } from '../../src/runner/pass-reads.js';
import { silentLogger } from '../../src/util/log.js';
import { warsawDate } from '../../src/util/time.js';
import type { Feature, FeatureState } from '../../src/features/feature.js';
import type { Moment } from '../../src/engine/schedule.js';
import type { Host, Want } from '../../src/engine/resource.js';
import { signalReads } from '../../src/runner/feature-runs.js';
import type { Identity } from '../../src/engine/identity.js';
import type { SourceResult } from '../../src/engine/source.js';
import type { AccountConfig } from '../../src/config/schema.js';
import type { Gateway } from '../../src/portal/gateway.js';
import type { MessagesApi } from '../../src/portal/messaging-api.js';
import type { Clock } from '../../src/util/clock.js';

const MIN = 60_000;

export interface FeaturePassOptions {
  feature: Feature;
  state: FeatureState;
  clock: Clock;
  gateway?: Gateway;
  messages?: MessagesApi;
  moment?: Moment;
  identity?: Identity;
  account?: Partial<AccountConfig>;
}

/** A pass function over one feature: `asked` is a person's refresh. */
export function featurePasses(options: FeaturePassOptions): {
  cache: ResourceCache;
  pass: (asked?: boolean) => Promise<SourceResult>;
  /** The hosts the last pass could not read, and why (the coordinator's `failed`). */
  failed: Map<Host, unknown>;
} {
  const log = silentLogger();
  const identity = options.identity ?? ({} as Identity);
  const cache = new ResourceCache({
    portal: {
      gateway: options.gateway ?? ({} as Gateway),
      messages: options.messages ?? ({} as MessagesApi),
      identity: () => identity,
      clock: options.clock,
      log,
    },
  });
  // The planner at one kind of moment (the test's), with the intervals a config's defaults would give.
  const policy = { intervalMs: 20 * MIN, fastIntervalMs: 3 * MIN, schoolIntervalMs: 5 * MIN, fixedMoment: options.moment ?? 'lessons' };
  const planner = new AccountPlan({ cache, policy, lessons: () => undefined, watch: () => undefined });
  const account = { login: 'test', write_messages: false, downloads: false, messages: [], ...options.account } as AccountConfig;
  const failed = new Map<Host, unknown>();
  const pass = async (asked = false): Promise<SourceResult> => {
    const now = options.clock.now();
    failed.clear();
    cache.begin();
    try {
      const ctx = { identity, now, today: warsawDate(now), startPass: false, account, onDemand: [] };
      const copies = {
        get: cache.peek.bind(cache),
        peek: cache.peek.bind(cache),
        refused: cache.refused.bind(cache),
        readAt: cache.readAt.bind(cache),
      };
      const reads = (): Want[] => {
        const wants = options.feature.reads?.({ ...ctx, copies }) ?? [];
        // What the lists' signals are read from, as the account's features add it (the class calendar).
        return [...wants, ...signalReads(wants, copies)];
      };
      await readDue(cache, () => planner.of(reads(), options.clock.now(), { pass: { asked } }).due, new Set<Host>(), failed);
      return await options.state.compute!({ cache, inputs: {}, identity, now, today: ctx.today, asked, log });
    } finally {
      cache.end();
    }
  };
  return { cache, pass, failed };
}
