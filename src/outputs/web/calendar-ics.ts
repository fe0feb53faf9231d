// A feed's entries as iCalendar text (RFC 5545), made with ical-generator: folding, escaping and the
// time zone are the library's; the titles and descriptions follow the bridge's language.
import ical, { ICalEventStatus, type ICalDayJsStub, type ICalEventData } from 'ical-generator';
import { CALENDAR_TEXT, type CalendarText } from '../../i18n/calendar-text.js';
import type { Language } from '../../config/language.js';
import type { AgendaEntry, EntryTime, FeedEntries, FeedName, FreeDayEntry, LessonEntry } from '../../rules/calendar-feeds.js';
import { oneLine } from '../../util/text.js';
import { agendaKind } from '../../rules/agenda.js';
import { fold } from '../../rules/order.js';
import { noteOf } from '../../features/timetable/day.js';
import { TIMETABLE_WORDS, type TimetableWords } from '../../i18n/lesson-words.js';
import { addDays, TIME_ZONE, warsawInstant } from '../../util/time.js';

/**
 * A Warsaw wall-clock time as ical-generator formats a date it is given in a time zone. Its own
 * handling of a JS Date in a time zone reads the process's local time zone, and asking Intl for
 * Warsaw's would load ICU's time zone data (see src/util/time.ts); the wall time is what we have.
 */
class WarsawTime implements ICalDayJsStub {
  constructor(
    private readonly date: string,
    private readonly time = '00:00',
  ) {}

  format(format?: string): string {
    if (format === 'YYYYMMDD') return this.date.replaceAll('-', '');
    if (format === 'HHmmss') return `${this.time.replace(':', '')}00`;
    return `${this.date}T${this.time}:00`;
  }

  isValid(): boolean {
    return true;
  }

  toDate(): Date {
    return new Date(warsawInstant(this.date, this.time));
  }

  toJSON(): string {
    return this.format();
  }
}

/** Start and end of an entry: timed in Europe/Warsaw, or whole days (the end is the day after the last). */
function timesOf(when: EntryTime): Pick<ICalEventData, 'start' | 'end' | 'allDay' | 'timezone'> {
  // A whole day names the zone too: ical-generator then writes our dates as they are (VALUE=DATE).
  if (when.from === undefined)
    return { start: new WarsawTime(when.date), end: new WarsawTime(addDays(when.last, 1)), allDay: true, timezone: TIME_ZONE };
  return { start: new WarsawTime(when.date, when.from), end: new WarsawTime(when.date, when.to), timezone: TIME_ZONE };
}

const lines = (...parts: (string | null | false | undefined)[]): string => parts.filter((p) => typeof p === 'string' && p !== '').join('\n');
const labelled = (label: string, value: string | null): string | null => (value ? `${label}: ${value}` : null);

/** A slot titled with its change in the timetable's words (noteOf), as every screen says it: "Fizyka (zastępstwo · zamiast: Matematyka)". */
function lessonEvent(l: LessonEntry, t: CalendarText, words: TimetableWords): ICalEventData {
  const note = noteOf(l, words);
  const subject = l.subject ?? l.original_subject ?? t.lesson;
  return {
    id: l.uid,
    summary: note === null ? subject : `${subject} (${note})`,
    // The change first, as the title says it: a phone's calendar cuts a long title.
    description: lines(
      note,
      l.lessonNo === null ? null : `${t.lesson} ${l.lessonNo}`,
      labelled(t.teacher, l.teacher),
      labelled(t.room, l.room),
      labelled(t.note, l.remark),
    ),
    location: l.room,
    // The slot a lesson left holds no lesson: cancelled there, its title says where it went.
    status: l.change === 'cancelled' || l.moved_to !== undefined ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    ...timesOf(l.when),
  };
}

/** How much of a teacher's text a title takes; the whole text is in the description. */
const TITLE_TEXT_MAX = 60;

