// The notification blueprints a family moving from another integration asks for (docs/migrating.md),
// run as Home Assistant runs them: the trigger, variables and conditions, then the texts rendered
// strictly by Jinja2, in each of the three languages. The states and events are built here in the
// bridge's shapes (docs/entities.md; the school, attendance, homework_upcoming and forecast attributes
// of the interface's 14.1 and 14.2).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderActionTemplates, runTriggerSide, skipWithoutJinja, type StateChange } from '../../helpers/blueprints.js';
import { ania, fired, LANGUAGES, passedIn, run, sensor, statesOf } from '../../helpers/blueprint-run.js';

const GRADE = {
  event_type: 'grade',
  grade: '2+',
  subject: 'Matematyka',
  category: 'Sprawdzian',
  weight: 3,
  teacher: 'Piotr Wiśniewski',
  comment: null,
};

describe.skipIf(skipWithoutJinja())('the notification blueprints', () => {
  it("a grade at or below a chosen one, and a teacher's comment (new_grade)", async () => {
    const grade = (payload: Record<string, unknown>) => fired('event.ania_grade', { ...GRADE, ...payload });
    const low = { grade_event: 'event.ania_grade', at_most: 2 };
    const twoPlus = await run('new_grade.yaml', low, grade({}));
    expect(passedIn(twoPlus)).toEqual(LANGUAGES);
    expect(twoPlus.uk.text).toMatch(/^Нова оцінка: 2\+ \(Matematyka\)\nSprawdzian, вага 3 – Piotr Wiśniewski$/);
    // A weight in the family's numbers: 1,5 in Polish and Ukrainian, 1.5 in English.
    const light = await run('new_grade.yaml', low, grade({ weight: 1.5 }));
    expect(light.pl.text).toMatch(/^Nowa ocena: 2\+ \(Matematyka\)\nSprawdzian, waga 1,5 – Piotr Wiśniewski$/);
    expect(light.uk.text).toMatch(/вага 1,5 –/);
    expect(light.en.text).toMatch(/weight 1\.5 –/);
    for (const g of ['3', '3-', 'np', '+', '9,5/10 pkt']) expect(passedIn(await run('new_grade.yaml', low, grade({ grade: g }))), g).toEqual([]);
    // Every grade and mark by default.
    expect((await run('new_grade.yaml', { grade_event: 'event.ania_grade' }, grade({ grade: 'np' }))).pl.passed).toBe(true);
    // A flood passes when one of its first entries is low enough.
    const flood = {
      event_type: 'grade',
      count: 25,
      entries: [
        { ...GRADE, grade: '5' },
        { ...GRADE, grade: '1' },
      ],
    };
    expect((await run('new_grade.yaml', low, fired('event.ania_grade', flood))).en.text).toMatch(
      /^New grades: 25\n5 \(Matematyka\), 1 \(Matematyka\) and 23 more$/,
    );

    const commented = { grade_event: 'event.ania_grade', with_comment: true };
    expect(passedIn(await run('new_grade.yaml', commented, grade({})))).toEqual([]);
    const withComment = await run('new_grade.yaml', commented, grade({ comment: 'Brak zadania domowego.' }));
    expect(withComment.pl.text).toMatch(/^Nowa ocena: 2\+ \(Matematyka\)\n[\s\S]*Brak zadania domowego\.$/);
    // A comment the teacher adds later: a grade_changed whose `previous` holds the comment as it was.
    const added = await run(
      'new_grade.yaml',
      commented,
      grade({ event_type: 'grade_changed', comment: 'Poprawa do piątku.', previous: { comment: null } }),
    );
    expect(added.en.text).toMatch(/^A teacher's comment: 2\+ \(Matematyka\)\n[\s\S]*Poprawa do piątku\.$/);
    expect(added.uk.text).toMatch(/^Коментар до оцінки: 2\+/);
    expect(passedIn(await run('new_grade.yaml', commented, grade({ event_type: 'grade_changed', comment: 'x', previous: { grade: '3' } })))).toEqual(
      [],
    );
  });

  it('a proposed term grade as a proposal, never as a new grade, and a term grade by its kind (new_grade)', async () => {
    const inputs = { grade_event: 'event.ania_grade' };
    const proposal = (period: string) =>
      run('new_grade.yaml', inputs, fired('event.ania_grade', { ...GRADE, grade: '6', subject: 'Historia', weight: null, category: null, period }));
    const semester = await proposal('semester_proposal');
    expect(semester.pl.title).toBe('Propozycja oceny śródrocznej: 6 (Historia)');
    expect(semester.en.title).toBe('Proposed semester grade: 6 (Historia)');
    expect(semester.uk.title).toBe('Запропонована семестрова оцінка: 6 (Historia)');
    expect((await proposal('final_proposal')).pl.title).toBe('Propozycja oceny rocznej: 6 (Historia)');
    expect((await proposal('final')).en.title).toBe('End-of-year grade: 6 (Historia)');
    for (const language of LANGUAGES) expect(semester[language].title, language).not.toMatch(/Nowa ocena|New grade|Нова оцінка/);
    // In a flood (a term's proposals entered at once), each entry a proposal says so.
    const flood = { event_type: 'grade', count: 25, entries: [{ ...GRADE, grade: '5', period: 'semester_proposal' }, GRADE] };
    expect((await run('new_grade.yaml', inputs, fired('event.ania_grade', flood))).pl.text).toMatch(
      /^Nowe oceny: 25\n5 \(Matematyka, propozycja oceny śródrocznej\), 2\+ \(Matematyka\) i 23 więcej$/,
    );
  });

  it('an unexcused absence, and the kinds chosen (absence)', async () => {
    const absence = (payload: Record<string, unknown>) =>
      fired('event.ania_absence', {
        event_type: 'absence',
        date: '2026-11-17',
        lesson_no: 3,
        subject: 'Historia',
        teacher: 'Anna Nowak',
        type: 'nieobecność',
        kind: 'unexcused',
        ...payload,
      });
    const r = await run('absence.yaml', { absence_event: 'event.ania_absence' }, absence({}));
    expect(r.pl.text).toBe('Nieobecność nieusprawiedliwiona: Historia\n17.11, lekcja 3 – Anna Nowak');
    expect(r.en.text).toBe('Unexcused absence: Historia\n17.11, lesson 3 – Anna Nowak');
    expect(r.uk.text).toBe('Пропуск без поважної причини: Historia\n17.11, урок 3 – Anna Nowak');
    expect(passedIn(await run('absence.yaml', { absence_event: 'event.ania_absence' }, absence({ kind: 'late' })))).toEqual([]);
    expect(
      passedIn(await run('absence.yaml', { absence_event: 'event.ania_absence' }, absence({ event_type: 'absence_changed', kind: 'excused' }))),
    ).toEqual([]);
    expect((await run('absence.yaml', { absence_event: 'event.ania_absence', kinds: ['late'] }, absence({ kind: 'late' }))).pl.text).toMatch(
      /^Spóźnienie: Historia/,
    );
    const week = {
      event_type: 'absence',
      count: 30,
      entries: [1, 2].map((n) => ({ date: '2026-11-16', lesson_no: n, subject: 'Fizyka', kind: 'unexcused' })),
    };
    expect((await run('absence.yaml', { absence_event: 'event.ania_absence' }, fired('event.ania_absence', week))).pl.text).toBe(
      'Nieobecności: 30\n16.11, lekcja 1 (Fizyka); 16.11, lekcja 2 (Fizyka) (razem 30)',
    );
  });

  it('a positive or a negative note, as chosen (note)', async () => {
    const note = (kind: string) =>
      fired('event.ania_note', {
        event_type: 'note',
        kind,
        category: 'Zachowanie na lekcji',
        teacher: 'Anna Nowak',
        date: '2026-11-17',
        text: 'Pomaga innym.',
      });
    const praise = await run('note.yaml', { note_event: 'event.ania_note' }, note('positive'));
    expect(praise.pl.text).toBe('Uwaga pozytywna: Zachowanie na lekcji\nPomaga innym. – Anna Nowak');
    expect(praise.en.text).toMatch(/^Praise: /);
    expect(praise.uk.text).toMatch(/^Похвала: /);
    expect(passedIn(await run('note.yaml', { note_event: 'event.ania_note' }, note('neutral')))).toEqual([]);
    expect(passedIn(await run('note.yaml', { note_event: 'event.ania_note', kinds: ['negative'] }, note('positive')))).toEqual([]);
    expect((await run('note.yaml', { note_event: 'event.ania_note', kinds: ['negative'] }, note('negative'))).en.text).toMatch(/^A negative note: /);
  });

  it('a message from a chosen teacher (new_message)', async () => {
    const message = (sender: string) =>
      fired('event.ania_message', {
        event_type: 'message',
        mailbox: 'inbox',
        sender,
        topic: 'Wycieczka',
        preview: 'Proszę o zgodę.',
        has_attachments: false,
      });
    const fromNowak = { message_event: 'event.ania_message', senders: ['nowak'] };
    const r = await run('new_message.yaml', fromNowak, message('Anna Nowak'));
    // Both branches render (with and without the Open action): the title, the preview, the action's words.
    expect(r.uk.text).toContain('✉️ Anna Nowak: Wycieczka\nProszę o zgodę.');
    expect(r.uk.text).toContain('Відкрити');
    expect(passedIn(await run('new_message.yaml', fromNowak, message('Piotr Wiśniewski')))).toEqual([]);
    expect((await run('new_message.yaml', { message_event: 'event.ania_message' }, message('Piotr Wiśniewski'))).pl.passed).toBe(true);
  });

  it("the lucky number is the child's (lucky_number)", async () => {
    const r = await run(
      'lucky_number.yaml',
      { lucky_event: ['event.ania_lucky'] },
      fired('event.ania_lucky', { event_type: 'lucky', child: 'ania', child_name: 'Ania', day: '2026-11-19', number: 12, register_number: 12 }),
    );
    expect(r.pl.text).toBe('Ania: 🍀 12 to Twój szczęśliwy numerek!\nW dniu 19.11 nikt Cię nie zapyta.');
    expect(r.uk.text).toBe('Ania: 🍀 12 — твій щасливий номер!\n19.11 тебе ніхто не запитає.');
  });

  it("tomorrow's tests, homework and free day, in the evening (tomorrow)", async () => {
    const inputs = { ...ania('upcoming_tests', 'homework_upcoming', 'school_day_tomorrow'), child_name: 'Ania' };
    const tests = sensor('sensor.ania_upcoming_tests', '2', {
      items: [
        { date: '2026-11-19', time: '08:55', subject: 'Matematyka', category: 'Sprawdzian', content: 'Ułamki', teacher: null },
        { date: '2026-11-24', time: null, subject: 'Przyroda', category: 'Kartkówka', content: null, teacher: null },
      ],
    });
    const homework = sensor('sensor.ania_homework_upcoming', '1', {
      items: [
        { date: '2026-11-19', subject: 'Język polski', text: 'Opowiadanie o zimie', teacher: 'Anna Nowak', added: '2026-11-12', attachments: [] },
      ],
    });
    const schoolDay = (state: string, date: string, free: string | null) =>
      sensor('binary_sensor.ania_school_day_tomorrow', state, { date, lessons: state === 'on' ? 6 : 0, free_day: free });
    // A Wednesday evening: Thursday's test and homework.
    const wednesday = await run('tomorrow.yaml', inputs, '2026-11-18T19:00:00+01:00', statesOf(tests, homework, schoolDay('on', '2026-11-19', null)));
    expect(wednesday.pl.text).toBe('Ania, jutro w szkole\nSprawdzian: Matematyka 08:55\nZadanie: Język polski – Opowiadanie o zimie');
    expect(wednesday.en.text).toMatch(/^Ania, tomorrow at school\n/);
    expect(wednesday.uk.text).toMatch(/^Ania, завтра в школі\nSprawdzian: Matematyka 08:55\nЗавдання: Język polski/);
    const homeworkOnly = await run(
      'tomorrow.yaml',
      { ...inputs, tell: ['homework'], child_name: '' },
      '2026-11-18T19:00:00+01:00',
      statesOf(tests, homework, schoolDay('on', '2026-11-19', null)),
    );
    expect(homeworkOnly.en.text).toBe('Tomorrow at school\nHomework: Język polski – Opowiadanie o zimie');
    // The evening before a holiday: a free day with its name.
    const holiday = await run(
      'tomorrow.yaml',
      inputs,
      '2026-11-10T19:00:00+01:00',
      statesOf(tests, homework, schoolDay('off', '2026-11-11', 'Narodowe Święto Niepodległości')),
    );
    expect(holiday.pl.text).toBe('Ania, jutro wolne: Narodowe Święto Niepodległości\nNarodowe Święto Niepodległości');
    expect(holiday.uk.text).toMatch(/^Ania, завтра вихідний: /);
    // An ordinary Friday evening: nothing to tell.
    expect(
      passedIn(await run('tomorrow.yaml', inputs, '2026-11-20T19:00:00+01:00', statesOf(tests, homework, schoolDay('off', '2026-11-21', null)))),
    ).toEqual([]);
  });

  it("tomorrow's first lesson as a wake-up time (wake_up)", async () => {
    const inputs = { lessons_start_tomorrow: 'sensor.ania_lessons_start_tomorrow', minutes_before: 45, alarm: 'input_datetime.ania_alarm' };
    const start = (at: string) => statesOf(sensor('sensor.ania_lessons_start_tomorrow', at));
    const r = await run('wake_up.yaml', inputs, '2026-11-18T20:00:00+01:00', start('2026-11-19T08:00:00+01:00'));
    expect(r.pl.text).toBe(`Pobudka jutro o 07:15\nLekcje od 08:00.\nTrue\n${Date.parse('2026-11-19T07:15:00+01:00') / 1000}.0`);
    expect(r.en.text).toMatch(/^Wake up tomorrow at 07:15\nLessons from 08:00\./);
    expect(r.uk.text).toMatch(/^Підйом завтра о 07:15\nУроки з 08:00\./);
    // A Friday evening: the next school day is Monday, told on Sunday evening.
    expect(passedIn(await run('wake_up.yaml', inputs, '2026-11-20T20:00:00+01:00', start('2026-11-23T08:00:00+01:00')))).toEqual([]);
    expect((await run('wake_up.yaml', inputs, '2026-11-22T20:00:00+01:00', start('2026-11-23T08:00:00+01:00'))).pl.passed).toBe(true);
  });

  it("a subject's forecast that drops (forecast_drop)", async () => {
    const average = (state: string, attributes: Record<string, unknown>) =>
      sensor('sensor.ania_average_matematyka', state, { subject: 'Matematyka', forecast: '4', trend: 'steady', to_next: null, ...attributes });
    const inputs = { averages: ['sensor.ania_average_matematyka', 'sensor.ania_average_historia'] };
    const down = { from: average('3.80', {}), to: average('3.70', { forecast: '3', trend: 'down', to_next: { grade: '5', count: 2 } }) };
    const r = await run('forecast_drop.yaml', inputs, down);
    expect(r.pl.text).toBe('Prognoza spada: Matematyka 4 → 3\nŚrednia 3,70, niższa niż 2 tygodnie temu. Do oceny 4: 2 × 5 (waga 1).');
    expect(r.en.text).toBe('Forecast drops: Matematyka 4 → 3\nAverage 3.70, lower than 2 weeks ago. Back to 4: 2 × 5 (weight 1).');
    expect(r.uk.text).toMatch(/^Прогноз знижується: Matematyka 4 → 3\nСередній бал 3,70, нижчий, ніж 2 тижні тому\./);
    // A rise, a first value and a return from unavailable are no drop; the attributes alone changing are.
    expect(passedIn(await run('forecast_drop.yaml', inputs, { from: down.to, to: down.from }))).toEqual([]);
    expect(passedIn(await run('forecast_drop.yaml', inputs, { from: sensor('sensor.ania_average_matematyka', 'unavailable'), to: down.to }))).toEqual(
      [],
    );
    expect((await run('forecast_drop.yaml', inputs, { from: average('3.70', {}), to: down.to })).pl.passed).toBe(true);
  });

  it("a subject's attendance under a chosen share, once (attendance_low)", async () => {
    const attendance = (state: string, fizyka: number, historia: number) =>
      sensor('sensor.ania_attendance', state, {
        by_subject: [
          { subject: 'Historia', lessons: 3, present: 1, absent: 2, late: 0, excused: 0, percent: historia },
          { subject: 'Fizyka', lessons: 12, present: 7, absent: 5, late: 0, excused: 2, percent: fizyka },
          { subject: 'Matematyka', lessons: 20, present: 19, absent: 1, late: 1, excused: 1, percent: 95 },
        ],
        unexcused: 3,
      });
    const inputs = { attendance: 'sensor.ania_attendance', share: 60 };
    const r = await run('attendance_low.yaml', inputs, { from: attendance('90.1', 62.5, 40), to: attendance('89.6', 58.3, 33.3) });
    // Historia has too few lessons to count.
    expect(r.pl.text).toBe('Frekwencja poniżej 60%\nFizyka 58,3%');
    expect(r.en.text).toBe('Attendance under 60%\nFizyka 58.3%');
    expect(r.uk.text).toBe('Відвідуваність нижче 60%\nFizyka 58,3%');
    expect(passedIn(await run('attendance_low.yaml', inputs, { from: attendance('89.6', 58.3, 33.3), to: attendance('89.1', 54.5, 33.3) }))).toEqual(
      [],
    );
    expect(
      passedIn(
        await run('attendance_low.yaml', inputs, { from: sensor('sensor.ania_attendance', 'unavailable'), to: attendance('89.1', 54.5, 33.3) }),
      ),
    ).toEqual([]);
  });

  it("the weekly summary on Friday afternoon: the week's grades, absences, next week's tests (weekly_summary)", async () => {
    const inputs = { ...ania('newest_grade', 'catch_up', 'absences_unexcused', 'upcoming_tests'), child_name: 'Ania' };
    const states = statesOf(
      sensor('sensor.ania_newest_grade', '5', {
        recent: [
          { grade: '5', subject: 'Matematyka', kind: 'grade', date: '2026-11-18' },
          { grade: '3+', subject: 'Historia', kind: 'grade', date: '2026-11-16' },
          { grade: '4', subject: 'Fizyka', kind: 'grade', date: '2026-11-13' },
        ],
      }),
      sensor('sensor.ania_catch_up', '3', {
        lessons: [
          { date: '2026-11-19', no: 2, subject: 'Matematyka', topic: 'Ułamki' },
          { date: '2026-11-19', no: 3, subject: 'Historia', topic: null },
          { date: '2026-11-10', no: 1, subject: 'Fizyka', topic: null },
        ],
      }),
      sensor('sensor.ania_absences_unexcused', '1'),
      sensor('sensor.ania_upcoming_tests', '2', {
        items: [
          { date: '2026-11-24', time: null, subject: 'Matematyka', category: 'Sprawdzian', content: null, teacher: null },
          { date: '2026-12-01', time: null, subject: 'Przyroda', category: 'Kartkówka', content: null, teacher: null },
        ],
      }),
    );
    const friday = await run('weekly_summary.yaml', inputs, '2026-11-20T15:00:00+01:00', states);
    expect(friday.pl.text).toBe(
      'Ania, tydzień w szkole\nOceny: 5 (Matematyka), 3+ (Historia)\nOpuszczone lekcje: 2 (Matematyka, Historia); do usprawiedliwienia w semestrze: 1\nSprawdziany w przyszłym tygodniu: wt. Matematyka (sprawdzian)',
    );
    expect(friday.en.text).toMatch(/\nNext week's tests: Tue Matematyka \(sprawdzian\)$/);
    expect(friday.uk.text).toMatch(/^Ania, тиждень у школі\nОцінки: 5 \(Matematyka\), 3\+ \(Historia\)\n/);
    expect(passedIn(await run('weekly_summary.yaml', inputs, '2026-11-19T15:00:00+01:00', states))).toEqual([]);
    // A quiet week, at a school without lessons held (no catch_up): no absence line.
    const quiet = statesOf(sensor('sensor.ania_newest_grade', 'unknown'), sensor('sensor.ania_upcoming_tests', '0', { items: [] }));
    expect((await run('weekly_summary.yaml', inputs, '2026-11-20T15:00:00+01:00', quiet)).en.text).toBe(
      "Ania, the week at school\nGrades: none\nNext week's tests: none",
    );
  });

  it('a test, a plan change and a new school year speak each language too', async () => {
    const moved = fired('event.ania_test', {
      event_type: 'test_changed',
      kind: 'quiz',
      subject: 'Przyroda',
      date: '2026-11-27',
      time: null,
      description: 'Rośliny',
      previous: { date: '2026-11-24' },
    });
    const test = await run('new_test.yaml', { test_event: 'event.ania_test' }, moved);
    expect(test.pl.text).toBe('Kartkówka przeniesiona: Przyroda\n24.11 → 27.11: Rośliny');
    expect(test.uk.text).toBe('Коротку контрольну перенесено: Przyroda\n24.11 → 27.11: Rośliny');
    const change = {
      event_type: 'plan_change',
      date: '2026-11-19',
      lesson_no: 2,
      hours: '08:55-09:40',
      kind: 'room_change',
      subject: 'Fizyka',
      room: '12',
      original_room: '7',
    };
    const planChange = await run(
      'plan_change_tomorrow.yaml',
      { plan_change_event: 'event.ania_plan_change', only_next_school_day: false, timetable_tomorrow: 'sensor.ania_timetable_tomorrow' },
      fired('event.ania_plan_change', change),
    );
    expect(planChange.en.text).toBe('19.11, 2. lesson: another room\nFizyka: room 12 instead of 7');
    expect(planChange.uk.text).toBe('19.11, 2. урок: інший кабінет\nFizyka: кабінет 12 замість 7');
    const year = {
      event_type: 'school_year',
      class: '5b',
      tutor: 'Anna Nowak',
      begins: '2026-09-01',
      first_semester_ends: '2027-01-29',
      ends: '2027-06-25',
      summary: { left: { grades: 0, absences: 0, notes: 0, homework: 0, tests: 0 }, arrived: { free_days: 0 } },
    };
    expect((await run('school_year.yaml', { school_year_event: 'event.ania_school_year' }, fired('event.ania_school_year', year))).uk.text).toBe(
      '🎒 новий навчальний рік: 5b\nКласний керівник: Anna Nowak. Рік: 01.09.2026 – 25.06.2027, I семестр до 29.01.2027.',
    );
  });

  it('trips, meetings and other agenda entries, when chosen, in the same automation as the tests (new_test)', async () => {
    const entry = (payload: Record<string, unknown>) =>
      fired('event.ania_agenda', {
        event_type: 'agenda',
        child: 'ania',
        child_name: 'Ania',
        kind: 'trip',
        date: '2026-11-27',
        until: '2026-11-29',
        time: '00:00',
        subject: null,
        category: 'Wycieczka',
        description: 'Zielona szkoła w Zakopanem',
        teacher: 'Anna Nowak',
        ...payload,
      });
    const events = ['event.ania_test', 'event.ania_agenda'];
    // Tests and quizzes by default: an agenda entry tells nothing.
    expect(passedIn(await run('new_test.yaml', { test_event: events }, entry({})))).toEqual([]);
    const chosen = { test_event: events, kinds: ['test', 'quiz', 'trip', 'meeting'] };
    const trip = await run('new_test.yaml', chosen, entry({}));
    expect(trip.pl.text).toBe('Ania: Wycieczka: Zielona szkoła w Zakopanem\n27.11–29.11 (Anna Nowak)');
    expect(trip.en.title).toBe('Ania: Trip: Zielona szkoła w Zakopanem');
    expect(trip.uk.title).toBe('Ania: Екскурсія: Zielona szkoła w Zakopanem');
    const meeting = await run(
      'new_test.yaml',
      chosen,
      entry({ kind: 'meeting', date: '2026-11-25', until: null, time: '17:00', description: 'Wywiadówka' }),
    );
    expect(meeting.pl.text).toBe('Ania: Zebranie z rodzicami: Wywiadówka\n25.11 17:00 (Anna Nowak)');
    const moved = await run(
      'new_test.yaml',
      chosen,
      entry({ event_type: 'agenda_changed', date: '2026-12-04', until: '2026-12-06', previous: { date: '2026-11-27' } }),
    );
    expect(moved.en.text).toBe('Ania: Trip changed: Zielona szkoła w Zakopanem\n27.11 → 04.12–06.12 (Anna Nowak)');
    expect((await run('new_test.yaml', chosen, entry({ event_type: 'agenda_removed' }))).uk.title).toBe(
      'Ania: Екскурсію скасовано: Zielona szkoła w Zakopanem',
    );
    expect(passedIn(await run('new_test.yaml', chosen, entry({ kind: 'event', description: 'Dzień postaci z bajek' })))).toEqual([]);
    const flood = fired('event.ania_agenda', {
      event_type: 'agenda',
      count: 22,
      entries: [entry({}).to.attributes, entry({ kind: 'meeting' }).to.attributes],
    });
    expect((await run('new_test.yaml', chosen, flood)).pl.text).toBe(
      'Nowe wpisy w terminarzu: 22\nZielona szkoła w Zakopanem 27.11, Zielona szkoła w Zakopanem 27.11 i 20 więcej',
    );
  });

  it("docs/migrating.md's worked example notifies a low grade, and nothing else", async () => {
    const page = readFileSync(new URL('../../../docs/migrating.md', import.meta.url), 'utf8');
    const automations = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)].flatMap(
      ([, block]) => (parse(block!) as { automation: Record<string, unknown>[] }).automation,
    );
    const ours = automations.filter((a) => JSON.stringify(a.triggers).includes('event.ania_grade'));
    expect(ours).toHaveLength(1);
    const outcome = async (change: StateChange) => {
      const result = await runTriggerSide(ours[0]!, change);
      expect(result.errors).toEqual([]);
      const texts = result.passed ? await renderActionTemplates(ours[0]!, result.variables ?? {}) : [];
      return { passed: result.passed === true, text: texts.map((t) => ('value' in t.result ? String(t.result.value) : t.result.error)).join('\n') };
    };
    const grade = (payload: Record<string, unknown>) => fired('event.ania_grade', { ...GRADE, comment: 'Brak pracy.', ...payload });
    expect(await outcome(grade({}))).toEqual({ passed: true, text: 'Ocena 2+: Matematyka\nBrak pracy.' });
    for (const other of [{ grade: '4' }, { grade: 'np' }, { event_type: 'grade_changed', previous: { grade: '3' } }, { count: 25, entries: [GRADE] }])
      expect((await outcome(grade(other))).passed, JSON.stringify(other)).toBe(false);
    const restart = grade({});
    expect((await outcome({ from: { ...restart.to, state: 'unavailable' }, to: restart.to })).passed).toBe(false);
  });
});
