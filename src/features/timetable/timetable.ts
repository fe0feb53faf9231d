// The timetable feature: the timetable of this week (and next week only when the next school day falls in
// it), plan changes, free days and the extra classes -> plan changes, school days, lesson hours, next lesson and
// plan_change and free_day events, the day's lessons, the lesson in progress and at_school. Computed
// when a copy it reads moved; between passes the runner computes again (from the copies) at each
// lesson's start and end. What it publishes is declared in entities.ts, with the states it makes of the view (states.ts, day.ts).
import { mergeTimetables, schoolBells } from '../../rules/timetable.js';
import { schedule, schoolDays, type Schedule, type ScheduleInput } from '../../rules/schedule.js';
import { timetableWeeks, freeDays, freeDayEvents, type FreeDaysInput } from '../../rules/schooldays.js';
import { calendarFeedDates } from '../../rules/calendar-feeds.js';
import { addDays, weekStart } from '../../util/time.js';
import { want, type Copies, type Want } from '../../engine/resource.js';
import { TIMETABLE } from '../../engine/resources/timetable.js';
import { CLASS_FREE_DAYS, EXTRA_CLASSES, FREE_DAY_TYPES, SCHOOL_FREE_DAYS, SUBSTITUTIONS } from './resources.js';
import { nameLookups, namesOf } from '../../engine/resources/lookups.js';
import { UNITS } from '../../engine/resources/grades.js';
import { childUnit } from '../../portal/schemas/identity.js';
import { makeNames } from '../../rules/names.js';
import type { Events } from '../kit/contract.js';
import { feature } from '../feature.js';
import type { Language } from '../../config/language.js';
import { kindergartenBlocks, kindergartenGroup, kindergartenReads, kindergartenTimetable, KindergartenPlanSearchStore } from './kindergarten.js';
import { KINDERGARTEN_SEARCH } from '../../engine/resources/kindergarten.js';
import { freeDay, planChange, renderTimetable, TIMETABLE_ENTITIES, type TimetableOutput } from './entities.js';
import { timetableBoard } from './board.js';
import { timetableDashboard } from './dashboard.js';
import { timetableAsk, type TimetableAsk } from './ask.js';
import { askedDays, askedWeeks, type SchoolYearSpan } from './asked-weeks.js';
import { splitSlots, standingOf, standingWants, type StandingOut } from './standing.js';
import type { Identity } from '../../engine/identity.js';

export { renderTimetable } from './entities.js';
import type { ResourceCache } from '../../engine/cache.js';
import type { Source, SourceContext, SourceResult } from '../../engine/source.js';

export const timetable = feature({
  name: 'timetable',
  reads: ({ copies, today, identity, onDemand }) => {
    // A kindergarten's plan, once found, stands in for the school's timetable and its changes.
    const kindergarten = kindergartenReads(copies, today);
    if (kindergarten?.source) return [...FREE_DAY_WANTS, ...kindergarten.wants, ...askedWeeks(onDemand)];
    const { weeks, ahead } = timetableReads(copies, today, identity.classId);
    // The weeks a person asked Assist about (read on demand, never by a pass) are computed from too.
    const read = [...weeks, ...(ahead === undefined ? [] : [ahead]), ...askedWeeks(onDemand)];
    const lessons = read.flatMap((w) => Object.values(copies.peek(TIMETABLE, w.key)?.Timetable ?? {}).flat(2));
    return [
      ...FREE_DAY_WANTS,
      want(SUBSTITUTIONS),
      want(EXTRA_CLASSES, weekStart(today)),
      // The bells of the child's unit (a school complex has several): the grades read it daily anyway.
      want(UNITS),
      ...read,
      ...nameLookups(copies, {
        subjects: lessons.map((l) => l.Subject?.id),
        users: lessons.map((l) => l.Teacher?.id),
        classrooms: lessons.map((l) => l.Classroom?.id),
      }),
      ...(kindergarten?.wants ?? []),
      // The standing weekly plan, which this and next week are told against.
      ...standingWants(copies),
    ];
  },
  // The child's attendance marks tell a split class's own group from the other one.
  inputs: ['attendance'],
  entities: TIMETABLE_ENTITIES,
  board: timetableBoard,
  dashboard: timetableDashboard,
  ask: timetableAsk,
  create: (access) => new TimetableSource(access.language, new KindergartenPlanSearchStore(access.dataDir, access.account.login), access.cache),
});

