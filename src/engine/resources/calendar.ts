// The class calendar (spec 2.8) as a cheap signal: one small answer lists the ids of the year's
// homework entries, plan changes, meetings and free days. While a kind's ids are what they were when
// its list was read, that list cannot have gained or lost an entry, so it is read only at its slower
// vouched age (an edit keeps the ids). Its ids are read at the news age for that.
import { calendarMonthResponse, calendarsResponse } from '../../portal/schemas/calendar.js';
import type { Freshness } from '../schedule.js';
import { registerResource, want, type Copies, type Resource } from '../resource.js';
import { NEWS } from './ages.js';
import { daily } from './lookups.js';
import { classSignal } from './identity.js';

/** The class calendar's id is its class's: read again when the child is in another class (identity.ts classSignal). */
export const CALENDARS = daily(
  'Calendars',
  calendarsResponse,
  "the class calendar's id; at once when the child's class changes (a new school year)",
  classSignal,
);
export const CALENDAR_IDS = registerResource({
  endpoint: 'Calendars/<id>',
  schema: calendarMonthResponse,
  fresh: NEWS,
  // With the change feed on, it names what the ids would tell.
  changeFeed: ['HomeWorks', 'Calendars/Substitutions', 'ParentTeacherConferences', 'Calendars/SchoolFreeDays', 'Calendars/ClassFreeDays'],
  note: 'the class calendar: ids only',
});

/** Each kind of the calendar's ids, as the documentation names them. */
const KINDS = {
  HomeWorks: 'HomeWorks',
  Substitutions: 'plan change',
  ParentTeacherConferences: 'meeting',
  SchoolFreeDays: 'free day',
  ClassFreeDays: 'free day',
} as const;
export type CalendarKind = keyof typeof KINDS;

/** The calendar's id as its copy gives it (undefined before it is read, or for a class without one). */
function calendarId(copies: Copies): string | undefined {
  return copies.peek(CALENDARS)?.Calendars[0]?.Id;
}

/**
 * A list the calendar vouches for, as old as `fresh` while it does: a kind's fingerprint in the calendar's
 * copy (its ids, sorted; undefined when the calendar does not list it), and the calendar's reads it needs,
 * which the list's declaration brings to whoever reads the list.
 */
export function calendarSignal(kind: CalendarKind, fresh: Freshness): Pick<Resource, 'vouch' | 'signal' | 'signalReads'> {
  return {
    vouch: { by: `class calendar (${KINDS[kind]} ids)`, fresh },
    signal: (copies) => {
      const id = calendarId(copies);
      try {
        // A calendar whose read failed in this pass vouches for nothing: the lists keep their own ages.
        const ids = id === undefined ? undefined : copies.get(CALENDAR_IDS, id)?.Calendar[kind];
        return ids === undefined ? undefined : [...ids].sort().join(',');
      } catch {
        return undefined;
      }
    },
    // The calendar, and its ids once its id is known.
    signalReads: (copies) => {
      const id = calendarId(copies);
      return id === undefined ? [want(CALENDARS)] : [want(CALENDARS), want(CALENDAR_IDS, id)];
    },
  };
}
