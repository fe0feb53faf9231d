import { describe, expect, it } from 'vitest';
import {
  homeWorkCategoriesResponse,
  homeworkAssignmentsResponse,
  homeWorksResponse,
  parentTeacherConferencesResponse,
  schoolTripsResponse,
} from '../../../src/portal/schemas/agenda.js';
import { lessonsResponse } from '../../../src/portal/schemas/lookups.js';
import { timetablesResponse } from '../../../src/portal/schemas/timetable.js';
import { agendaEvents, agendaItems, agendaKind, testEvents, upcomingTests } from '../../../src/rules/agenda.js';
import { homeworkDue, homeworkEvents, homeworkItems, homeworkUpcoming, nextWeekday } from '../../../src/rules/homework.js';
import { renderHomeworkDue, renderHomeworkUpcoming, renderUpcomingTests } from '../../../src/features/agenda/agenda.js';
import { names } from './fixtures.js';
import { agendaEntries } from '../../../src/rules/calendar-feeds.js';
import { agendaAsk } from '../../../src/features/agenda/ask.js';
import { factsServer, toolAnswer } from '../../helpers/mcp-tools.js';

describe('agendaKind', () => {
  // A kartkówka or a quiz is a test of the kind `quiz`: decided here once, for the events, upcoming_tests and every screen.
  it.each([
    ['Sprawdzian', 'Dodawanie ułamków', 'test'],
    ['Kartkówka', undefined, 'quiz'],
    ['Inne', 'Kartkówka z rozdziału 3', 'quiz'],
    ['Inne', 'kartkowki z tabliczki', 'quiz'],
    ['Praca klasowa', '', 'test'],
    ['Inne', 'Quiz o ptakach', 'quiz'],
    ['Inne', 'Test kompetencji', 'test'],
    ['Zebranie z rodzicami', 'Wywiadówka', 'meeting'],
    ['Wycieczka', 'Kraków', 'trip'],
    ['Inne', 'Dzień sportu', 'event'],
    ['Inne', 'Protest? nie, kontestacja', 'event'],
    ['Inne', 'Zebranie z rodzicami klas 4', 'meeting'],
    ['Inne', 'Wycieczka do Wieliczki', 'trip'],
    ['Zebranie z rodzicami', 'sprawy wychowawcze, wycieczka', 'meeting'],
  ])('%s / %s is %s', (category, content, kind) => {
    expect(agendaKind(category, content)).toBe(kind);
  });
});

const categories = homeWorkCategoriesResponse.parse({
  Categories: [
    { Id: 1, Name: 'Sprawdzian' },
    { Id: 2, Name: 'Inne' },
    { Id: 3, Name: 'Zebranie z rodzicami' },
  ],
}).Categories;

const homeWorks = homeWorksResponse.parse({
  HomeWorks: [
    { Id: 1, Category: { Id: 1 }, Subject: { Id: 1 }, Date: '2026-03-12', TimeFrom: '08:00:00', Content: 'Ułamki', CreatedBy: { Id: 10 } },
    { Id: 2, Category: { Id: 2 }, Subject: { Id: 2 }, Date: '2026-03-24', Content: 'Kartkówka: lektura' },
    { Id: 3, Category: { Id: 2 }, Subject: { Id: 2 }, Date: '2026-03-25', Content: 'Kartkówka poza oknem' },
    { Id: 4, Category: { Id: 3 }, Date: '2026-03-19', TimeFrom: '17:00', Content: 'Zebranie' },
    { Id: 5, Category: { Id: 1 }, Subject: { Id: 1 }, Date: '2026-03-01', Content: 'Przeszły sprawdzian' },
  ],
}).HomeWorks;

const conferences = parentTeacherConferencesResponse.parse({
  ParentTeacherConferences: [
    { Id: 7, Topic: 'Zebranie (duplikat)', Teacher: { Id: 10 }, Date: '2026-03-19', Time: '17:00:00' },
    { Id: 8, Topic: 'Konsultacje', Teacher: { Id: 12 }, Date: '2026-03-20', Time: '16:30:00' },
  ],
}).ParentTeacherConferences;

