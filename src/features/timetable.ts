// The timetable feature: the timetable of this week (and next week only when the next school day falls in
// it), plan changes and free days -> plan changes, school days, lesson hours, next lesson and
// plan_change and free_day events, the day's lessons, the lesson in progress and at_school. Computed
// when a copy it reads moved; between passes the runner computes again (from the copies) at each
// lesson's start and end.
import type { TimetableDays } from '../portal/schemas/timetable.js';
import { mergeTimetables } from '../school/timetable.js';
import { schedule, schoolDays, type Schedule, type ScheduleInput, type SchoolDay } from '../school/schedule.js';
import { timetableWeeks, freeDays, freeDayEvents, type FreeDay, type FreeDayPayload, type FreeDaysInput } from '../school/schooldays.js';
import { feedDates } from '../school/calendar-feeds.js';
import { addDays } from '../util/time.js';
import { want, type Copies, type Want } from '../feature-kit/resource.js';
import { CLASS_FREE_DAYS, FREE_DAY_TYPES, SCHOOL_FREE_DAYS, SUBSTITUTIONS, TIMETABLE } from '../resources/timetable.js';
import { nameLookups, namesOf } from '../resources/lookups.js';
import { makeNames } from '../school/names.js';
import { binary, eventEntity, sensor } from '../feature-kit/entities.js';
import { shape, type Events, type States } from '../feature-kit/contract.js';
import type { PlanChange, PlanChangePayload } from '../school/plan-changes.js';
import { feature } from './feature.js';
import { FALLBACK_LANGUAGE, type Language } from '../config/language.js';
import { type CurrentLesson, type TimetableDay } from './timetable-day.js';
import { renderTimetable } from './timetable-states.js';
import { kindergartenReads, kindergartenTimetable, PlanSearchStore, type AccountKind } from './timetable-kindergarten.js';
import { KINDERGARTEN_PLAN, KINDERGARTEN_SEARCH } from '../resources/kindergarten.js';

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
  /** A school's timetable, or a kindergarten's plan of blocks (live-notes 33-36); a school's when not said. */
  kind?: AccountKind;
}

declare module '../feature-kit/source.js' {
  interface FeatureOutputs {
    timetable: TimetableOutput;
  }
}

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

/**
 * The lists each kind of entity is made from (its module, interface 12.2): the day's lessons from the school's
 * timetable or a kindergarten's plan, the changes from the year's changes and the timetable, the free days.
 */
const DAY_PLAN = [TIMETABLE, KINDERGARTEN_PLAN];
const CHANGES = [SUBSTITUTIONS, TIMETABLE];
const timestamp = { deviceClass: 'timestamp', attributes: false, module: DAY_PLAN } as const;

export const planChangesToday = sensor(
  'plan_changes_today',
  { en: 'Plan changes today', pl: 'Zmiany w planie dziś', uk: 'Зміни в розкладі сьогодні' },
  { icon: 'mdi:calendar-alert', stateClass: 'measurement', attributes: shape<PlanChanges>(), module: CHANGES },
);
export const planChangesTomorrow = sensor(
  'plan_changes_tomorrow',
  { en: 'Plan changes next school day', pl: 'Zmiany w planie w następnym dniu nauki', uk: 'Зміни в розкладі на наступний навчальний день' },
  { icon: 'mdi:calendar-alert', stateClass: 'measurement', attributes: shape<PlanChanges>(), module: CHANGES },
);
export const schoolDayToday = binary(
  'school_day_today',
  { en: 'School day today', pl: 'Dziś dzień nauki', uk: 'Сьогодні навчальний день' },
  { icon: 'mdi:school-outline', attributes: shape<SchoolDayFacts>(), module: DAY_PLAN },
);
export const schoolDayTomorrow = binary(
  'school_day_tomorrow',
  { en: 'School day tomorrow', pl: 'Jutro dzień nauki', uk: 'Завтра навчальний день' },
  { icon: 'mdi:school-outline', attributes: shape<SchoolDayFacts>(), module: DAY_PLAN },
);
export const lessonsStartToday = sensor(
  'lessons_start_today',
  { en: 'Lessons start today', pl: 'Początek lekcji dziś', uk: 'Початок уроків сьогодні' },
  timestamp,
);
export const lessonsEndToday = sensor(
  'lessons_end_today',
  { en: 'Lessons end today', pl: 'Koniec lekcji dziś', uk: 'Кінець уроків сьогодні' },
  timestamp,
);
export const lessonsStartTomorrow = sensor(
  'lessons_start_tomorrow',
  { en: 'Lessons start next school day', pl: 'Początek lekcji w następnym dniu nauki', uk: 'Початок уроків у наступний навчальний день' },
  timestamp,
);
export const lessonsEndTomorrow = sensor(
  'lessons_end_tomorrow',
  { en: 'Lessons end next school day', pl: 'Koniec lekcji w następnym dniu nauki', uk: 'Кінець уроків у наступний навчальний день' },
  timestamp,
);
export const nextLesson = sensor(
  'next_lesson',
  { en: 'Next lesson', pl: 'Następna lekcja', uk: 'Наступний урок' },
  { icon: 'mdi:clock-outline', attributes: shape<NextLessonFacts>(), module: DAY_PLAN },
);
export const planChange = eventEntity('plan_change', { en: 'Plan change', pl: 'Zmiana w planie', uk: 'Зміна в розкладі' }, 'mdi:calendar-alert', {
  payload: shape<PlanChangePayload>(),
  module: CHANGES,
});
export const freeDay = eventEntity('free_day', { en: 'Free day', pl: 'Dzień wolny', uk: 'Вихідний день' }, 'mdi:calendar-star', {
  payload: shape<FreeDayPayload>(),
  module: [SCHOOL_FREE_DAYS, CLASS_FREE_DAYS],
});
export const timetableToday = sensor(
  'timetable_today',
  { en: 'Timetable today', pl: 'Plan lekcji dziś', uk: 'Розклад сьогодні' },
  { icon: 'mdi:timetable', stateClass: 'measurement', attributes: shape<TimetableDay>(), module: DAY_PLAN },
);
export const timetableTomorrow = sensor(
  'timetable_tomorrow',
  { en: 'Timetable next school day', pl: 'Plan lekcji w następnym dniu nauki', uk: 'Розклад на наступний навчальний день' },
  { icon: 'mdi:timetable', stateClass: 'measurement', attributes: shape<TimetableDay>(), module: DAY_PLAN },
);
export const currentLesson = sensor(
  'current_lesson',
  { en: 'Current lesson', pl: 'Bieżąca lekcja', uk: 'Поточний урок' },
  { icon: 'mdi:human-male-board', attributes: shape<CurrentLesson>(), module: DAY_PLAN },
);
export const atSchool = binary(
  'at_school',
  { en: 'At school', pl: 'W szkole', uk: 'У школі' },
  { deviceClass: 'presence', icon: 'mdi:school', module: DAY_PLAN },
);

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
  reads: ({ copies, today, identity }) => {
    // A kindergarten's plan, once found, stands in for the school's timetable and its changes.
    const kindergarten = kindergartenReads(copies, today);
    if (kindergarten?.source) return [...FREE_DAY_WANTS, ...kindergarten.wants];
    const { weeks, ahead } = timetableReads(copies, today, identity.classId);
    const read = [...weeks, ...(ahead === undefined ? [] : [ahead])];
    const lessons = read.flatMap((w) => Object.values(copies.peek(TIMETABLE, w.key)?.Timetable ?? {}).flat(2));
    return [
      ...FREE_DAY_WANTS,
      want(SUBSTITUTIONS),
      ...read,
      ...nameLookups(copies, {
        subjects: lessons.map((l) => l.Subject?.id),
        users: lessons.map((l) => l.Teacher?.id),
        classrooms: lessons.map((l) => l.Classroom?.id),
      }),
      ...(kindergarten?.wants ?? []),
    ];
  },
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
  create: (access) => {
    const store = new PlanSearchStore(access.dataDir, access.account.login);
    store.restore(access.cache);
    return new TimetableSource(access.language, store);
  },
});

