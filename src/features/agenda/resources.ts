// The portal resources only the agenda reads: homework assignments, parent-teacher meetings, trips and the
// homework categories (the homework list itself, HOMEWORKS, is read by the lessons held too: src/engine/resources/school.ts).
import {
  homeWorkCategoriesResponse,
  homeworkAssignmentsResponse,
  parentTeacherConferencesResponse,
  schoolTripsResponse,
} from '../../portal/schemas/agenda.js';
import { registerResource } from '../../engine/resource.js';
import { byDay, CORE, DAILY, RARE, SLOW } from '../../engine/resources/ages.js';
import { calendarSignal } from '../../engine/resources/calendar.js';
import { lookupResource, records } from '../../engine/resources/lookups.js';

export const HOMEWORK_ASSIGNMENTS = records('HomeWorkAssignments', homeworkAssignmentsResponse, CORE);
export const CONFERENCES = registerResource({
  endpoint: 'ParentTeacherConferences',
  schema: parentTeacherConferencesResponse,
  yearOfRecords: true,
  fresh: byDay(RARE),
  ...calendarSignal('ParentTeacherConferences', byDay(DAILY)),
  keepOnError: true,
  changeFeed: true,
});
/** Trips are entered weeks ahead: a few times a day. */
export const TRIPS = registerResource({
  endpoint: 'SchoolTrips',
  schema: schoolTripsResponse,
  fresh: byDay(SLOW),
  keepOnError: true,
});
export const HOMEWORK_CATEGORIES = lookupResource('HomeWorks/Categories', homeWorkCategoriesResponse, (r) => r.Categories);
