// A kindergarten child's plan (live-notes 33-36): where it comes from (the identifier and the host that
// answered, searched for only once the school's Timetables is refused), the plan of this and next week as
// time blocks, and what names its references (the activities, the rooms; the teachers are in Users).
import { z } from 'zod';
import { ConnectionError, DISABLED_CODE, UnexpectedResponseError } from '../portal/errors.js';
import { isDisabled, type Gateway, type ServiceHost } from '../portal/gateway.js';
import { meResponse, tokenInfoResponse, userInfoResponse } from '../portal/schemas/identity.js';
import { activitiesTypesResponse, authClassroomsResponse, kindergartenPlanResponse, type KindergartenPlan } from '../portal/schemas/kindergarten.js';
import { always } from '../feature-kit/plan.js';
import { registerResource, type Portal, type Resource } from '../feature-kit/resource.js';
import {
  lidsIn,
  meLids,
  orNothing,
  SEARCH_AGAIN,
  searchAgainAt,
  searchPlan,
  type PlanAnswer,
  type PlanSearch,
  type PlanSource,
} from '../feature-kit/kindergarten-id.js';
import { addDays, warsawDate, weekStart } from '../util/time.js';
import { byDay, DAILY, HOUR, MINUTE, RARE } from './ages.js';
import { TOKEN_INFO, USER_INFO } from './grades.js';

const PLAN = 'ms/kindergartens/timetable/kindergarteners/<lid>';
const planPath = (lid: string) => PLAN.replace('<lid>', encodeURIComponent(lid));

/** The fortnight a plan copy covers: its Monday and the Sunday after next (one request for what the screens and feeds show). */
export function planRange(monday: string): { dateFrom: string; dateTo: string } {
  return { dateFrom: monday, dateTo: addDays(monday, 13) };
}

/**
 * Where the plan comes from: the places of live-notes 36 in order (Me.User, the rest of Me, Auth/TokenInfo,
 * Auth/UserInfo/<its id>, Users/<Me.Account.UserId>, Users/<Me.Account.Id>), each identifier's plan of this
 * fortnight tried at every host of the road. Its requests are the plan's and the identity's endpoints.
 */
export const KINDERGARTEN_SEARCH: Resource<PlanSearch> = {
  name: "the kindergarten plan's identifier",
  host: 'register',
  endpoints: [],
  fresh: always(SEARCH_AGAIN.failed),
  whenAsked: 'keep',
  note: 'only once Timetables is refused; found: checked weekly; nothing found: again a day later; failed: again after 5 minutes',
  read: (portal) => search(portal),
  settled: (value) => (value.state === 'failed' ? undefined : searchAgainAt(value)),
  refusal: () => undefined,
};

async function search(portal: Portal): Promise<PlanSearch> {
  const { gateway, copies, clock } = portal;
  const range = planRange(weekStart(warsawDate(clock.now())));
  let me: z.output<typeof meResponse>['Me'] | undefined;
  const tokenInfo = async () => copies.peek(TOKEN_INFO) ?? (await orNothing(() => gateway.get('Auth/TokenInfo', tokenInfoResponse)));
  const places = [
    {
      name: 'Me',
      read: async () => {
        const raw = await orNothing(() => gateway.get('Me', meResponse));
        me = raw?.Me;
        return meLids(raw);
      },
    },
    { name: 'Auth/TokenInfo', read: tokenInfo },
    {
      name: 'Auth/UserInfo',
      read: async () => {
        const lid = (await tokenInfo())?.UserIdentifier ?? undefined;
        if (lid === undefined) return undefined;
        return copies.peek(USER_INFO, lid) ?? (await orNothing(() => gateway.get(`Auth/UserInfo/${encodeURIComponent(lid)}`, userInfoResponse)));
      },
    },
    { name: 'Users/<UserId>', read: async () => portal.identity()?.accountLid },
    {
      name: 'Users/<Account.Id>',
      read: async () => {
        const id = me?.Account.Id;
        return id === undefined ? undefined : lidsIn(await orNothing(() => gateway.get(`Users/${encodeURIComponent(id)}`, z.unknown())));
      },
    },
  ];
  let entries: { lid: string; host: ServiceHost; plan: KindergartenPlan } | undefined;
  const tryPlan = async (lid: string, host: ServiceHost): Promise<PlanAnswer> => {
    const answer = await gateway.service(host, planPath(lid), range);
    if (answer.status < 200 || answer.status >= 300 || isDisabled(answer.json)) return 'refused';
    const parsed = kindergartenPlanResponse.safeParse(answer.json);
    if (parsed.success && parsed.data.timetableEntries.length > 0) entries = { lid, host, plan: parsed.data };
    return parsed.success && parsed.data.timetableEntries.length > 0 ? 'entries' : parsed.success ? 'empty' : 'refused';
  };
  const found = await searchPlan({
    places,
    hosts: gateway.serviceHosts(),
    tryPlan,
    now: () => clock.now(),
    previous: copies.peek(KINDERGARTEN_SEARCH),
  });
  // The answer that found the identifier is this fortnight's plan: kept for the plan's first read.
  return found.state === 'found' && entries?.lid === found.lid && entries.host === found.host ? { ...found, plan: entries.plan } : found;
}

