// A calendar feed's entries as iCalendar text (RFC 5545), written here: the few properties a school calendar
// needs, TEXT escaped (3.3.11) and every line folded at 75 octets and ended with CRLF (3.1); the titles and
// descriptions follow the bridge's language, and the times are Warsaw's wall clock with the zone's VTIMEZONE,
// which every calendar feed holds, an empty one too (3.6 asks a calendar for at least one component).
import { CALENDAR_TEXT, type CalendarText } from '../../i18n/calendar-text.js';
import type { Language } from '../../config/language.js';
import type { AgendaEntry, EntryTime, CalendarFeedEntries, CalendarFeedName, FreeDayEntry, LessonEntry } from '../../rules/calendar-feeds.js';
import { oneLine } from '../../util/text.js';
import { agendaKind } from '../../rules/agenda.js';
import { fold } from '../../rules/order.js';
import { noteOf } from '../../features/timetable/day.js';
import { TIMETABLE_WORDS, type TimetableWords } from '../../i18n/lesson-words.js';
import { addDays, basicUtc, TIME_ZONE } from '../../util/time.js';

/** One VEVENT as a calendar feed writes it. */
interface CalendarFeedEvent {
  uid: string;
  summary: string;
  description: string;
  location?: string | null;
  status?: 'CONFIRMED' | 'CANCELLED';
  /** A day off takes no time: a phone's calendar does not show the family busy all day (TRANSP, RFC 5545 3.8.2.7). */
  transparent?: true;
  when: EntryTime;
}

const lines = (...parts: (string | null | false | undefined)[]): string => parts.filter((p) => typeof p === 'string' && p !== '').join('\n');
const labelled = (label: string, value: string | null): string | null => (value ? `${label}: ${value}` : null);

