// Which of the changes the feed listed may be acknowledged after a pass, and why the others wait. A
// queue's consumer acknowledges a message once it is handled, not when it arrived: here a change is
// handled once every list it names was read in the pass without a failure (or is refused: a module the
// school lacks has nothing to read), every feature reading those lists computed from the copies read,
// and the broker accepted every state and event the pass handed it. Anything less leaves the change
// listed: the feed names it again, its lists are read again, and the event memory fires nothing twice.
import type { FeedChange } from '../portal/change-feed.js';
import type { Resource, Want } from '../feature-kit/resource.js';
import type { ResourceCache } from '../feature-kit/cache.js';

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

export interface PendingChange {
  type: string;
  why: WhyPending;
}

/** The changes of a pass sorted: those handled, and those that wait (and why). */
export async function sortChanges(
  changes: readonly FeedChange[],
  named: (change: FeedChange) => readonly Resource[],
  facts: HandledFacts,
): Promise<{ handled: FeedChange[]; pending: Map<FeedChange, WhyPending> }> {
  const pending = new Map<FeedChange, WhyPending>();
  const waitsForBroker: FeedChange[] = [];
  const handled: FeedChange[] = [];
  // Refused counts as read: a module the school lacks has nothing to read again.
  const readOk = (w: Want): boolean => facts.cache.refused(w.res, w.key) || facts.cache.readOkThisPass(w);
  for (const change of changes) {
    const lists = new Set(named(change));
    const wants = facts.wanted.filter((w) => lists.has(w.res));
    if (!wants.every(readOk)) pending.set(change, 'read failed');
    else if (!wants.every(facts.computed)) pending.set(change, 'not computed');
    // A change naming nothing the child reads published nothing: it waits for no broker.
    else if (wants.length > 0) waitsForBroker.push(change);
    else handled.push(change);
  }
  if (waitsForBroker.length > 0) {
    if (await facts.delivered()) handled.push(...waitsForBroker);
    else for (const change of waitsForBroker) pending.set(change, 'broker away');
  }
  // In the feed's order.
  return { handled: changes.filter((c) => handled.includes(c)), pending };
}

/** What the diagnostics say of the acknowledgements: what waits and why, and how many went since the start. */
export class Acknowledgements {
  private waiting: PendingChange[] = [];
  private count = 0;

  /** The feed was read: what it lists waits, not computed yet (until the pass's end sorts it). */
  listed(changes: readonly FeedChange[]): void {
    this.waiting = changes.map((c) => ({ type: c.type, why: 'not computed' }));
  }

  /** A pass's sorting: its pending changes replace what the feed listed. */
  sorted(pending: ReadonlyMap<FeedChange, WhyPending>): void {
    this.waiting = [...pending].map(([change, why]) => ({ type: change.type, why }));
  }

  /** The portal took the acknowledgement of `n` changes. */
  acknowledged(n: number): void {
    this.count += n;
  }

  get pending(): readonly PendingChange[] {
    return this.waiting;
  }

  get total(): number {
    return this.count;
  }
}
