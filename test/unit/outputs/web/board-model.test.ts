// The board's view model from the states the bridge publishes (shaped as the simulator's Ania gets
// them on a Wednesday): the day shown, changes in words, the lucky number, and the signs of old data.
import { describe, expect, it } from 'vitest';
import { boardModel, type BoardChild } from '../../../../src/outputs/web/board-model.js';
import type { EntityState } from '../../../../src/engine/state.js';
import type { ChildView } from '../../../../src/outputs/web/types.js';
import type { ItemOf } from '../../../../src/features/kit/contract.js';
import type { timetableToday } from '../../../../src/features/timetable/entities.js';
import { noteOf, type SlotOut } from '../../../../src/features/timetable/day.js';
import { TIMETABLE_WORDS } from '../../../../src/i18n/lesson-words.js';
import type { Language } from '../../../../src/config/language.js';

/** Where a lesson moved to, as the timetable declares it (the board reads it through that declaration). */
type MovedTo = NonNullable<ItemOf<typeof timetableToday, 'lessons'>['moved_to']>;

const at = (wall: string): number => Date.parse(`2026-11-18T${wall}:00+01:00`);

const lesson = (no: number, from: string, to: string, subject: string, room: string | null, change: object = {}) => ({
  no,
  from,
  to,
  subject,
  teacher: 'T',
  room,
  change: null,
  ...change,
});

/** next_lesson as the timetable publishes it: `row`, its place in its day's lessons (the lessons before it are over). */
function next(
  date: string,
  subject: string,
  no: number | null,
  time: string,
  room: string | null,
  row: number,
  change: string | null = null,
  more: object = {},
) {
  return {
    state: subject,
    attributes: { date, lesson_no: no, time, room, teacher: 'T', substitution: change === 'substitution', change, row, ...more },
  };
}

function states(over: Record<string, EntityState> = {}): Map<string, EntityState> {
  return new Map<string, EntityState>(
    Object.entries({
      timetable_today: {
        state: '3',
        attributes: {
          date: '2026-11-18',
          lessons: [
            lesson(1, '08:00', '08:45', 'Przyroda', '21'),
            lesson(2, '08:55', '09:40', 'Język angielski', null, {
              change: 'substitution',
              original_subject: 'Matematyka',
              original_teacher: 'P',
              original_room: '22',
            }),
            lesson(3, '09:50', '10:35', 'Historia', '12', { change: 'cancelled', original_subject: 'Historia', original_room: '12' }),
            lesson(4, '10:50', '11:35', 'Technika', '4', { change: 'room_change', original_subject: 'Technika', original_room: '12' }),
          ],
        },
      },
      timetable_tomorrow: { state: '1', attributes: { date: '2026-11-19', lessons: [lesson(2, '08:55', '09:40', 'Język polski', '12')] } },
      current_lesson: {
        state: 'Język angielski',
        attributes: { no: 2, from: '08:55', to: '09:40', room: null, teacher: 'A', change: 'substitution', row: 1 },
      },
      // The lesson in progress or the next one, as the timetable publishes it.
      next_lesson: next('2026-11-18', 'Język angielski', 2, '08:55', null, 1, 'substitution'),
      lucky_number: { state: '13', attributes: { day: '2026-11-18', register_number: '12' } },
      homework_upcoming: {
        state: '1',
        attributes: { items: [{ date: '2026-11-19', subject: 'Matematyka', topic: 'Ułamki – karta pracy', text: 'Rozwiąż zadania' }] },
      },
      upcoming_tests: {
        state: '2',
        attributes: {
          items: [
            {
              kind: 'quiz',
              date: '2026-11-19',
              time: '09:50',
              subject: 'Przyroda',
              category: 'Inne',
              content: 'Kartkówka z trzech ostatnich tematów.',
            },
            { kind: 'test', date: '2026-11-23', time: '08:55', subject: 'Matematyka', category: 'Sprawdzian', content: 'Sprawdzian: ułamki.' },
          ],
          other: [],
        },
      },
      newest_grade: {
        state: '5',
        attributes: {
          recent: [
            { grade: '5', subject: 'Matematyka', kind: 'grade', date: '2026-11-17', teacher: 'Jolanta  Maria Kowalska' },
            {
              grade: 'Aktywnie uczestniczy w zajęciach, chętnie pomaga innym w ćwiczeniach i zachęca kolegów do gry zespołowej.',
              subject: 'Wychowanie fizyczne',
              kind: 'text',
              date: '2026-11-11',
              teacher: 'Marek Nowak',
            },
          ],
        },
      },
      unread_messages: { state: '1', attributes: { inbox: 1 } },
      unread_notices: { state: '3', attributes: {} },
      problem: { state: 'OFF', attributes: { reason: null } },
      last_update: { state: '2026-11-18T09:11:30+01:00' },
      ...over,
    }),
  );
}

