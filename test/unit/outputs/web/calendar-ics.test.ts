// The calendar feeds' iCalendar text read back with ical.js: Warsaw times right in winter and summer, titles in
// the bridge's language, escaping and folding done, and the same entries always giving the same text. And as a
// strict parser reads it (RFC 5545 3.1, 3.6; RFC 7986): every line CRLF-ended, a VTIMEZONE in a calendar feed
// without entries, days off transparent, the refresh interval in the form every parser reads.
import { describe, expect, it } from 'vitest';
import { calendarFeedText, type CalendarFeedDocument } from '../../../../src/outputs/web/calendar-ics.js';
import type { AgendaEntry, CalendarFeedEntries, LessonEntry } from '../../../../src/rules/calendar-feeds.js';
import { parseCalendarFeed, strictCalendar } from '../../../helpers/ics.js';

const lesson = (over: Partial<LessonEntry>): LessonEntry => ({
  uid: 'lesson-2026-11-16-1.ania@dziennik2mqtt',
  when: { date: '2026-11-16', from: '08:00', to: '08:45' },
  lessonNo: 1,
  subject: 'Matematyka',
  teacher: 'Piotr Wiśniewski',
  room: '22',
  change: null,
  original_subject: undefined,
  original_teacher: undefined,
  original_room: undefined,
  extra: undefined,
  remark: null,
  ...over,
});

const entries = (over: Partial<CalendarFeedEntries>): CalendarFeedEntries => ({ lessons: [], agenda: [], freeDays: [], ...over });
const calendarFeed = (over: Partial<CalendarFeedDocument>): CalendarFeedDocument => ({
  name: 'lessons',
  child: 'Ania',
  entries: entries({}),
  changedAt: Date.parse('2026-11-16T06:00:00Z'),
  language: 'pl',
  ...over,
});

