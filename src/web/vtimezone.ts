// The VTIMEZONE of Europe/Warsaw that the calendar feeds carry, so that a calendar app reads their
// wall-clock times right without a time zone database of its own. Written from the EU summer time rule
// that src/util/time.ts computes (Poland keeps it since 1996): summer time from 01:00 UTC on the last
// Sunday of March (02:00 CET) to 01:00 UTC on the last Sunday of October (03:00 CEST).
import { TIME_ZONE } from '../util/time.js';

const WARSAW = [
  'BEGIN:VTIMEZONE',
  `TZID:${TIME_ZONE}`,
  `X-LIC-LOCATION:${TIME_ZONE}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  // 1996-03-31 and 1996-10-27 are the rule's first last-Sundays.
  'DTSTART:19960331T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19961027T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
].join('\r\n');

/** The VTIMEZONE block of a time zone the feeds use; null for any other (none is expected). */
export function vtimezone(name: string): string | null {
  return name === TIME_ZONE ? WARSAW : null;
}
