// The rest of the register: who the child is, announcements, notes, attendance, the agenda and
// homework, the lucky number, the library, the school's files and the lessons held.
import { noticesResponse } from '../portal/schemas/notices.js';
import { noteCategoriesResponse, notesResponse } from '../portal/schemas/notes.js';
import { attendanceTypesResponse, attendancesResponse, justificationsResponse } from '../portal/schemas/attendance.js';
import {
  homeWorkCategoriesResponse,
  homeWorksResponse,
  homeworkAssignmentsResponse,
  parentTeacherConferencesResponse,
  schoolFilesResponse,
  schoolTripsResponse,
} from '../portal/schemas/agenda.js';
import { luckyNumberResponse } from '../portal/schemas/identity.js';
import { ebiblioLendingsResponse } from '../portal/schemas/library.js';
import { realizationsResponse } from '../portal/schemas/realizations.js';
import { luckySettledUntil, pickLucky } from '../school/lucky.js';
import { warsawDate } from '../util/time.js';
import type { Identity } from '../feature-kit/identity.js';
import { fetchIdentity, IDENTITY_ENDPOINTS } from './identity.js';
import { registerResource, type Resource } from '../feature-kit/resource.js';
import { BY_THE_HOUR, byDay, CORE, DAILY, DAY, HOUR, NEWS, RARE, SLOW } from './ages.js';
import { calendarSignal } from './calendar.js';
import { lookupResource, records } from './lookups.js';

/**
 * Who the child is (a pass needs it first): the class, its tutor and the year's dates are of the day, so
 * it is read at the first pass of each day from 06:00 (a year's edges, and 1 September however late the
 * school moves its children up, among them), and when a person asks for a refresh; one read "in the
 * future" again at once.
 */
export const IDENTITY: Resource<Identity> = {
  name: "the child's identity (Me, Users/<id>, Classes, Schools)",
  host: 'register',
  endpoints: IDENTITY_ENDPOINTS,
  fresh: byDay(DAY),
  daily: '06:00',
  whenAsked: 'read',
  note: "read before the features, at each day's first pass from 06:00",
  read: ({ gateway, clock, log }) => fetchIdentity(gateway, clock.now(), log),
};

export const NOTICES = records('SchoolNotices', noticesResponse, NEWS);
export const NOTES = registerResource({ endpoint: 'Notes', yearOfRecords: true, schema: notesResponse, fresh: BY_THE_HOUR, feed: true });
export const NOTE_CATEGORIES = lookupResource('Notes/Categories', noteCategoriesResponse, (r) => r.Categories);

/** The marks as teachers enter them; the parents' justifications a few times a day. */
export const ATTENDANCES = records('Attendances', attendancesResponse, CORE);
export const ATTENDANCE_TYPES = lookupResource('Attendances/Types', attendanceTypesResponse, (r) => r.Types);
/** The parents' own justifications: what only a parent's action changes, a few times a day. */
export const JUSTIFICATIONS = registerResource({
  endpoint: 'Justifications',
  schema: justificationsResponse,
  yearOfRecords: true,
  fresh: byDay(SLOW),
  keepOnError: true,
});

/** A new test is news; the class calendar's ids tell when an entry is added or removed (an edit within the hour). */
export const HOMEWORKS = registerResource({
  endpoint: 'HomeWorks',
  schema: homeWorksResponse,
  yearOfRecords: true,
  fresh: NEWS,
  ...calendarSignal('HomeWorks', byDay(HOUR)),
  whenAsked: 'unvouched',
  feed: true,
});
export const HOMEWORK_ASSIGNMENTS = records('HomeWorkAssignments', homeworkAssignmentsResponse, CORE);
export const CONFERENCES = registerResource({
  endpoint: 'ParentTeacherConferences',
  schema: parentTeacherConferencesResponse,
  yearOfRecords: true,
  fresh: byDay(RARE),
  ...calendarSignal('ParentTeacherConferences', byDay(DAILY)),
  keepOnError: true,
  feed: true,
});
/** Trips are entered weeks ahead: a few times a day. */
export const TRIPS = registerResource({
  endpoint: 'SchoolTrips',
  schema: schoolTripsResponse,
  fresh: byDay(SLOW),
  keepOnError: true,
});
export const HOMEWORK_CATEGORIES = lookupResource('HomeWorks/Categories', homeWorkCategoriesResponse, (r) => r.Categories);

/** Asked only until today's or the next school day's number is known (its own rule, school/lucky.ts). */
export const LUCKY = registerResource({
  endpoint: 'LuckyNumbers',
  schema: luckyNumberResponse,
  fresh: byDay('fast'),
  // A school may start the lucky number any morning: a person's refresh asks, refused or not.
  whenAsked: 'read refused',
  refusedForMs: DAILY,
  settled: (read, now) => luckySettledUntil(pickLucky(read.entries, warsawDate(now)), now, read.inUse),
  feed: true,
  note: "only until today's or the next school day's number is known, then hourly between 06:00 and 21:00",
});

/** A lending lasts weeks: a start publishes what the last run kept and reads it at its second pass. */
export const LIBRARY = registerResource({
  endpoint: 'EbiblioLendings',
  schema: ebiblioLendingsResponse,
  fresh: byDay(SLOW),
  notAtStart: true,
});
/** The list changes a few times a term. */
export const SCHOOL_FILES = registerResource({
  endpoint: 'SchoolFiles',
  schema: schoolFilesResponse,
  yearOfRecords: true,
  fresh: byDay(SLOW),
  keepOnError: true,
  notAtStart: true,
});
/** A topic is written during or right after its lesson: every two hours while lessons are on, daily else by day. */
export const REALIZATIONS = registerResource({
  endpoint: 'Realizations',
  schema: realizationsResponse,
  yearOfRecords: true,
  fresh: { ...byDay(DAILY), lessons: 2 * HOUR },
  keepOnError: true,
  note: "the whole year's lessons held",
});
