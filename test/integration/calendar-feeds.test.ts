// The calendar feeds of the real bridge after real passes of the simulated portal, as its web server
// serves them from what the passes published, read back with ical.js as a calendar app reads them: both weeks' lessons with their changes, a test the school
// adds (and edits), a free day, the titles in both languages, and the same text while nothing changes.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import type { CalendarFeedName } from '../../src/rules/calendar-feeds.js';
import type { Language } from '../../src/config/language.js';
import type { Harness } from '../helpers/app.js';
import { parseCalendarFeed } from '../helpers/ics.js';
import { simulatedSchool } from '../helpers/school.js';
import { freePort } from '../helpers/ports.js';
import { WEB } from '../../src/outputs/web/output.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday during the second lesson, half a minute off the minute (see timetable-day.test.ts).
const NOW = '2026-11-18T09:11:30+01:00';

const school = simulatedSchool(NOW);

// The calendar feeds are the web server's: its memory keeps what the passes published.
/** The bridge after its second normal pass: next week's timetable for the calendar feeds is not read at a start. */
const firstPass = async (poll?: Record<string, string>) => {
  const h = await school.firstPasses(['at_school', 'upcoming_tests'], { http: { port: await freePort() }, ...(poll ? { poll } : {}) });
  await h.advanceMinutes(5);
  return h;
};

function calendarFeed(h: Harness, name: CalendarFeedName, language: Language = 'pl') {
  const source = h.app.outputOf(WEB)?.snapshot?.calendarFeedSource('ania', name, language);
  if (source === undefined || source === null) throw new Error('the web server serves no calendar feeds of ania');
  return { ...source, calendar: parseCalendarFeed(source.body) };
}

/** A Warsaw wall time in November (UTC+1) as the instant a calendar app shows. */
const at = (date: string, time: string): string => new Date(`${date}T${time}:00+01:00`).toISOString();