const trips = schoolTripsResponse.parse({
  Data: [
    { id: 3, destination: 'Kraków', route: 'Wawel', termFrom: '2026-03-18 07:30:00', termTo: '2026-03-18 19:00:00', coordinatorName: 'Anna Nowak' },
  ],
}).Data;

const today = '2026-03-10';
const items = agendaItems({ homeWorks, homeWorkCategories: categories, conferences, trips, names });
/** The agenda of some HomeWorks entries beside the two conferences above. */
const besideConferences = (entries: Record<string, unknown>[]) =>
  agendaItems({ homeWorks: homeWorksResponse.parse({ HomeWorks: entries }).HomeWorks, homeWorkCategories: categories, conferences, names });

describe('agenda and upcoming_tests', () => {
  it('de-duplicates a parent-teacher meeting already in HomeWorks by date and time', () => {
    expect(items.map((i) => i.key)).toEqual(['agenda:5', 'agenda:1', 'trip:3', 'agenda:4', 'meeting:8', 'agenda:2', 'agenda:3']);
  });

  it('counts tests and quizzes from today to 14 days ahead, nearest first, each a test or a quiz', () => {
    const state = renderUpcomingTests(upcomingTests(items, today));
    expect(state.state).toBe('2');
    expect(state.attributes?.items).toEqual([
      {
        kind: 'test',
        date: '2026-03-12',
        until: null,
        time: '08:00',
        time_to: null,
        subject: 'Matematyka',
        category: 'Sprawdzian',
        content: 'Ułamki',
        teacher: 'Anna Nowak',
      },
      {
        kind: 'quiz',
        date: '2026-03-24',
        until: null,
        time: null,
        time_to: null,
        subject: 'Język polski',
        category: 'Inne',
        content: 'Kartkówka: lektura',
        teacher: null,
      },
    ]);
    expect((state.attributes!.other as { kind: string }[]).map((o) => o.kind)).toEqual(['trip', 'meeting', 'meeting']);
  });

  it('a trip of several days spans them: listed while under way, its last day from termTo', () => {
    const long = schoolTripsResponse.parse({
      Data: [{ id: 9, destination: 'Zakopane', route: 'Tatry', termFrom: '2026-03-09 08:00:00', termTo: '2026-03-11 18:00:00' }],
    }).Data;
    const three = agendaItems({ trips: long, names });
    expect(three).toEqual([expect.objectContaining({ key: 'trip:9', kind: 'trip', date: '2026-03-09', until: '2026-03-11', time: '08:00' })]);
    // On its second day it is still ahead of nobody but under way: in upcoming_tests' other entries.
    expect(upcomingTests(three, today).other.map((o) => o.key)).toEqual(['trip:9']);
    expect(upcomingTests(three, '2026-03-12').other).toEqual([]);
    // A teacher's agenda entry standing for the trip takes its days.
    const written = agendaItems({
      homeWorks: homeWorksResponse.parse({ HomeWorks: [{ Id: 77, Content: 'Wycieczka do Zakopanego', Date: '2026-03-09', Category: { Id: 2 } }] })
        .HomeWorks,
      homeWorkCategories: categories,
      trips: long,
      names,
    });
    expect(written.map((i) => [i.key, i.date, i.until])).toEqual([['agenda:77', '2026-03-09', '2026-03-11']]);
  });

  it('fires agenda events for the trips, meetings and other entries from today on, never for a test', () => {
    const events = agendaEvents(items, today);
    expect(events.map((e) => e.id)).not.toContain('agenda:5');
    expect(events.map((e) => e.id)).toEqual(['trip:3', 'agenda:4', 'meeting:8']);
    // The event gate adds event_type (the kind the feature files them under).
    expect(events.find((e) => e.id === 'trip:3')?.payload).not.toHaveProperty('event_type');
    expect(events.find((e) => e.id === 'trip:3')?.payload).toMatchObject({
      kind: 'trip',
      date: '2026-03-18',
      time: '07:30',
      description: 'Kraków: Wawel',
      teacher: 'Anna Nowak',
    });
  });

  it('recognises a meeting or a trip filed under a generic category by its content (spec 2.8)', () => {
    const generic = besideConferences([
      { Id: 21, Category: { Id: 2 }, Date: '2026-03-19', TimeFrom: '17:00', Content: 'Zebranie z rodzicami klas 4' },
      { Id: 22, Category: { Id: 2 }, Date: '2026-03-20', Content: 'Wycieczka do Wieliczki, zbiórka 7:30' },
    ]);
    // The entry in "Inne" is the meeting of the same day and hour: the conference is not listed again.
    expect(generic.map((i) => [i.key, i.kind])).toEqual([
      ['agenda:21', 'meeting'],
      ['agenda:22', 'trip'],
      ['meeting:8', 'meeting'],
    ]);
  });

  it('lists a meeting once when the agenda gives it no hour, or the conference none', () => {
    const noHour = besideConferences([
      { Id: 41, Category: { Id: 3 }, Date: '2026-03-20', Content: 'Zebranie z rodzicami – informacja o przebiegu semestru' },
    ]);
    // The Friday's conference at 16:30 is that meeting; Thursday's stays.
    expect(noHour.map((i) => i.key)).toEqual(['meeting:7', 'agenda:41']);
  });

  it('hides a conference only behind the same meeting, not behind a test at its hour', () => {
    const sameHour = besideConferences([
      { Id: 31, Category: { Id: 1 }, Subject: { Id: 1 }, Date: '2026-03-20', TimeFrom: '16:30', Content: 'Poprawa sprawdzianu' },
    ]);
    expect(sameHour.map((i) => [i.key, i.kind])).toEqual([
      ['meeting:7', 'meeting'],
      ['agenda:31', 'test'],
      ['meeting:8', 'meeting'],
    ]);
  });
});

