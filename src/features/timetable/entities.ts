// What the timetable feature publishes: its entities with the types of their attributes and the states they make of
// the feature's view, and what it hands to the features that name it as an input. The feature (what it reads, how it
// computes) is timetable.ts; its states are rendered in states.ts and day.ts.
import type { TimetableDays } from '../../portal/schemas/timetable.js';
import type { Bell } from '../../portal/schemas/identity.js';
import type { SchoolDay } from '../../rules/schedule.js';
import type { FreeDay, FreeDayPayload } from '../../rules/schooldays.js';
import { TIMETABLE } from '../../engine/resources/timetable.js';
import { CLASS_FREE_DAYS, SCHOOL_FREE_DAYS, SUBSTITUTIONS } from './resources.js';
import { binary, eventEntity, sensor } from '../kit/entities.js';
import { shape, statesOf } from '../kit/contract.js';
import { onOff, withAttributes } from '../kit/render.js';
import { FALLBACK_LANGUAGE, type Language } from '../../config/language.js';
import type { PlanChangePayload } from '../../rules/plan-changes.js';
import type { Schedule } from '../../rules/schedule.js';
import { currentLessonOf, timetableOf, type CurrentLesson, type TimetableDay } from './day.js';
import type { StandingOut } from './standing.js';
import {
  nextLessonOf,
  planChangesOf,
  schoolDayOf,
  type NextLessonFacts,
  type PlanChanges,
  type SchoolDayFacts,
  type TimetableView,
} from './states.js';
import type { AccountKind, KindergartenGroup } from './kindergarten.js';
import { KINDERGARTEN_PLAN } from './kindergarten-resources.js';

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
  /** The extra classes are not known yet (their first read failed): the calendar feeds keep those they had. */
  extraUnread?: true;
  /** A kindergarten child's group, once read; undefined for a school child. */
  group?: KindergartenGroup;
  /** The school's bells (schoolBells): lesson number -> its hours; none for a kindergarten's blocks. */
  bells: Bell[];
}

declare module '../../engine/source.js' {
  interface FeatureOutputs {
    timetable: TimetableOutput;
  }
}

export type { NextLessonFacts, PlanChanges, SchoolDayFacts, TimetableView } from './states.js';

/**
 * The lists each kind of entity is made from (its module, interface 12.2): the day's lessons from the school's
 * timetable or a kindergarten's plan, the changes from the year's changes and the timetable, the free days.
 */
const DAY_MODULES = [TIMETABLE, KINDERGARTEN_PLAN];
const CHANGES = [SUBSTITUTIONS, TIMETABLE];
const timestamp = { deviceClass: 'timestamp', attributes: false, module: DAY_MODULES } as const;
const planChanges = { icon: 'mdi:calendar-alert', stateClass: 'measurement', attributes: shape<PlanChanges>(), module: CHANGES } as const;
const schoolDay = { icon: 'mdi:school-outline', attributes: shape<SchoolDayFacts>(), module: DAY_MODULES } as const;

