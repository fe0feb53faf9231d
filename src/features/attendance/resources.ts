// The portal resources only the attendance feature reads: the kinds of mark and the parents' justifications
// (the marks themselves, ATTENDANCES, are read by the lessons held too: src/engine/resources/school.ts).
import { attendanceTypesResponse, justificationsResponse } from '../../portal/schemas/attendance.js';
import { registerResource } from '../../engine/resource.js';
import { byDay, SLOW } from '../../engine/resources/ages.js';
import { lookupResource } from '../../engine/resources/lookups.js';

export const ATTENDANCE_TYPES = lookupResource('Attendances/Types', attendanceTypesResponse, (r) => r.Types);
/** The parents' own justifications: what only a parent's action changes, a few times a day. */
export const JUSTIFICATIONS = registerResource({
  endpoint: 'Justifications',
  schema: justificationsResponse,
  yearOfRecords: true,
  fresh: byDay(SLOW),
  keepOnError: true,
});