/** The plan the search's answer holds for this key, when it was had a moment ago (the same pass). */
function foundPlan(search: PlanSearch | undefined, key: string, now: number): KindergartenPlan | undefined {
  if (search?.state !== 'found' || search.plan === undefined || now - search.at > MINUTE) return undefined;
  return planKey(search, weekStart(warsawDate(search.at))) === key ? search.plan : undefined;
}

/** A plan copy's key: the host and identifier that answered, and the Monday of its fortnight. */
export function planKey(source: PlanSource, monday: string): string {
  return `${source.host} ${source.lid} ${monday}`;
}

/** This and next week's plan of blocks: a few times a day by day (a kindergarten's plan changes rarely). */
export const KINDERGARTEN_PLAN: Resource<KindergartenPlan> = {
  name: 'kindergarten plan',
  host: 'register',
  endpoints: [PLAN],
  fresh: byDay(RARE),
  whenAsked: 'read',
  keepOnError: true,
  note: 'this and next week in one request, once the identifier is known',
  read: ({ gateway, copies, clock }, key) => {
    const found = foundPlan(copies.peek(KINDERGARTEN_SEARCH), key ?? '', clock.now());
    if (found !== undefined) return Promise.resolve(found);
    const [host = 'gateway', lid = '', monday = ''] = (key ?? '').split(' ');
    return serviceRead(gateway, host as ServiceHost, planPath(lid), kindergartenPlanResponse, planRange(monday));
  },
  refusal: refusedFor(HOUR),
};

/** The activities (they play the part of subjects), by the host the plan answered at. */
export const KINDERGARTEN_ACTIVITIES: Resource<z.output<typeof activitiesTypesResponse>> = {
  name: 'ms/kindergartens/activities-types',
  host: 'register',
  endpoints: ['ms/kindergartens/activities-types'],
  fresh: byDay(DAILY),
  whenAsked: 'keep',
  keepOnError: true,
  read: ({ gateway }, key) => serviceRead(gateway, (key ?? 'gateway') as ServiceHost, 'ms/kindergartens/activities-types', activitiesTypesResponse),
  refusal: refusedFor(24 * HOUR),
};

/** The rooms by identifier (the plan's `classroomIdentifier`). */
export const KINDERGARTEN_ROOMS = registerResource({
  name: 'Auth/Classrooms',
  endpoint: 'Auth/Classrooms',
  schema: authClassroomsResponse,
  fresh: byDay(DAILY),
  keepOnError: true,
});

/** A refusal (403, 404, Disabled) stands this long. */
function refusedFor(ms: number): Resource['refusal'] {
  return (error, now) => (error instanceof UnexpectedResponseError && error.refused ? now + ms : undefined);
}

/**
 * A service's answer through its schema. Its 5xx (the service down) is this resource's failure, not the
 * register's: the rest of the child's reads go on.
 */
async function serviceRead<S extends z.ZodType>(
  gateway: Gateway,
  host: ServiceHost,
  path: string,
  schema: S,
  query?: Record<string, string>,
): Promise<z.output<S>> {
  const answer = await gateway.service(host, path, query).catch((error: unknown) => {
    if (error instanceof ConnectionError && error.status !== undefined)
      throw new UnexpectedResponseError(error.status, error.message, { resource: path });
    throw error;
  });
  if (answer.status < 200 || answer.status >= 300)
    throw new UnexpectedResponseError(answer.status, `${path}: status ${answer.status}`, { resource: path });
  if (isDisabled(answer.json)) throw new UnexpectedResponseError(answer.status, `${path}: ${DISABLED_CODE}`, { code: DISABLED_CODE, resource: path });
  const parsed = schema.safeParse(answer.json);
  if (!parsed.success) throw new UnexpectedResponseError(200, `${path}: unexpected shape`, { resource: path });
  return parsed.data;
}
