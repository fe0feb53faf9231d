// The rest of the register that more than one part of the bridge reads: announcements, attendance and homework
// (who the child is: identity.ts). What one feature alone reads is declared in its folder
// (src/features/<name>/resources.ts: notes, the agenda's, the library, the school's files, the lessons held, ...).
import { noticesResponse } from '../../portal/schemas/notices.js';
import { attendancesResponse } from '../../portal/schemas/attendance.js';
import { homeWorksResponse } from '../../portal/schemas/agenda.js';
import { registerResource } from '../resource.js';
import { byDay, CORE, HOUR, NEWS } from './ages.js';
import { calendarSignal } from './calendar.js';
import { records } from './lookups.js';

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