class TimetableSource implements Source {
  constructor(
    private readonly language: Language,
    private readonly searches: KindergartenPlanSearchStore,
    private readonly cache: ResourceCache,
  ) {}

  /** The kindergarten plan's last search, before the first pass. */
  prepare(): Promise<void> {
    return this.searches.restore(this.cache);
  }

  /** What the last pass read, so that a lesson boundary recomputes without asking the portal. */
  private last: ScheduleInput | undefined;
  /** The lesson starts and ends still ahead today, as of the last computation. */
  private boundaries: number[] = [];

  async compute(ctx: SourceContext): Promise<SourceResult> {
    const free = freeDaysOf(ctx.cache, ctx.identity.classId);
    const kindergarten = kindergartenReads(ctx.cache, ctx.today);
    await this.searches
      .keep(ctx.cache.peek(KINDERGARTEN_SEARCH))
      .catch((error: Error) => ctx.log.warn({ err: error.message }, 'could not keep the plan search'));
    const blocks = kindergarten === undefined ? undefined : kindergartenTimetable(ctx.cache, kindergarten);
    const substitutions = kindergarten?.source ? undefined : ctx.cache.get(SUBSTITUTIONS)?.Substitutions;
    // This and next week's extra classes (a kindergarten has none): the last good copy; none while refused or never read.
    const extra = kindergarten?.source ? undefined : ctx.cache.peek(EXTRA_CLASSES, weekStart(ctx.today))?.data;
    const extraUnread = !kindergarten?.source && extra === undefined && !ctx.cache.refused(EXTRA_CLASSES, weekStart(ctx.today));
    const { weeks, ahead } = kindergarten?.source ? { weeks: [] } : timetableReads(ctx.cache, ctx.today, ctx.identity.classId);
    const freeList = freeDays(free);
    const days = blocks ?? mergeTimetables(...weeks.map((w) => ctx.cache.get(TIMETABLE, w.key)?.Timetable));
    // Next week for the calendar feeds: its last copy when this pass's read failed, none before it is read (a kindergarten's plan holds both weeks).
    const calendarFeedDays = ahead === undefined ? days : mergeTimetables(days, ctx.cache.peek(TIMETABLE, ahead.key)?.Timetable);
    const [thisWeek] = timetableWeeks(ctx.today);
    const attended = ctx.inputs.attendance?.lessons;
    const unitBells = kindergarten?.source ? undefined : childUnit(ctx.cache.get(UNITS), ctx.identity.unitId)?.bells;
    const bells = kindergarten?.source ? [] : schoolBells(unitBells?.length ? unitBells : ctx.identity.bells, days);
    const input: ScheduleInput = {
      days,
      substitutions,
      extra,
      free,
      // A kindergarten's blocks carry their names (the activities, rooms and teachers of its own lookups).
      names: kindergarten?.source ? makeNames() : namesOf(ctx.cache),
      now: ctx.now,
      ...(attended ? { attended: new Set(attended) } : {}),
      bells,
      ...(kindergarten?.source ? {} : { split: splitSlots(ctx.cache) }),
    };
    const result = this.schedule(input);
    const output: TimetableOutput = {
      days,
      nextSchoolDay: result.nextSchoolDay,
      fortnight: schoolDays({ ...input, days: calendarFeedDays }, calendarFeedDates(thisWeek as string)),
      freeDays: freeList,
      kind: kindergarten?.source ? 'kindergarten' : 'school',
      group: kindergartenGroup(ctx.cache, kindergarten),
      bells,
      ...(extraUnread ? { extraUnread } : {}),
    };
    this.standing = kindergarten?.source ? undefined : standingOf(ctx.cache, output.fortnight, input.names, this.language, ctx.log);
    // Keyed by the declarations: the keys are spelled where they are declared (entities.ts).
    const events = { [planChange.key]: result.events, [freeDay.key]: freeDayEvents(freeList, ctx.today) } satisfies Events<
      typeof planChange | typeof freeDay
    >;
    const source = kindergarten?.source;
    const asked = askedDays(ctx.cache, askedWeeks(ctx.onDemand ?? []), input, (key) => source && kindergartenBlocks(ctx.cache, source, key));
    const ask = {
      fortnight: output.fortnight,
      freeDays: free.schoolFreeDays === undefined && free.classFreeDays === undefined ? null : freeList,
      bells: output.bells,
      nextSchoolDay: output.nextSchoolDay,
      asked: asked.days,
      unpublished: asked.unpublished,
      year: yearOf(ctx.identity),
      kind: output.kind ?? 'school',
      kindergartenPlan: source ? `${source.host} ${source.lid}` : null,
      standing: this.standing ?? null,
    } satisfies TimetableAsk;
    return { states: renderTimetable(result, this.language, substitutions !== undefined, this.standing), events, output, ask };
  }

