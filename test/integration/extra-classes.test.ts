// Extra classes (live-notes 42-46) against the real bridge and broker: Ania's Tuesday maths club stands in
// timetable_today at lesson 7's hour marked extra, and in her lessons feed; Jan's school refuses the list (403),
// and his day is the plan's alone, nothing failed. The list is asked once for the fortnight, as the web plan asks.
// (The bridge's clock moves to the pass that reads next week for the calendar feed.)
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { parseCalendarFeed } from '../helpers/ics.js';
import { freePort } from '../helpers/ports.js';
import { simulatedSchool } from '../helpers/school.js';
import { WEB } from '../../src/outputs/web/output.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
const PATH = 'Timetables/OtherActivitiesRegister';
// A Tuesday during the second lesson.
const school = simulatedSchool('2026-11-24T09:11:30+01:00');

describe('extra classes', () => {
  it('stand in the day and the lessons feed marked extra; a school that refuses the list shows none and fails nothing', async () => {
    school.sim.account(JANEK.login).setModuleStatus(PATH, 403);
    const h = await school.start({ accounts: [ANIA, JANEK].map(({ login, password }) => ({ login, password })), http: { port: await freePort() } });
    const lessonsOf = (child: string) =>
      (h.attributes(child, 'timetable_today') as { lessons: Record<string, unknown>[] } | undefined)?.lessons ?? [];
    // Read in a start's first pass (issue 80): the first day the family sees is whole, its extra class in it.
    await h.runUntil(() => lessonsOf('jan').length > 0 && lessonsOf('ania').length > 0, 'the first pass');
    expect(lessonsOf('ania').some((l) => l.extra)).toBe(true);

    const lessons = lessonsOf('ania');
    expect(lessons.at(-1)).toEqual({
      no: 7,
      from: '13:40',
      to: '14:25',
      subject: 'Koło matematyczne',
      teacher: 'Piotr Wiśniewski',
      room: '22',
      change: null,
      extra: true,
      note: 'zajęcia dodatkowe',
    });
    expect(lessons.filter((l) => l.extra)).toHaveLength(1);
    // The day lasts until the extra class ends (the child is at school for it), on every screen.
    expect(h.state('ania', 'lessons_end_today')).toBe('2026-11-24T14:25:00+01:00');
    expect(h.attributes('ania', 'timetable_today')?.hours).toEqual({ from: '08:00', to: '14:25' });
    // Next week's timetable, read ahead of need for the calendar feed after the start's first pass.
    const events = () => parseCalendarFeed(h.app.outputOf(WEB)!.snapshot.calendarFeedSource('ania', 'lessons', 'pl')!.body).events;
    await h.runUntil(() => events().some((e) => e.start.startsWith('2026-12-01')), "next week's lessons in the feed", 30 * 60_000);
    const calendarFeed = events();
    const club = calendarFeed.filter((e) => e.summary === 'Koło matematyczne (zajęcia dodatkowe)');
    expect(club.map((e) => e.start)).toEqual(['2026-11-24T12:40:00.000Z', '2026-12-01T12:40:00.000Z']);
    const choir = calendarFeed.filter((e) => e.summary.startsWith('Chór szkolny'));
    expect(choir.map((e) => [e.summary, e.status])).toEqual([
      ['Chór szkolny (zajęcia dodatkowe)', 'CONFIRMED'],
      ['Chór szkolny (zajęcia dodatkowe · odwołana)', 'CANCELLED'],
    ]);

    expect(lessonsOf('jan').some((l) => l.extra)).toBe(false);
    expect([h.state('ania', 'problem'), h.state('jan', 'problem')]).toEqual(['OFF', 'OFF']);
    const asked = school.sim.requests.filter((r) => r.path.endsWith(PATH));
    expect(asked.map((r) => [r.login, r.query]).sort()).toEqual([
      [ANIA.login, 'dateFrom=2026-11-23&dateTo=2026-12-06&hideOutdatedEntries=false'],
      [JANEK.login, 'dateFrom=2026-11-23&dateTo=2026-12-06&hideOutdatedEntries=false'],
    ]);
  });
});