/** The start of a text for a title: cut at a word before TITLE_TEXT_MAX characters, with an ellipsis. */
function titleText(text: string | null): string | null {
  if (text === null || text.length <= TITLE_TEXT_MAX) return text;
  const cut = text.slice(0, TITLE_TEXT_MAX);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_TEXT_MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:–-]+$/, '')}…`;
}

/**
 * An agenda entry's kind in its title: a test, a quiz and homework by the agenda's rule (`kind`, in the family's
 * words); another entry by the category the school filed it under, as the dashboard names it ("Inne"), unless that
 * category names the kind the rule found (then in the family's words), so that an entry filed as "Inne" is never
 * titled a parents' meeting because its text mentions an open day.
 */
function agendaTitleKind(a: AgendaEntry, t: CalendarText): string {
  const ruled = t.agenda[a.kind];
  if (a.kind === 'test' || a.kind === 'quiz' || a.kind === 'homework' || a.label === null) return ruled;
  return agendaKind(a.label, undefined) === a.kind && a.kind !== 'event' ? ruled : a.label;
}

/** Whether a text already begins with one of these words (case and diacritics aside): "Zebranie z rodzicami – informacja". */
const beginsWith = (text: string, words: readonly (string | null)[]): boolean =>
  words.some((w) => w !== null && w.trim() !== '' && fold(text).startsWith(fold(w.trim())));

/** A term grade, proposed or given, on its day: "Propozycja oceny śródrocznej: Historia 3", its teacher in the description. */
function termGradeEvent(a: AgendaEntry, t: CalendarText): ICalEventData {
  const kind = a.period === undefined ? t.agenda.term_grade : t.termGrades[a.period];
  return {
    id: a.uid,
    summary: `${kind}: ${[a.subject, a.text].filter((p) => p !== null && p !== '').join(' ')}`,
    description: lines(labelled(t.teacher, a.teacher)),
    ...timesOf(a.when),
  };
}

function agendaEvent(a: AgendaEntry, t: CalendarText): ICalEventData {
  if (a.kind === 'term_grade') return termGradeEvent(a, t);
  const kind = agendaTitleKind(a, t);
  // A test names its subject; a trip or a meeting has none, its text says what it is.
  const what = a.subject ?? (a.kind === 'trip' || a.kind === 'meeting' || a.kind === 'event' ? titleText(a.text) : null);
  // A text that begins with its kind (or its category) is the title alone: the kind is never said twice.
  const summary = what === null ? kind : a.subject === null && beginsWith(what, [kind, a.label]) ? what : `${kind}: ${what}`;
  return {
    id: a.uid,
    summary,
    description: lines(a.label !== kind ? a.label : null, a.text, labelled(t.teacher, a.teacher)),
    ...timesOf(a.when),
  };
}

function freeDayEvent(f: FreeDayEntry, t: CalendarText): ICalEventData {
  const name = f.name ?? t.freeDay;
  return {
    id: f.uid,
    summary: f.lessons ? `${name} (${t.lessons(f.lessons.from, f.lessons.to)})` : name,
    description: t.scope[f.scope],
    ...timesOf(f.when),
  };
}

export interface FeedCalendar {
  name: FeedName;
  /** The child's first name, for the calendar's name. */
  child: string;
  entries: FeedEntries;
  /** When the entries last changed: every event's DTSTAMP, so that the same entries give the same text. */
  changedAt: number;
  language: Language;
}

/** A TEXT value as RFC 5545 3.3.11 escapes it: backslash, semicolon, comma and line feed. */
export function icalText(text: string): string {
  return text.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\n/g, '\\n');
}

/** The feed's iCalendar text. */
export function feedText(feed: FeedCalendar): string {
  const t = CALENDAR_TEXT[feed.language];
  const calendar = ical({
    // ical-generator writes NAME and X-WR-CALNAME as given, unescaped (unlike SUMMARY): escaped here.
    name: icalText(oneLine(`${feed.child} – ${t.feeds[feed.name]}`)),
    prodId: { company: 'dziennik2mqtt', product: 'calendar feeds', language: feed.language.toUpperCase() },
    // No calendar-wide zone: DTSTAMP stays UTC; each timed event names Europe/Warsaw, whose
    // VTIMEZONE the generator adds.
    timezone: { name: null, generator: vtimezone },
    x: { 'X-WR-TIMEZONE': TIME_ZONE },
  });
  const stamp = new Date(feed.changedAt);
  const events =
    feed.name === 'lessons'
      ? feed.entries.lessons.map((l) => lessonEvent(l, t, TIMETABLE_WORDS[feed.language]))
      : feed.name === 'agenda'
        ? feed.entries.agenda.map((a) => agendaEvent(a, t))
        : feed.entries.freeDays.map((f) => freeDayEvent(f, t));
  for (const event of events) calendar.createEvent({ ...event, stamp });
  return calendar.toString();
}

// The VTIMEZONE of Europe/Warsaw that the calendar feeds carry, so that a calendar app reads their
// wall-clock times right without a time zone database of its own. Written from the EU summer time rule
// that src/util/time.ts computes (Poland keeps it since 1996): summer time from 01:00 UTC on the last
// Sunday of March (02:00 CET) to 01:00 UTC on the last Sunday of October (03:00 CEST).
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
