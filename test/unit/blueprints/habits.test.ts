// The blueprints of a family's habits (issue 80): a reminder to excuse an absence, a revision before a test,
// time to leave or to pick up, a new announcement, a new school file, a subject's average dropping, a
// justification decided and a forecast changed. Run as Home Assistant runs them, in each language, on
// states and events built here in the bridge's shapes (docs/entities.md; forecast_changed's payload as
// interface 15.2 gives it: subject, previous, forecast, average).
import { describe, expect, it } from 'vitest';
import { skipWithoutJinja } from '../../helpers/blueprints.js';
import { fired, LANGUAGES, passedIn, run, sensor, statesOf } from '../../helpers/blueprint-run.js';

// A Wednesday evening; the times of day in Warsaw's winter offset.
const EVENING = '2026-11-18T18:00:00+01:00';

describe.skipIf(skipWithoutJinja())('the blueprints of the habits', () => {
  it('reminds of the absences still unexcused some days after, each day while they may be excused (justify_absence)', async () => {
    const absences = (unexcused: Record<string, unknown>[]) =>
      statesOf(sensor('sensor.ania_absences_unexcused', String(unexcused.length), { unexcused }));
    // Newest first, a day's lessons last first, as absences_unexcused lists them.
    const states = absences([
      { date: '2026-11-17', lesson_no: 3, subject: 'Historia' },
      { date: '2026-11-16', lesson_no: 2, subject: 'Fizyka' },
      { date: '2026-11-16', lesson_no: 1, subject: 'Matematyka' },
      { date: '2026-11-05', lesson_no: 1, subject: 'Fizyka' },
    ]);
    const inputs = { absences_unexcused: 'sensor.ania_absences_unexcused', child_name: 'Ania' };
    const twoDays = await run('justify_absence.yaml', inputs, EVENING, states);
    expect(twoDays.pl.text).toBe('Ania: nieobecność do usprawiedliwienia\n16.11: lekcje 1, 2 (Matematyka, Fizyka)');
    expect(twoDays.en.text).toBe('Ania: an absence to excuse\n16.11: lessons 1, 2 (Matematyka, Fizyka)');
    expect(twoDays.uk.text).toBe('Ania: пропуск, який треба пояснити\n16.11: уроки 1, 2 (Matematyka, Fizyka)');
    // A day after: both days, oldest first; the 5th is past the reminding days.
    const oneDay = await run('justify_absence.yaml', { ...inputs, days_after: 1, child_name: '' }, EVENING, states);
    expect(oneDay.pl.text).toBe('Nieobecność do usprawiedliwienia\n16.11: lekcje 1, 2 (Matematyka, Fizyka)\n17.11: lekcja 3 (Historia)');
    // Nothing old enough, or everything excused: no reminder.
    expect(passedIn(await run('justify_absence.yaml', { ...inputs, days_after: 3 }, EVENING, states))).toEqual([]);
    expect(passedIn(await run('justify_absence.yaml', inputs, EVENING, absences([])))).toEqual([]);
    // An absence whose lesson is not known says its day and subject.
    const unnumbered = absences([{ date: '2026-11-16', lesson_no: null, subject: 'Religia' }]);
    expect((await run('justify_absence.yaml', inputs, EVENING, unnumbered)).pl.text).toMatch(/\n16\.11 \(Religia\)$/);
  });

  it('reminds to revise some days before a test, with the topics since the previous one (revision)', async () => {
    const states = statesOf(
      sensor('sensor.ania_upcoming_tests', '3', {
        items: [
          { kind: 'test', date: '2026-11-19', until: null, time: '09:50', subject: 'Przyroda', category: 'Kartkówka', content: null, teacher: null },
          {
            kind: 'test',
            date: '2026-11-20',
            until: null,
            time: '08:55',
            subject: 'Matematyka',
            category: 'Sprawdzian',
            content: 'Ułamki',
            teacher: null,
          },
          { kind: 'test', date: '2026-11-20', until: null, time: null, subject: 'Historia', category: null, content: null, teacher: null },
        ],
      }),
      // Home Assistant keeps a timestamp sensor's state in UTC: 08:55 in Warsaw.
      sensor('sensor.ania_next_test', '2026-11-20T07:55:00+00:00', {
        subject: 'Matematyka',
        kind: 'test',
        description: 'Ułamki',
        topics: [
          { date: '2026-11-17', no: 2, subject: 'Matematyka', topic: 'Ułamki dziesiętne' },
          { date: '2026-11-13', no: 2, subject: 'Matematyka', topic: 'Ułamki zwykłe' },
        ],
      }),
    );
    const inputs = { upcoming_tests: 'sensor.ania_upcoming_tests', next_test: 'sensor.ania_next_test', days_before: 2, child_name: 'Ania' };
    const r = await run('revision.yaml', inputs, EVENING, states);
    expect(r.pl.text).toBe(
      'Ania: czas na powtórkę\nSprawdzian: Matematyka, pt. 20.11 08:55 – Ułamki\nDo powtórzenia: Ułamki zwykłe; Ułamki dziesiętne\nSprawdzian: Historia, pt. 20.11',
    );
    expect(r.en.text).toMatch(/^Ania: time to revise\nSprawdzian: Matematyka, Fri 20\.11 08:55 – Ułamki\nTo revise: /);
    expect(r.uk.text).toMatch(
      /^Ania: час повторити\nSprawdzian: Matematyka, пт 20\.11 08:55 – Ułamki\nПовторити: [\s\S]*\nКонтрольна: Historia, пт 20\.11$/,
    );
    // Without the next test: no topics; a day ahead: tomorrow's quiz.
    const quiz = await run('revision.yaml', { upcoming_tests: 'sensor.ania_upcoming_tests', days_before: 1 }, EVENING, states);
    expect(quiz.pl.text).toBe('Czas na powtórkę\nKartkówka: Przyroda, czw. 19.11 09:50');
    expect(passedIn(await run('revision.yaml', { ...inputs, days_before: 4 }, EVENING, states))).toEqual([]);
  });

  it('names a topic taught over several lessons once (revision)', async () => {
    const topic = (date: string, name: string) => ({ date, no: 3, subject: 'Język angielski', topic: name });
    const states = statesOf(
      sensor('sensor.ania_upcoming_tests', '1', {
        items: [
          {
            kind: 'test',
            date: '2026-11-20',
            until: null,
            time: null,
            subject: 'Język angielski',
            category: 'Sprawdzian',
            content: null,
            teacher: null,
          },
        ],
      }),
      sensor('sensor.ania_next_test', '2026-11-19T23:00:00+00:00', {
        subject: 'Język angielski',
        kind: 'test',
        description: null,
        // Newest first, as next_test lists them.
        topics: [
          topic('2026-11-18', 'Reading comprehension'),
          topic('2026-11-17', 'Past simple'),
          topic('2026-11-16', 'Reading comprehension'),
          topic('2026-11-13', 'Reading comprehension'),
          topic('2026-11-12', 'Vocabulary: food'),
        ],
      }),
    );
    const r = await run(
      'revision.yaml',
      { upcoming_tests: 'sensor.ania_upcoming_tests', next_test: 'sensor.ania_next_test', days_before: 2 },
      EVENING,
      states,
    );
    expect(r.en.text).toBe('Time to revise\nSprawdzian: Język angielski, Fri 20.11\nTo revise: Vocabulary: food; Past simple; Reading comprehension');
  });

  it("tells when to leave before the day's first lesson and when to pick up by its end (leave_pickup)", async () => {
    const day = (start: string, end: string) =>
      statesOf(sensor('sensor.ania_lessons_start_today', start, {}), sensor('sensor.ania_lessons_end_today', end, {}));
    // 08:00 to 13:35 in Warsaw, as Home Assistant keeps the timestamps (UTC).
    const states = day('2026-11-18T07:00:00+00:00', '2026-11-18T12:35:00+00:00');
    const inputs = { lessons_start_today: 'sensor.ania_lessons_start_today', lessons_end_today: 'sensor.ania_lessons_end_today', child_name: 'Ania' };
    const at = (hhmm: string, before: string) => ({ before: `2026-11-18T${before}:00+01:00`, at: `2026-11-18T${hhmm}:00+01:00` });
    // 30 minutes before the first lesson, by default.
    const leave = await run('leave_pickup.yaml', inputs, at('07:30', '07:29'), states);
    expect(leave.pl.text).toBe('Ania: czas wyjść do szkoły\nLekcje od 08:00.');
    expect(leave.en.text).toBe('Ania: time to leave for school\nLessons from 08:00.');
    expect(leave.uk.text).toBe('Ania: час виходити до школи\nУроки з 08:00.');
    // 15 minutes before the end, by default; a minute later nothing turns true again.
    const pickUp = await run('leave_pickup.yaml', inputs, at('13:20', '13:19'), states);
    expect(pickUp.pl.text).toBe('Czas odebrać: Ania\nLekcje do 13:35.');
    expect(pickUp.en.text).toBe('Time to pick up Ania\nLessons until 13:35.');
    expect(passedIn(await run('leave_pickup.yaml', inputs, at('13:21', '13:20'), states))).toEqual([]);
    expect(passedIn(await run('leave_pickup.yaml', inputs, at('07:29', '07:28'), states))).toEqual([]);
    // The pick-up only, chosen; after the end, with positive minutes.
    expect(passedIn(await run('leave_pickup.yaml', { ...inputs, tell: ['pick_up'] }, at('07:30', '07:29'), states))).toEqual([]);
    expect(passedIn(await run('leave_pickup.yaml', { ...inputs, pick_up_after: 10 }, at('13:45', '13:44'), states))).toEqual(LANGUAGES);
    // A day without lessons (the sensors unknown) tells nothing.
    expect(passedIn(await run('leave_pickup.yaml', inputs, at('07:30', '07:29'), day('unknown', 'unknown')))).toEqual([]);
    // A first lesson moved to a later hour after the moment passed tells no second time.
    const moved = day('2026-11-18T08:50:00+00:00', '2026-11-18T12:35:00+00:00');
    expect(passedIn(await run('leave_pickup.yaml', inputs, at('09:20', '09:19'), moved))).toEqual(LANGUAGES);
  });

  it('tells a new announcement, or only those with chosen words (new_notice)', async () => {
    const notice = (subject: string, content: string) =>
      fired('event.ania_notice', { event_type: 'notice', id: 'N1', subject, date: '2026-11-18', content });
    const trip = notice('Wycieczka do Krakowa', 'Zbiórka o 7:00 przed szkołą.');
    const r = await run('new_notice.yaml', { notice_event: 'event.ania_notice' }, trip);
    expect(r.pl.text).toBe('📌 Ogłoszenie: Wycieczka do Krakowa\nZbiórka o 7:00 przed szkołą.');
    expect(r.en.text).toMatch(/^📌 Announcement: Wycieczka/);
    expect(r.uk.text).toMatch(/^📌 Оголошення: Wycieczka/);
    const wanted = (words: string[]) => run('new_notice.yaml', { notice_event: 'event.ania_notice', words_wanted: words }, trip);
    expect(passedIn(await wanted(['zebranie']))).toEqual([]);
    expect(passedIn(await wanted(['Zebranie', 'KRAKOW']))).toEqual(LANGUAGES);
    // A flood: the ones with the words among its first entries.
    const flood = fired('event.ania_notice', {
      event_type: 'notice',
      count: 22,
      entries: [
        { subject: 'Zebranie z rodzicami', content: 'W czwartek.' },
        { subject: 'Dyżury', content: 'Lista.' },
      ],
    });
    expect((await run('new_notice.yaml', { notice_event: 'event.ania_notice', words_wanted: ['zebranie'] }, flood)).pl.text).toBe(
      '📌 Nowe ogłoszenia: 22\nZebranie z rodzicami',
    );
  });

  it('tells a new file the school shares (school_file)', async () => {
    const file = fired('event.ania_school_file', { event_type: 'school_file', id: '42', name: 'Regulamin wycieczek.pdf', date: '2026-11-17' });
    const r = await run('school_file.yaml', { school_file_event: 'event.ania_school_file' }, file);
    expect(r.pl.text).toBe('📄 Nowy plik szkoły\nRegulamin wycieczek.pdf (dodany 17.11)');
    expect(r.en.text).toBe('📄 A new school file\nRegulamin wycieczek.pdf (added 17.11)');
    expect(r.uk.text).toBe('📄 Новий шкільний файл\nRegulamin wycieczek.pdf (додано 17.11)');
  });

  it("tells a subject's average dropping, by at least a chosen amount, optionally below a value (average_drop)", async () => {
    const average = (state: string, semester = 1) =>
      sensor('sensor.ania_average_matematyka', state, {
        subject: 'Matematyka',
        semester,
        count: 6,
        grades: [{ grade: '2', weight: 3, category: 'Sprawdzian', date: '2026-11-18', teacher: null, comment: null, kind: 'standard' }],
      });
    const inputs = { averages: ['sensor.ania_average_matematyka'] };
    const drop = { from: average('4.2'), to: average('3.95') };
    const r = await run('average_drop.yaml', inputs, drop);
    expect(r.pl.text).toBe('Średnia spada: Matematyka\n4,20 → 3,95 po ocenie 2 (Sprawdzian, waga 3)');
    expect(r.en.text).toBe('Average drops: Matematyka\n4.20 → 3.95 after 2 (Sprawdzian, weight 3)');
    expect(r.uk.text).toBe('Середній бал знижується: Matematyka\n4,20 → 3,95 після оцінки 2 (Sprawdzian, вага 3)');
    // A rise, a drop smaller than chosen, a new semester and a first value are no drop.
    expect(passedIn(await run('average_drop.yaml', inputs, { from: drop.to, to: drop.from }))).toEqual([]);
    expect(passedIn(await run('average_drop.yaml', { ...inputs, drop_by: 0.3 }, drop))).toEqual([]);
    expect(passedIn(await run('average_drop.yaml', inputs, { from: average('4.5', 1), to: average('3', 2) }))).toEqual([]);
    expect(passedIn(await run('average_drop.yaml', inputs, { from: sensor('sensor.ania_average_matematyka', 'unknown'), to: drop.to }))).toEqual([]);
    // Below a value only: 3.95 is not below 3.5, 3.45 is.
    expect(passedIn(await run('average_drop.yaml', { ...inputs, below: 3.5 }, drop))).toEqual([]);
    expect(passedIn(await run('average_drop.yaml', { ...inputs, below: 3.5 }, { from: average('3.6'), to: average('3.45') }))).toEqual(LANGUAGES);
    // A weight of one and a half in the family's numbers.
    const half = (state: string) => ({
      ...average(state),
      attributes: { ...average(state).attributes, grades: [{ grade: '1', weight: 1.5, category: 'Kartkówka' }] },
    });
    const light = await run('average_drop.yaml', inputs, { from: half('4.2'), to: half('3.95') });
    expect(light.pl.text).toBe('Średnia spada: Matematyka\n4,20 → 3,95 po ocenie 1 (Kartkówka, waga 1,5)');
    expect(light.uk.text).toMatch(/вага 1,5\)$/);
    expect(light.en.text).toMatch(/weight 1\.5\)$/);
  });

  it('tells the decision on an excuse, the days and lessons it covers, or the rejected ones only (justification)', async () => {
    const decided = (payload: Record<string, unknown>) =>
      fired('event.ania_justification', {
        event_type: 'justification',
        id: '5520',
        status: 'accepted',
        status_name: 'przyjęte',
        from: '2026-11-16',
        to: '2026-11-17',
        absences: [
          { date: '2026-11-16', lesson_no: 1, subject: 'Matematyka' },
          { date: '2026-11-17', lesson_no: 3, subject: 'Historia' },
        ],
        justified: 2,
        posted: '2026-11-17T20:14:55+01:00',
        ...payload,
      });
    const inputs = { justification_event: 'event.ania_justification' };
    const accepted = await run('justification.yaml', inputs, decided({}));
    expect(accepted.pl.text).toBe('✅ Usprawiedliwienie przyjęte\n16.11–17.11: 16.11 lekcja 1 (Matematyka), 17.11 lekcja 3 (Historia)');
    expect(accepted.en.text).toBe('✅ Justification accepted\n16.11–17.11: 16.11 lesson 1 (Matematyka), 17.11 lesson 3 (Historia)');
    expect(accepted.uk.text).toMatch(/^✅ Пояснення прийнято\n/);
    const rejected = decided({ status: 'rejected', status_name: 'odrzucone', to: '2026-11-16', absences: [], justified: 4 });
    expect((await run('justification.yaml', inputs, rejected)).pl.text).toBe('❌ Usprawiedliwienie odrzucone\n16.11 (4 nieobecności)');
    expect(passedIn(await run('justification.yaml', { ...inputs, statuses: ['rejected'] }, decided({})))).toEqual([]);
    expect(passedIn(await run('justification.yaml', { ...inputs, statuses: ['rejected'] }, rejected))).toEqual(LANGUAGES);
  });

  it("tells a subject's forecast rising or dropping, or one way only (forecast_changed)", async () => {
    const changed = (payload: Record<string, unknown>) =>
      fired('event.ania_forecast_changed', {
        event_type: 'forecast_changed',
        subject: 'Matematyka',
        previous: '4',
        forecast: '3',
        average: 3.62,
        ...payload,
      });
    const inputs = { forecast_event: 'event.ania_forecast_changed' };
    const down = await run('forecast_changed.yaml', inputs, changed({}));
    expect(down.pl.text).toBe('Prognoza spada: Matematyka 4 → 3\nŚrednia 3,62');
    expect(down.en.text).toBe('Forecast drops: Matematyka 4 → 3\nAverage 3.62');
    expect(down.uk.text).toBe('Прогноз знижується: Matematyka 4 → 3\nСередній бал 3,62');
    expect((await run('forecast_changed.yaml', inputs, changed({ previous: '4', forecast: '5', average: 4.51 }))).en.text).toBe(
      'Forecast rises: Matematyka 4 → 5\nAverage 4.51',
    );
    expect(passedIn(await run('forecast_changed.yaml', { ...inputs, directions: ['up'] }, changed({})))).toEqual([]);
    // A first forecast (nothing before) is no change.
    expect(passedIn(await run('forecast_changed.yaml', inputs, changed({ previous: null })))).toEqual([]);
  });
});