describe('calendar feed text', () => {
  it('puts lessons at their Warsaw time in winter and in summer, with a VTIMEZONE', () => {
    const text = calendarFeedText(
      calendarFeed({
        entries: entries({
          lessons: [lesson({}), lesson({ uid: 'lesson-2026-06-01-1.ania@dziennik2mqtt', when: { date: '2026-06-01', from: '08:00', to: '08:45' } })],
        }),
      }),
    );
    expect(text).toContain('BEGIN:VTIMEZONE');
    const parsed = parseCalendarFeed(text);
    expect(parsed.name).toBe('Ania – lekcje');
    expect(parsed.events.map((e) => [e.start, e.end, e.tzid])).toEqual([
      ['2026-11-16T07:00:00.000Z', '2026-11-16T07:45:00.000Z', 'Europe/Warsaw'],
      ['2026-06-01T06:00:00.000Z', '2026-06-01T06:45:00.000Z', 'Europe/Warsaw'],
    ]);
    expect(parsed.events[0]).toMatchObject({ summary: 'Matematyka', location: '22', status: 'CONFIRMED' });
    expect(text).toMatch(/DTSTAMP:20261116T060000Z/);
  });

  it("titles a changed lesson with its change in the timetable's words (the screens' note), in the language asked", () => {
    const cancelled = lesson({
      change: 'cancelled',
      original_subject: 'Matematyka',
      original_teacher: 'Piotr Wiśniewski',
      original_room: '22',
    });
    const substitution = lesson({
      uid: 'lesson-2026-11-16-2.ania@dziennik2mqtt',
      when: { date: '2026-11-16', from: '08:55', to: '09:40' },
      subject: 'Język angielski',
      teacher: 'Agnieszka Mazur',
      room: null,
      change: 'substitution',
      original_subject: 'Matematyka',
      original_teacher: 'Piotr Wiśniewski',
      original_room: '22',
    });
    const roomChange = lesson({ uid: 'lesson-2026-11-16-3.ania@dziennik2mqtt', room: '4', change: 'room_change', original_room: '22' });
    const both = entries({ lessons: [cancelled, substitution, roomChange] });
    const pl = parseCalendarFeed(calendarFeedText(calendarFeed({ entries: both }))).events;
    expect(pl.map((e) => e.summary)).toEqual([
      'Matematyka (odwołana)',
      'Język angielski (zastępstwo · zamiast: Matematyka)',
      'Matematyka (zmiana sali · s. 4 · było: s. 22)',
    ]);
    expect(pl[0]!.status).toBe('CANCELLED');
    expect(pl[1]!.description).toContain('Nauczyciel: Agnieszka Mazur');
    const en = parseCalendarFeed(calendarFeedText(calendarFeed({ entries: both, language: 'en' })));
    expect(en.name).toBe('Ania – lessons');
    expect(en.events.map((e) => e.summary)).toEqual([
      'Matematyka (cancelled)',
      'Język angielski (substitution · instead of Matematyka)',
      'Matematyka (room change · room 4 · was room 22)',
    ]);
  });

  it('titles a lesson moved away with where it went, cancelled in its old slot', () => {
    const moved = lesson({
      change: 'shifted',
      original_subject: 'Matematyka',
      original_teacher: 'Piotr Wiśniewski',
      original_room: '22',
      moved_to: { date: '2026-11-26', lesson_no: 7, hours: '13:40-14:25' },
    });
    const pl = parseCalendarFeed(calendarFeedText(calendarFeed({ entries: entries({ lessons: [moved] }) }))).events[0]!;
    expect(pl.summary).toBe('Matematyka (przeniesiona na czw. 26.11, lekcja 7)');
    expect(pl.status).toBe('CANCELLED');
    const en = parseCalendarFeed(calendarFeedText(calendarFeed({ entries: entries({ lessons: [moved] }), language: 'en' }))).events[0]!;
    expect(en.summary).toBe('Matematyka (moved to Thu 26.11, lesson 7)');
  });

  it('titles a lesson moved in with where it came from, taking place in its new slot', () => {
    const arrived = lesson({
      change: 'shifted',
      original_subject: 'Matematyka',
      original_teacher: 'Piotr Wiśniewski',
      original_room: '22',
      moved_from: { date: '2026-11-16', lesson_no: 1, hours: '08:00-08:45' },
    });
    const pl = parseCalendarFeed(calendarFeedText(calendarFeed({ entries: entries({ lessons: [arrived] }) }))).events[0]!;
    expect(pl.summary).toBe('Matematyka (przeniesiona z pon. 16.11, lekcja 1)');
    expect(pl.status).toBe('CONFIRMED');
    const en = parseCalendarFeed(calendarFeedText(calendarFeed({ entries: entries({ lessons: [arrived] }), language: 'en' }))).events[0]!;
    expect(en.summary).toBe('Matematyka (moved from Mon 16.11, lesson 1)');
  });

  it('ends every line with CRLF, the last one too, and holds its VTIMEZONE with no entry to show', () => {
    for (const name of ['lessons', 'agenda', 'free-days'] as const) {
      const text = calendarFeedText(calendarFeed({ name }));
      expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
      // No line break but CRLF: a lone CR or LF is no line end (RFC 5545 3.1).
      expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
      expect(strictCalendar(text).components).toEqual({ VTIMEZONE: 1 });
      expect(parseCalendarFeed(text)).toEqual({
        name: `Ania – ${{ lessons: 'lekcje', agenda: 'wydarzenia', 'free-days': 'dni wolne' }[name]}`,
        events: [],
      });
    }
    // The text as it was, its last line without its line end: the strict parser refuses it.
    expect(() => strictCalendar(calendarFeedText(calendarFeed({ entries: entries({ lessons: [lesson({})] }) })).slice(0, -2))).toThrow(
      /strict parser refused/,
    );
  });

  it('tells a subscriber to read it again hourly, as RFC 7986 writes it and as Outlook reads it', () => {
    const { properties } = strictCalendar(calendarFeedText(calendarFeed({ entries: entries({ lessons: [lesson({})] }) })));
    // VALUE=DURATION read as a duration: 3,600 seconds.
    expect(properties['REFRESH-INTERVAL']).toEqual([3600]);
    expect(properties['X-PUBLISHED-TTL']).toEqual(['PT1H']);
    expect(calendarFeedText(calendarFeed({}))).toContain('\r\nREFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n');
  });

  it('gives whole days for free days, the end the day after the last', () => {
    const text = calendarFeedText(
      calendarFeed({
        name: 'free-days',
        entries: entries({
          freeDays: [
            {
              uid: 'free-school-4.ania@dziennik2mqtt',
              when: { date: '2026-12-23', last: '2026-12-31' },
              name: 'Przerwa świąteczna',
              scope: 'school',
              lessons: null,
            },
          ],
        }),
      }),
    );
    // A day off takes no time: a phone's calendar does not show the family busy all day.
    expect(parseCalendarFeed(text).events).toEqual([
      expect.objectContaining({ summary: 'Przerwa świąteczna', start: '2026-12-23', end: '2027-01-01', allDay: true, transp: 'TRANSPARENT' }),
    ]);
    expect(strictCalendar(text).components).toEqual({ VTIMEZONE: 1, VEVENT: 1 });
    // A lesson takes its time (TRANSP left to its default, OPAQUE).
    expect(parseCalendarFeed(calendarFeedText(calendarFeed({ entries: entries({ lessons: [lesson({})] }) }))).events[0]?.transp).toBeNull();
  });

  it('escapes and folds long teacher text, and the same entries give the same text', () => {
    const long = `Zadania; przykłady, "cytat"\nlinia 2 ${'ą'.repeat(120)}`;
    const agenda = entries({
      agenda: [
        {
          uid: 'agenda-7.ania@dziennik2mqtt',
          kind: 'test',
          when: { date: '2026-11-20', last: '2026-11-20' },
          subject: null,
          text: long,
          label: 'Sprawdzian',
          teacher: null,
        },
      ],
    });
    const text = calendarFeedText(calendarFeed({ name: 'agenda', entries: agenda }));
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    const [event] = parseCalendarFeed(text).events;
    expect(event).toMatchObject({ summary: 'Sprawdzian', description: long, allDay: true });
    expect(calendarFeedText(calendarFeed({ name: 'agenda', entries: structuredClone(agenda) }))).toBe(text);
  });

  it('folds by octets, never inside a character, and writes any line break of a text as one', () => {
    // Two, three and four octets a character (an emoji is a surrogate pair), each run shifted by 0-5 octets so
    // that the folds land at every offset: each part is whole characters of at most 75 octets.
    for (const pad of ['', 'a', 'ab', 'abc', 'abcd', 'abcde']) {
      const text = `${pad}${'ł'.repeat(50)} ${'ї'.repeat(30)}\r\n${'😀'.repeat(40)}\rkoniec`;
      const out = calendarFeedText(calendarFeed({ entries: entries({ lessons: [lesson({ remark: text })] }) }));
      for (const part of out.split('\r\n')) {
        expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
        // A lone surrogate does not survive UTF-8: a part cut inside an emoji would come back changed.
        expect(Buffer.from(part, 'utf8').toString('utf8')).toBe(part);
      }
      const [event] = parseCalendarFeed(out).events;
      expect(event!.description).toContain(`Uwagi: ${pad}${'ł'.repeat(50)} ${'ї'.repeat(30)}\n${'😀'.repeat(40)}\nkoniec`);
    }
  });

  it('titles a trip by the start of its text, the whole text in the description', () => {
    const text = 'Wycieczka do Centrum Nauki Kopernik. Zbiórka 7:45 przed szkołą, powrót około 16:00.';
    const agenda = entries({
      agenda: [
        {
          uid: 'trip-3.ania@dziennik2mqtt',
          kind: 'trip',
          when: { date: '2026-12-02', from: '08:00', to: '16:00' },
          subject: null,
          text,
          label: null,
          teacher: 'Anna Nowak',
        },
      ],
    });
    const [event] = parseCalendarFeed(calendarFeedText(calendarFeed({ name: 'agenda', entries: agenda, language: 'en' }))).events;
    expect(event!.summary).toBe('Trip: Wycieczka do Centrum Nauki Kopernik. Zbiórka 7:45 przed…');
    expect(event!.description).toBe(`${text}\nTeacher: Anna Nowak`);
  });

  it('names the kind in a title only where the entry does not already, wherever the word stands in it', () => {
    const event = (label: string, text: string, kind: AgendaEntry['kind'] = 'event'): AgendaEntry => ({
      uid: `agenda-${label}-${text.length}.ania@dziennik2mqtt`,
      kind,
      when: { date: '2026-12-02', last: '2026-12-02' },
      subject: null,
      text,
      label,
      teacher: null,
    });
    const titles = (...agenda: AgendaEntry[]) =>
      parseCalendarFeed(calendarFeedText(calendarFeed({ name: 'agenda', entries: entries({ agenda }) }))).events.map((e) => e.summary);
    expect(
      titles(
        event('Konkurs', 'Szkolny konkurs recytatorski'),
        // Case and Polish letters aside: the category as the school typed it, the text in capitals without diacritics.
        event('Apel szkolny', 'Uroczysty APEL SZKOLNY z okazji Święta Niepodległości'),
        event('Wycieczka', 'Klasa 4b: wycieczka do Krakowa', 'trip'),
        // A word that only begins like the kind is another word; so is an inflected form.
        event('Konkurs', 'Konkursowe prace plastyczne'),
        event('Wycieczka', 'Wyjazd na wycieczkę do Krakowa', 'trip'),
      ),
    ).toEqual([
      'Szkolny konkurs recytatorski',
      'Uroczysty APEL SZKOLNY z okazji Święta Niepodległości',
      'Klasa 4b: wycieczka do Krakowa',
      'Konkurs: Konkursowe prace plastyczne',
      'Wycieczka: Wyjazd na wycieczkę do Krakowa',
    ]);
  });
});
