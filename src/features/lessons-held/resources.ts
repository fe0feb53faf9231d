// The portal resource only the lessons-held feature reads: the year's lessons held, with their topics.
import { realizationsResponse } from '../../portal/schemas/realizations.js';
import { registerResource } from '../../engine/resource.js';
import { byDay, DAILY, HOUR } from '../../engine/resources/ages.js';

/** A topic is written during or right after its lesson: every two hours while lessons are on, daily else by day. */
export const REALIZATIONS = registerResource({
  endpoint: 'Realizations',
  schema: realizationsResponse,
  yearOfRecords: true,
  fresh: { ...byDay(DAILY), lessons: 2 * HOUR },
  keepOnError: true,
  // No news in it (topics), and the dearest answer of all: a refresh keeps the copy.
  whenAsked: 'keep',
  note: "the whole year's lessons held",
});
