// The portal resource only the school-files feature reads: the school's shared files.
import { schoolFilesResponse } from '../../portal/schemas/agenda.js';
import { registerResource } from '../../engine/resource.js';
import { byDay, SLOW } from '../../engine/resources/ages.js';

/** The list changes a few times a term. */
export const SCHOOL_FILES = registerResource({
  endpoint: 'SchoolFiles',
  schema: schoolFilesResponse,
  yearOfRecords: true,
  fresh: byDay(SLOW),
  keepOnError: true,
  notAtStart: true,
});
