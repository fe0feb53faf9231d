// One agenda item, one event, by what it is (issue 36, items 4 and 9): against the simulated portal and
// the real broker, a test fires `test`, real homework `homework`, a trip or a meeting `agenda`, whatever
// category the teacher filed it under; a meeting at a test's hour is announced too. The homework of the next two weeks is homework_upcoming.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import type { Harness } from '../helpers/app.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson.
const NOW = '2026-11-18T09:10:00+01:00';

const school = simulatedSchool(NOW);
const firstPass = () => school.firstPasses(['last_update', 'upcoming_tests', 'homework_due']);
const events = (h: Harness, kind: string): Record<string, unknown>[] =>
  h.rec.on(`${h.base}/ania/event/${kind}`).map((m) => JSON.parse(m.text) as Record<string, unknown>);

describe('agenda, test and homework events', () => {
  it('fire once per item, each of its own kind: a test, a trip, a meeting filed under "Inne", real homework', async () => {
    const h = await firstPass();
    const account = school.sim.account(ANIA.login);
    account.addTest({ date: '2026-11-24', content: 'Sprawdzian: ułamki, rozdział 4.' });
    account.addAgendaEntry({ date: '2026-11-27', time: '08:00', category: 3, content: 'Wycieczka do Muzeum Narodowego w Krakowie.' });
    account.addAgendaEntry({ date: '2026-11-26', time: '17:30', category: 5, content: 'Zebranie z rodzicami klasy 4b.' });
    account.addHomework({ lesson: 8402, due: '2026-11-20', topic: 'Ułamki – zadania', text: 'Zadania 5–9 ze str. 48.' });
    await h.advanceMinutes(40);

    expect(events(h, 'test').map((e) => [e.event_type, e.date, e.description])).toEqual([['test', '2026-11-24', 'Sprawdzian: ułamki, rozdział 4.']]);
    // Real homework only: no test, trip or meeting among them, each with its subject and due date.
    expect(events(h, 'homework').map((e) => [e.event_type, e.kind, e.subject, e.topic, e.due])).toEqual([
      ['homework', 'homework', 'Matematyka', 'Ułamki – zadania', '2026-11-20'],
    ]);
    expect(events(h, 'agenda')).toEqual([
      // By date: the meeting is recognised by its content, though filed under "Inne".
      {
        event_type: 'agenda',
        child: 'ania',
        child_name: 'Ania',
        kind: 'meeting',
        date: '2026-11-26',
        until: null,
        time: '17:30',
        time_to: null,
        subject: null,
        category: 'Inne',
        description: 'Zebranie z rodzicami klasy 4b.',
        teacher: 'Anna Nowak',
      },
      {
        event_type: 'agenda',
        child: 'ania',
        child_name: 'Ania',
        kind: 'trip',
        date: '2026-11-27',
        until: null,
        time: '08:00',
        // The simulator ends an entry given at a lesson's start with that lesson (its TimeTo).
        time_to: '08:45',
        subject: null,
        category: 'Wycieczka',
        description: 'Wycieczka do Muzeum Narodowego w Krakowie.',
        teacher: 'Anna Nowak',
      },
    ]);

    // Home Assistant knows the agenda event and its types.
    const config = h.rec.json(`${h.prefix}/device/${h.base}_ania/config`) as { cmps: Record<string, Record<string, unknown>> };
    expect(config.cmps.agenda).toMatchObject({ p: 'event', event_types: ['agenda', 'agenda_changed', 'agenda_removed'] });

    // homework_upcoming: the homework due from today through 14 days on, soonest first; one due in 15 days waits.
    account.addHomework({ lesson: 8401, due: '2026-12-02', topic: 'Wypracowanie', text: 'Opis przyrody.' });
    account.addHomework({ lesson: 8401, due: '2026-12-03', topic: 'Lektura na grudzień', text: 'Przeczytaj całą.' });
    await h.advanceMinutes(40);
    const upcoming = h.attributes('ania', 'homework_upcoming')?.items as Record<string, unknown>[];
    expect(upcoming.map((i) => [i.date, i.subject, i.topic])).toEqual([
      ['2026-11-19', 'Matematyka', 'Ułamki – karta pracy'],
      ['2026-11-20', 'Język polski', 'Lektura – rozdziały 5–7'],
      ['2026-11-20', 'Matematyka', 'Ułamki – zadania'],
      ['2026-12-02', 'Język polski', 'Wypracowanie'],
    ]);
    expect(h.state('ania', 'homework_upcoming')).toBe('4');
    expect(upcoming[0]).toMatchObject({ teacher: 'Piotr Wiśniewski', added: '2026-11-17', attachments: ['karta_pracy_ulamki.pdf'] });
  });

  it('announce a parent-teacher meeting set at the hour of a test, which hides only the same meeting', async () => {
    const h = await firstPass();
    const account = school.sim.account(ANIA.login);
    account.addTest({ date: '2026-11-25', content: 'Kartkówka: czasowniki.', subject: 5011, teacher: 162001 });
    account.addMeeting({ date: '2026-11-25', time: '08:55', topic: 'Konsultacje z wychowawczynią' });
    // The same meeting twice: in the conferences and in the agenda, as a meeting at the same hour.
    account.addMeeting({ date: '2026-11-30', time: '17:00', topic: 'Zebranie z rodzicami klasy 4b' });
    account.addAgendaEntry({ date: '2026-11-30', time: '17:00', category: 4, content: 'Zebranie z rodzicami – wyniki semestru.' });
    await h.advanceMinutes(40);
    await h.runUntil(() => events(h, 'agenda').length >= 2, 'the meetings read');

    expect(events(h, 'test').map((e) => e.date)).toEqual(['2026-11-25']);
    expect(events(h, 'agenda').map((e) => [e.kind, e.date, e.time, e.description])).toEqual([
      ['meeting', '2026-11-25', '08:55', 'Konsultacje z wychowawczynią'],
      ['meeting', '2026-11-30', '17:00', 'Zebranie z rodzicami – wyniki semestru.'],
    ]);
  });

  it("give a test entered with a lesson number and no hour its lesson's start, on the sensor and in the event (issue 80)", async () => {
    const h = await firstPass();
    // Lesson 3 rings at 09:50 (the school's LessonsRange); the teacher gave the lesson, not the hour.
    school.sim.account(ANIA.login).addTest({ date: '2026-11-24', content: 'Kartkówka: ułamki dziesiętne.', lessonNo: 3 });
    await h.advanceMinutes(40);
    expect(events(h, 'test').map((e) => [e.date, e.time])).toEqual([['2026-11-24', '09:50']]);
    const items = (h.attributes('ania', 'upcoming_tests') as { items: { date: string; time: string | null; content: string }[] }).items;
    expect(items.find((i) => i.content === 'Kartkówka: ułamki dziesiętne.')).toMatchObject({ date: '2026-11-24', time: '09:50' });
  });
});
