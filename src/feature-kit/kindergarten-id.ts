// Where a kindergarten child's plan comes from (live-notes 36): the child's identifier (`LID-AUTH-USER-...`)
// is not in one known place, so the places are searched in the order a public library does, and the right
// identifier is the one whose plan answers with entries, at the first host of the road that serves it. A
// search that got every answer and found nothing is "nothing" (asked again a day later); one that met the
// network, a 5xx or the plan service down is "failed" (asked again within minutes), never "nothing".
import { z } from 'zod';
import { ConnectionError, UnexpectedResponseError } from '../portal/errors.js';
import type { ServiceHost } from '../portal/gateway.js';
import type { KindergartenPlan } from '../portal/schemas/kindergarten.js';

/** The identifier whose plan answered, where the search found it (a place of live-notes 36), and the host that answered. */
export type PlanSource = { lid: string; place: string; host: ServiceHost };

export type PlanSearch =
  /** `plan`: the answer that found it (this fortnight's plan), which the plan's first read takes instead of asking again. */
  | ({ state: 'found'; at: number; plan?: KindergartenPlan } & PlanSource)
  | { state: 'nothing'; at: number }
  /** `found`: what an earlier search found, still used while this one could not finish. */
  | { state: 'failed'; at: number; why: string; found?: PlanSource };

/** A search that found nothing is not repeated for a day; a failed one within five minutes; a found one is checked weekly. */
export const SEARCH_AGAIN = { nothing: 24 * 60 * 60_000, failed: 5 * 60_000, found: 7 * 24 * 60 * 60_000 } as const;

/** When the search is due again, from its last outcome. */
export function searchAgainAt(search: PlanSearch): number {
  return search.at + SEARCH_AGAIN[search.state];
}

/** The source a plan is read from now: the one found, or the one an earlier search found while a later one failed. */
export function sourceOf(search: PlanSearch | undefined): PlanSource | undefined {
  if (search?.state === 'found') return { lid: search.lid, place: search.place, host: search.host };
  return search?.state === 'failed' ? search.found : undefined;
}

/** How one identifier's plan answered at one host. */
export type PlanAnswer = 'entries' | 'empty' | 'refused';

export interface SearchDeps {
  /** The places of live-notes 36, in order: each gives the answer to look through (undefined: nothing there). */
  places: readonly { name: string; read: () => Promise<unknown> }[];
  hosts: readonly ServiceHost[];
  tryPlan: (lid: string, host: ServiceHost) => Promise<PlanAnswer>;
  now: () => number;
  /** The last outcome, whose source is tried first (a remembered answer costs one request). */
  previous?: PlanSearch;
}

const LID = /^LID-AUTH-USER-[0-9A-Za-z-]+$/;

/** Every identifier-shaped string in a JSON value, in document order. */
export function lidsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (LID.test(value.trim()) && !out.includes(value.trim())) out.push(value.trim());
  } else if (Array.isArray(value)) {
    for (const item of value) lidsIn(item, out);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) lidsIn(item, out);
  }
  return out;
}

/** Me's identifiers: those of `Me.User` first, then the rest of Me. */
export function meLids(me: unknown): string[] {
  const user = z.object({ Me: z.object({ User: z.unknown() }) }).safeParse(me);
  return lidsIn(me, user.success ? lidsIn(user.data.Me.User) : []);
}

/** A failure of the search that is not "nothing found": the network, a 5xx, the service down. */
function failure(error: unknown): string | undefined {
  if (error instanceof ConnectionError) return error.status === undefined ? 'network' : `status ${error.status}`;
  if (error instanceof UnexpectedResponseError && !error.refused) return `status ${error.status}`;
  return undefined;
}

/** Searches the places in order; a login that fails is thrown (the account's problem), as the pass would. */
export async function searchPlan(deps: SearchDeps): Promise<PlanSearch> {
  const tried = new Set<string>();
  const attempt = async (lid: string, host: ServiceHost): Promise<boolean> => {
    const key = `${host} ${lid}`;
    if (tried.has(key)) return false;
    tried.add(key);
    return (await deps.tryPlan(lid, host)) === 'entries';
  };
  const remembered = sourceOf(deps.previous);
  try {
    if (remembered && (await attempt(remembered.lid, remembered.host))) return { state: 'found', at: deps.now(), ...remembered };
    for (const place of deps.places) {
      const lids = lidsIn(await place.read());
      for (const lid of lids) {
        for (const host of deps.hosts) if (await attempt(lid, host)) return { state: 'found', at: deps.now(), lid, place: place.name, host };
      }
    }
    return { state: 'nothing', at: deps.now() };
  } catch (error) {
    const why = failure(error);
    if (why === undefined) throw error;
    return { state: 'failed', at: deps.now(), why, ...(remembered ? { found: remembered } : {}) };
  }
}

/** A place that answers 4xx holds nothing; other errors go to the search. */
export async function orNothing<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof UnexpectedResponseError && error.refused) return undefined;
    throw error;
  }
}
