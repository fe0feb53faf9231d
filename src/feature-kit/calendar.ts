// The class calendar (spec 2.8) as a cheap signal: one small answer lists the ids of the year's
// homework entries, plan changes, meetings and free days. When a kind's ids are what they were, its
// list cannot have gained or lost an entry, so the full list is read only at a slower fallback cadence
// (an edit keeps the ids). Read at the news cadence (it vouches for the agenda and the plan changes)
// and shared by the features that use it; the ages are the rows' (see plan.ts, `vouch`).
import { calendarMonthResponse, calendarsResponse } from '../portal/schemas/calendar.js';
import { DAILY, NEWS, steady, type PlanRow } from './plan.js';
import type { SourceContext } from './source.js';

/** The calendar's rows of the fetch plan: its month ids are what vouches for the lists, so they are news. */
export const CALENDAR_PLAN = {
  ids: { resource: 'Calendars/<id>', fresh: NEWS, refresh: 'read', note: 'the class calendar: ids only' },
  calendars: steady('Calendars', DAILY, { note: 'the class calendar\'s id' }),
} satisfies Record<string, PlanRow>;

const KINDS = ['HomeWorks', 'Substitutions', 'ParentTeacherConferences', 'SchoolFreeDays', 'ClassFreeDays'] as const;
export type CalendarKind = (typeof KINDS)[number];

/** A fingerprint per kind; a kind the portal did not list has none. */
export type CalendarSignals = Partial<Record<CalendarKind, string>>;

/** This poll's signals, or none when the calendar could not be read (lists then keep their usual cadence). */
export function calendarSignals(ctx: Pick<SourceContext, 'cache' | 'lookups' | 'now' | 'log'>): Promise<CalendarSignals> {
  // Counted, so that the runner knows which polls depend on the calendar (feature-inputs.ts).
  ctx.lookups.calendarAsks = (ctx.lookups.calendarAsks ?? 0) + 1;
  if (ctx.cache.naive) return Promise.resolve({});
  if (ctx.lookups.calendar?.at !== ctx.now) ctx.lookups.calendar = { at: ctx.now, signals: readSignals(ctx) };
  return ctx.lookups.calendar.signals;
}

/**
 * The kind's fingerprint for the cache, which compares it with the one its copy was read under (the
 * row's `vouch` says how old the copy may be while they match). None when the calendar was not read.
 */
export async function signalled(ctx: SourceContext, kind: CalendarKind): Promise<{ signal?: string }> {
  const signal = (await calendarSignals(ctx))[kind];
  return signal === undefined ? {} : { signal };
}

async function readSignals(ctx: Pick<SourceContext, 'cache' | 'lookups' | 'now' | 'log'>): Promise<CalendarSignals> {
  try {
    const calendars = await ctx.cache.get({ endpoint: 'Calendars', schema: calendarsResponse, row: CALENDAR_PLAN.calendars, staleOnError: true });
    const id = calendars?.Calendars[0]?.Id;
    if (id === undefined) return {};
    const answer = await ctx.cache.get({ endpoint: `Calendars/${encodeURIComponent(id)}`, schema: calendarMonthResponse, row: CALENDAR_PLAN.ids });
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
