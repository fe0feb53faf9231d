// Reads a calendar feed back with an independent parser (ical.js), as a calendar app would: the
// calendar's name and each event with its start and end as instants (or dates for whole days).
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
    };
  });
  const name = calendar.getFirstPropertyValue('x-wr-calname');
  return { name: name === null ? null : String(name), events };
}
