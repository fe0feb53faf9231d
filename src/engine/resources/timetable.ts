// A week's timetable (this week; next week when the next school day falls in it, or ahead of need for the
// calendar feeds), which `check` probes too. What changes it (the year's plan changes, the free days) only
// the timetable feature reads: src/features/timetable/resources.ts. A plan change of today or the next
// school day is a new entry under Substitutions, so while the class calendar lists the same ids the week stands.
import { keptTimetables, timetablesResponse } from '../../portal/schemas/timetable.js';
import { registerResource } from '../resource.js';
import { byDay, DAILY, HOUR, NEWS, RARE } from './ages.js';
import { calendarSignal } from './calendar.js';

/**
 * A week by its Monday (the key). A 403 on a week means "not published yet", not a dead session:
 * asked again within the hour. Ahead of need (next week for the calendar feeds, Assist and the board) once a
 * day, and in a start's first pass: next week's plan is known from then on. Kept through a restart: a start reads a
 * week again only once its age says so (next week a day after its read, this week in lessons 5 minutes after).
 */
export const TIMETABLE = registerResource({
  endpoint: 'Timetables',
  queryKey: 'weekStart',
  schema: timetablesResponse,
  fresh: NEWS,
  ...calendarSignal('Substitutions', byDay(RARE)),
  ahead: byDay(DAILY),
  aheadAtStart: true,
  kept: keptTimetables,
  whenAsked: 'unvouched',
  refusedForMs: HOUR,
  byPeriod: true,
  changeFeed: ['Timetables', 'Calendars/Substitutions'],
  note: 'this week; next week when the next school day falls in it, else once a day for the feeds',
});
