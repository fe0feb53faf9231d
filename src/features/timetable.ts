// The timetable feature, normal tier: the timetable of this week (and next week only when the next school day falls in
// it), plan changes and free days -> plan changes, school days, lesson hours, next lesson and
// plan_change and free_day events, the day's lessons, the lesson in progress and at_school. Each
// normal poll recomputes them for the current time, from memory when the class calendar says the
// lists stand; between polls the runner asks again (from memory) at each lesson's start and end.
import { substitutionsResponse, timetablesResponse, type Substitution, type TimetableDays } from '../portal/schemas/timetable.js';
import { classFreeDayTypesResponse, classFreeDaysResponse, schoolFreeDaysResponse } from '../portal/schemas/calendar.js';
import { mergeTimetables } from '../school/timetable.js';
import { schedule, schoolDays, type Schedule, type ScheduleInput, type SchoolDay } from '../school/schedule.js';
import { timetableWeeks, freeDays, freeDayEvents, type FreeDay, type FreeDayPayload, type FreeDaysInput } from '../school/schooldays.js';
import { feedDates } from '../school/calendar-feeds.js';
import { HOUR, MINUTE } from '../feature-kit/resources.js';
import { always, BY_THE_HOUR, DAILY, HOURLY, NEWS, RARE, steady, type Freshness, type PlanRow } from '../feature-kit/plan.js';
import { addDays, warsawInstant } from '../util/time.js';
import { names } from '../feature-kit/lookups.js';
import { CALENDAR_PLAN, signalled } from '../feature-kit/calendar.js';
import { binary, eventEntity, sensor } from '../feature-kit/entities.js';
import { shape, type Events, type States } from '../feature-kit/contract.js';
import type { PlanChange, PlanChangePayload } from '../school/plan-changes.js';
import { fetchAll } from '../feature-kit/fetch-plan.js';
import { feature } from './feature.js';
import { FALLBACK_LANGUAGE, type Language } from '../config/language.js';
import { type CurrentLesson, type TimetableDay } from './timetable-day.js';
import { renderTimetable } from './timetable-states.js';

export { renderTimetable } from './timetable-states.js';
import type { Source, SourceContext, SourceResult } from '../feature-kit/source.js';

/** What the timetable hands to the features that name it as an input. */
export interface TimetableOutput {
  days: TimetableDays;
  /** The next school day after today, or null when the timetable cannot tell. */
  nextSchoolDay: string | null;
  /** This and next week, Monday to Sunday, with their lessons and changes (the calendar feeds). */
  fortnight: SchoolDay[];
  /** The free days of the school and of the child's class. */
  freeDays: FreeDay[];
}

declare module '../feature-kit/source.js' {
  interface FeatureOutputs {
    timetable: TimetableOutput;
  }
}

/**
 * Next week for the calendar feeds when the states do not need it: at most every 6 hours (at once
 * when the class calendar lists a new plan change), and not at night, when no one reads a calendar
 * (only a bridge started then reads one).
 */
const FEED_WEEK: Freshness = { ...always(6 * HOUR - 5 * MINUTE), night: Infinity };
const BY_CHANGES = 'class calendar (plan change ids)';

/**
 * The timetable's rows of the fetch plan. A plan change of today or the next school day is news; it
 * is a new entry under Substitutions, so while the class calendar lists the same ids the week stands.
 * A 403 on a week means "not published yet", not a dead session: asked again within the hour.
 */
export const TIMETABLE_PLAN = {
  week: { resource: 'Timetables (this week; next week when the next school day falls in it)', fresh: NEWS, vouch: { by: BY_CHANGES, fresh: always(RARE) }, refresh: 'unvouched', refusedForMs: HOURLY },
  feedWeek: { resource: 'Timetables (next week, for the calendar feeds)', fresh: FEED_WEEK, vouch: { by: BY_CHANGES, fresh: FEED_WEEK }, refresh: 'keep', refusedForMs: HOURLY, notAtStart: true },
  substitutions: { resource: 'Calendars/Substitutions', fresh: BY_THE_HOUR, vouch: { by: BY_CHANGES, fresh: always(RARE) }, refresh: 'unvouched', note: 'the whole year\'s changes; the timetable itself shows today\'s' },
  schoolFreeDays: { resource: 'SchoolFreeDays', fresh: always(DAILY), vouch: { by: 'class calendar (free day ids)', fresh: always(DAILY) }, refresh: 'keep' },
  classFreeDays: { resource: 'ClassFreeDays', fresh: always(DAILY), vouch: { by: 'class calendar (free day ids)', fresh: always(DAILY) }, refresh: 'keep' },
  freeDayTypes: steady('Calendars/ClassFreeDays/Types', DAILY),
} satisfies Record<string, PlanRow>;

