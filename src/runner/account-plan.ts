// The child's facts, gathered for the planner (engine/plan.ts): what is known of each copy it
// reads (the cache's), the change feed's watch, today's lessons (the timetable's last output) and the
// policy. The planner decides; this only hands it the data and maps its rows back to the wants.
import { plan, type Day, type Plan, type SchedulePolicy, type Watch } from '../engine/plan.js';
import { covers } from '../engine/change-feed/child.js';
import type { Want } from '../engine/resource.js';
import type { ResourceCache } from '../engine/cache.js';
import type { When, Why } from '../engine/schedule.js';
import type { SchoolDayTimes } from '../engine/moments.js';

export interface AccountPlanSources {
  cache: ResourceCache;
  policy: SchedulePolicy;
  /** Today's lessons as the timetable last gave them. */
  lessons: (now: number) => SchoolDayTimes | undefined;
  /** The change feed's watch, while it watches. */
  watch: () => Watch | undefined;
}

/** A want the planner says is due, and why (`when`: its row as the planner gave it, the age that made it due). */
export type Due = Want & { readonly why: Why; readonly when: When };

export class AccountPlan {
  constructor(private readonly sources: AccountPlanSources) {}

  /**
   * The planner's answer for `wants` at `now`, with the wants due now that the pass under way has not
   * read yet (`due`); `day` adds the hosts backing off and the pass under way.
   */
  of(wants: readonly Want[], now: number, day: Pick<Day, 'retryAt' | 'pass'> = {}): Plan & { due: Due[] } {
    const { cache, policy, lessons, watch } = this.sources;
    // A copy two features want is one want already (FeatureRuns.wants): the planner plans a row once.
    const byRow = new Map(wants.map((w) => [rowOf(w), w]));
    const known = new Map([...byRow].map(([row, w]) => [row, cache.known(w)]));
    // A copy that says itself until when it answers its question (the lucky number) is the change feed's to watch
    // only once it does: until the day's number is known it is asked at its own age, as without the change feed;
    // then the change feed names the next draw in place of the hourly look for it (plan.ts, dueBy).
    const fed = (row: string, w: Want) => covers(w.res) && (w.res.settled === undefined || known.get(row)?.settledUntil !== undefined);
    const wanted = [...byRow].map(([row, w]) => ({ row, host: w.res.host, schedule: cache.declaration(w.res), fed: fed(row, w) }));
    const answer = plan(wanted, known, watch(), { lessons: lessons(now), policy, ...day }, now);
    const due = answer.rows.filter((r) => r.at <= now).map((r) => ({ ...byRow.get(r.row)!, why: r.why, when: r }));
    // Onto the plan itself: its wake is worked out only when asked.
    return Object.assign(answer, { due: due.filter((w) => !cache.readThisPass(w)) });
  }

  /** When one copy is read, judged at `now` outside a pass (a command's lookup). */
  when(w: Want, now: number): When {
    return this.of([w], now).rows[0]!;
  }
}

/** The diagnostics' row of a copy: its resource's name, and its key in brackets. */
function rowOf(w: Want): string {
  return w.key === undefined ? w.res.name : `${w.res.name} (${w.key})`;
}
