// Where a kindergarten child's plan of blocks comes from (live-notes 33-36): the identifier and the host that answered,
// searched for only once the school's Timetables is refused. The kindergarten plan itself and what names its references
// are the timetable feature's own (src/features/timetable/kindergarten-resources.ts).
// The identifier (`LID-AUTH-USER-...`) is not in one known place, so the places are searched in the order
// a public library does, and the right one is the one whose kindergarten plan answers with entries, at the first host
// of the road that serves it. A search that got every answer and found nothing is "nothing" (asked again
// a day later); one that met the network, a 5xx or the kindergarten plan service down is "failed" (asked again within
// minutes), never "nothing".
import * as z from 'zod';
import { ConnectionError, UnexpectedResponseError } from '../../portal/errors.js';
import type { ServiceHost } from '../../portal/gateway.js';
import { isDisabled } from '../../portal/http.js';
import { meResponse, tokenInfoResponse, userInfoResponse, type Me } from '../../portal/schemas/identity.js';
import { kindergartenPlanResponse, type KindergartenPlan } from '../../portal/schemas/kindergarten.js';
import { always } from '../schedule.js';
import { type Portal, type Resource } from '../resource.js';
import { addDays, warsawDate, weekStart } from '../../util/time.js';
import { DAY, MINUTE } from './ages.js';
import { TOKEN_INFO, USER_INFO } from './grades.js';

/** The identifier whose kindergarten plan answered, where the search found it (a place of live-notes 36), and the host that answered. */
export type KindergartenPlanSource = { lid: string; place: string; host: ServiceHost };

export type KindergartenPlanSearch =
  /** `kindergartenPlan`: the answer that found it (this fortnight's kindergarten plan), which the kindergarten plan's first read takes instead of asking again. */
  | ({ state: 'found'; at: number; kindergartenPlan?: KindergartenPlan } & KindergartenPlanSource)
  | { state: 'nothing'; at: number }
  /** `found`: what an earlier search found, still used while this one could not finish. */
  | { state: 'failed'; at: number; why: string; found?: KindergartenPlanSource };

/** How many days after an empty fortnight the search looks for entries (a winter break and its weekends). */
const AFTER_A_BREAK = 28;

/** A search that found nothing is not repeated for a day; a failed one within five minutes; a found one is checked weekly. */
const SEARCH_AGAIN = { nothing: DAY, failed: 5 * MINUTE, found: 7 * DAY } as const;

/** When the search is due again, from its last outcome. */
export function searchAgainAt(search: KindergartenPlanSearch): number {
  return search.at + SEARCH_AGAIN[search.state];
}

/** The source a kindergarten plan is read from now: the one found, or the one an earlier search found while a later one failed. */
export function sourceOf(search: KindergartenPlanSearch | undefined): KindergartenPlanSource | undefined {
  if (search?.state === 'found') return { lid: search.lid, place: search.place, host: search.host };
  return search?.state === 'failed' ? search.found : undefined;
}

export const KINDERGARTEN_PLAN_ENDPOINT = 'ms/kindergartens/timetable/kindergarteners/<lid>';
export const kindergartenPlanPath = (lid: string) => KINDERGARTEN_PLAN_ENDPOINT.replace('<lid>', encodeURIComponent(lid));

/** The fortnight a kindergarten plan copy covers: its Monday and the Sunday after next (one request for what the screens and calendar feeds show). */
export function kindergartenPlanRange(monday: string): { dateFrom: string; dateTo: string } {
  return { dateFrom: monday, dateTo: addDays(monday, 13) };
}

/**
 * Where the kindergarten plan comes from: the places of live-notes 36 in order (Me.User, the rest of Me, Auth/TokenInfo,
 * Auth/UserInfo/<its id>, Users/<Me.Account.UserId>, Users/<Me.Account.Id>), each identifier's kindergarten plan of this
 * fortnight tried at every host of the road. Its requests are the kindergarten plan's and the identity's endpoints.
 */
export const KINDERGARTEN_SEARCH: Resource<KindergartenPlanSearch> = {
  name: "the kindergarten plan's identifier",
  host: 'register',
  endpoints: [],
  fresh: always(SEARCH_AGAIN.failed),
  whenAsked: 'keep',
  note: 'only once Timetables is refused; found: checked weekly; nothing found: again a day later; failed: again after 5 minutes',
  read: (portal) => search(portal),
  settled: (value) => (value.state === 'failed' ? undefined : searchAgainAt(value)),
};

