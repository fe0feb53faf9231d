// What a person asks for that the bridge does not hold (interface 18.2): a timetable week of the school year, a past
// school year's mailbox. Assist's question names the copies that answer it (a feature's ask part, `reach`); they are
// read then, in the child's queue, into the same cache as every other copy, and kept a day while the features that
// name them compute from them (ReadsContext.asked). A pass never reads them (plan.ts, `on demand`); a question asked
// again reads one only when the planner says its copy is as old as its age ahead of need allows (a day for a week).
// So that an assistant in a loop cannot hammer the school: at most PER_QUESTION reads a question, PER_HOUR an hour.
import { DAY, HOUR } from '../util/duration.js';
import type { Clock } from '../util/clock.js';
import type { ResourceCache } from './cache.js';
import type { Want } from './resource.js';

/** The reads one question may make, and one child's reads in any hour (interface 18.2). */
export const ON_DEMAND_LIMITS = { perQuestion: 3, perHour: 20, keptMs: DAY } as const;

/** What a question's reads did: how many were made, how many it left for a narrower question, and when the hour's budget lets it read again. */
export interface OnDemandOutcome {
  read: number;
  /** Copies the question named beyond PER_QUESTION, not read. */
  left: number;
  /** The hour's budget is spent: from then on the copies can be read. */
  until?: number;
  /** A read failed (the portal down, a dead session): the answer says what the bridge holds. */
  failed?: unknown;
}

/** The copies a child's questions asked for, the hour's reads, and the reads themselves (in the child's queue). */
export class OnDemandReads {
  private readonly kept = new Map<string, { want: Want; at: number }>();
  /** The kept wants as one list, the same object until one comes or goes (a feature's reads are decided from it). */
  private list: readonly Want[] = [];
  /** When each read of the last hour was made. */
  private reads: number[] = [];

  constructor(
    private readonly cache: ResourceCache,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  /** The copies a person asked for that are still kept (a day from the question), each marked `onDemand`. */
  wants(): readonly Want[] {
    const now = this.clock.now();
    let gone = false;
    for (const [key, { at }] of this.kept)
      if (at + ON_DEMAND_LIMITS.keptMs <= now) {
        this.kept.delete(key);
        gone = true;
      }
    if (gone) this.list = [...this.kept.values()].map((k) => k.want);
    return this.list;
  }

  /**
   * Reads what `wants` names that the cache does not hold fresh enough (a copy held is read again only once the planner
   * says it is as old as a copy wanted ahead of need may be), within the question's and the hour's budget. Run in
   * the child's queue, never during a pass.
   */
  async read(wants: readonly Want[]): Promise<OnDemandOutcome> {
    const now = this.clock.now();
    const asked = unique(wants).map((w) => ({ ...w, onDemand: true }));
    const due = asked.filter((w) => this.cache.due({ ...w, onDemand: false, ahead: true }));
    const taken = due.slice(0, ON_DEMAND_LIMITS.perQuestion);
    const left = due.length - taken.length;
    this.reads = this.reads.filter((t) => t > now - HOUR);
    const over = this.reads.length + taken.length - ON_DEMAND_LIMITS.perHour;
    if (taken.length > 0 && over > 0) return { read: 0, left: due.length, until: (this.reads[over - 1] as number) + HOUR };
    for (const w of asked) this.keep(w, now);
    let read = 0;
    for (const w of taken) {
      this.reads.push(now);
      read++;
      try {
        await this.cache.read(w);
      } catch (failed) {
        return { read, left, failed };
      }
    }
    return { read, left };
  }

  private keep(w: Want, at: number): void {
    const key = keyOf(w);
    const known = this.kept.get(key);
    this.kept.set(key, { want: known?.want ?? w, at });
    if (known === undefined) this.list = [...this.kept.values()].map((k) => k.want);
  }
}

function keyOf(w: Want): string {
  return `${w.res.name}\u0000${w.key ?? ''}`;
}

function unique(wants: readonly Want[]): Want[] {
  return [...new Map(wants.map((w) => [keyOf(w), w])).values()];
}