describe('calendar feeds', () => {
  it("lists this and next week's lessons with their changes, in the bridge's language, without asking the portal", async () => {
    const h = await firstPass();
    const requests = school.sim.requests.length;
    const lessons = calendarFeed(h, 'lessons');
    expect(school.sim.requests.length).toBe(requests);
    expect(lessons.calendar.name).toBe('Ania – lekcje');

    const on = (date: string) =>
      lessons.calendar.events
        .filter((e) => e.start.startsWith(date) || e.start.startsWith(`${date}T`))
        .sort((a, b) => a.start.localeCompare(b.start));
    expect(on('2026-11-18').map((e) => [e.start, e.end, e.summary, e.location])).toEqual([
      [at('2026-11-18', '08:00'), at('2026-11-18', '08:45'), 'Przyroda', '21'],
      [at('2026-11-18', '08:55'), at('2026-11-18', '09:40'), 'Język angielski (zastępstwo · zamiast: Matematyka)', null],
      [at('2026-11-18', '09:50'), at('2026-11-18', '10:35'), 'Język polski', '12'],
      [at('2026-11-18', '10:50'), at('2026-11-18', '11:35'), 'Wychowanie fizyczne', 's.gim.'],
      [at('2026-11-18', '11:50'), at('2026-11-18', '12:35'), 'Plastyka', '12'],
      [at('2026-11-18', '12:45'), at('2026-11-18', '13:30'), 'Religia', '12'],
    ]);
    // Thursday's cancelled history lesson stays, marked; the room change says both rooms: each in the board's words.
    const thursday = on('2026-11-19');
    expect(thursday.find((e) => e.start === at('2026-11-19', '10:50'))).toMatchObject({ summary: 'Historia (odwołana)', status: 'CANCELLED' });
    expect(thursday.find((e) => e.start === at('2026-11-19', '11:50'))?.summary).toBe('Technika (zmiana sali · s. 4 · było: s. 12)');
    // Monday of this week and next week's days are there too (next week read for the calendar feed).
    expect(on('2026-11-16').length).toBeGreaterThan(0);
    const nextWeek = lessons.calendar.events.filter((e) => e.start >= '2026-11-23' && e.start < '2026-11-30');
    expect(new Set(nextWeek.map((e) => e.start.slice(0, 10))).size).toBe(5);
    expect(lessons.calendar.events.every((e) => e.tzid === 'Europe/Warsaw' && e.uid.endsWith('.ania@dziennik2mqtt'))).toBe(true);

    const en = calendarFeed(h, 'lessons', 'en');
    expect(en.calendar.name).toBe('Ania – lessons');
    expect(en.calendar.events.find((e) => e.start === at('2026-11-19', '10:50'))?.summary).toBe('Historia (cancelled)');
    expect(en.calendar.events.map((e) => e.uid)).toEqual(lessons.calendar.events.map((e) => e.uid));
  });

  it('shows a test the school adds, keeps its UID when the school moves it, and keeps the same text while nothing changes', async () => {
    const h = await firstPass();
    const before = calendarFeed(h, 'agenda');
    const record = school.sim.account(ANIA.login).addTest({ date: '2026-11-24', content: 'Sprawdzian: ułamki, rozdział 4.' });
    await h.advanceMinutes(20);
    const added = calendarFeed(h, 'agenda');
    expect(added.modifiedAt).toBeGreaterThan(before.modifiedAt);
    const test = added.calendar.events.find((e) => e.description?.includes('ułamki, rozdział 4.'));
    expect(test).toMatchObject({ summary: 'Sprawdzian: Matematyka', start: at('2026-11-24', '08:55'), end: at('2026-11-24', '09:40') });
    expect(calendarFeed(h, 'agenda', 'en').calendar.events.find((e) => e.uid === test!.uid)?.summary).toBe('Test: Matematyka');

    // Passes that bring nothing new leave the text (its ETag) and Last-Modified as they were.
    await h.advanceMinutes(20);
    const again = calendarFeed(h, 'agenda');
    expect(again.body).toEqual(added.body);
    expect(again.modifiedAt).toBe(added.modifiedAt);

    // The teacher moves the test to Wednesday: the same event, moved (an edit keeps the class calendar's ids).
    record.Date = '2026-11-25';
    await h.advanceMinutes(60);
    const moved = calendarFeed(h, 'agenda').calendar.events.filter((e) => e.description?.includes('ułamki, rozdział 4.'));
    expect(moved).toEqual([expect.objectContaining({ uid: test!.uid, start: at('2026-11-25', '08:55') })]);
  });

  it("lists the free days of the school and of the child's class, whole days", async () => {
    const h = await firstPass();
    const account = school.sim.account(ANIA.login);
    account.school.classFreeDays.push({ Id: 99, Class: 7104, Type: 5, DateFrom: '2026-12-07', DateTo: '2026-12-08', AddDate: account.stamp() });
    account.school.classFreeDays.push({ Id: 98, Class: 7105, Type: 5, DateFrom: '2026-12-09', DateTo: '2026-12-09', AddDate: account.stamp() });
    await h.advanceMinutes(20);
    const free = calendarFeed(h, 'free-days');
    expect(free.calendar.name).toBe('Ania – dni wolne');
    expect(free.calendar.events.find((e) => e.start === '2026-12-07')).toMatchObject({
      summary: 'Zajęcia skrócone',
      end: '2026-12-09',
      allDay: true,
    });
    // Another class's free day is not Ania's.
    expect(free.calendar.events.some((e) => e.start === '2026-12-09')).toBe(false);
  });

  it('reads next week for the lessons feed once a day, at once after a new plan change, not at night', async () => {
    // The unread counters every 20 minutes: next week is read by the lessons' and the normal passes, and the
    // counters' 3-minute passes of the day were most of this test's CPU.
    const h = await firstPass({ fast_interval: '20m' });
    const reads = () =>
      school.sim.requests.filter((r) => r.path.endsWith('/Timetables') && r.query.includes('weekStart=2026-11-23')).map((r) => r.at);
    expect(reads()).toHaveLength(1);
    await h.advanceMinutes(120);
    expect(reads()).toHaveLength(1);

    school.sim.account(ANIA.login).addPlanChange({ kind: 'cancelled', OrgDate: '2026-11-24', OrgLessonNo: 2 });
    await h.advanceMinutes(20);
    expect(reads()).toHaveLength(2);
    const cancelled = calendarFeed(h, 'lessons').calendar.events.find((e) => e.start === at('2026-11-24', '08:55'));
    expect(cancelled?.summary).toMatch(/ \(odwołana\)$/);

    // On to Thursday 05:00: not again that day, nor at night.
    await h.advanceMinutes(17 * 60 + 30);
    expect(reads()).toHaveLength(2);
    // A day after the last read, once more.
    await h.advanceMinutes(7 * 60);
    const times = reads();
    expect(times).toHaveLength(3);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(24 * 3_600_000 - 10 * 60_000);
    expect(times[2]! - times[1]!).toBeLessThanOrEqual(24 * 3_600_000 + 5 * 60_000);
  }, 90_000); // a simulated day and more with news passes every 5 minutes while lessons are on

  it('spans a three-day trip over its days in agenda.ics and upcoming_tests, whole days', async () => {
    school.sim.account(ANIA.login).addTrip({ destination: 'Zakopane', route: 'Tatry', from: '2026-11-25 07:30:00', to: '2026-11-27 18:00:00' });
    const h = await firstPass();
    const other = (h.attributes('ania', 'upcoming_tests')?.other ?? []) as { kind: string; date: string; until: string | null; content: string }[];
    expect(other.filter((o) => o.kind === 'trip').map((o) => [o.date, o.until, o.content])).toContainEqual([
      '2026-11-25',
      '2026-11-27',
      'Zakopane: Tatry',
    ]);
    const trip = calendarFeed(h, 'agenda').calendar.events.find((e) => e.summary.includes('Zakopane'));
    // An all-day event of three days: DTEND is the day after the last (RFC 5545).
    expect(trip).toMatchObject({ start: '2026-11-25', end: '2026-11-28' });
  });
});
