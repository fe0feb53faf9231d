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

export type PendingChange = { type: string; why: WhyPending };

/** The changes of a pass sorted, in the feed's order: those handled, and those that wait (and why). */
export async function sortChanges(
  changes: readonly FeedChange[],
  named: (change: FeedChange) => readonly Resource[],
  facts: HandledFacts,
): Promise<{ handled: FeedChange[]; pending: PendingChange[] }> {
  // Refused counts as read: a module the school lacks has nothing to read again.
  const readOk = (w: Want): boolean => facts.cache.refused(w.res, w.key) || facts.cache.readOkThisPass(w);
  const whyPending = (change: FeedChange): WhyPending | undefined => {
    const lists = new Set(named(change));
    const wants = facts.wanted.filter((w) => lists.has(w.res));
    if (!wants.every(readOk)) return 'read failed';
    if (!wants.every(facts.computed)) return 'not computed';
    // A change naming nothing the child reads published nothing: it waits for no broker.
    return wants.length > 0 ? 'broker away' : undefined;
  };
  const whys = changes.map(whyPending);
  const delivered = whys.includes('broker away') && (await facts.delivered());
  const handled: FeedChange[] = [];
  const pending: PendingChange[] = [];
  for (const [i, change] of changes.entries()) {
    const why = delivered && whys[i] === 'broker away' ? undefined : whys[i];
    if (why === undefined) handled.push(change);
    else pending.push({ type: change.type, why });
  }
  return { handled, pending };
}