export class TimetableSource implements Source {
  constructor(
    private readonly language: Language = FALLBACK_LANGUAGE,
    private readonly searches?: PlanSearchStore,
  ) {}

  /** What the last poll read, so that a lesson boundary recomputes without asking the portal. */
  private last: ScheduleInput | undefined;
  /** The lesson starts and ends still ahead today, as of the last computation. */
  private boundaries: number[] = [];

  async poll(ctx: SourceContext): Promise<SourceResult> {
    const free = freeDaysOf(ctx.cache, ctx.identity.classId);
    const kindergarten = kindergartenReads(ctx.cache, ctx.today);
    await this.searches
      ?.keep(ctx.cache.peek(KINDERGARTEN_SEARCH))
      .catch((error: Error) => ctx.log.warn({ err: error.message }, 'could not keep the plan search'));
    const blocks = kindergarten === undefined ? undefined : kindergartenTimetable(ctx.cache, kindergarten);
    const substitutions = kindergarten?.source ? undefined : ctx.cache.get(SUBSTITUTIONS)?.Substitutions;
    const { weeks, ahead } = kindergarten?.source ? { weeks: [] } : timetableReads(ctx.cache, ctx.today, ctx.identity.classId);
    const freeList = freeDays(free);
    const days = blocks ?? mergeTimetables(...weeks.map((w) => ctx.cache.get(TIMETABLE, w.key)?.Timetable));
    // Next week for the feeds: its last copy when this pass's read failed, none before it is read (a kindergarten's plan holds both weeks).
    const feedDays = ahead === undefined ? days : mergeTimetables(days, ctx.cache.peek(TIMETABLE, ahead.key)?.Timetable);
    // A kindergarten's blocks carry their names (the activities, rooms and teachers of its own lookups).
    const withNames = kindergarten?.source ? makeNames() : namesOf(ctx.cache);
    const [thisWeek] = timetableWeeks(ctx.today);
    const attended = ctx.inputs.attendance?.lessons;
    const input: ScheduleInput = { days, substitutions, free, names: withNames, now: ctx.now, ...(attended ? { attended: new Set(attended) } : {}) };
    const result = this.schedule(input);
    const fortnight = schoolDays({ ...input, days: feedDays }, feedDates(thisWeek as string));
    const kind = kindergarten?.source ? 'kindergarten' : 'school';
    const output: TimetableOutput = { days, nextSchoolDay: result.nextSchoolDay, fortnight, freeDays: freeList, kind };
    const events = { plan_change: result.events, free_day: freeDayEvents(freeList, ctx.today) } satisfies Events<typeof planChange | typeof freeDay>;
    return { states: renderTimetable(result, this.language, substitutions !== undefined), events, output };
  }

  /** The states at ctx.now from what the last poll read (a lesson boundary); nothing before a poll. */
  restate(ctx: SourceContext): SourceResult['states'] {
    if (this.last === undefined) return {};
    return renderTimetable(this.schedule({ ...this.last, now: ctx.now }), this.language, this.last.substitutions !== undefined);
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
  return {
    weeks: mondays.map((monday) => want(TIMETABLE, monday)),
    ...(mondays.includes(nextWeek) ? {} : { ahead: want(TIMETABLE, nextWeek, { ahead: true }) }),
  };
}
