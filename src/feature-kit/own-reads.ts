// The reads of resources a feature keeps itself (the messaging host's unread counters, mailbox lists
// and sent box, which the resource cache does not hold): when each copy was read and whether its last
// read failed, so that the fetch plan decides for them as it does for the cache's (a failed read is
// read again at the next look).
import type { Known, PlanRow } from './plan.js';
import type { OwnKnown, ResourceCache } from './resources.js';

export class OwnReads<K> {
  private readonly readAt = new Map<K, number>();
  private readonly failed = new Set<K>();

  /**
   * Whether the copy of `key` is to be read now, by `row` at the cycle's moment: `now` when it is needed
   * now whatever its age, `signal` what the row's vouching signal says of it, `empty` that its list was empty.
   */
  due(cache: ResourceCache, row: PlanRow, key: K, known: Pick<Known, 'now' | 'signal' | 'empty'> = {}): boolean {
    const copy = (signal = known.signal): OwnKnown => ({ signal, empty: known.empty, fetchedAt: this.readAt.get(key), failed: this.failed.has(key) });
    // The scheduler asks again later, of the copy as it will be then (read, or failed), without this
    // pass's need: a changed signal is the one this pass read it for.
    return cache.decideRow(row, { ...copy(), now: known.now }, () => copy(known.signal === 'changed' ? 'same' : known.signal)).fetch;
  }

  /** Reads the copy of `key` at `at` through `read`, remembering when, or that the read failed. */
  async read<T>(key: K, at: number, read: () => Promise<T>): Promise<T> {
    try {
      const value = await read();
      this.readAt.set(key, at);
      this.failed.delete(key);
      return value;
    } catch (error) {
      this.failed.add(key);
      throw error;
    }
  }

  /** When the copy of `key` was read (undefined: never, or forgotten). */
  at(key: K): number | undefined {
    return this.readAt.get(key);
  }

  /** Forgets `key` (a message no longer watched, a mailbox gone). */
  forget(key: K): void {
    this.readAt.delete(key);
    this.failed.delete(key);
  }

  /** Forgets every copy (the module is gone). */
  clear(): void {
    this.readAt.clear();
    this.failed.clear();
  }

  /** The keys read so far. */
  keys(): K[] {
    return [...this.readAt.keys()];
  }
}
