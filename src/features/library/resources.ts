// The portal resource only the library feature reads: the child's lendings.
import { ebiblioLendingsResponse } from '../../portal/schemas/library.js';
import { registerResource } from '../../engine/resource.js';
import { byDay, SLOW } from '../../engine/resources/ages.js';

/** A lending lasts weeks: a start publishes what the last run kept and reads it at its second pass. */
export const LIBRARY = registerResource({
  endpoint: 'EbiblioLendings',
  schema: ebiblioLendingsResponse,
  fresh: byDay(SLOW),
  notAtStart: true,
});