describe('test events', () => {
  it('offers the tests and quizzes from today on, with what a notification says', () => {
    const events = testEvents(items, today);
    expect(events.map((e) => e.id)).toEqual(['agenda:1', 'agenda:2', 'agenda:3']); // not the past one, no trip or meeting
    expect(events[0]?.payload).toEqual({
      date: '2026-03-12',
      time: '08:00',
      time_to: null,
      subject: 'Matematyka',
      kind: 'test',
      category: 'Sprawdzian',
      description: 'Ułamki',
      teacher: 'Anna Nowak',
    });
    expect(events[1]?.payload).toMatchObject({ subject: 'Język polski', kind: 'quiz', description: 'Kartkówka: lektura' });
  });

  it.each([
    ['Sprawdzian', 'Kartkówka przełożona na sprawdzian', 'test'],
    ['Kartkówka', null, 'quiz'],
    ['Inne', 'Quiz o ptakach', 'quiz'],
    [null, 'Praca klasowa', 'test'],
    ['Zebranie z rodzicami', 'Wyniki kartkówki', 'meeting'],
  ])('%s / %s is a %s', (category, content, kind) => {
    expect(agendaKind(category ?? undefined, content ?? undefined)).toBe(kind);
  });

  it('keeps a test in a subject without a name, with no subject rather than a made-up one', () => {
    const nameless = homeWorksResponse.parse({
      HomeWorks: [{ Id: 9, Category: { Id: 1 }, Subject: { Id: 999 }, Date: '2026-03-13', Content: 'Sprawdzian' }],
    }).HomeWorks;
    const events = testEvents(agendaItems({ homeWorks: nameless, homeWorkCategories: categories, names }), today);
    expect(events).toHaveLength(1);
    expect(events[0]?.payload).toMatchObject({ subject: null, kind: 'test', date: '2026-03-13' });
  });
});