/**
 * The view with its timetable days as the bridge publishes them in `language`: each lesson's `note` by the
 * timetable feature's own rule, and the day's `hours` (the first start and last end of what takes place).
 */
function published(view: ChildView, language: Language): ChildView {
  const states = new Map(view.states);
  for (const key of ['timetable_today', 'timetable_tomorrow']) {
    const day = states.get(key);
    const lessons = (day?.attributes?.lessons ?? []) as Omit<SlotOut, 'note'>[];
    if (day === undefined || day.attributes?.hours !== undefined) continue;
    const held = lessons.filter((l) => l.change !== 'cancelled' && l.moved_to === undefined);
    const hours = held.length === 0 ? null : { from: held[0]!.from, to: held.at(-1)!.to };
    const noted = lessons.map((l) => ({ ...l, note: noteOf(l, TIMETABLE_WORDS[language]) }));
    states.set(key, { ...day, attributes: { ...day.attributes, hours, lessons: noted } });
  }
  return { ...view, states };
}

function child(over: Record<string, EntityState> = {}, rest: Partial<ChildView> = {}): ChildView {
  return { id: 'ania', name: 'Ania', model: 'Klasa 4b', online: true, states: states(over), changedAt: at('09:11'), ...rest };
}

function card(now: number, view: ChildView = child(), language: 'pl' | 'en' = 'pl'): BoardChild {
  return boardModel([published(view, language)], language, now).children[0] as BoardChild;
}