/** The attributes of plan_changes_today / plan_changes_tomorrow: the day and its changes. */
/** A change's own `date` only for a lesson moved to another day: the day it goes to. */
export type PlanChanges = { date: string | null; changes: (Omit<PlanChange, 'date'> & { date?: string })[] };

/** The attributes of school_day_today / school_day_tomorrow. */
export type SchoolDayFacts = { date: string; lessons: number | null; free_day: string | null };

/** The attributes of next_lesson: the slot's place and time (a split class's groups joined). */
export type NextLessonFacts = {
  date: string;
  lesson_no: number | null;
  time: string | null;
  end: string | null;
  start: string | null;
  room: string | null;
  teacher: string | null;
  substitution: boolean;
};

const timestamp = { deviceClass: 'timestamp', attributes: false } as const;

export const planChangesToday = sensor('plan_changes_today', { en: 'Plan changes today', pl: 'Zmiany w planie dziś', uk: 'Зміни в розкладі сьогодні' }, { icon: 'mdi:calendar-alert', stateClass: 'measurement', attributes: shape<PlanChanges>() });
export const planChangesTomorrow = sensor('plan_changes_tomorrow', { en: 'Plan changes next school day', pl: 'Zmiany w planie w następnym dniu nauki', uk: 'Зміни в розкладі на наступний навчальний день' }, { icon: 'mdi:calendar-alert', stateClass: 'measurement', attributes: shape<PlanChanges>() });
export const schoolDayToday = binary('school_day_today', { en: 'School day today', pl: 'Dziś dzień nauki', uk: 'Сьогодні навчальний день' }, { icon: 'mdi:school-outline', attributes: shape<SchoolDayFacts>() });
export const schoolDayTomorrow = binary('school_day_tomorrow', { en: 'School day tomorrow', pl: 'Jutro dzień nauki', uk: 'Завтра навчальний день' }, { icon: 'mdi:school-outline', attributes: shape<SchoolDayFacts>() });
export const lessonsStartToday = sensor('lessons_start_today', { en: 'Lessons start today', pl: 'Początek lekcji dziś', uk: 'Початок уроків сьогодні' }, timestamp);
export const lessonsEndToday = sensor('lessons_end_today', { en: 'Lessons end today', pl: 'Koniec lekcji dziś', uk: 'Кінець уроків сьогодні' }, timestamp);
export const lessonsStartTomorrow = sensor('lessons_start_tomorrow', { en: 'Lessons start next school day', pl: 'Początek lekcji w następnym dniu nauki', uk: 'Початок уроків у наступний навчальний день' }, timestamp);
export const lessonsEndTomorrow = sensor('lessons_end_tomorrow', { en: 'Lessons end next school day', pl: 'Koniec lekcji w następnym dniu nauki', uk: 'Кінець уроків у наступний навчальний день' }, timestamp);
export const nextLesson = sensor('next_lesson', { en: 'Next lesson', pl: 'Następna lekcja', uk: 'Наступний урок' }, { icon: 'mdi:clock-outline', attributes: shape<NextLessonFacts>() });
export const planChange = eventEntity('plan_change', { en: 'Plan change', pl: 'Zmiana w planie', uk: 'Зміна в розкладі' }, 'mdi:calendar-alert', { payload: shape<PlanChangePayload>() });
export const freeDay = eventEntity('free_day', { en: 'Free day', pl: 'Dzień wolny', uk: 'Вихідний день' }, 'mdi:calendar-star', { payload: shape<FreeDayPayload>() });
export const timetableToday = sensor('timetable_today', { en: 'Timetable today', pl: 'Plan lekcji dziś', uk: 'Розклад сьогодні' }, { icon: 'mdi:timetable', stateClass: 'measurement', attributes: shape<TimetableDay>() });
export const timetableTomorrow = sensor('timetable_tomorrow', { en: 'Timetable next school day', pl: 'Plan lekcji w następnym dniu nauki', uk: 'Розклад на наступний навчальний день' }, { icon: 'mdi:timetable', stateClass: 'measurement', attributes: shape<TimetableDay>() });
export const currentLesson = sensor('current_lesson', { en: 'Current lesson', pl: 'Bieżąca lekcja', uk: 'Поточний урок' }, { icon: 'mdi:human-male-board', attributes: shape<CurrentLesson>() });
export const atSchool = binary('at_school', { en: 'At school', pl: 'W szkole', uk: 'У школі' }, { deviceClass: 'presence', icon: 'mdi:school' });

