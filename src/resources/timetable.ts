// The timetable and what changes it: a week's timetable (this week; next week when the next school
// day falls in it, or ahead of need for the calendar feeds), the year's plan changes and the free
// days. A plan change of today or the next school day is news; it is a new entry under Substitutions,
// so while the class calendar lists the same ids the week stands.
import { substitutionsResponse, timetablesResponse } from '../portal/schemas/timetable.js';
import { classFreeDayTypesResponse, classFreeDaysResponse, schoolFreeDaysResponse } from '../portal/schemas/calendar.js';
import type { z } from 'zod';
import { registerResource, type Resource } from '../feature-kit/resource.js';
import { BY_THE_HOUR, byDay, DAILY, HOUR, NEWS, RARE } from './ages.js';
import { calendarSignal } from './calendar.js';
import { daily } from './lookups.js';

/**
 * A week by its Monday (the key). A 403 on a week means "not published yet", not a dead session:
 * asked again within the hour. Ahead of need (next week for the feeds alone) once a day.
 */
export const TIMETABLE = registerResource({
  endpoint: 'Timetables',
  queryKey: 'weekStart',
  schema: timetablesResponse,
  fresh: NEWS,
  ...calendarSignal('Substitutions', byDay(RARE)),
  ahead: byDay(DAILY),
  whenAsked: 'unvouched',
  refusedForMs: HOUR,
  byPeriod: true,
  feed: ['Timetables', 'Calendars/Substitutions'],
  note: 'this week; next week when the next school day falls in it, else once a day for the feeds',
});
export const SUBSTITUTIONS = registerResource({
  endpoint: 'Calendars/Substitutions',
  schema: substitutionsResponse,
  yearOfRecords: true,
  fresh: BY_THE_HOUR,
  ...calendarSignal('Substitutions', byDay(RARE)),
  whenAsked: 'unvouched',
  keepOnError: true,
  feed: true,
  note: "the whole year's changes; the timetable itself shows today's",
});
/** A list of free days, the whole year's: daily by day, or when the class calendar's free day ids move. */
function freeDays<S extends z.ZodType>(name: 'SchoolFreeDays' | 'ClassFreeDays', schema: S): Resource<z.output<S>> {
  return registerResource({
    endpoint: name,
    schema,
    fresh: byDay(DAILY),
    ...calendarSignal(name, byDay(DAILY)),
    keepOnError: true,
    feed: [`Calendars/${name}`],
  });
}
export const SCHOOL_FREE_DAYS = freeDays('SchoolFreeDays', schoolFreeDaysResponse);
export const CLASS_FREE_DAYS = freeDays('ClassFreeDays', classFreeDaysResponse);
export const FREE_DAY_TYPES = daily('Calendars/ClassFreeDays/Types', classFreeDayTypesResponse);