describe('the board of one child', () => {
  it('lists trips and meetings apart from the tests (a trip is no test), a trip of several days by its first and last day', () => {
    const withTrip = (other: object[]) =>
      child({
        upcoming_tests: {
          state: '1',
          attributes: {
            items: [
              { kind: 'test', date: '2026-11-23', time: '08:55', subject: 'Matematyka', category: 'Sprawdzian', content: 'Sprawdzian: ułamki.' },
            ],
            other,
          },
        },
      });
    const trip = { kind: 'trip', date: '2026-11-17', until: '2026-11-19', time: '07:30', subject: null, category: null, content: 'Zakopane: Tatry' };
    const meeting = { kind: 'meeting', date: '2026-11-20', until: null, time: '17:30', subject: null, category: null, content: 'Zebranie' };
    // In upcoming_tests' order (the feature lists them nearest first; the board sorts nothing again).
    // An entry no kind names is told by the category the school filed it under (interface 18.1), never a guessed kind.
    const openDay = {
      kind: 'event',
      date: '2026-11-21',
      until: null,
      time: '10:00',
      subject: null,
      category: 'Inne',
      content: 'Dzień otwarty szkoły',
    };
    const c = card(at('09:12'), withTrip([trip, meeting, openDay]));
    expect(c.tests).toEqual([{ when: 'pon. 23.11', subject: 'Matematyka', kind: 'sprawdzian', text: 'Sprawdzian: ułamki.' }]);
    expect(c.agenda).toEqual([
      { when: 'wt. 17.11 – jutro', kind: 'wycieczka', text: 'Zakopane: Tatry' },
      { when: 'pt. 20.11 17:30', kind: 'zebranie', text: 'Zebranie' },
      { when: 'sob. 21.11 10:00', kind: 'Inne', text: 'Dzień otwarty szkoły' },
    ]);
    expect(card(at('09:12'), withTrip([{ ...trip, date: '2026-11-25', until: null }]), 'en').agenda[0]).toMatchObject({
      when: 'Wed 25.11 07:30',
      kind: 'trip',
    });
    // A day's trip the school gives an end: told until then.
    expect(card(at('09:12'), withTrip([{ ...trip, date: '2026-11-25', until: null, time_to: '16:00' }])).agenda[0]?.when).toBe(
      'śr. 25.11 07:30–16:00',
    );
  });

  it("says what a mark that is no grade means, which grades are of the last days, the teacher's comment and the subject's forecast", () => {
    const grades = child({
      newest_grade: {
        state: '0 (nie jest oceną)',
        attributes: {
          recent: [
            { grade: '0', subject: 'Edukacja wczesnoszkolna', kind: 'descriptive', date: '2026-11-18', comment: null, mark_name: 'nie jest oceną' },
            { grade: '5', subject: 'Matematyka', kind: 'grade', date: '2026-11-15', comment: 'Świetna praca   na lekcji, '.repeat(5), forecast: '5' },
            { grade: '4', subject: 'Historia', kind: 'grade', date: '2026-11-14', comment: null, forecast: null },
          ],
        },
      },
    });
    const comment = 'Świetna praca na lekcji, '.repeat(4).slice(0, 79) + '…';
    const common = { teacher: null, text: false };
    expect(card(at('09:12'), grades).grades).toEqual([
      { ...common, grade: '0', name: 'nie jest oceną', subject: 'Edukacja wczesnoszkolna', comment: null, forecast: null, when: 'dziś', fresh: true },
      { ...common, grade: '5', name: null, subject: 'Matematyka', comment, forecast: 'prognoza 5', when: 'niedz. 15.11', fresh: true },
      { ...common, grade: '4', name: null, subject: 'Historia', comment: null, forecast: null, when: 'sob. 14.11', fresh: false },
    ]);
    expect(card(at('09:12'), grades, 'en').grades?.[1]?.forecast).toBe('heading for 5');
  });

  it('says where a lesson moved to, in its old slot, and leaves out a lucky number the school does not use', () => {
    const movedTo: MovedTo = { date: '2026-11-26', lesson_no: 7, hours: '13:40-14:25' };
    // A nested attribute the timetable does not publish is no name a screen can read.
    // @ts-expect-error -- misspelled: the field is lesson_no
    expect(movedTo.lesson_nr).toBeUndefined();
    const moved = lesson(3, '09:50', '10:35', 'Historia', '12', {
      change: 'shifted',
      original_subject: 'Historia',
      original_room: '12',
      moved_to: movedTo,
    });
    // (A lesson after it takes place: a day with nothing left is over and the board shows the next.)
    const view = child({
      timetable_today: { state: '1', attributes: { date: '2026-11-18', lessons: [moved, lesson(4, '10:50', '11:35', 'Technika', '4')] } },
      lucky_number: { state: null, attributes: { day: null, register_number: '12', in_use: false } },
    });
    const pl = card(at('09:12'), view);
    expect(pl.day?.lessons[0]).toMatchObject({ no: 3, change: 'shifted', note: 'przeniesiona na czw. 26.11, lekcja 7' });
    expect(pl.facts.filter((f) => f.look === 'badge')).toEqual([]);
    expect(card(at('09:12'), view, 'en').day?.lessons[0]?.note).toBe('moved to Thu 26.11, lesson 7');
  });

  it('shows today during the lessons, the one in progress and the changes in words', () => {
    const c = card(at('09:12'));
    expect(c).toMatchObject({
      id: 'ania',
      name: 'Ania',
      className: 'Klasa 4b',
      warning: null,
      updated: 'Aktualizacja: 09:11',
    });
    // The lucky number beside the name, the unread counts under it (marked: there is something to read).
    expect(c.facts).toEqual([
      { look: 'badge', label: 'Szczęśliwy numerek', value: '13', mark: null },
      { look: 'count', label: 'Wiadomości', value: '1', mark: '' },
      { look: 'count', label: 'Ogłoszenia', value: '3', mark: '' },
    ]);
    expect(c.headline).toEqual({ label: 'Teraz', subject: 'Język angielski', detail: 'do 09:40', change: 'substitution' });
    expect(c.day?.title).toBe('Dziś, środa 18.11');
    expect(c.day?.lessons).toEqual([
      { no: 1, from: '08:00', to: '08:45', subject: 'Przyroda', room: '21', change: null, note: null, status: 'done' },
      {
        no: 2,
        from: '08:55',
        to: '09:40',
        subject: 'Język angielski',
        room: null,
        change: 'substitution',
        note: 'zastępstwo · zamiast: Matematyka',
        status: 'now',
      },
      { no: 3, from: '09:50', to: '10:35', subject: 'Historia', room: '12', change: 'cancelled', note: 'odwołana', status: null },
      {
        no: 4,
        from: '10:50',
        to: '11:35',
        subject: 'Technika',
        room: '4',
        change: 'room_change',
        note: 'zmiana sali · s. 4 · było: s. 12',
        status: null,
      },
    ]);
    expect(c.homework).toEqual({
      title: 'Zadania domowe',
      items: [{ when: 'jutro', subject: 'Matematyka', text: 'Ułamki – karta pracy', files: [] }],
    });
    expect(c.tests).toEqual([
      { when: 'jutro', subject: 'Przyroda', kind: 'kartkówka', text: 'Kartkówka z trzech ostatnich tematów.' },
      { when: 'pon. 23.11', subject: 'Matematyka', kind: 'sprawdzian', text: 'Sprawdzian: ułamki.' },
    ]);
    // Each grade with its teacher as a card names them in passing; a text grade in its words, a line of them.
    expect(c.grades).toEqual([
      {
        grade: '5',
        name: null,
        subject: 'Matematyka',
        teacher: 'J. M. Kowalska',
        text: false,
        comment: null,
        forecast: null,
        when: 'wt. 17.11',
        fresh: true,
      },
      {
        grade: 'Aktywnie uczestniczy w zajęciach, chętnie pomaga innym w ćwiczeniach i zachęca …',
        name: null,
        subject: 'Wychowanie fizyczne',
        teacher: 'M. Nowak',
        text: true,
        comment: null,
        forecast: null,
        when: 'śr. 11.11',
        fresh: false,
      },
    ]);
  });

  it("lists the next two weeks' homework by day, linking its saved files, only the web server's own homework paths", () => {
    const upcoming = {
      state: '2',
      attributes: {
        items: [
          {
            date: '2026-11-19',
            subject: 'Matematyka',
            topic: 'Ułamki',
            files: [
              { name: 'karta.pdf', url: '/files/ania/homework/771/karta.pdf' },
              { name: 'obca.pdf', url: 'https://evil.example/obca.pdf' },
              { name: 'szkoła.pdf', url: '/files/ania/school/34/szkoła.pdf' },
            ],
          },
          { date: '2026-11-27', subject: 'Język polski', topic: null, text: 'Wypracowanie', attachments: [] },
        ],
      },
    };
    // The two weeks' list, as the dashboard's homework card lists it, each item with its day.
    expect(card(at('09:00'), child({ homework_upcoming: upcoming })).homework).toEqual({
      title: 'Zadania domowe',
      items: [
        { when: 'jutro', subject: 'Matematyka', text: 'Ułamki', files: [{ name: 'karta.pdf', url: '/files/ania/homework/771/karta.pdf' }] },
        { when: 'pt. 27.11', subject: 'Język polski', text: 'Wypracowanie', files: [] },
      ],
    });
  });

  it('shows a proposed term grade entered this week, and no older one', () => {
    const grade = (period: string, date: string, subject: string) => ({ grade: '4', subject, period, date });
    const newest = {
      state: '5',
      attributes: {
        recent: [],
        proposals: [
          grade('final_proposal', '2026-11-17', 'Matematyka'),
          grade('semester_proposal', '2026-11-12', 'Przyroda'),
          grade('semester_proposal', '2026-11-11', 'Historia'),
        ],
      },
    };
    expect(card(at('09:00'), child({ newest_grade: newest })).proposals).toEqual([
      { grade: '4', subject: 'Matematyka', what: 'propozycja roczna', when: 'wt. 17.11' },
      { grade: '4', subject: 'Przyroda', what: 'propozycja śródroczna', when: 'czw. 12.11' },
    ]);
  });

  it('names the substitute teacher when the subject stays', () => {
    const today = {
      state: '1',
      attributes: {
        date: '2026-11-18',
        lessons: [
          {
            ...lesson(2, '08:55', '09:40', 'Edukacja', '3'),
            teacher: 'Monika Piotrowska',
            change: 'substitution',
            original_subject: 'Edukacja',
            original_teacher: 'Ewa Szymańska',
            original_room: '3',
          },
        ],
      },
    };
    // The substitute first (the board shows no teachers), then the teacher who is away.
    expect(card(at('08:00'), child({ timetable_today: today })).day?.lessons[0]?.note).toBe('M. Piotrowska za E. Szymańska');
  });

  it('between lessons names next_lesson, and the lessons before it are over (a cancelled one too)', () => {
    const between = {
      current_lesson: { state: null, attributes: { no: null } },
      next_lesson: next('2026-11-18', 'Technika', 4, '10:50', '4', 3, 'room_change'),
    };
    const c = card(at('09:45'), child(between));
    expect(c.headline).toEqual({ label: 'Następna', subject: 'Technika', detail: '10:50 · s. 4', change: 'room_change' });
    expect(c.day?.lessons.map((l) => l.status)).toEqual(['done', 'done', 'done', null]);
    // Nothing is decided from the clock: the same states an hour earlier print the same.
    expect(card(at('08:45'), child(between)).day?.lessons.map((l) => l.status)).toEqual(['done', 'done', 'done', null]);
  });

  it("after today's last lesson shows the next school day with its first lesson", () => {
    const after = { current_lesson: { state: null, attributes: {} }, next_lesson: next('2026-11-19', 'Język polski', 2, '08:55', '12', 0) };
    const c = card(at('11:35'), child(after), 'en');
    expect(c.day).toEqual({
      date: '2026-11-19',
      title: 'Tomorrow, Thursday 19.11',
      lessons: [{ no: 2, from: '08:55', to: '09:40', subject: 'Język polski', room: '12', change: null, note: null, status: null }],
      empty: null,
    });
    expect(c.headline).toEqual({ label: 'First lesson (tomorrow)', subject: 'Język polski', detail: '08:55 · room 12', change: null });
  });

  it("says a kindergarten's first activities of the next day and its rooms by their names, in every language", () => {
    const block = (from: string, to: string, subject: string, room: string) => ({
      no: null,
      number: null,
      from,
      to,
      subject,
      room,
      teacher: 'B',
      kind: 'planned',
    });
    const day = (date: string, lessons: object[]) => ({ state: String(lessons.length), attributes: { date, lessons, kindergarten: true } });
    const zofia = child({
      current_lesson: { state: null, attributes: {} },
      next_lesson: next('2026-11-19', 'zajęcia poranne', null, '08:00', 'sala 1', 0),
      timetable_today: day('2026-11-18', [block('08:00', '12:30', 'zajęcia poranne', 'sala 1')]),
      timetable_tomorrow: day('2026-11-19', [block('08:00', '08:30', 'zajęcia poranne', 'sala 1'), block('09:30', '11:00', 'spacer', 'ogród')]),
    });
    const pl = card(at('13:00'), zofia, 'pl');
    expect(pl.headline).toEqual({ label: 'Pierwsze zajęcia (jutro)', subject: 'zajęcia poranne', detail: '08:00 · sala 1', change: null });
    expect(boardModel([published(zofia, 'uk')], 'uk', at('13:00')).children[0]!.headline?.label).toBe('Перші заняття (завтра)');
    expect(card(at('13:00'), zofia, 'en').headline?.label).toBe('First activity (tomorrow)');
    // The block in progress: its room by its name too, never "s. ogród".
    const walking = child({
      current_lesson: { state: 'spacer', attributes: { no: null, from: '09:30', to: '11:00', room: 'ogród', change: null } },
      timetable_today: day('2026-11-18', [block('09:30', '11:00', 'spacer', 'ogród')]),
    });
    expect(card(at('10:00'), walking, 'pl').headline).toMatchObject({ label: 'Teraz', subject: 'spacer', detail: 'ogród · do 11:00' });
  });

  it('lists an extra class at its hour, said as one, and names it the next or the one in progress as a lesson, not a block', () => {
    const choir = { ...lesson(5, '11:50', '12:35', 'Chór', '4'), no: null, extra: true };
    const club = child({
      current_lesson: { state: null, attributes: { no: null } },
      next_lesson: next('2026-11-18', 'Chór', null, '11:50', '4', 1, null, { extra: true }),
      timetable_today: { state: '5', attributes: { date: '2026-11-18', lessons: [lesson(4, '10:50', '11:35', 'Technika', '12'), choir] } },
    });
    const c = card(at('11:40'), club);
    expect(c.day?.lessons.at(-1)).toEqual({
      no: null,
      from: '11:50',
      to: '12:35',
      subject: 'Chór',
      room: '4',
      change: null,
      note: 'zajęcia dodatkowe',
      status: null,
      extra: true,
    });
    expect(c.headline).toEqual({ label: 'Następna', subject: 'Chór', detail: '11:50 · s. 4', change: null });
    const singing = child({
      current_lesson: { state: 'Chór', attributes: { no: null, from: '11:50', to: '12:35', room: '4', change: null, extra: true } },
    });
    expect(card(at('12:00'), singing).headline).toMatchObject({ label: 'Teraz', subject: 'Chór', detail: 's. 4 · do 12:35' });
  });

  it("tells the next school day's changed lessons with that day named, while the plan shows today", () => {
    const was = (over: object) => ({ original_subject: 'Matematyka', original_teacher: 'T', original_room: '12', ...over });
    const tomorrow = {
      state: '3',
      attributes: {
        date: '2026-11-19',
        lessons: [
          lesson(1, '08:00', '08:45', 'Przyroda', '21'),
          lesson(2, '08:55', '09:40', 'Matematyka', '12', was({ change: 'cancelled' })),
          lesson(3, '09:50', '10:35', 'Fizyka', '12', was({ change: 'substitution', original_subject: 'Historia' })),
          lesson(5, '11:50', '12:35', 'Technika', '4', was({ change: 'room_change', original_subject: 'Technika' })),
          // Moved away from Thursday's sixth lesson to the next Thursday's seventh.
          lesson(6, '12:45', '13:30', 'Plastyka', '12', {
            ...was({ change: 'shifted', original_subject: 'Plastyka' }),
            moved_to: { date: '2026-11-26', lesson_no: 7, hours: '13:40-14:25' },
          }),
        ],
      },
    };
    const c = card(at('09:12'), child({ timetable_tomorrow: tomorrow }));
    // The same words as the day's list says them (the timetable's note, a room change's new room in it).
    expect(c.nextChanges).toEqual({
      date: '2026-11-19',
      title: 'Zmiany planu: jutro, czw. 19.11',
      items: [
        { day: 'jutro', no: 2, time: '08:55', subject: 'Matematyka', change: 'cancelled', note: 'odwołana' },
        { day: 'jutro', no: 3, time: '09:50', subject: 'Fizyka', change: 'substitution', note: 'zastępstwo · zamiast: Historia' },
        { day: 'jutro', no: 5, time: '11:50', subject: 'Technika', change: 'room_change', note: 'zmiana sali · s. 4 · było: s. 12' },
        { day: 'jutro', no: 6, time: '12:45', subject: 'Plastyka', change: 'shifted', note: 'przeniesiona na czw. 26.11, lekcja 7' },
      ],
    });
    // After today's last lesson the plan shows that day itself, its changes in it: no second telling.
    expect(card(at('15:00'), child({ timetable_tomorrow: tomorrow })).day?.date).toBe('2026-11-19');
    expect(card(at('15:00'), child({ timetable_tomorrow: tomorrow })).nextChanges).toBeNull();
    // Friday's news of Monday names Monday.
    const monday = { ...tomorrow, attributes: { ...tomorrow.attributes, date: '2026-11-23' } };
    expect(card(at('09:12'), child({ timetable_tomorrow: monday })).nextChanges?.items[0]?.day).toBe('pon. 23.11');
    const unchanged = { state: '1', attributes: { date: '2026-11-19', lessons: [lesson(1, '08:00', '08:45', 'Przyroda', '21')] } };
    expect(card(at('09:12'), child({ timetable_tomorrow: unchanged })).nextChanges).toBeNull();
  });

  it('names the unread announcements by their titles, newest first', () => {
    const notices = {
      state: '2',
      attributes: {
        notices: [
          { id: 'b', subject: 'Dzień otwarty', date: '2026-11-18' },
          { id: 'a', subject: 'Zbiórka makulatury', date: '2026-11-16' },
        ],
      },
    };
    expect(card(at('09:12'), child({ unread_notices: notices })).notices).toEqual([
      { title: 'Dzień otwarty', when: 'dziś' },
      { title: 'Zbiórka makulatury', when: 'pon. 16.11' },
    ]);
  });

  it("draws a kindergarten's day by its blocks with their hours, and no box for a list that has no state", () => {
    const block = (from: string, to: string, subject: string, kind = 'planned') => ({
      no: null,
      number: null,
      change: null,
      from,
      to,
      subject,
      room: 'sala 2',
      teachers: ['T'],
      kind,
    });
    const kindergarten = new Map<string, EntityState>([
      [
        'timetable_today',
        {
          state: '3',
          attributes: {
            date: '2026-11-18',
            lessons: [block('08:00', '09:00', 'Rytmika'), block('09:00', '10:30', 'Spacer'), block('10:30', '12:30', 'Zabawy', 'extra')],
            kindergarten: true,
          },
        },
      ],
      [
        'current_lesson',
        { state: 'Spacer', attributes: { no: null, from: '09:00', to: '10:30', room: 'sala 2', teacher: 'T', change: null, row: 1 } },
      ],
      ['next_lesson', next('2026-11-18', 'Spacer', null, '09:00', 'sala 2', 1)],
      ['homework_upcoming', { state: null, attributes: {} }],
      ['upcoming_tests', { state: null, attributes: {} }],
      ['newest_grade', { state: null, attributes: { recent: [] } }],
      ['unread_notices', { state: '1', attributes: { notices: [{ id: 'n', subject: 'Bal przebierańców', date: '2026-11-18' }] } }],
      ['last_update', { state: '2026-11-18T09:11:30+01:00' }],
    ]);
    const c = card(at('09:12'), { id: 'ola', name: 'Ola', model: 'Grupa Motylki', online: true, states: kindergarten, changedAt: at('09:11') });
    expect(c.day?.lessons.map((l) => [l.no, l.from, l.to, l.subject, l.note, l.status])).toEqual([
      [null, '08:00', '09:00', 'Rytmika', null, 'done'],
      [null, '09:00', '10:30', 'Spacer', null, 'now'],
      [null, '10:30', '12:30', 'Zabawy', 'extra', null],
    ]);
    expect([c.homework, c.tests, c.grades]).toEqual([null, null, null]);
    expect(c.notices).toEqual([{ title: 'Bal przebierańców', when: 'dziś' }]);
    // A school child whose lists answered empty keeps its boxes, saying there is nothing.
    const school = card(at('09:12'), child({ homework_upcoming: { state: '0', attributes: { items: [] } } }));
    expect(school.homework).toEqual({ title: 'Zadania domowe', items: [] });
  });

  it('shows a count of 0 unmarked and none for a count that is unknown (refused, never read): never a made-up 0', () => {
    const view = child({ unread_messages: { state: '0', attributes: { inbox: 0 } }, unread_notices: { state: null, attributes: {} } });
    expect(card(at('09:12'), view).facts.filter((f) => f.look === 'count')).toEqual([{ look: 'count', label: 'Wiadomości', value: '0', mark: null }]);
  });

  it("names the lucky number's day when it is not today's, and the child's own number", () => {
    const view = child({ lucky_number: { state: '12', attributes: { day: '2026-11-19', register_number: '12', mine: true } } });
    expect(card(at('16:00'), view).facts[0]).toEqual({ look: 'badge', label: 'Szczęśliwy numerek na jutro', value: '12', mark: 'To Ty!' });
    expect(card(at('16:00'), view, 'en').facts[0]).toEqual({ look: 'badge', label: 'Lucky number for tomorrow', value: '12', mark: "It's you!" });
  });

  it("puts the school's name, the semester's attendance with each subject's, lowest first, and the class tutor in the school's box, in the language's words", () => {
    const row = (subject: string | null, percent: number) => ({ subject, lessons: 14, present: 12, absent: 2, late: 0, excused: 1, percent });
    const view = child({
      attendance: {
        state: '95.83',
        // A subject the register could not name (a mark of an unknown lesson) is no line of a parent's list.
        attributes: { by_subject: [row('Przyroda', 85.7), row(null, 90), row('Matematyka', 100)], unexcused: 1 },
      },
      school: {
        state: '4b',
        attributes: { school: 'Szkoła Podstawowa nr 7', tutor: 'Anna Nowak', address: null, register_number: '12', school_year: null, bells: [] },
      },
    });
    expect(card(at('16:00'), view).school).toMatchObject({
      name: 'Szkoła Podstawowa nr 7',
      attendance: 'Frekwencja 95,8%',
      bySubject: [
        { subject: 'Przyroda', percent: '85,7%' },
        { subject: 'Matematyka', percent: '100%' },
      ],
      tutor: 'Anna Nowak',
    });
    expect(card(at('16:00'), view, 'en').school).toMatchObject({
      attendance: 'Attendance 95.8%',
      bySubject: [{ percent: '85.7%' }, { percent: '100%' }],
    });
  });

  it('a problem from the portal is said with its advice, and beats old data', () => {
    const view = child({ problem: { state: 'ON', attributes: { reason: 'service_down', message: 'Portal nie odpowiada.' } } });
    expect(card(at('15:00'), view).warning).toEqual({
      kind: 'problem',
      text: 'Nie można teraz odczytać dziennika.',
      detail: 'Portal nie odpowiada.',
    });
  });

  it("data over an hour of the bridge's waking time old is marked: the night, which reads nothing, does not count", () => {
    expect(card(at('10:11'))).toMatchObject({ warning: null });
    expect(card(at('10:12')).warning).toEqual({ kind: 'stale', text: 'Stare dane: dziennik odczytano ostatnio 09:11.', detail: null });
    const evening = child({ last_update: { state: '2026-11-18T21:30:00+01:00' } });
    expect(card(at('23:00'), evening).warning).toBeNull();
    expect(card(Date.parse('2026-11-19T05:59:00+01:00'), evening).warning).toBeNull();
    expect(card(Date.parse('2026-11-19T07:00:00+01:00'), evening).warning).toBeNull();
    expect(card(Date.parse('2026-11-19T07:01:00+01:00'), evening).warning).toEqual({
      kind: 'stale',
      text: 'Stare dane: dziennik odczytano ostatnio 18.11 21:30.',
      detail: null,
    });
  });

  it('an offline child says since when its data is', () => {
    expect(card(at('12:00'), child({}, { online: false }), 'en').warning).toEqual({
      kind: 'offline',
      text: 'The register has not been read for days (last 09:11): this is old data.',
      detail: null,
    });
  });

  it('before the first poll: the id as the name, nothing made up, and a sign that it waits', () => {
    const c = card(at('09:00'), { id: 'jan', name: null, model: null, online: true, states: new Map(), changedAt: 0 });
    expect(c).toEqual({
      id: 'jan',
      name: 'jan',
      className: null,
      facts: [],
      headline: null,
      briefing: null,
      day: null,
      // No list has answered: no box says there is nothing.
      nextChanges: null,
      standing: null,
      notices: [],
      homework: null,
      tests: null,
      agenda: [],
      grades: null,
      proposals: [],
      messages: null,
      school: { name: null, behaviour: null, attendance: null, bySubject: [], tutor: null, sent: null, files: [] },
      warning: { kind: 'waiting', text: 'Czekam na pierwszy odczyt dziennika.', detail: null },
      updated: null,
      calendarFeeds: [
        { title: 'jan – lekcje', path: 'calendar/jan/lessons.ics' },
        { title: 'jan – wydarzenia', path: 'calendar/jan/agenda.ics' },
        { title: 'jan – dni wolne', path: 'calendar/jan/free-days.ics' },
      ],
    });
  });

  it("lists each child's three feeds under its id (never the token), named as the calendars name themselves", () => {
    const model = boardModel([child({}, { id: 'ania', name: 'Ania Kowalska' }), child({}, { id: 'jan_2', name: 'Jan Kowalski' })], 'en', at('09:12'));
    expect(model.children.map((c) => c.calendarFeeds)).toEqual([
      [
        { title: 'Ania – lessons', path: 'calendar/ania/lessons.ics' },
        { title: 'Ania – agenda', path: 'calendar/ania/agenda.ics' },
        { title: 'Ania – days off', path: 'calendar/ania/free-days.ics' },
      ],
      [
        { title: 'Jan – lessons', path: 'calendar/jan_2/lessons.ics' },
        { title: 'Jan – agenda', path: 'calendar/jan_2/agenda.ics' },
        { title: 'Jan – days off', path: 'calendar/jan_2/free-days.ics' },
      ],
    ]);
    // A kindergarten child's device declares no agenda: her card links no agenda calendar, which would be refused.
    const zosia = child({}, { id: 'zofia', name: 'Zofia Kowalska', calendarFeeds: ['lessons', 'free-days'] });
    expect(boardModel([zosia], 'pl', at('09:12')).children[0]?.calendarFeeds).toEqual([
      { title: 'Zofia – lekcje', path: 'calendar/zofia/lessons.ics' },
      { title: 'Zofia – dni wolne', path: 'calendar/zofia/free-days.ics' },
    ]);
  });

  it('keeps each child in its place whatever order the bridge learnt them in', () => {
    const ids = (...order: string[]) =>
      boardModel(
        order.map((id) => child({}, { id, name: id })),
        'pl',
        at('09:12'),
      ).children.map((c) => c.id);
    expect(ids('jan', 'ania', 'zosia')).toEqual(['ania', 'jan', 'zosia']);
  });

  it('calls the children by their first names, unless two share one', () => {
    const names = (...full: string[]) =>
      boardModel(
        full.map((n, i) => child({}, { id: `c${i}`, name: n })),
        'pl',
        at('09:12'),
      ).children.map((c) => c.name);
    expect(names('Ania Kowalska', 'Jan Kowalski')).toEqual(['Ania', 'Jan']);
    expect(names('Jan Nowak', 'Jan Kowalski')).toEqual(['Jan Nowak', 'Jan Kowalski']);
  });

  it('follows the language, labels included', () => {
    const model = boardModel([published(child(), 'en')], 'en', at('09:12'));
    expect(model.labels.title).toBe('School board');
    expect(model.children[0]?.day?.lessons[1]?.note).toBe('substitution · instead of Matematyka');
    expect(boardModel([], 'pl', at('09:12')).labels.title).toBe('Tablica szkolna');
  });
});
