// One child's change feed (live-notes 28-32), a plug-in of the pass: what it wants read (the change feed, while
// a device is registered), what it does before the reads (registers the device, watch then list), after
// each round (the changes listed make what they name due) and after the pass was published (their
// acknowledgement). Every way it fails leaves the lists at their own ages (reading as without it): a
// refused registration is tried again the next day, a forgotten device is registered again at once
// (twice in a day: the next day), the change feed down is read again until it answers.
import { ChangeFeed, type ChangeFeedChange } from '../../portal/change-feed.js';
import {
  ConnectionError,
  ChangeFeedDeviceLostError,
  ChangeFeedInvalidError,
  ChangeFeedRefusedError,
  loginStepOf,
  UnexpectedResponseError,
} from '../../portal/errors.js';
import { want, type Resource, type Want } from '../resource.js';
import { awakeAt } from '../moments.js';
import type { Watch } from '../plan.js';
import { CHANGES, CHANGE_FEED_LOOKUP, CHANGE_FEED_SAFETY } from '../resources/change-feed.js';
import { DAY, HOUR } from '../../util/duration.js';
import type { ResourceCache } from '../cache.js';
import type { Gateway } from '../../portal/gateway.js';
import type { ChangeFeedDeviceStore, ChangeFeedRoad, SavedChangeFeedDevice } from './device.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import type { SavedFigures } from '../figures-store.js';
import { errorText } from '../../util/text.js';

/** Whether a child's change feed is on, since when, why not, and what it listed waits (the diagnostics say it). */
export type ChangeFeedStatus = NonNullable<SavedFigures['change_feed']>;

export interface ChildChangeFeedOptions {
  gateway: Gateway;
  store: ChangeFeedDeviceStore;
  /** The road the child is read through now (the device is the road's). */
  road: () => ChangeFeedRoad;
  /** Every declaration: a change's type names those whose `changeFeed` lists it. */
  resources: readonly Resource[];
  /** A read for its age alone found a change the change feed never named (live-notes 32). */
  onMissed?: (res: Resource) => void;
  clock: Clock;
  log: Logger;
}

export class ChildChangeFeed {
  private saved: SavedChangeFeedDevice = { version: 1 };
  /** What the diagnostics say (all but the road, which is asked when they ask). */
  private status: Omit<ChangeFeedStatus, 'road'> = { on: false, why: 'not registered yet', pending: [], acknowledged: 0 };
  /** When a forgotten device was registered again: lost again within a day, the change feed is off until the next. */
  private registeredAgainAt = -Infinity;
  /** Not before then after a registration that could not reach the portal. */
  private retryAt = 0;
  /** Types no declaration names, each logged once. */
  private readonly unknown = new Set<string>();
  /** The pass under way: the changes taken (to acknowledge after it was published), and from which device. */
  private taken: { changes: ChangeFeedChange[]; from: string | undefined } = { changes: [], from: undefined };
  private readonly client: ChangeFeed;

  constructor(private readonly options: ChildChangeFeedOptions) {
    this.client = new ChangeFeed({ gateway: options.gateway, account: 'feed' });
  }

  async load(): Promise<void> {
    this.saved = (await this.options.store.load((error) =>
      this.options.log.warn({ err: error.message }, 'the change feed device file is unreadable; registering anew'),
    )) ?? { version: 1 };
  }

  /** The change feed's copy to read, while a device of the child's road is registered. */
  want(): Want | undefined {
    const device = this.device();
    return device === undefined ? undefined : want(CHANGES, device);
  }

  /**
   * While the change feed is on: a list of the register it names (covers), read since it watches (its device's
   * registration), is read for its age alone only at the safety age, a lookup only weekly (the planner,
   * plan.ts); a copy read before may hide a change the change feed never saw, and keeps its own age.
   */
  watch(): Watch | undefined {
    const since = this.status.on ? this.saved.device?.registeredAt : undefined;
    return since === undefined ? undefined : { since, safetyMs: CHANGE_FEED_SAFETY, lookupMs: CHANGE_FEED_LOOKUP };
  }

  /** A list read for its age alone: one the change feed vouched for that found a record come or gone found what the change feed missed. */
  readForAge(res: Resource, before: { value?: unknown; readAt?: number }, value: unknown): void {
    const since = this.watch()?.since;
    if (since === undefined || !covers(res) || before.value === undefined || (before.readAt ?? -Infinity) < since) return;
    if (recordsCameOrWent(before.value, value)) this.options.onMissed?.(res);
  }

  changeFeedStatus(): ChangeFeedStatus {
    return { ...this.status, road: this.options.road() };
  }

  /** Before the pass reads anything the change feed covers: a device for the child's road (watch, then list). */
  async beforeReads(cache: ResourceCache): Promise<void> {
    this.taken = { changes: [], from: undefined };
    await this.ensure(cache);
  }

