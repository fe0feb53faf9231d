// The copies kept through a restart (Resource.kept: the standing plan, the sent box and the sent messages watched, the
// weeks of the timetable), in data_dir/copies/<login>.json: each as read, with when and its signal then. A start seeds
// the cache with those still within their age (longestAge), as read when they were, so that the first pass tells them
// and the planner reads each again when it would have been read without the restart: never sooner, so a start asks no
// more than it did. One older than its age is left out (not told as current): it is read as on a first start. Written
// after a pass that read or let go of one; a copy that no longer fits its schema is read again, not told.
import * as z from 'zod';
import { LoginRecords } from '../portal/login-records.js';
import { longestAge, type SchedulePolicy } from './plan.js';
import type { KeptCopy, ResourceCache } from './cache.js';
import type { Resource } from './resource.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';

const keptCopy = z.object({ name: z.string(), key: z.string().optional(), at: z.number(), signal: z.string().optional(), value: z.unknown() });

class KeptCopiesStore extends LoginRecords<KeptCopy> {
  constructor(dataDir: string, login: string) {
    super(dataDir, login, { folder: 'copies', field: 'copies', record: keptCopy });
  }
}

export interface KeptCopiesOptions {
  dataDir: string;
  login: string;
  cache: ResourceCache;
  /** The declarations the copies are read by, by name (the cache's). */
  resources: readonly Resource[];
  policy: SchedulePolicy;
  clock: Clock;
  log: Logger;
}

export class KeptCopies {
  private readonly store: KeptCopiesStore;
  /** The cache's count of kept changes at the last write (ResourceCache.keptChanges). */
  private savedAt: number | undefined;
  /** The last write (saved in the background). */
  written: Promise<void> = Promise.resolve();

  constructor(private readonly options: KeptCopiesOptions) {
    this.store = new KeptCopiesStore(options.dataDir, options.login);
  }

  /** What the last run kept, within its age, into the cache as read when it was (before the first pass). */
  async restore(): Promise<void> {
    const { cache, clock, log } = this.options;
    const kept = await this.store.load((error) => log.warn({ err: error.message }, 'kept copies unreadable; read again as on a first start'));
    const now = clock.now();
    let seeded = 0;
    for (const copy of Object.values(kept)) {
      const res = this.declared(copy);
      const value = res?.kept?.safeParse(copy.value);
      if (res === undefined || !value?.success || !this.current(res, copy.at, now)) continue;
      cache.seed(res, value.data, copy.at, copy.key, copy.signal);
      seeded++;
    }
    log.debug({ kept: Object.keys(kept).length, seeded }, 'copies kept by the last run restored');
    this.savedAt = cache.keptChanges;
  }

  private declared(copy: KeptCopy): Resource | undefined {
    return this.options.resources.find((r) => r.name === copy.name);
  }

  /** Read within its age: not older than the longest it may be at any moment, nor read "in the future" (a clock set back). */
  private current(res: Resource, at: number, now: number): boolean {
    return at <= now && now - at < longestAge(res, this.options.policy);
  }

  /**
   * After a pass that read or let go of a kept copy: writes those within their age (a sent message no longer opened
   * ages out of the file, though the cache holds it).
   */
  save(): void {
    const { cache, clock, log } = this.options;
    if (cache.keptChanges === this.savedAt) return;
    this.savedAt = cache.keptChanges;
    const now = clock.now();
    const current = cache.keptCopies().filter((c) => {
      const res = this.declared(c);
      return res !== undefined && this.current(res, c.at, now);
    });
    const records = Object.fromEntries(current.map((c) => [c.key === undefined ? c.name : `${c.name} (${c.key})`, c]));
    this.written = this.store.save(records).catch((error: Error) => log.warn({ err: error.message }, 'could not keep the copies for the next start'));
  }
}
