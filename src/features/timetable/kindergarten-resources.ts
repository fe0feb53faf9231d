// The portal resources only a kindergarten child's timetable reads (live-notes 33-36): the fortnight's kindergarten plan
// of blocks from the identifier the search found (src/engine/resources/kindergarten.ts, which the pass runner needs to
// know whether the child has a kindergarten plan at all), and what names its references: the activities (they play the
// part of subjects) and the rooms; the teachers are in Users.
import type { z } from 'zod';
import { ConnectionError, DISABLED_CODE, UnexpectedResponseError } from '../../portal/errors.js';
import type { Gateway, ServiceHost } from '../../portal/gateway.js';
import { isDisabled } from '../../portal/http.js';
import {
  activitiesTypesResponse,
  authClassroomsResponse,
  kindergartenerResponse,
  kindergartenGroupResponse,
  kindergartenPlanResponse,
  type KindergartenPlan,
} from '../../portal/schemas/kindergarten.js';
import type { Resource } from '../../engine/resource.js';
import { byDay, DAILY, DAY, HOUR, MINUTE, RARE } from '../../engine/resources/ages.js';
import {
  KINDERGARTEN_SEARCH,
  KINDERGARTEN_PLAN_ENDPOINT,
  kindergartenPlanKey,
  kindergartenPlanPath,
  kindergartenPlanRange,
  type KindergartenPlanSearch,
} from '../../engine/resources/kindergarten.js';
import { daily } from '../../engine/resources/lookups.js';
import { warsawDate, weekStart } from '../../util/time.js';

/** The kindergarten plan the search's answer holds for this key, when it was had a moment ago (the same pass). */
function foundKindergartenPlan(search: KindergartenPlanSearch | undefined, key: string, now: number): KindergartenPlan | undefined {
  if (search?.state !== 'found' || search.kindergartenPlan === undefined || now - search.at > MINUTE) return undefined;
  return kindergartenPlanKey(search, weekStart(warsawDate(search.at))) === key ? search.kindergartenPlan : undefined;
}

/** This and next week's kindergarten plan of blocks: a few times a day by day (a kindergarten's plan changes rarely). */
export const KINDERGARTEN_PLAN: Resource<KindergartenPlan> = {
  name: 'kindergarten plan',
  host: 'register',
  endpoints: [KINDERGARTEN_PLAN_ENDPOINT],
  fresh: byDay(RARE),
  whenAsked: 'read',
  keepOnError: true,
  note: 'this and next week in one request, once the identifier is known',
  byPeriod: true,
  read: ({ gateway, copies, clock }, key) => {
    const found = foundKindergartenPlan(copies.peek(KINDERGARTEN_SEARCH), key ?? '', clock.now());
    if (found !== undefined) return Promise.resolve(found);
    const [host = 'gateway', lid = '', monday = ''] = (key ?? '').split(' ');
    return serviceRead(gateway, host as ServiceHost, kindergartenPlanPath(lid), kindergartenPlanResponse, kindergartenPlanRange(monday));
  },
  refusal: refusedFor(HOUR),
};

const ACTIVITIES = 'ms/kindergartens/activities-types';

/** The activities, by the host the kindergarten plan answered at. */
export const KINDERGARTEN_ACTIVITIES: Resource<z.output<typeof activitiesTypesResponse>> = {
  name: ACTIVITIES,
  host: 'register',
  endpoints: [ACTIVITIES],
  fresh: byDay(DAILY),
  whenAsked: 'keep',
  keepOnError: true,
  read: ({ gateway }, key) => serviceRead(gateway, (key ?? 'gateway') as ServiceHost, ACTIVITIES, activitiesTypesResponse),
  refusal: refusedFor(DAY),
};

const GROUP = 'ms/kindergartens/groups/<group>';

/**
 * The child's group, which a kindergarten child has instead of a class (live-notes 35): its identifier from
 * Auth/Users/Kindergarteners/<lid>, then its name from the service at the host the kindergarten plan answered at. Daily.
 */
export const KINDERGARTEN_GROUP: Resource<z.output<typeof kindergartenGroupResponse>> = {
  name: 'kindergarten group',
  host: 'register',
  endpoints: ['Auth/Users/Kindergarteners/<lid>', GROUP],
  fresh: byDay(DAILY),
  // Read at a start too: the `school` sensor names her group and waits for it, so a first install left it for the
  // next pass announced the sensor without a state (two requests; her start stays within a pupil's).
  whenAsked: 'keep',
  keepOnError: true,
  note: 'Auth/Users/Kindergarteners/<lid> for its identifier, then ms/kindergartens/groups/<id> for its name',
  read: async ({ gateway }, key) => {
    const [host = 'gateway', lid = ''] = (key ?? '').split(' ');
    const { data } = await gateway.get(`Auth/Users/Kindergarteners/${encodeURIComponent(lid)}`, kindergartenerResponse);
    return serviceRead(gateway, host as ServiceHost, GROUP.replace('<group>', encodeURIComponent(data.groupIdentifier)), kindergartenGroupResponse);
  },
  refusal: refusedFor(DAY),
};

/** The rooms by identifier (the kindergarten plan's `classroomIdentifier`). */
export const KINDERGARTEN_ROOMS = daily('Auth/Classrooms', authClassroomsResponse);

/** A refusal (403, 404, Disabled) stands this long. */
function refusedFor(ms: number): Resource['refusal'] {
  return (error, now) => (error instanceof UnexpectedResponseError && error.refused ? now + ms : undefined);
}

/**
 * A service's answer through its schema. Its 5xx (the service down) is this resource's failure, not the
 * register's: the rest of the child's reads go on, and `problem` says `service_down` (its cause), as for a
 * school list's 5xx, not a shape the bridge does not know.
 */
async function serviceRead<S extends z.ZodType>(gateway: Gateway, host: ServiceHost, path: string, schema: S, query?: Record<string, string>) {
  const answer = await gateway.service(host, path, query).catch((error: unknown) => {
    if (error instanceof ConnectionError && error.status !== undefined)
      throw new UnexpectedResponseError(error.status, error.message, { resource: path, cause: error });
    throw error;
  });
  if (answer.status < 200 || answer.status >= 300)
    throw new UnexpectedResponseError(answer.status, `${path}: status ${answer.status}`, { resource: path });
  if (isDisabled(answer.json)) throw new UnexpectedResponseError(answer.status, `${path}: ${DISABLED_CODE}`, { code: DISABLED_CODE, resource: path });
  const parsed = schema.safeParse(answer.json);
  if (!parsed.success) throw new UnexpectedResponseError(200, `${path}: unexpected shape`, { resource: path });
  return parsed.data;
}
