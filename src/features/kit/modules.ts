// Only what the account has (interface 12.2): an entity whose module (EntityDef.module, the lists it is
// made from) the portal has refused the child for a day leaves the child's device, its config reduced
// to its platform as Home Assistant removes a component; it comes back when one of its lists answers.
// A refusal is 403, 404 or `Disabled` (the cache's refusal, resource.ts); a failed read (5xx, the
// network) neither starts nor ends one. What is known outlives a restart (portal/login-records.ts).
// A kindergarten child (its plan found, or the school's timetable and every kind of grade refused) is refused
// the school's lists for good: for it, one refusal is enough, so that its device never lists grades or
// homework that can have no value, from its first day.
import type { EntityDef } from './entities.js';
import type { ResourceCache } from '../../engine/cache.js';
import type { Refusals, RefusedModulesStore } from '../../portal/login-records.js';
import type { Logger } from '../../util/log.js';
import { DAILY } from '../../util/duration.js';

/**
 * How long the portal's answers must have been refusals: a daily look's age (a day less the 10 minutes by
 * which it comes early; a switched-off module is refused as long, resource.ts), so that the refusal at the
 * second daily look counts.
 */
export const ABSENT_AFTER_MS = DAILY;

/** What the memory reads of the cache, over every key of a keyed list. */
export type RefusalsHeld = Pick<ResourceCache, 'refusal' | 'answered'>;

export class AbsentModules {
  private refused: Refusals = {};
  /** Resolves when what the last update changed is written. */
  written: Promise<void> = Promise.resolve();

  /** `kindergarten`: whether the child is known to be a kindergarten child now (a refusal then counts at once). */
  constructor(
    private readonly store: RefusedModulesStore,
    private readonly log: Logger,
    private readonly kindergarten: () => boolean = () => false,
  ) {}

  /** What the last run knew, before the child is first announced. */
  async load(): Promise<void> {
    this.refused = await this.store.load((error) => this.log.warn({ err: error.message }, 'refused modules unreadable; every entity is announced'));
  }

  /** Whether the portal has refused every list the entity is made from for a day (a kindergarten child: at all). */
  absent(entity: EntityDef): boolean {
    return entity.module !== undefined && entity.module.length > 0 && entity.module.every((res) => this.gone(res.name));
  }

  /** After a pass: each module's refusals, or its answer, as the cache now holds them. */
  update(cache: RefusalsHeld, entities: readonly EntityDef[]): void {
    const [before, was] = [this.names(), JSON.stringify(this.refused)];
    for (const res of new Set(entities.flatMap((e) => e.module ?? []))) {
      const kept = this.refused[res.name];
      const refusal = cache.refusal(res);
      // The first refusal is the last run's when this run has had no answer since.
      if (refusal !== undefined)
        this.refused[res.name] = { since: Math.min(kept?.since ?? Infinity, refusal.since), at: Math.max(kept?.at ?? -Infinity, refusal.at) };
      else if (cache.answered(res)) delete this.refused[res.name];
    }
    if (JSON.stringify(this.refused) !== was)
      this.written = this.store
        .save(this.refused)
        .catch((error: Error) => this.log.warn({ err: error.message }, 'could not keep the refused modules'));
    const after = this.names();
    if (after !== before) this.log.info({ absent: after === '' ? [] : after.split('\n') }, 'modules the portal refuses for a day');
  }

  /** Whether the portal's answers to the list have been refusals since its first (kept through a restart). */
  refuses(res: { name: string }): boolean {
    return this.refused[res.name] !== undefined;
  }

  private gone(name: string): boolean {
    const r = this.refused[name];
    return r !== undefined && (r.at - r.since >= ABSENT_AFTER_MS || this.kindergarten());
  }

  /** The names of the lists absent now, sorted, one a line. */
  names(): string {
    return Object.keys(this.refused)
      .filter((name) => this.gone(name))
      .sort()
      .join('\n');
  }
}
