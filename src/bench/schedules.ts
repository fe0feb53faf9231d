// The bench's two comparisons, as the declarations transformed (the account reads by the declarations
// it is given: AccountPollerOptions.resources): the reference's own ages, and the naive schedule.
import { always, atLeast, MOMENTS, type Freshness } from '../engine/schedule.js';
import { RESOURCES } from '../features/resources.js';
import type { Resource } from '../engine/resource.js';
import { HOUR } from '../util/duration.js';

/**
 * What the reference reads hourly (shared/design/performance.md), read by our bridge no more often in
 * the "same freshness" run, so that the comparison is like for like: its 20-minute lists at the run's
 * 20 minutes, these at its hour.
 */
const REFERENCE_HOURLY = [
  'PointGrades',
  'BaseTextGrades',
  'DescriptiveGrades',
  'partial grades (POST)',
  'BehaviourGrades/Points',
  'Realizations',
  'SchoolTrips',
  'SchoolFiles',
];

/** The declarations at the reference's ages: those it reads hourly never read more often (none of them is read ahead of need). */
export const REFERENCE: readonly Resource[] = RESOURCES.map((res) =>
  REFERENCE_HOURLY.includes(res.name)
    ? { ...res, fresh: Object.fromEntries(MOMENTS.map((m) => [m, atLeast(res.fresh[m], HOUR)])) as Freshness }
    : res,
);

/**
 * The naive schedule: every declaration read at every pass, day and night, at the news age (the run sets
 * it to 20 minutes: a pass every 20 minutes, met to the second), whatever its signal, its copy or a start
 * says; a refusal still stands.
 */
export const NAIVE: readonly Resource[] = RESOURCES.map((res) => {
  const { vouch: _vouch, ahead: _ahead, whileEmptyMs: _empty, missAgeMs: _miss, notAtStart: _start, settled: _settled, ...rest } = res;
  return { ...rest, fresh: always('news'), readsAtNight: true };
});
