// One child's timetable at one instant, computed together because every part shares the school
// calendar: each day that matters (its lessons, its changes, whether it is free), the next lesson,
// the next school day, and the plan changes that are news.
import type { Substitution, TimetableDays } from '../portal/schemas/timetable.js';
import { addDays, warsawDate } from '../util/time.js';
import type { NewsItem } from './common.js';
import type { Names } from './names.js';
import { changesOn, planChangeEvents, planChanges, type PlanChange } from './plan-changes.js';
import {
  freeDays,
  lessonHours,
  nextLesson,
  nextSchoolDay,
  plannedLessons,
  wholeFreeDay,
  type FreeDay,
  type FreeDaysInput,
  type NextLesson,
  type PlannedLesson,
  type SchoolCalendar,
} from './schooldays.js';

export interface ScheduleInput {
  /** Timetables of the weeks fetched (see timetableWeeks), merged with mergeTimetables. */
  days: TimetableDays;
  /** Calendars/Substitutions. */
  substitutions?: readonly Substitution[];
  free: FreeDaysInput;
  names: Names;
  /** The instant to compute for (ms); "today" is its Warsaw date. */
  now: number;
}

/** A lesson of the day with the change to its slot, if any. */
export interface ScheduledLesson extends PlannedLesson {
  change: PlanChange | null;
}

/** One day with its lessons and their changes: what a family looks at for a date. */
export interface SchoolDay {
  date: string;
  /**
   * Every lesson of the timetable that day in slot order, each with whether it takes place (neither
   * cancelled nor freed) and its change; undefined when the timetable does not cover the day.
   */
  lessons: ScheduledLesson[] | undefined;
  /** Every change to the plan that touches the day, by lesson (a lesson moved away shows in its old slot). */
  changes: PlanChange[];
  /** The free day covering the whole date, if any. */
  freeDay: FreeDay | undefined;
  /** First start and last end of the lessons, ISO timestamps; null when unknown or none. */
  start: string | null;
  end: string | null;
}

export interface Schedule {
  today: SchoolDay;
  /** The calendar day after today (alarm automations), which need not be a school day. */
  tomorrow: SchoolDay;
  /** The next school day after today; null when the timetable cannot tell. */
  next: SchoolDay | null;
  /** Its date, for the features that read the timetable (homework_due). */
  nextSchoolDay: string | null;
  /** The lesson going on now or the next one today; null when none is left. */
  nextLesson: NextLesson | null;
  /** Plan changes from today on, as `plan_change` event candidates. */
  events: NewsItem[];
}

export function schedule(input: ScheduleInput): Schedule {
  const today = warsawDate(input.now);
  const cal: SchoolCalendar = { days: input.days, names: input.names, free: freeDays(input.free) };
  const next = nextSchoolDay(cal, today);
  const changes = planChanges({ days: input.days, substitutions: input.substitutions, names: input.names });
  const day = (date: string): SchoolDay => {
    const planned = plannedLessons(cal, date);
    const own = changesOn(changes, date);
    const lessons = planned?.map((l) => ({ ...l, change: own.find((c) => c.lesson_no !== null && c.lesson_no === l.lessonNo) ?? null }));
    const hours = lessonHours(date, planned?.filter((l) => l.takesPlace));
    return { date, lessons, changes: own, freeDay: wholeFreeDay(cal, date), ...hours };
  };
  return {
    today: day(today),
    tomorrow: day(addDays(today, 1)),
    next: next === null ? null : day(next),
    nextSchoolDay: next,
    nextLesson: nextLesson(cal, input.now, (date, no) => {
      const change = changesOn(changes, date).find((c) => c.lesson_no === no && c.kind !== 'cancelled');
      return change?.room ?? null;
    }),
    events: planChangeEvents(changes, today),
  };
}
