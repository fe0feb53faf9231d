// The day's lessons against the simulator: timetable_today/tomorrow, the lesson in progress and
// at_school moving on time at lesson boundaries without a portal request, and the free_day event.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import type { Harness } from '../helpers/app.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday during the second lesson; half a minute off the minute so that no pass (every 3 and 20
// minutes from the start) falls on a lesson boundary.
const NOW = '2026-11-18T09:11:30+01:00';

const school = simulatedSchool(NOW);
const firstPass = () => school.firstPasses(['at_school', 'lucky_number']);

/**
 * Moves the fake clock to a Warsaw wall time of the test's day, stopping at each timer on the way
 * and letting its work finish, so that every pass runs exactly when it is due.
 */
async function advanceTo(harness: Harness, time: string): Promise<void> {
  const target = Date.parse(`2026-11-18T${time}+01:00`);
  for (let next = school.clock.nextDueAt(); next !== undefined && next <= target; next = school.clock.nextDueAt()) {
    await harness.runUntil(() => true, 'a timer', next - school.clock.now());
  }
  await harness.runUntil(() => true, time, target - school.clock.now());
}

const lesson = (no: number, from: string, to: string, subject: string, teacher: string, room: string | null) => ({
  no,
  from,
  to,
  subject,
  teacher,
  room,
  change: null,
  note: null,
});
/** A changed lesson: as it takes place now, with the subject, teacher and room it had before the change, and the change in words. */
const changed = (now: ReturnType<typeof lesson>, change: string, [subject, teacher, room]: [string, string, string], note: string) => ({
  ...now,
  change,
  original_subject: subject,
  original_teacher: teacher,
  original_room: room,
  note,
});

