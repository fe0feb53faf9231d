// The rest of the register that more than one part of the bridge reads: who the child is, announcements,
// attendance and homework. What one feature alone reads is declared in its folder
// (src/features/<name>/resources.ts: notes, the agenda's, the library, the school's files, the lessons held, ...).
import { noticesResponse } from '../../portal/schemas/notices.js';
import { attendancesResponse } from '../../portal/schemas/attendance.js';
import { homeWorksResponse } from '../../portal/schemas/agenda.js';
import type { Identity } from '../identity.js';
import { fetchIdentity, IDENTITY_ENDPOINTS } from './identity.js';
import { registerResource, type Resource } from '../resource.js';
import { byDay, CORE, DAY, HOUR, NEWS } from './ages.js';
import { calendarSignal } from './calendar.js';
import { records } from './lookups.js';

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

/** The marks as teachers enter them (the attendance and the lessons held read them). */
export const ATTENDANCES = records('Attendances', attendancesResponse, CORE);

/** A new test is news; the class calendar's ids tell when an entry is added or removed (an edit within the hour). */
export const HOMEWORKS = registerResource({
  endpoint: 'HomeWorks',
  schema: homeWorksResponse,
  yearOfRecords: true,
  fresh: NEWS,
  ...calendarSignal('HomeWorks', byDay(HOUR)),
  whenAsked: 'unvouched',
  changeFeed: true,
});
