// Reads a calendar feed back with an independent parser (ical.js), as a calendar app would: the
// calendar's name and each event with its start and end as instants (or dates for whole days). And with a strict
// one (npm `icalendar`), which refuses what a lenient reader lets pass (strictCalendar).
import { createRequire } from 'node:module';
import ICAL from 'ical.js';

export interface ParsedEvent {
  uid: string;
  summary: string;
  description: string | null;
  location: string | null;
  status: string | null;
  /** ISO instant (UTC) for a timed event, YYYY-MM-DD for a whole day. */
  start: string;
  end: string | null;
  allDay: boolean;
  /** The TZID the start names, null for UTC or a date. */
  tzid: string | null;
  /** TRANSP as written (TRANSPARENT: the event takes no time), null when left to its default (OPAQUE). */
  transp: string | null;
}

export interface ParsedCalendar {
  name: string | null;
  events: ParsedEvent[];
}

function timeOf(t: ICAL.Time | null): string | null {
  if (t === null) return null;
  return t.isDate ? t.toString() : new Date(t.toUnixTime() * 1000).toISOString();
}

/** A calendar feed's text, or its bytes as the bridge keeps and serves them (UTF-8). */
export function parseCalendarFeed(calendarFeed: string | Buffer): ParsedCalendar {
  const calendar = new ICAL.Component(ICAL.parse(calendarFeed.toString()));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(zone));
  const events = calendar.getAllSubcomponents('vevent').map((v) => {
    const e = new ICAL.Event(v);
    const text = (name: string): string | null => {
      const value = v.getFirstPropertyValue(name);
      return value === null ? null : String(value);
    };
    return {
      uid: e.uid,
      summary: e.summary,
      description: e.description ?? null,
      location: e.location ?? null,
      status: text('status'),
      start: timeOf(e.startDate) as string,
      end: timeOf(e.endDate),
      allDay: e.startDate.isDate,
      tzid: (v.getFirstProperty('dtstart')?.getParameter('tzid') as string | undefined) ?? null,
      transp: text('transp'),
    };
  });
  const name = calendar.getFirstPropertyValue('x-wr-calname');
  return { name: name === null ? null : String(name), events };
}

/** A component as the strict parser gives it. */
interface StrictComponent {
  properties: Record<string, { value: unknown }[]>;
  components: Record<string, StrictComponent[]>;
  validate(): void;
}

// Tri Tech's RFC 5545 parser (no one here wrote it). Unlike ical.js it takes a line as ended only by its line
// break, so a calendar whose last line has none lacks its END:VCALENDAR; a BEGIN without its END, a TZID without
// its VTIMEZONE and a value that its type cannot read are refused too, and validate() asks each component for the
// properties RFC 5545 requires of it (PRODID and VERSION, an event's UID and DTSTAMP).
const strict = createRequire(import.meta.url)('icalendar') as { parse_calendar(text: string): StrictComponent };

/** A calendar feed as the strict parser reads it: its calendar's properties and components by name; it throws where the text is not iCalendar. */
export function strictCalendar(calendarFeed: string | Buffer): { properties: Record<string, unknown[]>; components: Record<string, number> } {
  let calendar: StrictComponent;
  try {
    calendar = strict.parse_calendar(calendarFeed.toString());
    calendar.validate();
  } catch (error) {
    // Its own ParseError carries no message: it is thrown where BEGIN and END do not close (a last line without its line break).
    throw new Error(`the strict parser refused the calendar feed: ${(error as Error).message || 'its BEGIN and END lines do not close'}`);
  }
  return {
    properties: Object.fromEntries(Object.entries(calendar.properties).map(([name, list]) => [name, list.map((p) => p.value)])),
    components: Object.fromEntries(Object.entries(calendar.components).map(([name, list]) => [name, list.length])),
  };
}
