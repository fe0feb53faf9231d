// Free days, the class calendar index (Calendars, Calendars/Stats, Calendars/<id> month ids) and the
// lucky number, which follows the school days of the timetable.
import { createHash } from 'node:crypto';
import { answers } from '../answers.js';
import type { DataResult } from '../answers.js';
import { addDays } from '../dates.js';
import { ref } from '../expand.js';
import type { FreeDayFixture } from '../fixtures.js';
import { expandIn, hideFuture } from './context.js';
import type { DataContext } from './context.js';
import { buildSchoolDays } from './school-days.js';
import type { SchoolDays } from './school-days.js';

/** From this Warsaw time on a school day, the lucky number shown is the next school day's. */
const LUCKY_SWITCH = '15:00';

export function schoolFreeDays(ctx: DataContext, withAddDate: boolean): DataResult {
  const days = expandIn<{ AddDate: string }[]>(ctx, ctx.account.school.schoolFreeDays).map((d) => ({
    ...d,
    Units: [ref(ctx, 'Units', 1)],
  }));
  const visible = hideFuture({ SchoolFreeDays: days }, ctx).SchoolFreeDays;
  return answers.ok({ SchoolFreeDays: withAddDate ? visible : visible.map(({ AddDate: _, ...d }) => d) });
}

/** The free days of every class of the school, as the portal lists them; a consumer filters by class. */
export function classFreeDays(ctx: DataContext, withAddDate: boolean): DataResult {
  const days = expandIn<FreeDayFixture[]>(ctx, ctx.account.school.classFreeDays).map((d) => ({
    Id: d.Id,
    Class: ref(ctx, 'Classes', d.Class),
    Type: ref(ctx, 'Calendars/ClassFreeDays/Types', d.Type),
    DateFrom: d.DateFrom,
    DateTo: d.DateTo,
    ...(d.LessonNoFrom === undefined ? {} : { LessonNoFrom: d.LessonNoFrom, LessonNoTo: d.LessonNoTo }),
    AddDate: d.AddDate,
  }));
  const visible = hideFuture({ ClassFreeDays: days }, ctx).ClassFreeDays;
  return answers.ok({ ClassFreeDays: withAddDate ? visible : visible.map(({ AddDate: _, ...d }) => d) });
}

function calendarId(ctx: DataContext): string {
  return String(ctx.account.data.account.classId);
}

export function calendars(ctx: DataContext): DataResult {
  return answers.ok({ Calendars: [ref(ctx, 'Calendars', calendarId(ctx))] });
}

export function calendarStats(ctx: DataContext): DataResult {
  const year = buildSchoolDays(ctx).year;
  return answers.ok({ Stats: [{ Id: calendarId(ctx), MinDate: year.start, MaxDate: year.end }] });
}

interface Dated {
  Id: number | string;
  from: string;
  to: string;
}

function listOf(ctx: DataContext, endpoint: string): Record<string, unknown>[] {
  const body = hideFuture(expandIn<Record<string, unknown>>(ctx, ctx.account.resources.get(endpoint) ?? {}), ctx);
  const list = Object.values(body).find((v) => Array.isArray(v));
  return Array.isArray(list) ? (list as Record<string, unknown>[]) : [];
}