describe('homework', () => {
  const lessons = lessonsResponse.parse({ Lessons: [{ Id: 500, Subject: { Id: 2 }, Teacher: { Id: 12 } }] }).Lessons;
  const timetable = timetablesResponse.parse({
    Timetable: {
      '2026-03-10': [
        [{ LessonNo: 1, Subject: { Id: '1' }, Teacher: { Id: '10' } }],
        [{ LessonNo: 2, Subject: { Id: '3' }, Teacher: { Id: '11' } }],
        [{ LessonNo: 3, Subject: { Id: '4' }, Teacher: { Id: '11' } }],
      ],
    },
  }).Timetable;
  const assignments = homeworkAssignmentsResponse.parse({
    HomeWorkAssignments: [
      {
        Id: 1,
        Topic: 'Zadania 1-5',
        Text: 'str. 40',
        Teacher: { Id: 10 },
        Date: '2026-03-09',
        DueDate: '2026-03-12',
        StudentsWhoMarkedAsDone: [{ Id: 50 }],
      },
      { Id: 2, Topic: 'Wypracowanie', Teacher: { Id: 12 }, Lesson: { Id: 500 }, Date: '2026-03-05', DueDate: '2026-03-12 00:00:00' },
      { Id: 3, Topic: 'Plakat', Teacher: { Id: 11 }, DueDate: '2026-03-12', HomeworkAssigmentFiles: [{ Id: 1, Name: 'wzór.pdf' }] },
      { Id: 4, Topic: 'Stare', Teacher: { Id: 10 }, DueDate: '2026-03-02' },
    ],
  }).HomeWorkAssignments;
  const list = homeworkItems({ assignments, lessons, timetable, names, childUserId: '50' });

  it('recovers the subject from the lesson, or from a teacher of exactly one subject', () => {
    expect(list.map((h) => [h.key, h.subject])).toEqual([
      ['homework:4', 'Matematyka'],
      ['homework:1', 'Matematyka'],
      ['homework:2', 'Język polski'],
      ['homework:3', null],
    ]);
  });

  it('homework_due lists what is due on the next school day', () => {
    const state = renderHomeworkDue(homeworkDue(list, today, '2026-03-12'));
    expect(state.state).toBe('3');
    expect(state.attributes?.date).toBe('2026-03-12');
    expect((state.attributes!.items as unknown[])[0]).toEqual({
      subject: 'Matematyka',
      topic: 'Zadania 1-5',
      text: 'str. 40',
      teacher: 'Anna Nowak',
      assigned: '2026-03-09',
      due: '2026-03-12',
      attachments: [],
      done: true,
    });
  });

  it('homework_upcoming lists what is due from today through the next 14 days, soonest first', () => {
    const later = (key: string, due: string) => ({ ...list[0]!, key, due, topic: key });
    const state = renderHomeworkUpcoming(homeworkUpcoming([...list, later('in 14 days', '2026-03-24'), later('in 15 days', '2026-03-25')], today));
    expect(state.state).toBe('4');
    const items = state.attributes?.items ?? [];
    expect(items.map((i) => [i.date, i.topic])).toEqual([
      ['2026-03-12', 'Zadania 1-5'],
      ['2026-03-12', 'Wypracowanie'],
      ['2026-03-12', 'Plakat'],
      ['2026-03-24', 'in 14 days'],
    ]);
    expect(items[2]).toEqual({
      date: '2026-03-12',
      subject: null,
      topic: 'Plakat',
      text: null,
      teacher: 'Sekretariat',
      added: null,
      attachments: ['wzór.pdf'],
    });
    // Unknown (None), not 0, while the assignments are refused or not read yet.
    expect(renderHomeworkUpcoming(null)).toEqual({ state: null, attributes: {} });
  });

  it('falls back to the next weekday when the next school day is not known', () => {
    expect(nextWeekday('2026-03-13')).toBe('2026-03-16');
    expect(renderHomeworkDue(homeworkDue(list, '2026-03-11', null)).attributes?.date).toBe('2026-03-12');
  });

  it('fires one event per assignment not yet past due', () => {
    expect(homeworkEvents(list, today).map((e) => e.id)).toEqual(['homework:1', 'homework:2', 'homework:3']);
  });
});

