// The data gateway's routes: endpoints with logic map to builders; everything else is served from the
// account's static fixture bodies. Adding a resource is adding its body to a fixture file.
import { answers } from '../answers.js';
import type { DataResult } from '../answers.js';
import { attendances } from './attendance.js';
import { calendarMonth, calendars, calendarStats, classFreeDays, luckyNumber, schoolFreeDays } from './calendar.js';
import { expandIn, hideFuture } from './context.js';
import { hidePast } from '../year.js';
import type { DataContext } from './context.js';
import { homeworkAttachment, partialGrades } from './extras.js';
import * as identity from './identity.js';
import { gatewayIndex } from './modules.js';
import { markAsRead, schoolNotices } from './notices.js';
import { realizations } from './realizations.js';
import { authClassrooms, kindergartener } from '../kindergarten.js';
import { lessons, otherActivities, substitutions, timetableEntries, timetables } from './timetable.js';

type Builder = (ctx: DataContext) => DataResult;

interface Route {
  segments: string[];
  method: 'GET' | 'POST';
  build: Builder;
}

function route(pattern: string, build: Builder, method: 'GET' | 'POST' = 'GET'): Route {
  return { segments: pattern === '' ? [] : pattern.split('/'), method, build };
}

const ROUTES: Route[] = [
  route('', gatewayIndex),
  route('Me', identity.me),
  route('Users', identity.users),
  route('Users/:id', identity.user),
  route('Classes', identity.classes),
  route('Classes/:id', identity.classes),
  route('Schools', identity.schools),
  route('Schools/:id', identity.schools),
  route('Units', identity.units),
  route('Units/:id', identity.units),
  route('UserProfile', identity.userProfile),
  route('Auth/TokenInfo', identity.tokenInfo),
  route('Auth/UserInfo/:lid', identity.userInfo),
  route('Auth/Users/Kindergarteners/:id', kindergartener),
  route('Auth/Classrooms', authClassrooms),
  route('SystemData', identity.systemData),
  route('Lessons', lessons),
  route('Lessons/:id', lessons),
  route('Timetables', timetables),
  route('TimetableEntries', timetableEntries),
  route('Timetables/OtherActivitiesRegister', otherActivities),
  route('Calendars/Substitutions', substitutions),
  route('Calendars/Substitutions/:id', substitutions),
  route('Attendances', attendances),
  route('Realizations', realizations),
  route('SchoolFreeDays', (ctx) => schoolFreeDays(ctx, false)),
  route('Calendars/SchoolFreeDays', (ctx) => schoolFreeDays(ctx, true)),
  route('ClassFreeDays', (ctx) => classFreeDays(ctx, false)),
  route('Calendars/ClassFreeDays', (ctx) => classFreeDays(ctx, true)),
  route('Calendars', calendars),
  route('Calendars/Stats', calendarStats),
  route('Calendars/:id', calendarMonth),
  route('LuckyNumbers', luckyNumber),
  route('SchoolNotices', schoolNotices),
  route('SchoolNotices/:id', schoolNotices),
  route('SchoolNotices/MarkAsRead/:id', markAsRead, 'POST'),
  route('HomeWorkAssignments/Attachment/:id', homeworkAttachment),
  route('Auth/DescriptiveGradingSystem/PartialGrades/Student/:lid', partialGrades, 'POST'),
];

function matchRoute(r: Route, parts: string[]): Record<string, string> | undefined {
  if (r.segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, seg] of r.segments.entries()) {
    const part = parts[i] ?? '';
    if (seg.startsWith(':')) params[seg.slice(1)] = decodeURIComponent(part);
    else if (seg !== part) return undefined;
  }
  return params;
}

/** Literal routes first, then the static bodies, then routes with parameters (so Calendars/Stats is not an id). */
export function resolve(endpoint: string, ctx: Omit<DataContext, 'params'>): DataResult {
  const parts = endpoint === '' ? [] : endpoint.split('/');
  const literal = ROUTES.filter((r) => !r.segments.some((s) => s.startsWith(':')));
  const withParams = ROUTES.filter((r) => r.segments.some((s) => s.startsWith(':')));
  const found = (routes: Route[]): DataResult | undefined => {
    let wrongMethod = false;
    for (const r of routes) {
      const params = matchRoute(r, parts);
      if (!params) continue;
      if (r.method === ctx.method) return r.build({ ...ctx, params });
      wrongMethod = true;
    }
    return wrongMethod ? answers.methodNotAllowed() : undefined;
  };
  const direct = found(literal);
  if (direct) return direct;
  const body = ctx.account.resources.get(endpoint);
  if (body !== undefined) {
    if (ctx.method !== 'GET') return answers.methodNotAllowed();
    return answers.ok(hidePast(hideFuture(expandIn({ ...ctx, params: {} }, body), { ...ctx, params: {} }), ctx.account.year.since(ctx.today)));
  }
  return found(withParams) ?? answers.notFound();
}
