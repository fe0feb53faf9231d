// A kindergarten child (live-notes 33-36, 58): its kindergarten plan and lookups on the kindergarten service,
// `{base_url}/gateway/ms/kindergartens/...` with the register's cookie session (and, as the switch says,
// the child's bearer token there or on the API host, `{api host}/ms/kindergartens/...`), the two lookups
// of the API (`Auth/Users/Kindergarteners/<id>`, `Auth/Classrooms`), and the account as public clients
// report a preschool login (live-notes 58): the school's lists answer 403 AccessDeny, its Me and user record
// name no class, its unit is the kindergarten's (grades all off), and the lucky number is a module switched off.
import type { SimAccount } from './account.js';
import { answers, type DataResult } from './answers.js';
import type { DataContext } from './data/context.js';
import { addDays, isoWeekday } from './dates.js';
import { expand } from './expand.js';
import type { Call, Reply } from './types.js';
import type { World } from './world.js';

/** The kindergarten part of a child fixture (fixtures/simulator/zosia.json). */
export interface KindergartenFixture {
  group: { identifier: string; name: string; tutors: number[] };
  activities: { identifier: string; name: string }[];
  classrooms: { identifier: string; symbol: string; name: string }[];
  /** ISO weekday -> blocks [start, end, activity (suffix of its identifier), room symbol, teachers (Users ids)]. */
  week: Record<string, [string, string, string, string, number[]][]>;
}

/** Which host takes the child's bearer token for the kindergarten plan (the family road); the gateway path always takes the cookie. */
export type BearerAt = 'gateway' | 'api' | 'both' | 'none';

/**
 * What a kindergarten refuses of the school's register (live-notes 58), each with 403 AccessDeny: the timetable,
 * the attendance and its types, every kind of grade with its lookups, behaviour, notes, homework and the agenda
 * (an entry ending in `/*` covers what is under it). Me, Users, Schools, Units, SchoolNotices, the free days and
 * the messages answer.
 */
const REFUSED = [
  'Timetables',
  'Timetables/*',
  'Calendars',
  'Calendars/Substitutions',
  'Attendances',
  'Attendances/*',
  'Grades',
  'Grades/*',
  'GradingSystem',
  'PointGrades',
  'PointGrades/*',
  'BaseTextGrades',
  'TextGrades',
  'TextGrades/*',
  'DescriptiveGrades',
  'DescriptiveGrades/*',
  'DescriptiveTextGrades',
  'Auth/DescriptiveGradingSystem/*',
  'BehaviourGrades',
  'BehaviourGrades/*',
  'Notes',
  'Notes/*',
  'HomeWorks',
  'HomeWorks/*',
  'HomeWorkAssignments',
  'ParentTeacherConferences',
  'Realizations',
];

/** The kindergarten's own unit in Units (Users/<id>.Unit names it): no bells, and no kind of grade switched on. */
export const KINDERGARTEN_UNIT = 3;

export function kindergartenUnit(): Record<string, unknown> {
  return {
    Id: KINDERGARTEN_UNIT,
    Name: 'Przedszkole Samorządowe nr 1',
    ShortName: 'P1',
    Type: 'P',
    GradesSettings: {
      StandardGradesEnabled: false,
      PointGradesEnabled: false,
      DescriptiveGradesEnabled: false,
      ForbidAddGradesWithoutCategory: false,
      AllowClassTutorEditGrades: false,
    },
  };
}

/** The switches of a kindergarten child's account. */
export class SimKindergarten {
  /** The kindergarten plan service answers `downStatus` (down), whatever else works. */
  kindergartenPlanDown = false;
  /** What the service answers while down: 503 (maintenance) by default, or a 500 (its own fault). */
  downStatus = 503;
  /** Which host takes the child's bearer token for the kindergarten plan: by default the API host's (live-notes 34 does not say). */
  bearerAt: BearerAt = 'api';
  /**
   * Where the child's identifier shows (live-notes 36): 'users' as for every child (Users/<UserId>.AccountId and
   * Auth/UserInfo of the parent), or also in `Me.User.Identifier`, the first place the search looks.
   */
  identifierIn: 'users' | 'me' = 'users';

  constructor(
    readonly fixture: KindergartenFixture,
    private readonly account: SimAccount,
  ) {
    for (const endpoint of REFUSED) account.setModuleStatus(endpoint, 403);
    // A kindergarten runs no lucky number: expected to answer as a module switched off (live-notes 8-9, 58).
    account.setModuleStatus('LuckyNumbers', 'disabled');
    account.unitId = KINDERGARTEN_UNIT;
  }

  /** The blocks of one day as the kindergarten plan service lists them. */
  entriesOn(date: string): Record<string, unknown>[] {
    const blocks = this.fixture.week[String(isoWeekday(date))] ?? [];
    return blocks.map(([startTime, endTime, activity, room, teachers]) => ({
      date,
      startTime,
      endTime,
      activityTypeIdentifier: `LID-KG-ACT-${activity}`,
      classroomIdentifier: this.fixture.classrooms.find((c) => c.symbol === room)?.identifier ?? null,
      teachers: teachers.map((id) => this.teacherLid(id)).filter((lid) => lid !== undefined),
      type: 'planned',
    }));
  }

