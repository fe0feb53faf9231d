// Only what the account has (interface 12.2, 16.2): an entity whose module (EntityDef.module, the lists it is
// made from) the portal has refused the child for a day leaves the child's device, its config reduced
// to its platform as Home Assistant removes a component; it comes back when one of its lists answers.
// A refusal is 403, 404 or `Disabled` (the cache's refusal, resource.ts); a failed read (5xx, the
// network) neither starts nor ends one. What is known outlives a restart (portal/login-records.ts).
// A pupil's device declares every entity its lists do not refuse, from the first discovery on: they will
// answer. Any other child's (a kindergarten child, or one whose kind is not known yet) declares an entity
// only once one of its lists has answered, now or in an earlier run: a kindergarten's account is refused the
// school's lists (live-notes 58), or its unit switches its grades off and they are never asked for, so that
// its device never lists grades or homework that can have no value, from its first day. For a kindergarten
// child one refusal is enough to take away what had answered.
import type { EntityDef } from './entities.js';
import type { ResourceCache } from '../../engine/cache.js';
import type { AnsweredLists, AnsweredListsStore, Refusals, RefusedModulesStore } from '../../portal/login-records.js';
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
  /** The lists that have answered the child once. */
  private heard: AnsweredLists = {};
  /** Resolves when what the last update changed is written. */
  written: Promise<void> = Promise.resolve();

  /**
   * `kindergarten`: whether the child is known to be a kindergarten child now (a refusal then counts at once);
   * `answered`: where the lists that have answered are kept (none: for this run only).
   */
  constructor(
    private readonly store: RefusedModulesStore,
    private readonly log: Logger,
    private readonly kindergarten: () => boolean = () => false,
    private readonly answered?: AnsweredListsStore,
  ) {}

  /** What the last run knew, before the child is first announced. */
  async load(): Promise<void> {
    this.refused = await this.store.load((error) => this.log.warn({ err: error.message }, 'refused modules unreadable; every entity is announced'));
    this.heard = (await this.answered?.load((error) => this.log.warn({ err: error.message }, 'answered lists unreadable; read again'))) ?? {};
  }

  /**
   * Whether the child's device declares the entity: one made of no list always; else not while it is absent,
   * and, unless the child is a pupil, only once one of its lists has answered.
   */
  declares(entity: EntityDef, pupil: boolean): boolean {
    if (entity.module === undefined || entity.module.length === 0) return true;
    return !this.absent(entity) && (pupil || entity.module.some((res) => this.hasAnswered(res)));
  }

  /** Whether the list has answered the child, in this run or an earlier one. */
  hasAnswered(res: { name: string }): boolean {
    return this.heard[res.name] === true;
  }

  /** Whether the portal has refused every list the entity is made from for a day (a kindergarten child: at all). */
  absent(entity: EntityDef): boolean {
    return entity.module !== undefined && entity.module.length > 0 && entity.module.every((res) => this.gone(res.name));
  }

  /** After a pass: each module's refusals, or its answer, as the cache now holds them. */
  update(cache: RefusalsHeld, entities: readonly EntityDef[]): void {
    const [before, was, heard] = [this.names(), JSON.stringify(this.refused), Object.keys(this.heard).length];
    for (const res of new Set(entities.flatMap((e) => e.module ?? []))) {
      const kept = this.refused[res.name];
      const refusal = cache.refusal(res);
      // The first refusal is the last run's when this run has had no answer since.
      if (refusal !== undefined)
        this.refused[res.name] = { since: Math.min(kept?.since ?? Infinity, refusal.since), at: Math.max(kept?.at ?? -Infinity, refusal.at) };
      else if (cache.answered(res)) {
        delete this.refused[res.name];
        this.heard[res.name] = true;
      }
    }
    const writes: Promise<void>[] = [];
    if (JSON.stringify(this.refused) !== was) writes.push(this.store.save(this.refused));
    if (Object.keys(this.heard).length !== heard && this.answered !== undefined) writes.push(this.answered.save(this.heard));
    if (writes.length > 0)
      this.written = Promise.all(writes)
        .then(() => undefined)
        .catch((error: Error) => this.log.warn({ err: error.message }, 'could not keep the refused modules or the lists that answered'));
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

  /** What the declarations follow, to tell when they may have changed: the lists absent now, and those that have answered. */
  known(): string {
    return `${this.names()}\n\n${Object.keys(this.heard).sort().join('\n')}`;
  }

  /** The names of the lists absent now, sorted, one a line. */
  names(): string {
    return Object.keys(this.refused)
      .filter((name) => this.gone(name))
      .sort()
      .join('\n');
  }
}
