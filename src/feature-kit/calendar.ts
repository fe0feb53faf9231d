// The class calendar (spec 2.8) as a cheap signal: one small answer lists the ids of the year's
// homework entries, plan changes, meetings and free days. When a kind's ids are what they were, its
// list cannot have gained or lost an entry, so the full list is read only at a slower fallback cadence
// (an edit keeps the ids). Read once per normal poll and shared by the features that use it.
import { calendarMonthResponse, calendarsResponse } from '../portal/schemas/calendar.js';
import { CADENCE } from './resources.js';
import type { SourceContext } from './source.js';

const KINDS = ['HomeWorks', 'Substitutions', 'ParentTeacherConferences', 'SchoolFreeDays', 'ClassFreeDays'] as const;
export type CalendarKind = (typeof KINDS)[number];

/** A fingerprint per kind; a kind the portal did not list has none. */
export type CalendarSignals = Partial<Record<CalendarKind, string>>;

/** This poll's signals, or none when the calendar could not be read (lists then keep their usual cadence). */
function calendarSignals(ctx: SourceContext): Promise<CalendarSignals> {
  if (ctx.cache.naive) return Promise.resolve({});
  if (ctx.lookups.calendar?.at !== ctx.now) ctx.lookups.calendar = { at: ctx.now, signals: readSignals(ctx) };
  return ctx.lookups.calendar.signals;
}

/**
 * The age a list may reach: `unchanged` when the calendar vouches for it, else `usual`; with the
 * signal passed on to the cache, a changed fingerprint fetches the list at once. A refresh a user
 * asked for reads what a poll without the calendar would (an edit keeps the ids).
 */
export async function signalled(
  ctx: SourceContext,
  kind: CalendarKind,
  ages: { usual: number; unchanged: number },
): Promise<{ maxAgeMs: number; signal?: string }> {
  const signal = (await calendarSignals(ctx))[kind];
  if (signal === undefined) return { maxAgeMs: ages.usual };
  return { maxAgeMs: ctx.forced ? ages.usual : ages.unchanged, signal };
}

async function readSignals(ctx: SourceContext): Promise<CalendarSignals> {
  try {
    const calendars = await ctx.cache.get({ endpoint: 'Calendars', schema: calendarsResponse, maxAgeMs: CADENCE.daily, staleOnError: true });
    const id = calendars?.Calendars[0]?.Id;
    if (id === undefined) return {};
    const answer = await ctx.cache.get({ endpoint: `Calendars/${encodeURIComponent(id)}`, schema: calendarMonthResponse, maxAgeMs: CADENCE.everyPoll });
    if (answer === undefined) return {};
    const signals: CalendarSignals = {};
    for (const kind of KINDS) {
      const ids = answer.Calendar[kind];
      if (ids !== undefined) signals[kind] = [...ids].sort().join(',');
    }
    return signals;
  } catch (error) {
    // The lists themselves will say what is wrong; without a signal they are simply read as usual.
    ctx.log.debug({ err: (error as Error).message }, 'class calendar unreadable; reading the lists as usual');
    return {};
  }
}