  teacherLid(id: number): string | undefined {
    const user = this.account.school.users.find((u) => u.Id === id);
    return typeof user?.AccountId === 'string' ? user.AccountId : undefined;
  }
}

const SERVICE = /^(?:\/gateway)?\/ms\/kindergartens\/(.+?)\/?$/;

/** A path of the kindergarten service: on the portal host under /gateway/ms/, on the API host under /ms/. */
export function isKindergartenPath(host: Call['host'], path: string): boolean {
  const prefix = host === 'portal' ? '/gateway/ms/kindergartens/' : '/ms/kindergartens/';
  return path.startsWith(prefix);
}

/**
 * The kindergarten service for a caller the host has identified (by its cookie session or bearer token):
 * `how` says which; a host that does not take it answers 401 as the gateway answers a bearer.
 */
export function kindergartenService(world: World, call: Call, account: SimAccount | undefined, how: 'cookie' | 'bearer'): Reply {
  const kg = account?.kindergarten;
  if (!account) return reply(answers.deadSession());
  // A host that does not take the token: the gateway answers 401 as it does a bearer (live-notes 24), the API host
  // knows no such path (404).
  const at = call.host === 'portal' ? 'gateway' : 'api';
  if (how === 'bearer' && (kg === undefined || (kg.bearerAt !== 'both' && kg.bearerAt !== at))) {
    return reply(at === 'gateway' ? answers.deadSession() : answers.notFound(), account.login);
  }
  if (call.method !== 'GET') return reply(answers.methodNotAllowed(), account.login);
  const rest = SERVICE.exec(call.path)?.[1] ?? '';
  if (kg?.kindergartenPlanDown)
    return { status: kg.downStatus, headers: { 'Content-Type': 'text/html' }, body: `<h1>${kg.downStatus}</h1>`, login: account.login };
  return reply(serviceAnswer(world, call, account, rest), account.login);
}

function serviceAnswer(world: World, call: Call, account: SimAccount, rest: string): DataResult {
  const kg = account.kindergarten;
  const kindergartenPlan = /^timetable\/kindergarteners\/([^/]+)$/.exec(rest);
  if (kindergartenPlan) {
    // Another identifier (the parent's, a school child's) is not a kindergartener of this service.
    if (!kg || decodeURIComponent(kindergartenPlan[1] ?? '') !== account.childLid) return answers.forbidden('Kindergartener not found');
    const from = call.query.get('dateFrom') ?? world.today();
    const to = call.query.get('dateTo') ?? from;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to) || to < from) return answers.badRequest('dateFrom, dateTo');
    const free = freeDates(world, account);
    const entries: Record<string, unknown>[] = [];
    for (let d = from, n = 0; d <= to && n < 62; d = addDays(d, 1), n++) if (!free.has(d)) entries.push(...kg.entriesOn(d));
    return answers.ok({ timetableEntries: entries });
  }
  if (!kg) return answers.notFound();
  if (rest === 'activities-types') return answers.ok({ activitiesTypes: kg.fixture.activities });
  const group = /^groups\/([^/]+)$/.exec(rest);
  if (group && decodeURIComponent(group[1] ?? '') === kg.fixture.group.identifier) {
    const { identifier, name, tutors } = kg.fixture.group;
    return answers.ok({ identifier, name, tutors: tutors.map((id) => kg.teacherLid(id)) });
  }
  return answers.notFound();
}

/** The school's free days, as dates. */
function freeDates(world: World, account: SimAccount): Set<string> {
  const ctx = { today: world.today(), nowMs: world.now(), api: '', base: '' };
  const out = new Set<string>();
  for (const f of expand<{ DateFrom: string; DateTo: string }[]>(account.school.schoolFreeDays, ctx)) {
    for (let d = f.DateFrom; d <= f.DateTo; d = addDays(d, 1)) out.add(d);
  }
  return out;
}

/** Auth/Users/Kindergarteners/<id>: the child's group (live-notes 35). */
export function kindergartener(ctx: DataContext): DataResult {
  const kg = ctx.account.kindergarten;
  if (!kg || (ctx.params.id !== ctx.account.childLid && ctx.params.id !== String(ctx.account.data.account.userId))) return answers.notFound();
  return answers.ok({ data: { identifier: ctx.account.childLid, groupIdentifier: kg.fixture.group.identifier } });
}

/** Auth/Classrooms: the rooms by identifier (live-notes 35): a kindergarten's own, and the school's. */
export function authClassrooms(ctx: DataContext): DataResult {
  const school = ctx.account.school.classrooms.map((c) => ({ identifier: `LID-CLASSROOM-${c.Id}`, symbol: c.Symbol, name: c.Name }));
  return answers.ok({ data: [...(ctx.account.kindergarten?.fixture.classrooms ?? []), ...school] });
}

function reply(result: DataResult, login?: string): Reply {
  return {
    status: result.status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
    body: result.body === undefined ? '' : JSON.stringify(result.body),
    ...(login === undefined ? {} : { login }),
  };
}
