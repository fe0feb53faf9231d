// The reads of resources a feature keeps itself (the messaging host's mailbox lists and sent box, which
// the resource cache does not hold): when each copy was read and whether its last read failed, so that
// the fetch plan decides for them as it does for the cache's (a failed read is read again at the next look).
import type { PlanRow } from './plan.js';
import type { ResourceCache } from './resources.js';

export class OwnReads<K> {
  private readonly readAt = new Map<K, number>();
  private readonly failed = new Set<K>();

  /** Whether the copy of `key` is to be read now, by `row` at the cycle's moment (`now`: needed now, whatever its age). */
  due(cache: ResourceCache, row: PlanRow, key: K, now = false): boolean {
    return cache.decideRow(row, { fetchedAt: this.readAt.get(key), failed: this.failed.has(key), now }).fetch;
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

  /** The keys read so far. */
  keys(): K[] {
    return [...this.readAt.keys()];
  }
}
