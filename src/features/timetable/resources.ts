// The portal resources only the timetable feature reads: the year's plan changes, the free days and their
// kinds, the extra classes (the week's timetable itself, TIMETABLE, is probed by `check` too: src/engine/resources/timetable.ts). A plan
// change of today or the next school day is news; it is a new entry under Substitutions, so while the class
// calendar lists the same ids the year's list stands.
import { keptTimetableEntries, otherActivitiesResponse, substitutionsResponse, timetableEntriesResponse } from '../../portal/schemas/timetable.js';
import { classFreeDayTypesResponse, classFreeDaysResponse, schoolFreeDaysResponse } from '../../portal/schemas/calendar.js';
import type { z } from 'zod';
import { registerResource, type Resource } from '../../engine/resource.js';
import { BY_THE_HOUR, byDay, DAILY, DAY, MINUTE, RARE } from '../../engine/resources/ages.js';
import { calendarSignal } from '../../engine/resources/calendar.js';
import { daily } from '../../engine/resources/lookups.js';
import { classSignal } from '../../engine/resources/identity.js';
import { addDays } from '../../util/time.js';

export const SUBSTITUTIONS = registerResource({
  endpoint: 'Calendars/Substitutions',
  schema: substitutionsResponse,
  yearOfRecords: true,
  fresh: BY_THE_HOUR,
  ...calendarSignal('Substitutions', byDay(RARE)),
  whenAsked: 'unvouched',
  keepOnError: true,
  changeFeed: true,
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
    changeFeed: [`Calendars/${name}`],
  });
}
export const SCHOOL_FREE_DAYS = freeDays('SchoolFreeDays', schoolFreeDaysResponse);
export const CLASS_FREE_DAYS = freeDays('ClassFreeDays', classFreeDaysResponse);
export const FREE_DAY_TYPES = daily('Calendars/ClassFreeDays/Types', classFreeDayTypesResponse);
/**
 * The extra classes (zajęcia dodatkowe, live-notes 42-46) of this and next week in one request, keyed by the Monday,
 * asked as the portal's web timetable asks: once a day (a start's first pass too: the day a family sees first is whole),
 * or when the change feed names the timetable. A failed read leaves the last copy (none: the timetable without them); a
 * refusal is a school without the list.
 */
export const EXTRA_CLASSES = registerResource({
  endpoint: 'Timetables/OtherActivitiesRegister',
  queryKey: (monday) => ({ dateFrom: monday, dateTo: addDays(monday, 13), hideOutdatedEntries: 'false' }),
  schema: otherActivitiesResponse,
  fresh: byDay(DAILY),
  keepOnError: true,
  byPeriod: true,
  changeFeed: ['Timetables'],
  note: 'the extra classes of this and next week, in one request',
});
/** The most entries of the standing plan read (interface 19.2; docs/cost-and-faults.md). */
export const STANDING_ENTRIES_MAX = 2_000;
/**
 * The most bytes of the standing plan's answer: an entry with its references spelt out is about 300 bytes, so this holds
 * more than STANDING_ENTRIES_MAX of them. A larger plan is no class's: refused unread, the last good copy kept, and the
 * bridge holds no more than a megabyte of it for a moment (a 2 MB one read whole cost the bin 2-3 MB of RSS).
 */
export const STANDING_ANSWER_BYTES = 1024 * 1024;

/**
 * The standing weekly plan (TimetableEntries), which this and next week are told against (interface 18.2): it changes
 * with a new semester's plan, so a week old at most, never in a start's first pass (the last run's copy stands in: kept
 * through a restart), and kept when a read fails.
 */
export const TIMETABLE_ENTRIES = registerResource({
  endpoint: 'TimetableEntries',
  schema: timetableEntriesResponse,
  // A week of about 50 slots, each with a few groups and the versions a year's plan changes left: far under this.
  maxItems: STANDING_ENTRIES_MAX,
  maxBytes: STANDING_ANSWER_BYTES,
  fresh: byDay(7 * DAY - 10 * MINUTE),
  // The plan is its class's: read again when the child is in another class (identity.ts classSignal), not a week later.
  signal: classSignal,
  keepOnError: true,
  notAtStart: true,
  kept: keptTimetableEntries,
  whenAsked: 'keep',
  note: "the standing weekly plan, which this and next week are told against; at once when the child's class changes (a new school year)",
});
