// A pass's reads, in rounds: what the planner says is due read (the register's copies at once, the
// messaging host's one after another), again while a read makes another due; a host's failure stops its
// reads for the pass, one resource's own failure is its copy's. The coordinator (coordinator.ts) runs them.
import { HOSTS, type Host, type Resource } from '../engine/resource.js';
import type { ResourceCache } from '../engine/cache.js';
import type { Due } from './account-plan.js';
import { loginStepOf, UnexpectedResponseError } from '../portal/errors.js';

/** Reads that a read makes known (the calendar's id, then its ids, then the lists they vouch for) take a round each. */
const ROUNDS = 8;

/**
 * Reads what the planner says is due (`dueNow`, asked again each round), round after round: a read can
 * make another known (a lookup that lacks an id) or move a signal. A copy that leads (the change feed)
 * has a round of its own first, then the signals (no vouch of their own). A host's failure (a dead
 * session, the portal down) stops its reads for this pass (`failed`). A good read for its age alone is
 * told to `forAge`. Answers the hosts read without such a failure.
 */
export async function readDue(
  cache: ResourceCache,
  dueNow: () => readonly Due[],
  waiting: Set<Host>,
  failed: Map<Host, unknown>,
  afterRound?: () => Promise<void>,
  forAge?: (res: Resource, before: { value?: unknown; readAt?: number }, value: unknown) => void,
  onRead?: (w: Due) => void,
): Promise<Host[]> {
  const read = new Set<Host>();
  for (let round = 0; round < ROUNDS; round++) {
    const due = dueNow().filter((w) => !waiting.has(w.res.host));
    if (due.length === 0) break;
    const leads = due.filter((w) => w.res.leads === true);
    const signals = due.filter((w) => w.res.vouch === undefined);
    const batch = leads.length > 0 ? leads : signals.length > 0 ? signals : due;
    const readOne = async (w: Due): Promise<void> => {
      if (waiting.has(w.res.host)) return;
      read.add(w.res.host);
      onRead?.(w);
      // A read for its age alone is told with what the copy held before (the change feed's missed changes); no other read is.
      const aged =
        forAge && w.why === 'age' ? { tell: forAge, before: { value: cache.peek(w.res, w.key), readAt: cache.readAt(w.res, w.key) } } : undefined;
      const told = () => aged?.tell(cache.declaration(w.res), aged.before, cache.peek(w.res, w.key));
      await hostStep(w.res.host, waiting, failed, () => cache.read(w).then(told, hostFailuresOnly));
    };
    // The register's copies at once; the messaging host's one after another, so that a messaging
    // session that expired costs one bootstrap and one request again, not one for each read in flight.
    const messaging = batch.filter((w) => w.res.host === 'messaging');
    await Promise.all([
      ...batch.filter((w) => w.res.host !== 'messaging').map(readOne),
      messaging.reduce((before, w) => before.then(() => readOne(w)), Promise.resolve()),
    ]);
    await afterRound?.();
  }
  return [...read].filter((host) => !failed.has(host));
}

/**
 * Passes on only a host's failure: one resource's own (an unexpected answer, engine/resource.ts's
 * ownFailure) is its copy's, kept by the cache, and the pass goes on.
 */
function hostFailuresOnly(error: unknown): void {
  if (!(error instanceof UnexpectedResponseError)) throw error;
}

/** A step of the pass on one host: a failure that is not one resource's stops the host's reads for this pass. */
export async function hostStep(host: Host, waiting: Set<Host>, failed: Map<Host, unknown>, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (error) {
    hostFailed(host, error, waiting, failed);
  }
}

/**
 * A host failed: nothing more of it is read in this pass. A login that failed stops both hosts' reads (one
 * session logs both in), so that the other does not ask the login page again straight after.
 */
export function hostFailed(host: Host, error: unknown, waiting: Set<Host>, failed: Map<Host, unknown>): void {
  failed.set(host, error);
  waiting.add(host);
  if (loginStepOf(error) !== undefined) for (const other of HOSTS) waiting.add(other);
}