export const planChangesToday = sensor(
  'plan_changes_today',
  { en: 'Plan changes today', pl: 'Zmiany w planie dziś', uk: 'Зміни в розкладі сьогодні' },
  { ...planChanges, state: ({ schedule, changesKnown, language }: TimetableView) => planChangesOf(schedule.today, changesKnown, language) },
);
export const planChangesTomorrow = sensor(
  'plan_changes_tomorrow',
  { en: 'Plan changes next school day', pl: 'Zmiany w planie w następnym dniu nauki', uk: 'Зміни в розкладі на наступний навчальний день' },
  { ...planChanges, state: ({ schedule, changesKnown, language }: TimetableView) => planChangesOf(schedule.next, changesKnown, language) },
);
export const schoolDayToday = binary(
  'school_day_today',
  { en: 'School day today', pl: 'Dziś dzień nauki', uk: 'Сьогодні навчальний день' },
  { ...schoolDay, state: ({ schedule }: TimetableView) => schoolDayOf(schedule.today) },
);
export const schoolDayTomorrow = binary(
  'school_day_tomorrow',
  { en: 'School day tomorrow', pl: 'Jutro dzień nauki', uk: 'Завтра навчальний день' },
  // The calendar day after today (alarm automations), where every other *_tomorrow is the next school day.
  { ...schoolDay, state: ({ schedule }: TimetableView) => schoolDayOf(schedule.tomorrow) },
);
export const lessonsStartToday = sensor(
  'lessons_start_today',
  { en: 'Lessons start today', pl: 'Początek lekcji dziś', uk: 'Початок уроків сьогодні' },
  { ...timestamp, state: ({ schedule }: TimetableView) => ({ state: schedule.today.start }) },
);
export const lessonsEndToday = sensor(
  'lessons_end_today',
  { en: 'Lessons end today', pl: 'Koniec lekcji dziś', uk: 'Кінець уроків сьогодні' },
  { ...timestamp, state: ({ schedule }: TimetableView) => ({ state: schedule.today.end }) },
);
export const lessonsStartTomorrow = sensor(
  'lessons_start_tomorrow',
  { en: 'Lessons start next school day', pl: 'Początek lekcji w następnym dniu nauki', uk: 'Початок уроків у наступний навчальний день' },
  { ...timestamp, state: ({ schedule }: TimetableView) => ({ state: schedule.next?.start ?? null }) },
);
export const lessonsEndTomorrow = sensor(
  'lessons_end_tomorrow',
  { en: 'Lessons end next school day', pl: 'Koniec lekcji w następnym dniu nauki', uk: 'Кінець уроків у наступний навчальний день' },
  { ...timestamp, state: ({ schedule }: TimetableView) => ({ state: schedule.next?.end ?? null }) },
);
export const nextLesson = sensor(
  'next_lesson',
  { en: 'Next lesson', pl: 'Następna lekcja', uk: 'Наступний урок' },
  {
    icon: 'mdi:clock-outline',
    attributes: shape<NextLessonFacts>(),
    module: DAY_MODULES,
    state: ({ schedule }: TimetableView) => nextLessonOf(schedule.nextLesson, [schedule.today, schedule.next]),
  },
);
export const planChange = eventEntity('plan_change', { en: 'Plan change', pl: 'Zmiana w planie', uk: 'Зміна в розкладі' }, 'mdi:calendar-alert', {
  payload: shape<PlanChangePayload>(),
  module: CHANGES,
});
export const freeDay = eventEntity('free_day', { en: 'Free day', pl: 'Dzień wolny', uk: 'Вихідний день' }, 'mdi:calendar-star', {
  payload: shape<FreeDayPayload>(),
  module: [SCHOOL_FREE_DAYS, CLASS_FREE_DAYS],
  rollover: { arrived: 'free_days' },
});
export const timetableToday = sensor(
  'timetable_today',
  { en: 'Timetable today', pl: 'Plan lekcji dziś', uk: 'Розклад сьогодні' },
  {
    icon: 'mdi:timetable',
    stateClass: 'measurement',
    attributes: shape<TimetableDay & { standing_differences: StandingOut[] | null | undefined }>(),
    module: DAY_MODULES,
    // With this and next week's differences from the standing plan (interface 18.2), a school's only: a
    // kindergarten's undefined is left out of the published attributes. From the day on: a day gone by is
    // no news, and the dashboard's card of the differences shows while there are any.
    state: ({ schedule, language, standing }: TimetableView) => {
      const day = timetableOf(schedule.today, language);
      const ahead = standing && standing.filter((d) => d.date >= (day.attributes.date ?? ''));
      // The differences pass the one cap with the day's lessons (a hostile plan makes thousands).
      return withAttributes(day.state, { ...day.attributes, standing_differences: ahead });
    },
  },
);
export const timetableTomorrow = sensor(
  'timetable_tomorrow',
  { en: 'Timetable next school day', pl: 'Plan lekcji w następnym dniu nauki', uk: 'Розклад на наступний навчальний день' },
  {
    icon: 'mdi:timetable',
    stateClass: 'measurement',
    attributes: shape<TimetableDay>(),
    module: DAY_MODULES,
    state: ({ schedule, language }: TimetableView) => timetableOf(schedule.next, language),
  },
);
export const currentLesson = sensor(
  'current_lesson',
  { en: 'Current lesson', pl: 'Bieżąca lekcja', uk: 'Поточний урок' },
  {
    icon: 'mdi:human-male-board',
    attributes: shape<CurrentLesson>(),
    module: DAY_MODULES,
    state: ({ schedule, language }: TimetableView) => currentLessonOf(schedule.current, language, schedule.today),
  },
);
export const atSchool = binary(
  'at_school',
  { en: 'At school', pl: 'W szkole', uk: 'У школі' },
  {
    deviceClass: 'presence',
    icon: 'mdi:school',
    module: DAY_MODULES,
    // ON between the first lesson's start and the last lesson's end today. Without today's timetable (refused, or not
    // covering the day) whether the child is at school is unknown, never OFF.
    state: ({ schedule }: TimetableView) => (schedule.today.lessons === undefined ? { state: null } : onOff(schedule.atSchool)),
  },
);

/** Every entity of the timetable, in the order of docs/entities.md. */
export const TIMETABLE_ENTITIES = [
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
] as const;

/**
 * The timetable's states, as its declarations make them from the Schedule. "tomorrow" is the next school day, except for
 * school_day_tomorrow, the calendar day after today. `changesKnown`: the year's plan changes were read (false: the timetable
 * change counts are unknown).
 */
export function renderTimetable(schedule: Schedule, language: Language = FALLBACK_LANGUAGE, changesKnown = true, standing?: StandingOut[] | null) {
  return statesOf(TIMETABLE_ENTITIES, { schedule, language, changesKnown, ...(standing === undefined ? {} : { standing }) });
}
