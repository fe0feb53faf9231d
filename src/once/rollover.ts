// A new school year on the portal is one event (`school_year`, features/school-year/school-year.ts), not a flood: what
// the rollover takes away or brings in bulk is remembered quietly and counted into that event. The rule:
// - The school year now running begins on 1 September, or on the identity's `BeginSchoolYear` when that
//   is later and already here (the portal may move a child up a class days late: live-notes 39).
// - Leaving: a record dated before that first day is the ended year's. Its removal is never news (last
//   year's grades, marks and homework leave the lists at a rollover); nor, in the year's first days, is
//   it news when such a record appears or changes (the lists shuffled by the move).
// - Arriving: a new free day dated in the new year that comes in the year's first days (ROLLOVER_DAYS
//   from the day the bridge first read the new year, or from the day the portal showed its new class)
//   is the new year's calendar arriving: counted, not told one by one.
// - Anything else a teacher enters stays news, on the first day too (a grade dated in the new year).
// The summary counts how many of each kind the ended year's lists held at their last read (what left)
// and the new year's items that arrived quietly before the event fired.
import * as z from 'zod';
import { addDays } from '../util/time.js';

/** How long after the new year was first read its calendar arriving is the rollover's, not news. */
export const ROLLOVER_DAYS = 7;

/**
 * Which event kinds a rollover empties (`left`) and which the new year brings in bulk (`arrived`), each by the
 * summary's name for it, and the kind of the event that tells the new year (`summary`), as the features declare them.
 */
export interface RolloverKinds {
  left: Readonly<Record<string, string>>;
  arrived: Readonly<Record<string, string>>;
  summary: string;
}

export const yearMemorySchema = z.object({
  /** The first day of the school year the lists were last read in. */
  year: z.string(),
  /** The day the new year's first days began for the bridge (none before a first rollover). */
  opened: z.string().optional(),
  /** The identity's BeginSchoolYear as last seen. */
  shown: z.string().optional(),
  /** Per kind, how many of the running year's items its list held at its last read. */
  held: z.record(z.string(), z.number()),
  /** The same for the year that ended (held, as the new year began). */
  ended: z.record(z.string(), z.number()),
  /** Per kind, the new year's items that arrived quietly and were not told yet. */
  arrived: z.record(z.string(), z.number()),
});
export type YearMemory = z.output<typeof yearMemorySchema>;

/** What the school_year event says the rollover did: counts by the summary's names. */
export type RolloverSummary = ReturnType<Rollover['told']>;

/** The first day of the school year running on `today` (see the rule above); `begin` is the identity's BeginSchoolYear. */
export function yearStart(today: string, begin: string | undefined): string {
  const year = Number(today.slice(0, 4));
  const september = `${today.slice(5) >= '09-01' ? year : year - 1}-09-01`;
  const shown = begin?.slice(0, 10);
  return shown !== undefined && shown > september && shown <= today ? shown : september;
}

/**
 * The day an event's record is of: a grade's, mark's, note's or test's date, an assignment's (given, or
 * due: a removed one carries only its compared fields), a free day's first.
 */
function dayOf(payload: Record<string, unknown>): string | undefined {
  const day = payload.date ?? payload.assigned ?? payload.due ?? payload.from;
  return typeof day === 'string' ? day.slice(0, 10) : undefined;
}

/** The year as one pass sees it, and the memory it moves (kept in the seen file). */
export class Rollover {
  readonly memory: YearMemory;
  private readonly start: string;

  constructor(
    memory: YearMemory | undefined,
    private readonly today: string,
    begin: string | undefined,
    private readonly kinds: RolloverKinds,
  ) {
    this.start = yearStart(today, begin);
    const shown = begin?.slice(0, 10);
    // A first memory has no first days: a new install is not a new year.
    const m: YearMemory = memory ? structuredClone(memory) : { year: this.start, held: {}, ended: {}, arrived: {}, shown };
    if (m.year < this.start) {
      m.ended = m.held;
      m.held = {};
      m.arrived = {};
      m.year = this.start;
      m.opened = today;
    }
    // The portal showing the new year's class (maybe days after 1 September) starts its first days again.
    if (shown !== undefined && shown !== m.shown) {
      if (m.shown !== undefined && shown > m.shown) m.opened = today;
      m.shown = shown;
    }
    this.memory = m;
  }

  /** Whether the new year's first days are on: what it brings in bulk now is the rollover's. */
  private get firstDays(): boolean {
    return this.memory.opened !== undefined && this.today < addDays(this.memory.opened, ROLLOVER_DAYS);
  }

  /** Of a kind's read, its items as held by the running year (for the summary of the next rollover). */
  held(kind: string, payloads: readonly Record<string, unknown>[]): void {
    if (this.kinds.left[kind] === undefined) return;
    this.memory.held[kind] = payloads.filter((p) => (dayOf(p) ?? this.start) >= this.start).length;
  }

  /** Whether a new item of `kind` is the rollover's, not news (counted when it is the new year's arriving). */
  quietNew(kind: string, payload: Record<string, unknown>): boolean {
    const day = dayOf(payload);
    if (day === undefined || !this.firstDays) return false;
    if (day < this.start) return true;
    if (this.kinds.arrived[kind] === undefined) return false;
    this.memory.arrived[kind] = (this.memory.arrived[kind] ?? 0) + 1;
    return true;
  }

  /** Whether an edit or removal is the rollover's: a record of the ended year leaving (ever), or changing in the first days. */
  quietChange(change: 'changed' | 'removed', payload: Record<string, unknown>): boolean {
    const day = dayOf(payload);
    if (day === undefined || day >= this.start) return false;
    return change === 'removed' || this.firstDays;
  }

  /** The summary for the school_year event fired now; what arrived is told, and counts again from nothing. */
  told() {
    const named = (counts: Record<string, number>, names: Readonly<Record<string, string>>): Record<string, number> =>
      Object.fromEntries(Object.entries(names).map(([kind, name]) => [name, counts[kind] ?? 0]));
    const summary = { left: named(this.memory.ended, this.kinds.left), arrived: named(this.memory.arrived, this.kinds.arrived) };
    this.memory.arrived = {};
    return summary;
  }
}
