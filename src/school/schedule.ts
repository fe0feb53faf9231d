// All the timetable sensors of one child at one instant, computed together because they share the
// school calendar: plan changes, school days, lesson hours and the next lesson, plus plan_change events.
import type { EntityState } from '../ha/state.js';
import type { Substitution, TimetableDays } from '../portal/schemas/timetable.js';
import { addDays, warsawDate } from '../util/time.js';
import type { ItemEvent } from './common.js';
import type { Names } from './names.js';
import { changesOn, planChangeEvents, planChanges, planChangesState } from './plan-changes.js';
import { freeDays, lessonHours, nextLesson, nextSchoolDay, schoolDayState, type FreeDaysInput, type SchoolCalendar } from './schooldays.js';

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

export interface Schedule {
  states: Record<string, EntityState>;
  events: ItemEvent[];
  today: string;
  /** The next school day after today, for homework_due; null when the timetable cannot tell. */
  nextSchoolDay: string | null;
}

export function schedule(input: ScheduleInput): Schedule {
  const today = warsawDate(input.now);
  const cal: SchoolCalendar = { days: input.days, names: input.names, free: freeDays(input.free) };
  const next = nextSchoolDay(cal, today);
  const changes = planChanges({ days: input.days, substitutions: input.substitutions, names: input.names });
  const hoursToday = lessonHours(cal, today);
  const hoursNext = lessonHours(cal, next);
  return {
    states: {
      plan_changes_today: planChangesState(changes, today),
      plan_changes_tomorrow: planChangesState(changes, next),
      school_day_today: schoolDayState(cal, today),
      // Only here "tomorrow" is the calendar day after today (alarm automations).
      school_day_tomorrow: schoolDayState(cal, addDays(today, 1)),
      lessons_start_today: hoursToday.start,
      lessons_end_today: hoursToday.end,
      lessons_start_tomorrow: hoursNext.start,
      lessons_end_tomorrow: hoursNext.end,
      next_lesson: nextLesson(cal, input.now, (date, no) => {
        const change = changesOn(changes, date).find((c) => c.lesson_no === no && c.kind !== 'cancelled');
        return change?.room ?? null;
      }),
    },
    events: planChangeEvents(changes, today),
    today,
    nextSchoolDay: next,
  };
}