describe('a school trip also written into the agenda', () => {
  const tripCategories = homeWorkCategoriesResponse.parse({ Categories: [{ Id: 2, Name: 'Wycieczka' }] }).Categories;
  const written = (content: string) =>
    homeWorksResponse.parse({ HomeWorks: [{ Id: 30, Category: { Id: 2 }, Date: '2026-03-18', TimeFrom: '08:00:00', Content: content }] }).HomeWorks;
  const trip = (id: number, destination: string, day: string) => ({ id, destination, route: 'Zielonki – Warszawa', termFrom: `${day} 08:00:00` });
  const listed = (trips: ReturnType<typeof trip>[], content = 'Wycieczka do Centrum Nauki Kopernik. Zbiórka 7:45.') =>
    agendaItems({
      homeWorks: written(content),
      homeWorkCategories: tripCategories,
      trips: schoolTripsResponse.parse({ Data: trips }).Data,
      names,
    }).map((i) => i.key);

  it('is listed once, as the agenda entry, when the date and the destination match', () => {
    expect(listed([trip(12, 'Centrum Nauki Kopernik, Warszawa', '2026-03-18')])).toEqual(['agenda:30']);
    expect(listed([trip(12, 'centrum nauki kopernik', '2026-03-18')])).toEqual(['agenda:30']);
  });

  it('is listed once when the agenda names the destination declined, as Polish does', () => {
    expect(listed([trip(15, 'Warszawa', '2026-03-18')], 'Wycieczka do Warszawy – Centrum Nauki Kopernik.')).toEqual(['agenda:30']);
    expect(listed([trip(16, 'Tatry, Zakopane', '2026-03-18')], 'Wyjazd w Tatry, zbiórka 7:30.')).toEqual(['agenda:30']);
  });

  it('stays when the destination or the date differs', () => {
    expect(listed([trip(13, 'Wawel, Kraków', '2026-03-18')])).toEqual(['agenda:30', 'trip:13']);
    expect(listed([trip(14, 'Centrum Nauki Kopernik, Warszawa', '2026-03-25')])).toEqual(['agenda:30', 'trip:14']);
  });
});

describe('an entry the school gives an end (TimeTo)', () => {
  // A trip from 07:45 to 16:00, a lesson's length after its start no more.
  const [trip] = agendaItems({
    homeWorks: homeWorksResponse.parse({
      HomeWorks: [{ Id: 9, Category: { Id: 2 }, Date: '2026-11-20', TimeFrom: '07:45:00', TimeTo: '16:00:00', Content: 'Wycieczka do Wieliczki' }],
    }).HomeWorks,
    homeWorkCategories: categories,
    names,
  });

  it('ends then in the agenda feed, in upcoming_tests and its event, and in Assist', async () => {
    expect(trip).toMatchObject({ kind: 'trip', time: '07:45', time_to: '16:00' });
    const [entry] = agendaEntries({ child: 'ania', days: [], agenda: [trip!], homework: [] });
    expect(entry?.when).toEqual({ date: '2026-11-20', from: '07:45', to: '16:00' });
    expect(renderUpcomingTests(upcomingTests([trip!], '2026-11-18')).attributes.other?.[0]).toMatchObject({ time: '07:45', time_to: '16:00' });
    expect(agendaEvents([trip!], '2026-11-18')[0]?.payload).toMatchObject({ time: '07:45', time_to: '16:00' });
    const facts = { ...agendaAsk.unknown, items: [trip!], homework: [] };
    const answer = (await toolAnswer(factsServer('pl', { agenda: facts }), 'get_upcoming', { days: 7 })).text;
    expect(answer).toContain('wycieczka 07:45–16:00 — Wycieczka do Wieliczki');
  });
});