  /** This and next week against the standing plan, as the last computation found (a kindergarten's plan has none). */
  private standing: StandingOut[] | null | undefined;

  /** The states at ctx.now from what the last pass read (a lesson boundary); nothing before a pass. */
  restate(ctx: SourceContext): SourceResult['states'] {
    if (this.last === undefined) return undefined;
    return renderTimetable(this.schedule({ ...this.last, now: ctx.now }), this.language, this.last.substitutions !== undefined, this.standing);
  }

  /** The next instant after `now` at which a lesson of today starts or ends; null when none is left. */
  nextBoundary(now: number): number | null {
    return this.boundaries.find((t) => t > now) ?? null;
  }

  private schedule(input: ScheduleInput): Schedule {
    this.last = input;
    const result = schedule(input);
    this.boundaries = result.boundaries;
    return result;
  }
}

const FREE_DAY_WANTS: readonly Want[] = [want(SCHOOL_FREE_DAYS), want(CLASS_FREE_DAYS), want(FREE_DAY_TYPES)];

/** The free days of the school and of the child's class, as their copies give them. */
function freeDaysOf(copies: Copies, classId: string | undefined): FreeDaysInput {
  return {
    schoolFreeDays: copies.get(SCHOOL_FREE_DAYS)?.SchoolFreeDays,
    classFreeDays: copies.get(CLASS_FREE_DAYS)?.ClassFreeDays,
    classFreeDayTypes: copies.get(FREE_DAY_TYPES)?.Types,
    classId,
  };
}

/**
 * The weeks the states need (this one, and the next when the next school day falls in it, as this
 * week's copy and the free days tell) and the week read ahead of need for the calendar feeds.
 */
function timetableReads(copies: Copies, today: string, classId: string | undefined): { weeks: Want[]; ahead?: Want } {
  const [thisWeek = today] = timetableWeeks(today);
  const partial = mergeTimetables(copies.get(TIMETABLE, thisWeek)?.Timetable);
  const mondays = timetableWeeks(today, { days: partial, names: namesOf(copies), free: freeDays(freeDaysOf(copies, classId)) });
  const nextWeek = addDays(thisWeek, 7);
  // Next week ahead of need once this week's answered: an account the portal refuses the timetable (a kindergarten's) asks once.
  const answered = copies.peek(TIMETABLE, thisWeek) !== undefined;
  return {
    weeks: mondays.map((monday) => want(TIMETABLE, monday)),
    ...(mondays.includes(nextWeek) || !answered ? {} : { ahead: want(TIMETABLE, nextWeek, { ahead: true }) }),
  };
}

/** The school year's span as the child's identity gives it; null while either end is unknown. */
function yearOf(identity: Identity): SchoolYearSpan | null {
  const { schoolYearBegin: from, schoolYearEnd: to } = identity;
  return from === undefined || to === undefined ? null : { from: from.slice(0, 10), to: to.slice(0, 10) };
}