// A school day on the fake clock, CPU-bound: as the other simulated days, a timeout of its own (8-10 s with four files at once).
describe("the day's lessons", { timeout: 60_000 }, () => {
  it("lists today's and the next school day's lessons with their changes, and the lesson in progress", async () => {
    const h = await firstPass();
    expect(h.state('ania', 'timetable_today')).toBe('6');
    expect(h.attributes('ania', 'timetable_today')).toEqual({
      date: '2026-11-18',
      hours: { from: '08:00', to: '13:30' },
      lessons: [
        lesson(1, '08:00', '08:45', 'Przyroda', 'Tomasz Kamiński', '21'),
        changed(
          lesson(2, '08:55', '09:40', 'Język angielski', 'Agnieszka Mazur', null),
          'substitution',
          ['Matematyka', 'Piotr Wiśniewski', '22'],
          'zastępstwo · zamiast: Matematyka',
        ),
        lesson(3, '09:50', '10:35', 'Język polski', 'Anna Nowak', '12'),
        lesson(4, '10:50', '11:35', 'Wychowanie fizyczne', 'Krzysztof Zieliński', 's.gim.'),
        lesson(5, '11:50', '12:35', 'Plastyka', 'Joanna Dąbrowska', '12'),
        lesson(6, '12:45', '13:30', 'Religia', 'Paweł Jankowski', '12'),
      ],
      // The standing weekly plan is read once a week, never in a start's first pass: its differences not known yet.
      standing_differences: null,
    });
    // Thursday: the cancelled history lesson is listed and marked, not counted.
    expect(h.state('ania', 'timetable_tomorrow')).toBe('5');
    expect(h.attributes('ania', 'timetable_tomorrow')).toEqual({
      date: '2026-11-19',
      hours: { from: '08:55', to: '14:25' },
      lessons: [
        lesson(2, '08:55', '09:40', 'Język polski', 'Anna Nowak', '12'),
        lesson(3, '09:50', '10:35', 'Matematyka', 'Piotr Wiśniewski', '22'),
        changed(
          lesson(4, '10:50', '11:35', 'Historia', 'Magdalena Lewandowska', '12'),
          'cancelled',
          ['Historia', 'Magdalena Lewandowska', '12'],
          'odwołana',
        ),
        changed(
          lesson(5, '11:50', '12:35', 'Technika', 'Joanna Dąbrowska', '4'),
          'room_change',
          ['Technika', 'Joanna Dąbrowska', '12'],
          'zmiana sali · s. 4 · było: s. 12',
        ),
        lesson(6, '12:45', '13:30', 'Wychowanie fizyczne', 'Krzysztof Zieliński', 's.gim.'),
        lesson(7, '13:40', '14:25', 'Język angielski', 'Katarzyna Wójcik', '14'),
      ],
    });
    expect(h.state('ania', 'current_lesson')).toBe('Język angielski');
    expect(h.attributes('ania', 'current_lesson')).toEqual({
      no: 2,
      from: '08:55',
      to: '09:40',
      room: null,
      teacher: 'Agnieszka Mazur',
      change: 'substitution',
      // Its place in timetable_today's lessons: the board and the dashboard mark that row.
      row: 1,
    });
    expect(h.state('ania', 'at_school')).toBe('ON');
  });

  it('moves current_lesson, at_school and next_lesson at the lesson boundaries, from memory, with no portal request', async () => {
    const h = await firstPass();
    /** The states one second before and at a boundary, and the portal requests made in that second. */
    const across = async (time: string, keys: string[]) => {
      const [hh, mm] = time.split(':').map(Number) as [number, number];
      const before = `${String(mm === 0 ? hh - 1 : hh).padStart(2, '0')}:${String((mm + 59) % 60).padStart(2, '0')}:59`;
      await advanceTo(h, before);
      const was = keys.map((k) => h.state('ania', k));
      const requests = school.sim.requests.length;
      await advanceTo(h, `${time}:00`);
      return { was, now: keys.map((k) => h.state('ania', k)), requests: school.sim.requests.length - requests };
    };
    // Passes run at 09:38:30, 09:41:30 (fast) and 09:51:30 (normal): the break starts at 09:40 all the same.
    expect(await across('09:40', ['current_lesson', 'at_school'])).toEqual({ was: ['Język angielski', 'ON'], now: ['None', 'ON'], requests: 0 });
    expect(h.attributes('ania', 'current_lesson')).toEqual({ no: null, from: null, to: null, room: null, teacher: null, change: null, row: null });
    expect(await across('09:50', ['current_lesson'])).toEqual({ was: ['None'], now: ['Język polski'], requests: 0 });
    expect(h.attributes('ania', 'current_lesson')).toEqual({
      no: 3,
      from: '09:50',
      to: '10:35',
      room: '12',
      teacher: 'Anna Nowak',
      change: null,
      row: 2,
    });
    // The last lesson ends at 13:30; the timetable's next pass is at 13:31:30. next_lesson moves on to Thursday's first.
    expect(await across('13:30', ['current_lesson', 'at_school', 'next_lesson'])).toEqual({
      was: ['Religia', 'ON', 'Religia'],
      now: ['None', 'OFF', 'Język polski'],
      requests: 0,
    });
    expect(h.attributes('ania', 'next_lesson')).toMatchObject({ date: '2026-11-19', lesson_no: 2, time: '08:55', room: '12', row: 0 });
  });

  it("fires free_day once for a new free day of the child's class, none for the ones known at the first run", async () => {
    const h = await firstPass();
    const topic = `${h.base}/ania/event/free_day`;
    expect(h.rec.on(topic)).toHaveLength(0);
    const account = school.sim.account(ANIA.login);
    account.school.classFreeDays.push({ Id: 99, Class: 7104, Type: 5, DateFrom: '2026-12-07', DateTo: '2026-12-07', AddDate: account.stamp() });
    // Another class's free day is no news for Ania.
    account.school.classFreeDays.push({ Id: 98, Class: 7105, Type: 5, DateFrom: '2026-12-08', DateTo: '2026-12-08', AddDate: account.stamp() });
    // Minute by minute, as passes come (one 20-minute jump found the event only while an HTTP pass lagged behind the clock).
    await h.advanceUntil(() => h.rec.on(topic).length > 0, 'the free_day event', 30);
    expect(h.rec.on(topic).map((m) => JSON.parse(m.text))).toEqual([
      {
        event_type: 'free_day',
        child: 'ania',
        child_name: 'Ania',
        name: 'Zajęcia skrócone',
        scope: 'class',
        from: '2026-12-07',
        to: '2026-12-07',
        lessons_from: null,
        lessons_to: null,
      },
    ]);
    await h.advanceMinutes(40);
    expect(h.rec.on(topic)).toHaveLength(1);
  });
});