/** A slot titled with its change in the timetable's words (noteOf), as every screen says it: "Fizyka (zastępstwo · zamiast: Matematyka)". */
function lessonEvent(l: LessonEntry, t: CalendarText, words: TimetableWords): CalendarFeedEvent {
  const note = noteOf(l, words);
  const subject = l.subject ?? l.original_subject ?? t.lesson;
  return {
    uid: l.uid,
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
    status: l.change === 'cancelled' || l.moved_to !== undefined ? 'CANCELLED' : 'CONFIRMED',
    when: l.when,
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

/**
 * Whether a text already names one of these kinds, as whole words wherever they stand, case and Polish letters aside:
 * "Zebranie z rodzicami – informacja", "Szkolny konkurs recytatorski" for "Konkurs". Only the word as written: an
 * inflected form ("na wycieczkę" for "Wycieczka") is another word, and the title then says the kind.
 */
function names(text: string, kinds: readonly (string | null)[]): boolean {
  const said = ` ${wordsOf(text).join(' ')} `;
  return kinds.some((kind) => kind !== null && wordsOf(kind).length > 0 && said.includes(` ${wordsOf(kind).join(' ')} `));
}

/** A text's words, folded (fold: lower case, no diacritics), whatever stands between them. */
const wordsOf = (text: string): string[] =>
  fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');

/** A term grade, proposed or given, on its day: "Propozycja oceny śródrocznej: Historia 3", its teacher in the description. */
function termGradeEvent(a: AgendaEntry, t: CalendarText): CalendarFeedEvent {
  const kind = a.period === undefined ? t.agenda.term_grade : t.termGrades[a.period];
  return {
    uid: a.uid,
    summary: `${kind}: ${[a.subject, a.text].filter((p) => p !== null && p !== '').join(' ')}`,
    description: lines(labelled(t.teacher, a.teacher)),
    when: a.when,
  };
}

function agendaEvent(a: AgendaEntry, t: CalendarText): CalendarFeedEvent {
  if (a.kind === 'term_grade') return termGradeEvent(a, t);
  const kind = agendaTitleKind(a, t);
  // A test names its subject; a trip or a meeting has none, its text says what it is.
  const what = a.subject ?? (a.kind === 'trip' || a.kind === 'meeting' || a.kind === 'event' ? titleText(a.text) : null);
  // A text that names its kind (or its category) is the title alone: the kind is never said twice.
  const summary = what === null ? kind : a.subject === null && names(what, [kind, a.label]) ? what : `${kind}: ${what}`;
  return {
    uid: a.uid,
    summary,
    description: lines(a.label !== kind ? a.label : null, a.text, labelled(t.teacher, a.teacher)),
    when: a.when,
  };
}

function freeDayEvent(f: FreeDayEntry, t: CalendarText): CalendarFeedEvent {
  const name = f.name ?? t.freeDay;
  return {
    uid: f.uid,
    summary: f.lessons ? `${name} (${t.lessons(f.lessons.from, f.lessons.to)})` : name,
    description: t.scope[f.scope],
    transparent: true,
    when: f.when,
  };
}

export interface CalendarFeedDocument {
  name: CalendarFeedName;
  /** The child's first name, for the calendar's name. */
  child: string;
  entries: CalendarFeedEntries;
  /** When the entries last changed: every event's DTSTAMP, so that the same entries give the same text. */
  changedAt: number;
  language: Language;
}

/** A TEXT value as RFC 5545 3.3.11 escapes it: backslash, semicolon, comma, and a line break of any kind as `\n`. */
export function icalText(text: string): string {
  return text.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * How often a subscriber should read a calendar feed again (RFC 7986 REFRESH-INTERVAL, and Outlook's X-PUBLISHED-TTL):
 * the school's lists change a few times a day. Home Assistant's own calendars are asked at once after a change (keeper.ts).
 */
const REFRESH = 'PT1H';

/** The calendar feed's iCalendar text: every line CRLF-ended, the last one too; the same entries give the same text. */
export function calendarFeedText(calendarFeed: CalendarFeedDocument): string {
  const t = CALENDAR_TEXT[calendarFeed.language];
  const events =
    calendarFeed.name === 'lessons'
      ? calendarFeed.entries.lessons.map((l) => lessonEvent(l, t, TIMETABLE_WORDS[calendarFeed.language]))
      : calendarFeed.name === 'agenda'
        ? calendarFeed.entries.agenda.map((a) => agendaEvent(a, t))
        : calendarFeed.entries.freeDays.map((f) => freeDayEvent(f, t));
  const name = icalText(oneLine(`${calendarFeed.child} – ${t.calendarFeeds[calendarFeed.name]}`));
  const stamp = `DTSTAMP:${basicUtc(calendarFeed.changedAt)}`;
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//dziennik2mqtt//calendar feeds//${calendarFeed.language.toUpperCase()}`,
    `NAME:${name}`,
    `X-WR-CALNAME:${name}`,
    `X-WR-TIMEZONE:${TIME_ZONE}`,
    // The value type said: a parser that reads the property strictly refuses it without (RFC 7986 5.7).
    `REFRESH-INTERVAL;VALUE=DURATION:${REFRESH}`,
    `X-PUBLISHED-TTL:${REFRESH}`,
    // Every event is in Warsaw's time: the zone's definition comes with them, and stands alone in a calendar feed without any.
    ...WARSAW,
    ...events.flatMap((event) => eventLines(event, stamp)),
    'END:VCALENDAR',
  ]
    .map((line) => `${foldLine(line)}\r\n`)
    .join('');
}

function eventLines(event: CalendarFeedEvent, stamp: string): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    'SEQUENCE:0',
    stamp,
    ...timeLines(event.when),
    `SUMMARY:${icalText(event.summary)}`,
    ...(event.location ? [`LOCATION:${icalText(event.location)}`] : []),
    `DESCRIPTION:${icalText(event.description)}`,
    ...(event.status ? [`STATUS:${event.status}`] : []),
    ...(event.transparent ? ['TRANSP:TRANSPARENT'] : []),
    'END:VEVENT',
  ];
}

/**
 * DTSTART and DTEND: a timed entry at Warsaw's wall time, a whole day as dates whose end is the day after
 * the last (with the all-day marks Outlook reads). An end before the start (a school's typo) is swapped.
 */
function timeLines(when: EntryTime): string[] {
  const date = when.date.replaceAll('-', '');
  if (when.from === undefined) {
    const [start, end] = ordered(date, addDays(when.last, 1).replaceAll('-', ''));
    return [`DTSTART;VALUE=DATE:${start}`, `DTEND;VALUE=DATE:${end}`, 'X-MICROSOFT-CDO-ALLDAYEVENT:TRUE', 'X-MICROSOFT-MSNCALENDAR-ALLDAYEVENT:TRUE'];
  }
  const [start, end] = ordered(`${date}T${when.from.replace(':', '')}00`, `${date}T${when.to.replace(':', '')}00`);
  return [`DTSTART;TZID=${TIME_ZONE}:${start}`, `DTEND;TZID=${TIME_ZONE}:${end}`];
}

const ordered = (start: string, end: string): [string, string] => (end < start ? [end, start] : [start, end]);

/** The longest a line's first part may be, in octets; each further part is a space and as many (RFC 5545 3.1: 75 in all). */
const FOLD_OCTETS = 74;

/** A line folded before the character that would take a part past FOLD_OCTETS of UTF-8; a surrogate pair is never split. */
function foldLine(line: string): string {
  if (Buffer.byteLength(line, 'utf8') <= FOLD_OCTETS) return line;
  let folded = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    octets += size;
    if (octets > FOLD_OCTETS) {
      folded += '\r\n ';
      octets = size;
    }
    folded += char;
  }
  return folded;
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
];