async function search(portal: Portal): Promise<KindergartenPlanSearch> {
  const { gateway, copies, clock } = portal;
  const range = kindergartenPlanRange(weekStart(warsawDate(clock.now())));
  let me: Me | undefined;
  const tokenInfo = async () => copies.peek(TOKEN_INFO) ?? (await orNothing(() => gateway.get('Auth/TokenInfo', tokenInfoResponse)));
  // The places of live-notes 36, in order: each gives the answer to look through (undefined: nothing there).
  const places: Record<string, () => Promise<unknown>> = {
    Me: async () => {
      const raw = await orNothing(() => gateway.get('Me', meResponse));
      me = raw?.Me;
      return [me?.User, raw]; // Me's identifiers: those of `Me.User` first, then the rest of Me.
    },
    'Auth/TokenInfo': tokenInfo,
    'Auth/UserInfo': async () => {
      const lid = (await tokenInfo())?.UserIdentifier ?? undefined;
      if (lid === undefined) return undefined;
      return copies.peek(USER_INFO, lid) ?? (await orNothing(() => gateway.get(`Auth/UserInfo/${encodeURIComponent(lid)}`, userInfoResponse)));
    },
    'Users/<UserId>': async () => portal.identity()?.accountLid,
    'Users/<Account.Id>': async () => {
      const id = me?.Account.Id;
      return id === undefined ? undefined : orNothing(() => gateway.get(`Users/${encodeURIComponent(id)}`, z.unknown()));
    },
  };
  const hosts = gateway.serviceHosts();
  const tried = new Set<string>();
  let kindergartenPlan: KindergartenPlan | undefined;
  /** Whether an identifier's kindergarten plan answers with entries at a host (each pair is asked once); keeps the kindergarten plan that did. */
  const answers = async (lid: string, host: ServiceHost): Promise<boolean> => {
    if (tried.has(`${host} ${lid}`)) return false;
    tried.add(`${host} ${lid}`);
    const entries = async (window: { dateFrom: string; dateTo: string }): Promise<KindergartenPlan | undefined> => {
      const answer = await gateway.service(host, kindergartenPlanPath(lid), window);
      if (answer.status < 200 || answer.status >= 300 || isDisabled(answer.json)) return undefined;
      const parsed = kindergartenPlanResponse.safeParse(answer.json);
      return parsed.success ? parsed.data : undefined;
    };
    const fortnight = await entries(range);
    if (fortnight === undefined) return false;
    if (fortnight.timetableEntries.length > 0) {
      kindergartenPlan = fortnight;
      return true;
    }
    // A fortnight of free days (a break) has no entries for the right identifier either: the weeks after it tell.
    const after = await entries({ dateFrom: addDays(range.dateTo, 1), dateTo: addDays(range.dateTo, AFTER_A_BREAK) });
    return (after?.timetableEntries.length ?? 0) > 0;
  };
  // The last outcome's source is tried first (a remembered answer costs one request).
  const remembered = sourceOf(copies.peek(KINDERGARTEN_SEARCH));
  try {
    // The answer that found the identifier is this fortnight's kindergarten plan: kept for the kindergarten plan's first read.
    if (remembered && (await answers(remembered.lid, remembered.host))) return { state: 'found', at: clock.now(), ...remembered, kindergartenPlan };
    for (const [place, read] of Object.entries(places)) {
      for (const lid of lidsIn(await read())) {
        for (const host of hosts) if (await answers(lid, host)) return { state: 'found', at: clock.now(), lid, place, host, kindergartenPlan };
      }
    }
    return { state: 'nothing', at: clock.now() };
  } catch (error) {
    // A login that fails is thrown (the account's problem), as the pass would.
    const why = failure(error);
    if (why === undefined) throw error;
    return { state: 'failed', at: clock.now(), why, ...(remembered ? { found: remembered } : {}) };
  }
}

/** A failure of the search that is not "nothing found": the network, a 5xx, the service down. */
function failure(error: unknown): string | undefined {
  if (error instanceof ConnectionError) return error.status === undefined ? 'network' : `status ${error.status}`;
  if (error instanceof UnexpectedResponseError && !error.refused) return `status ${error.status}`;
  return undefined;
}

const LID = /^LID-AUTH-USER-[0-9A-Za-z-]+$/;

/** Every identifier-shaped string in a JSON value, in document order (an array's values are its items). */
function lidsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (LID.test(value.trim()) && !out.includes(value.trim())) out.push(value.trim());
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) lidsIn(item, out);
  }
  return out;
}

/** A place that answers 4xx holds nothing; other errors go to the search. */
async function orNothing<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof UnexpectedResponseError && error.refused) return undefined;
    throw error;
  }
}

/** A kindergarten plan copy's key: the host and identifier that answered, and the Monday of its fortnight. */
export function kindergartenPlanKey(source: KindergartenPlanSource, monday: string): string {
  return `${source.host} ${source.lid} ${monday}`;
}
