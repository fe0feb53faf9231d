// What a person asks for that the bridge does not hold (interface 18.2): a timetable week of the school year, a past
// school year's mailbox. Assist's question names the copies that answer it (a feature's ask part, `reach`); they are
// read then, in the child's queue, into the same cache as every other copy, and kept while the features that name
// them compute from them (ReadsContext.asked), for as long as the planner keeps them: until it says a copy is as old
// as its age ahead of need allows (a day for a week, an archive). A pass never reads them (plan.ts, `on demand`); a
// question asked again reads one only then. So that an assistant in a loop cannot hammer the school: at most
// PER_QUESTION reads a question, PER_HOUR an hour, the hour's reads kept in data_dir (on-demand/<login>.json) so that
// a restart does not start the budget afresh (interface 19.2).
import * as z from 'zod';
import { HOUR } from '../util/duration.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { LoginFile } from '../util/stored.js';
import { errorText } from '../util/text.js';
import type { ResourceCache } from './cache.js';
import type { Want } from './resource.js';

/** The reads one question may make, and one child's reads in any hour (interface 18.2). */
export const ON_DEMAND_LIMITS = { perQuestion: 3, perHour: 20 } as const;

/** The hour's reads of a child: when each was made (ms since the epoch). */
const budgetSchema = z.object({ reads: z.array(z.number().finite()).max(1_000) });

/** Where a child's hour of reads is kept. */
export interface OnDemandStore {
  dataDir: string;
  login: string;
  log: Logger;
}

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
  private readonly kept = new Map<string, Want>();
  /** The kept wants as one list, the same object until one comes or goes (a feature's reads are decided from it). */
  private list: readonly Want[] = [];
  /** When each read of the last hour was made; undefined until read back from data_dir at the first question. */
  private reads: number[] | undefined;
  private readonly file: LoginFile<typeof budgetSchema>;

  constructor(
    private readonly cache: ResourceCache,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly store: OnDemandStore,
  ) {
    this.file = new LoginFile(store.dataDir, 'on-demand', store.login, budgetSchema);
  }

  /** The copies a person asked for that the planner still keeps (none of them due for a read), each marked `onDemand`. */
  wants(): readonly Want[] {
    let gone = false;
    for (const [key, want] of this.kept)
      if (this.cache.due({ ...want, onDemand: false, ahead: true })) {
        this.kept.delete(key);
        gone = true;
      }
    if (gone) this.list = [...this.kept.values()];
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
    const reads = (await this.hour()).filter((t) => t > now - HOUR);
    this.reads = reads;
    const over = reads.length + taken.length - ON_DEMAND_LIMITS.perHour;
    if (taken.length > 0 && over > 0) return { read: 0, left: due.length, until: (reads[over - 1] as number) + HOUR };
    for (const w of asked) this.keep(w);
    let read = 0;
    for (const w of taken) {
      reads.push(now);
      // Written before the read: a bridge killed during it still counts it after the restart.
      await this.save(reads);
      read++;
      try {
        await this.cache.read(w);
      } catch (failed) {
        return { read, left, failed };
      }
    }
    return { read, left };
  }

  private keep(w: Want): void {
    const key = keyOf(w);
    if (this.kept.has(key)) return;
    this.kept.set(key, w);
    this.list = [...this.kept.values()];
  }

  /** The reads of the last hour as kept: read back from data_dir at the first question after a start. */
  private async hour(): Promise<number[]> {
    if (this.reads !== undefined) return this.reads;
    const onBroken = (error: Error): void =>
      this.store.log.warn({ err: error.message }, "the on-demand reads' file unreadable; the hour's budget starts afresh");
    const kept = await this.file.load(onBroken).catch(() => undefined);
    // A time ahead of the clock (set back since) counts as now, so that it cannot hold the budget for longer than the hour.
    const now = this.clock.now();
    return (kept?.reads ?? []).map((t) => Math.min(t, now)).sort((a, b) => a - b);
  }

  private async save(reads: readonly number[]): Promise<void> {
    await this.file
      .save({ reads: [...reads] })
      .catch((error: unknown) => this.store.log.warn({ err: errorText(error) }, 'cannot keep the on-demand reads in data_dir'));
  }
}

function keyOf(w: Want): string {
  return `${w.res.name}\u0000${w.key ?? ''}`;
}

function unique(wants: readonly Want[]): Want[] {
  return [...new Map(wants.map((w) => [keyOf(w), w])).values()];
}