  /**
   * After a round of reads: the changes the change feed listed in this pass make what they name due (read in
   * the next round). A device the portal forgot is registered again at once, and its lists read again.
   */
  async afterRound(cache: ResourceCache): Promise<void> {
    const w = this.want();
    if (w === undefined || !cache.readThisPass(w) || this.taken.from === w.key) return;
    this.taken.from = w.key;
    let changes;
    try {
      changes = cache.get(CHANGES, w.key)?.changes ?? [];
    } catch (error) {
      this.failed(error, w.key ?? '');
      if (this.want() === undefined) await this.ensure(cache);
      return;
    }
    const now = this.options.clock.now();
    if (!this.status.on) this.options.log.info('change feed on: the lists it names are read when it names them, and slowly besides');
    const since = this.status.on ? this.status.since : now;
    // What it lists waits, not computed yet, until the pass's end sorts it.
    const pending = changes.map((c) => ({ type: c.type, why: 'not computed' }));
    this.status = { ...this.status, on: true, since, why: undefined, lastRead: now, pending };
    for (const change of changes) {
      const named = this.named(change);
      if (named.length === 0 && !this.unknown.has(change.type)) {
        this.unknown.add(change.type);
        this.options.log.info({ type: change.type }, 'change feed: a type no list of the bridge is; acknowledged');
      }
      for (const res of named) cache.moved(res);
    }
    this.taken.changes.push(...changes);
  }

  /** After the pass was published: acknowledges the changes it handled (sortChanges, below); the others stay listed, and come back. */
  async afterPublish(cache: ResourceCache, wanted: readonly Want[], pass: Pick<HandledFacts, 'computed' | 'delivered'>): Promise<void> {
    const { changes } = this.taken;
    const device = this.device();
    if (device === undefined || changes.length === 0) return;
    const { handled, pending } = await sortChanges(changes, (c) => this.named(c), { cache, wanted, ...pass });
    this.status.pending = pending;
    if (handled.length === 0) return;
    try {
      await this.client.acknowledge(
        device,
        handled.map((c) => c.id),
      );
      this.status.acknowledged = (this.status.acknowledged ?? 0) + handled.length;
    } catch (error) {
      // They come back at the next read and are read again then: nothing is lost.
      this.options.log.warn(
        { err: errorText(error), changes: handled.length },
        'change feed: the changes could not be acknowledged; read again next time',
      );
    }
  }

  /**
   * A device for the child's road, registered when it has none and its road does not refuse it now. A
   * failure of the session itself (a dead login, a login the network broke) is the pass's to meet.
   */
  private async ensure(cache: ResourceCache): Promise<void> {
    const road = this.options.road();
    const now = this.options.clock.now();
    if (this.device() !== undefined || now < this.retryAt || now < (this.saved.refused?.[road]?.until ?? 0)) return;
    try {
      const id = await this.client.register();
      this.saved = { ...this.saved, device: { id, road, registeredAt: now } };
      this.options.log.info({ road }, 'change feed: a device is registered for the child; the portal now says what changed');
      // The portal's change feed names only what changed after the registration: every list it covers is read again.
      for (const res of this.options.resources.filter(covers)) cache.moved(res);
    } catch (error) {
      if (loginStepOf(error) !== undefined) throw error;
      if (error instanceof ChangeFeedRefusedError) this.refuse(road, error);
      else if (error instanceof ConnectionError || error instanceof UnexpectedResponseError) {
        this.retryAt = awakeAt(now + HOUR);
        this.off(`registration failed: ${error.message}`);
      } else throw error;
    }
    await this.save();
  }

  /** The declarations a change names (by their change feed names). */
  private named(change: ChangeFeedChange): Resource[] {
    return this.options.resources.filter((r) => r.changeFeed?.includes(change.type));
  }

  private device(): string | undefined {
    return this.saved.device?.road === this.options.road() ? this.saved.device.id : undefined;
  }

  /** The change feed's read failed: a forgotten device is registered again once; anything else leaves the lists at their own ages until it answers. */
  private failed(error: unknown, device: string): void {
    const cause = (error as { cause?: unknown }).cause ?? error;
    const now = this.options.clock.now();
    if (cause instanceof ChangeFeedDeviceLostError || cause instanceof ChangeFeedInvalidError) {
      if (this.saved.device?.id === device) this.saved = { ...this.saved, device: undefined };
      if (now - this.registeredAgainAt < DAY) this.refuse(this.options.road());
      else {
        this.off('the portal forgot the device; registering it again');
        this.registeredAgainAt = now;
      }
    } else if (cause instanceof ChangeFeedRefusedError) {
      this.saved = { ...this.saved, device: undefined };
      this.refuse(this.options.road(), cause);
    } else {
      this.off(`not answering: ${errorText(cause)}`);
      return;
    }
    void this.save();
  }

