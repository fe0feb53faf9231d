// When a feature's poll can be skipped: none of the resources it read last time would be read now
// (the fetch plan's answer for each), nothing it depends on changed since (its inputs' outputs, the
// shared lookups, the class calendar's signals, the day, the child), and its last poll ended cleanly.
// Its poll would then compute the same states from the same copies, so the runner keeps them instead:
// most normal cycles read one or two resources, and recomputing every feature each time was most of
// a simulated day's CPU.
import type { z } from 'zod';
import { calendarSignals } from '../feature-kit/calendar.js';
import type { ResourceSpec } from '../feature-kit/resources.js';
import type { SourceContext } from '../feature-kit/source.js';
import type { Feature } from '../features/feature.js';

/** The shared name lookups a poll may take from memory (lookups.names) without reading them itself. */
const LOOKUPS = ['Subjects', 'Users', 'Classrooms'];

interface LastPoll {
  specs: ResourceSpec<z.ZodType>[];
  /** When each resource it read (and each lookup) was last read: another poll reading one changes it. */
  stamps: { endpoint: string; query?: Record<string, string>; at: number | undefined }[];
  inputs: unknown[];
  today: string;
  identity: unknown;
  /** The calendar's signals as the poll saw them (JSON); undefined when it did not ask for them. */
  signals?: string;
  /** It decided about a resource the cache does not keep (the sent box): never skipped. */
  outside: boolean;
}

/** A feature's poll in progress: what it asks the cache for is recorded. */
export interface Recording {
  specs: ResourceSpec<z.ZodType>[];
  calendarAsks: number;
}

export class PollSkips {
  private readonly last = new Map<string, LastPoll>();

  /**
   * Whether the feature's poll may be skipped. Only a normal-tier feature with rows in the fetch plan
   * reads nothing but through the cache (the fast tier's unread counters go to the messaging API);
   * downloads are retried by the poll, so with them on nothing is skipped.
   */
  async unchanged(feature: Feature, ctx: SourceContext): Promise<boolean> {
    if (ctx.forced || ctx.downloads !== undefined || !watched(feature)) return false;
    const last = this.last.get(feature.name);
    if (last === undefined || last.outside || last.today !== ctx.today || last.identity !== ctx.identity) return false;
    const inputs = inputsOf(feature, ctx);
    if (inputs.some((value, i) => value !== last.inputs[i])) return false;
    if (last.stamps.some(({ endpoint, query, at }) => ctx.cache.stamp(endpoint, query) !== at)) return false;
    if (last.signals !== undefined && JSON.stringify(await calendarSignals(ctx)) !== last.signals) return false;
    return !last.specs.some((spec) => ctx.cache.wouldFetch(spec));
  }

  /** Starts recording what the feature's poll reads. */
  begin(feature: Feature, ctx: SourceContext): Recording | undefined {
    if (!watched(feature)) return undefined;
    const recording: Recording = { specs: [], calendarAsks: ctx.lookups.calendarAsks ?? 0 };
    ctx.cache.record(recording.specs);
    return recording;
  }

  /** The poll ended cleanly: remember what it read. */
  async done(feature: Feature, ctx: SourceContext, recording: Recording | undefined): Promise<void> {
    if (recording === undefined) return;
    const outside = ctx.cache.recordedOutside;
    ctx.cache.record(undefined);
    const asked = (ctx.lookups.calendarAsks ?? 0) > recording.calendarAsks;
    const signals = asked && ctx.lookups.calendar ? JSON.stringify(await ctx.lookups.calendar.signals) : undefined;
    const read = [...recording.specs, ...LOOKUPS.map((endpoint) => ({ endpoint, query: undefined }))];
    this.last.set(feature.name, {
      specs: recording.specs,
      stamps: read.map(({ endpoint, query }) => ({ endpoint, ...(query === undefined ? {} : { query }), at: ctx.cache.stamp(endpoint, query) })),
      inputs: inputsOf(feature, ctx),
      today: ctx.today,
      identity: ctx.identity,
      outside,
      ...(signals === undefined ? {} : { signals }),
    });
  }

  /** The poll failed or looked wrong: it runs again next time. */
  forget(feature: Feature, ctx: SourceContext): void {
    if (!watched(feature)) return;
    ctx.cache.record(undefined);
    this.last.delete(feature.name);
  }
}

/** Only a normal-tier feature with rows in the fetch plan is ever skipped, so only its polls are recorded. */
function watched(feature: Feature): boolean {
  return feature.tier === 'normal' && (feature.plan?.length ?? 0) > 0;
}

/** The outputs a feature reads, compared by identity: its declared input names are plain strings (a misspelling fails at start). */
function inputsOf(feature: Feature, ctx: SourceContext): unknown[] {
  const inputs: Readonly<Record<string, unknown>> = ctx.inputs;
  return (feature.inputs ?? []).map((name) => inputs[name]);
}