/** The states renderTimetable gives, each as its entity declares it. */
export type TimetableStates = States<
  | typeof planChangesToday
  | typeof planChangesTomorrow
  | typeof schoolDayToday
  | typeof schoolDayTomorrow
  | typeof lessonsStartToday
  | typeof lessonsEndToday
  | typeof lessonsStartTomorrow
  | typeof lessonsEndTomorrow
  | typeof nextLesson
  | typeof timetableToday
  | typeof timetableTomorrow
  | typeof currentLesson
  | typeof atSchool
>;

export const timetable = feature({
  name: 'timetable',
  tier: 'normal',
  // The class calendar's ids vouch for the plan changes (and the agenda): read with the timetable.
  plan: [CALENDAR_PLAN.ids, ...Object.values(TIMETABLE_PLAN), CALENDAR_PLAN.calendars],
  // The child's attendance marks tell a split class's own group from the other one.
  inputs: ['attendance'],
  entities: [
    planChangesToday,
    planChangesTomorrow,
    schoolDayToday,
    schoolDayTomorrow,
    lessonsStartToday,
    lessonsEndToday,
    lessonsStartTomorrow,
    lessonsEndTomorrow,
    nextLesson,
    planChange,
    timetableToday,
    timetableTomorrow,
    currentLesson,
    atSchool,
    freeDay,
  ],
  create: (access) => new TimetableSource(access.language),
});

export class TimetableSource implements Source {
  constructor(private readonly language: Language = FALLBACK_LANGUAGE) {}

  /** What the last poll read, so that a lesson boundary recomputes without asking the portal. */
  private last: ScheduleInput | undefined;
  /** The lesson starts and ends still ahead today, as of the last computation. */
  private boundaries: number[] = [];

  async poll(ctx: SourceContext): Promise<SourceResult> {
    const { free, substitutions } = await this.calendars(ctx);
    // A change to the plan is a new entry under Substitutions: without one, the week stands.
    const changes = await signalled(ctx, 'Substitutions');
    const weeks = new Map<string, TimetableDays | undefined>();
    const fetchWeek = async (monday: string): Promise<void> => {
      if (weeks.has(monday)) return;
      const answer = await ctx.cache.get({
        endpoint: 'Timetables',
        schema: timetablesResponse,
        query: { weekStart: monday },
        wantedUntil: weekEnd(monday),
        row: TIMETABLE_PLAN.week,
        ...changes,
      });
      weeks.set(monday, answer?.Timetable);
    };
    const [thisWeek] = timetableWeeks(ctx.today);
    await fetchWeek(thisWeek as string);
    const nameLookup = ctx.lookups.names ?? (await names(ctx));
    const partial = mergeTimetables(...weeks.values());
    const freeList = freeDays(free);
    for (const monday of timetableWeeks(ctx.today, { days: partial, names: nameLookup, free: freeList })) await fetchWeek(monday);
    const days = mergeTimetables(...weeks.values());
    const nextWeek = addDays(thisWeek as string, 7);
    const feedDays = weeks.has(nextWeek) ? days : mergeTimetables(days, await feedWeek(ctx, nextWeek, changes.signal));
    const lessonIds = Object.values(feedDays).flat(2);
    const withNames = await names(ctx, {
      subjects: lessonIds.map((l) => l.Subject?.id),
      users: lessonIds.map((l) => l.Teacher?.id),
      classrooms: lessonIds.map((l) => l.Classroom?.id),
    });
    const attended = ctx.inputs.attendance?.lessons;
    const input: ScheduleInput = { days, substitutions, free, names: withNames, now: ctx.now, ...(attended ? { attended: new Set(attended) } : {}) };
    const result = this.compute(input);
    const fortnight = schoolDays({ ...input, days: feedDays }, feedDates(thisWeek as string));
    const output: TimetableOutput = { days, nextSchoolDay: result.nextSchoolDay, fortnight, freeDays: freeList };
    const events = { plan_change: result.events, free_day: freeDayEvents(freeList, ctx.today) } satisfies Events<typeof planChange | typeof freeDay>;
    return { states: renderTimetable(result, this.language), events, output };
  }