  /** Not registered again on `road` before tomorrow: the portal refused it (`error`), or forgot the device twice. */
  private refuse(road: ChangeFeedRoad, error?: ChangeFeedRefusedError): void {
    // Tomorrow, but never in the night: a registration is a request like any other.
    const until = awakeAt(this.options.clock.now() + DAY);
    this.saved = { ...this.saved, refused: { ...this.saved.refused, [road]: { until, status: error?.status ?? 0 } } };
    const why = error ? `refused on the ${road} road (${error.code ?? error.status})` : 'the device was forgotten twice';
    this.off(`${why}; tried again tomorrow`);
  }

  private off(why: string): void {
    if (this.status.on || this.status.why !== why) this.options.log.info({ why }, 'change feed off: the lists are read at their own ages');
    this.status = { ...this.status, on: false, since: undefined, why };
  }

  private save(): Promise<void> {
    return this.options.store
      .save(this.saved)
      .catch((error: Error) => this.options.log.warn({ err: error.message }, 'could not keep the change feed device'));
  }
}

/** A list of the register the change feed names: what it covers. */
export function covers(res: Resource): boolean {
  return res.host === 'register' && (res.changeFeed?.length ?? 0) > 0;
}

// Which of the changes the change feed listed may be acknowledged after a pass, and why the others wait. A
// queue's consumer acknowledges a message once it is handled, not when it arrived: here a change is
// handled once every list it names was read in the pass without a failure (or is refused: a module the
// school lacks has nothing to read), every feature reading those lists computed from the copies read,
// and the broker accepted every state and event the pass handed it. Anything less leaves the change
// listed: the change feed names it again, its lists are read again, and the event memory fires nothing twice.

/** Why a listed change waits (the diagnostics' change_feed.pending). */
export type WhyPending = 'read failed' | 'not computed' | 'broker away';

/** What the pass did, as the acknowledgement asks it. */
export interface HandledFacts {
  /** The copies the features read now. */
  wanted: readonly Want[];
  /** The pass's copies: which were read in it without a failure, or are refused. */
  cache: ResourceCache;
  /** Every feature that reads the copy computed from the copy held now. */
  computed: (w: Want) => boolean;
  /** Whether the broker accepted everything handed to it so far (asked only when a change waits for nothing else). */
  delivered: () => Promise<boolean>;
}

export type PendingChange = { type: string; why: WhyPending };

/** The changes of a pass sorted, in the change feed's order: those handled, and those that wait (and why). */
export async function sortChanges(
  changes: readonly ChangeFeedChange[],
  named: (change: ChangeFeedChange) => readonly Resource[],
  facts: HandledFacts,
) {
  // Refused counts as read: a module the school lacks has nothing to read again.
  const readOk = (w: Want): boolean => facts.cache.refused(w.res, w.key) || facts.cache.readOkThisPass(w);
  const whyPending = (change: ChangeFeedChange): WhyPending | undefined => {
    const lists = new Set(named(change));
    // A copy a person asked for on demand is read when they ask again (engine/on-demand.ts): no pass waits for it.
    const wants = facts.wanted.filter((w) => lists.has(w.res) && w.onDemand !== true);
    if (!wants.every(readOk)) return 'read failed';
    if (!wants.every(facts.computed)) return 'not computed';
    // A change naming nothing the child reads published nothing: it waits for no broker.
    return wants.length > 0 ? 'broker away' : undefined;
  };
  const whys = changes.map(whyPending);
  const delivered = whys.includes('broker away') && (await facts.delivered());
  const waits = changes.map((change, i) => ({ type: change.type, why: delivered && whys[i] === 'broker away' ? undefined : whys[i] }));
  const handled = changes.filter((_, i) => waits[i]?.why === undefined);
  return { handled, pending: waits.filter((c): c is PendingChange => c.why !== undefined) };
}

// What changed between two reads of a portal list, told by its records' ids: what the change feed
// would have named (live-notes 31), for the change feed's count of what it missed.
/** The ids of a list's records ("Grades:123"), from the arrays of records with an Id a response holds. */
function recordIds(value: unknown): Set<string> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  let ids: Set<string> | undefined;
  for (const [name, list] of Object.entries(value)) {
    if (!Array.isArray(list)) continue;
    for (const record of list as unknown[]) {
      const id = typeof record === 'object' && record !== null ? (record as { Id?: unknown }).Id : undefined;
      if (typeof id === 'string' || typeof id === 'number') (ids ??= new Set()).add(`${name}:${id}`);
    }
  }
  return ids;
}

/**
 * Whether a record appeared in a list or went from it between two reads: what the change feed would have
 * named. A list without record ids (a timetable, the lucky number) tells nothing here. An edit in place is
 * not counted: it cannot be told apart from fields rewritten without a change a parent would call one
 * (the simulated school's dates move with the day), and a false count tells a family its change feed is not to
 * be trusted.
 */
export function recordsCameOrWent(before: unknown, after: unknown): boolean {
  const was = recordIds(before);
  const is = recordIds(after);
  if (was === undefined && is === undefined) return false;
  if (was === undefined || is === undefined || was.size !== is.size) return true;
  return [...is].some((id) => !was.has(id));
}
