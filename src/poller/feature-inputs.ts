// What each feature's last clean poll took in: the copies it asked the fetch plan for (when each is
// due again is the scheduler's answer, readBy), the outputs of the features it reads, the shared
// lookups, the class calendar's signals, the day and the child. A feature runs only when one of them
// changed: a copy it reads is due or was read anew, another feature's output it takes is another, the
// day turned. Otherwise it would compute the same states from the same copies, and they stand as
// published (most passes read one or two resources: recomputing every feature each time was most of
// a simulated day's CPU).
import { calendarSignals } from '../feature-kit/calendar.js';
import type { z } from 'zod';
import type { NextRead, Recording, ResourceCache, ResourceSpec } from '../feature-kit/resources.js';
import type { SourceContext } from '../feature-kit/source.js';
import { ageAt, type PlanClock } from '../feature-kit/plan.js';
import type { Feature } from '../features/feature.js';

/** The shared name lookups a poll may take from memory (lookups.names) without reading them itself. */
const LOOKUPS = ['Subjects', 'Users', 'Classrooms'];

interface LastPoll {
  /** What it asked of the plan: the scheduler's answer to when it is due again. */
  asked: Recording;
  /** When each resource it read (and each lookup) was last read: another poll reading one changes it. */
  stamps: { endpoint: string; query?: Record<string, string>; at: number | undefined }[];
  inputs: unknown[];
  today: string;
  identity: unknown;
  /** The calendar's signals as the poll saw them (JSON); undefined when it did not ask for them. */
  signals?: string;
}

/** A feature's poll in progress: what it asks the cache for is recorded. */
interface Watch {
  asked: Recording;
  calendarAsks: number;
}

export class FeatureInputs {
  private readonly last = new Map<string, LastPoll>();
  /** Features whose last poll failed: their rows are read again at their next pass. */
  private readonly retrying = new Set<string>();

  /**
   * Whether something the feature takes in changed since its last clean poll, so that it must run.
   * Only a normal-tier feature with rows in the fetch plan is ever left out (the messaging features
   * decide about copies they keep themselves); a refresh runs every feature, and so do downloads, which
   * the poll retries.
   */
  async changed(feature: Feature, ctx: SourceContext): Promise<boolean> {
    if (ctx.forced || ctx.downloads !== undefined || !watched(feature)) return true;
    const last = this.last.get(feature.name);
    if (last === undefined || last.asked.own.length > 0 || last.today !== ctx.today || last.identity !== ctx.identity) return true;
    const inputs = inputsOf(feature, ctx);
    if (inputs.some((value, i) => value !== last.inputs[i])) return true;
    if (last.stamps.some(({ endpoint, query, at }) => ctx.cache.stamp(endpoint, query) !== at)) return true;
    if (last.signals !== undefined && JSON.stringify(await calendarSignals(ctx)) !== last.signals) return true;
    return last.asked.specs.some((spec) => ctx.cache.wouldFetch(spec));
  }

  /**
   * By when the feature's copies must be read again (the soonest of what its last clean poll asked);
   * undefined when it has not polled cleanly since it last failed.
   */
  readBy(feature: Feature, cache: ResourceCache, clock: PlanClock): number | undefined {
    const last = this.last.get(feature.name);
    return last === undefined ? undefined : cache.readBy(last.asked, clock);
  }

  /**
   * Every read the features' last clean polls planned, soonest first, one per row (its soonest); the rows
   * of a feature whose last poll failed are read again at its next pass: a retry.
   */
  nextReads(cache: ResourceCache, clock: PlanClock, features: readonly Feature[]): NextRead[] {
    const soonest = new Map<string, NextRead>();
    for (const feature of features) {
      if (!this.retrying.has(feature.name)) continue;
      const rows = feature.plan ?? [];
      const at = clock.now + Math.min(...rows.map((row) => ageAt(row, clock)));
      for (const row of rows) soonest.set(row.resource, { row: row.resource, at, why: 'retry' });
    }
    for (const last of this.last.values()) {
      for (const read of cache.nextReads(last.asked, clock)) {
        // A row its age alone never reads again (a mailbox on its counter's word) is not planned.
        if (!Number.isFinite(read.at)) continue;
        const known = soonest.get(read.row);
        if (known === undefined || (known.why !== 'retry' && read.at < known.at)) soonest.set(read.row, read);
      }
    }
    return [...soonest.values()].sort((a, b) => a.at - b.at || a.row.localeCompare(b.row));
  }

  /** What the feature's last clean poll asked the cache for (the scheduler reads what of it is due); none after a failure. */
  asked(feature: Feature): readonly ResourceSpec<z.ZodType>[] {
    return this.last.get(feature.name)?.asked.specs ?? [];
  }

  /** The copies the feature keeps itself that its last clean poll asked the plan about (with how the scheduler reads them). */
  askedOwn(feature: Feature): Recording['own'] {
    return this.last.get(feature.name)?.asked.own ?? [];
  }

  /** Starts recording what the feature's poll reads. */
  begin(feature: Feature, ctx: SourceContext): Watch | undefined {
    // A feature without rows reads nothing the plan decides (it computes from other features' outputs).
    if (!hasRows(feature)) return undefined;
    const watch: Watch = { asked: { specs: [], own: [] }, calendarAsks: ctx.lookups.calendarAsks ?? 0 };
    ctx.cache.record(watch.asked);
    return watch;
  }

  /** The poll ended cleanly: remember what it read. */
  async done(feature: Feature, ctx: SourceContext, watch: Watch | undefined): Promise<void> {
    if (watch === undefined) return;
    this.retrying.delete(feature.name);
    ctx.cache.record(undefined);
    const { asked } = watch;
    const calendar = (ctx.lookups.calendarAsks ?? 0) > watch.calendarAsks;
    const signals = calendar && ctx.lookups.calendar ? JSON.stringify(await ctx.lookups.calendar.signals) : undefined;
    const read = [...asked.specs, ...LOOKUPS.map((endpoint) => ({ endpoint, query: undefined }))];
    this.last.set(feature.name, {
      asked,
      stamps: read.map(({ endpoint, query }) => ({ endpoint, ...(query === undefined ? {} : { query }), at: ctx.cache.stamp(endpoint, query) })),
      inputs: inputsOf(feature, ctx),
      today: ctx.today,
      identity: ctx.identity,
      ...(signals === undefined ? {} : { signals }),
    });
  }

  /** The poll failed or looked wrong: it runs at the next pass. */
  forget(feature: Feature, ctx: SourceContext): void {
    if (!hasRows(feature)) return;
    ctx.cache.record(undefined);
    this.last.delete(feature.name);
    this.retrying.add(feature.name);
  }
}

/**
 * Only a normal-tier feature with rows in the fetch plan is ever skipped (one that decides about copies
 * it keeps itself never is: the cache cannot vouch for them).
 */
function watched(feature: Feature): boolean {
  return feature.tier === 'normal' && hasRows(feature);
}

/** Whether the feature has rows in the fetch plan (only then is what it asks recorded). */
function hasRows(feature: Feature): boolean {
  return (feature.plan?.length ?? 0) > 0;
}

/** The outputs a feature reads, compared by identity: its declared input names are plain strings (a misspelling fails at start). */
function inputsOf(feature: Feature, ctx: SourceContext): unknown[] {
  const inputs: Readonly<Record<string, unknown>> = ctx.inputs;
  return (feature.inputs ?? []).map((name) => inputs[name]);
}
