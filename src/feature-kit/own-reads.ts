// The reads of resources a feature keeps itself (the messaging host's unread counters, mailbox lists
// and sent box, which the resource cache does not hold): when each copy was read and whether its last
// read failed, so that the fetch plan decides for them as it does for the cache's (a failed read is
// read again at the next look).
import type { Known, PlanRow } from './plan.js';
import type { OwnKnown, ResourceCache } from './resources.js';

export class OwnReads<K> {
  private readonly readAt = new Map<K, number>();
  private readonly failed = new Set<K>();
  /** Copies the portal refused (a mailbox that answered 404): not asked again before then. */
  private readonly refusedUntil = new Map<K, number>();
  /** The cache `due` was last asked through, and each copy's row and why the plan read it (for `read`: its pass, its count). */
  private table: { cache: ResourceCache; rows: Map<K, { resource: string; why: string }> } | undefined;

  /**
   * Whether the copy of `key` is to be read now, by `row` at the cycle's moment: `now` when it is needed
   * now whatever its age, `signal` what the row's vouching signal says of it, `empty` that its list was empty.
   * `read`: how the scheduler reads it at a later pass when its row says so (before the feature computes).
   */
  due(cache: ResourceCache, row: PlanRow, key: K, known: Pick<Known, 'now' | 'signal' | 'empty'> = {}, read?: (now: number) => Promise<unknown>): boolean {
    const copy = (signal = known.signal): OwnKnown => ({
      signal,
      empty: known.empty,
      fetchedAt: this.readAt.get(key),
      failed: this.failed.has(key),
      refusedUntil: this.refusedUntil.get(key),
    });
    // The scheduler asks again later, of the copy as it will be then (read, or failed), without this
    // pass's need: a changed signal is the one this pass read it for.
    const decision = cache.decideRow(row, { ...copy(), now: known.now }, () => copy(known.signal === 'changed' ? 'same' : known.signal), read);
    if (this.table?.cache !== cache) this.table = { cache, rows: new Map() };
    this.table.rows.set(key, { resource: row.resource, why: decision.fetch ? decision.why : 'age' });
    return decision.fetch;
  }

  /**
   * Reads the copy of `key` at `at` (the pass's moment) through `read`, remembering when, or that the read
   * failed. Read already in this pass (by the scheduler): its answer or its error, without a request.
   */
  read<T>(key: K, at: number, read: () => Promise<T>): Promise<T> {
    const table = this.table;
    const row = table?.rows.get(key);
    if (table === undefined || row === undefined) return this.readNow(key, at, read);
    return table.cache.oncePerPass(`${row.resource} ${String(key)}`, () => {
      table.cache.countOwn(row.resource, row.why);
      return this.readNow(key, at, read);
    });
  }

  private async readNow<T>(key: K, at: number, read: () => Promise<T>): Promise<T> {
    try {
      const value = await read();
      this.readAt.set(key, at);
      this.failed.delete(key);
      this.refusedUntil.delete(key);
      return value;
    } catch (error) {
      this.failed.add(key);
      throw error;
    }
  }

  /**
   * The portal refused `key` (a mailbox this account has not: 404): the row's refusal, not a failure;
   * it is not asked again before `until`, and the scheduler wakes for it then. The copy is forgotten.
   */
  refuse(key: K, until: number): void {
    this.readAt.delete(key);
    this.failed.delete(key);
    this.refusedUntil.set(key, until);
  }

  /** Whether a refusal of `key` stands at `now`. */
  refused(key: K, now: number): boolean {
    return now < (this.refusedUntil.get(key) ?? -Infinity);
  }

  /** A copy the last run read at `at` (kept in data_dir): its age counts from then. */
  restore(key: K, at: number): void {
    this.readAt.set(key, at);
  }

  /** When the copy of `key` was read (undefined: never, or forgotten). */
  at(key: K): number | undefined {
    return this.readAt.get(key);
  }

  /** Forgets `key` (a message no longer watched, a mailbox gone). */
  forget(key: K): void {
    this.readAt.delete(key);
    this.failed.delete(key);
    this.refusedUntil.delete(key);
  }

  /** Forgets every copy (the module is gone). */
  clear(): void {
    this.readAt.clear();
    this.failed.clear();
    this.refusedUntil.clear();
  }

  /** The keys read so far. */
  keys(): K[] {
    return [...this.readAt.keys()];
  }
}