/** Calendars/<id>?year=&month=: ids only, per kind, of one month (or of the whole year without them). */
export function calendarMonth(ctx: DataContext): DataResult {
  if (ctx.params.id !== calendarId(ctx)) return answers.notFound();
  const schoolDays = buildSchoolDays(ctx);
  const year = ctx.query.get('year');
  const month = ctx.query.get('month');
  let from = schoolDays.year.start;
  let to = schoolDays.year.end;
  if (year !== null && month !== null) {
    const m = Number(month);
    if (!/^\d{4}$/.test(year) || !(m >= 1 && m <= 12)) return answers.badRequest('Invalid year or month');
    from = `${year}-${String(m).padStart(2, '0')}-01`;
    to = addDays(m === 12 ? `${Number(year) + 1}-01-01` : `${year}-${String(m + 1).padStart(2, '0')}-01`, -1);
  }
  const inRange = (items: Dated[], kind: string): unknown[] => items.filter((i) => i.from <= to && i.to >= from).map((i) => ref(ctx, kind, i.Id));
  const byDate = (endpoint: string): Dated[] => listOf(ctx, endpoint).map((r) => ({ Id: r.Id as number, from: String(r.Date), to: String(r.Date) }));
  const span = (items: { Id: number; DateFrom: string; DateTo: string }[]): Dated[] =>
    items.map((d) => ({ Id: d.Id, from: d.DateFrom, to: d.DateTo }));
  const classId = ctx.account.data.account.classId;
  const calendar = {
    HomeWorks: inRange(byDate('HomeWorks'), 'HomeWorks'),
    Substitutions: inRange(
      schoolDays.changes.map((c) => ({ Id: c.Id, from: c.OrgDate, to: c.OrgDate })),
      'Calendars/Substitutions',
    ),
    ParentTeacherConferences: inRange(byDate('ParentTeacherConferences'), 'ParentTeacherConferences'),
    SchoolFreeDays: inRange(span(expandIn(ctx, ctx.account.school.schoolFreeDays)), 'SchoolFreeDays'),
    ClassFreeDays: inRange(
      span(expandIn<FreeDayFixture[]>(ctx, ctx.account.school.classFreeDays).filter((d) => d.Class === classId)),
      'ClassFreeDays',
    ),
    TeacherFreeDays: [],
  };
  const pages =
    year !== null && month !== null
      ? {
          Prev: monthUrl(ctx, addDays(from, -1)),
          Next: monthUrl(ctx, addDays(to, 1)),
        }
      : null;
  return answers.ok({ Calendar: calendar, ...(pages ? { Pages: pages } : {}) });
}

function monthUrl(ctx: DataContext, date: string): string {
  return `${ctx.api}/Calendars/${calendarId(ctx)}?year=${date.slice(0, 4)}&month=${Number(date.slice(5, 7))}`;
}

/**
 * The day whose number is shown: today until 15:00 on a school day, else the next school day. The school's: one draw
 * for every class, a class's trip or free day aside (siblings of one school read one number).
 */
function luckyDay(ctx: DataContext, schoolDays: SchoolDays): string {
  const open = schoolDays.isSchoolOpen;
  if (open(ctx.today) && ctx.clock.slice(0, 5) < LUCKY_SWITCH) return ctx.today;
  for (let d = addDays(ctx.today, 1); d <= schoolDays.year.end; d = addDays(d, 1)) if (open(d)) return d;
  // After the last school day the last number stays.
  for (let d = ctx.today; d >= schoolDays.year.start; d = addDays(d, -1)) if (open(d)) return d;
  return ctx.today;
}

/** A stable draw per day, 1 to 30 (a class of about thirty). */
function draw(day: string): number {
  return (createHash('sha1').update(`lucky:${day}`).digest().readUInt32BE(0) % 30) + 1;
}

/**
 * The number in the form the account's school answers (live-notes 8): the usual object, the list form,
 * null (not active), 200 Disabled, or the error with Code LuckyNumberIsNotActive.
 */
export function luckyNumber(ctx: DataContext): DataResult {
  if (ctx.query.has('forDay')) return answers.forbidden();
  const form = ctx.account.luckyForm;
  if (form === 'null') return answers.ok({ LuckyNumber: null });
  if (form === 'disabled') return answers.disabled(`${ctx.api}/LuckyNumbers`);
  if (form === 'not_active') {
    return { status: 400, body: { Status: 'Error', Code: 'LuckyNumberIsNotActive', Message: 'Lucky number is not active.' } };
  }
  const schoolDays = buildSchoolDays(ctx);
  const override = ctx.account.lucky;
  const day = override?.day ?? luckyDay(ctx, schoolDays);
  const entry = { LuckyNumber: override?.number ?? draw(day), LuckyNumberDay: day };
  if (form === 'list') return answers.ok({ LuckyNumbers: [entry], Url: `${ctx.api}/LuckyNumbers` });
  return answers.ok({ LuckyNumber: entry });
}