  /** The states at ctx.now from what the last poll read (a lesson boundary); nothing before a poll. */
  restate(ctx: SourceContext): SourceResult['states'] {
    return this.last === undefined ? {} : renderTimetable(this.compute({ ...this.last, now: ctx.now }), this.language);
  }

  /** The next instant after `now` at which a lesson of today starts or ends; null when none is left. */
  nextBoundary(now: number): number | null {
    return this.boundaries.find((t) => t > now) ?? null;
  }

  private compute(input: ScheduleInput): Schedule {
    this.last = input;
    const result = schedule(input);
    this.boundaries = result.boundaries;
    return result;
  }

  /**
   * The lists beside the timetable, as one named plan. Free days change rarely: daily, or at once when
   * the calendar lists a new one; only the child's class counts (the school-wide list has every
   * class). The whole year's change list cannot be narrowed (spec 4.4): read when the calendar lists
   * a new change, else every 3 hours (hourly without the calendar; the timetable itself shows today's
   * changes).
   */
  private async calendars(ctx: SourceContext): Promise<{ free: FreeDaysInput; substitutions: readonly Substitution[] | undefined }> {
    const rows = TIMETABLE_PLAN;
    const answers = await fetchAll(ctx.cache, {
      schoolFreeDays: { endpoint: 'SchoolFreeDays', schema: schoolFreeDaysResponse, staleOnError: true, row: rows.schoolFreeDays, ...(await signalled(ctx, 'SchoolFreeDays')) },
      classFreeDays: { endpoint: 'ClassFreeDays', schema: classFreeDaysResponse, staleOnError: true, row: rows.classFreeDays, ...(await signalled(ctx, 'ClassFreeDays')) },
      freeDayTypes: { endpoint: 'Calendars/ClassFreeDays/Types', schema: classFreeDayTypesResponse, row: rows.freeDayTypes, staleOnError: true },
      substitutions: { endpoint: 'Calendars/Substitutions', schema: substitutionsResponse, staleOnError: true, row: rows.substitutions, ...(await signalled(ctx, 'Substitutions')) },
    });
    return {
      free: {
        schoolFreeDays: answers.schoolFreeDays?.SchoolFreeDays,
        classFreeDays: answers.classFreeDays?.ClassFreeDays,
        classFreeDayTypes: answers.freeDayTypes?.Types,
        classId: ctx.identity.classId,
      },
      substitutions: answers.substitutions?.Substitutions,
    };
  }
}

/** The instant a week that starts on `monday` ends (the next Monday's midnight in Warsaw): its timetable is wanted no more. */
function weekEnd(monday: string): number {
  return warsawInstant(addDays(monday, 7), '00:00');
}

/** Next week's timetable for the feeds (see FEED_WEEK_MAX_AGE); undefined when not published yet. */
async function feedWeek(ctx: SourceContext, monday: string, signal: string | undefined): Promise<TimetableDays | undefined> {
  const answer = await ctx.cache.get({
    endpoint: 'Timetables',
    schema: timetablesResponse,
    query: { weekStart: monday },
    wantedUntil: weekEnd(monday),
    row: TIMETABLE_PLAN.feedWeek,
    ...(signal !== undefined ? { signal } : {}),
    staleOnError: true,
  });
  return answer?.Timetable;
}
