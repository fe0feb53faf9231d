// What the timetable feature publishes: its entities with the types of their attributes, and what it hands
// to the features that name it as an input. The feature (what it reads, how it computes) is timetable.ts; its
// states are rendered in states.ts and day.ts.
import type { TimetableDays } from '../../portal/schemas/timetable.js';
import type { Bell } from '../../portal/schemas/identity.js';
import type { SchoolDay } from '../../rules/schedule.js';
import type { FreeDay, FreeDayPayload } from '../../rules/schooldays.js';
import { TIMETABLE } from '../../engine/resources/timetable.js';
import { CLASS_FREE_DAYS, SCHOOL_FREE_DAYS, SUBSTITUTIONS } from './resources.js';
import { binary, eventEntity, sensor } from '../kit/entities.js';
import { shape, type States } from '../kit/contract.js';
import type { PlanChange, PlanChangePayload } from '../../rules/plan-changes.js';
import type { CurrentLesson, nextLessonFacts, TimetableDay } from './day.js';
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
  /** The extra classes are not known yet (their first read failed): the feeds keep those they had. */
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

/**
 * The attributes of plan_changes_today / plan_changes_tomorrow: the day and its changes. A change's own `date` only
 * for a lesson moved to another day (the day it goes to); `words`: the change as its slot's `note` says it (`note`
 * is the school's own).
 */
export type PlanChanges = { date: string | null; changes: (Omit<PlanChange, 'date'> & { date?: string; words: string | null })[] };

/** The attributes of school_day_today / school_day_tomorrow. */
export type SchoolDayFacts = { date: string; lessons: number | null; free_day: string | null };

/** The attributes of next_lesson (day.ts nextLessonFacts). */
export type NextLessonFacts = ReturnType<typeof nextLessonFacts>;

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

/** The states renderTimetable gives (every entity but the events), each as its entity declares it. */
export type TimetableStates = States<Exclude<(typeof TIMETABLE_ENTITIES)[number], typeof planChange | typeof freeDay>>;
