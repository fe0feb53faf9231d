// The achievement blueprint, run as Home Assistant runs it (test/helpers/blueprint-run.ts): each kind of the
// `achievement` event (16.3's and 17.2's) told in the family's language with its count, subject or semester and
// its day, the child's name first, and no other event type acted on.
import { describe, expect, it } from 'vitest';
import { skipWithoutJinja } from '../../helpers/blueprints.js';
import { fired, LANGUAGES, passedIn, run } from '../../helpers/blueprint-run.js';

const INPUTS = { achievement_event: 'event.ania_achievement' };
const achievement = (kind: string, count: number) => fired('event.ania_achievement', { event_type: 'achievement', kind, count, date: '2026-11-18' });

describe.skipIf(skipWithoutJinja())('the achievement blueprint', () => {
  it('tells each kind with its count and day, in each language', async () => {
    const six = await run('achievement.yaml', INPUTS, achievement('first_six', 1));
    expect(passedIn(six)).toEqual(LANGUAGES);
    expect(six.pl.text).toBe('🏆 Osiągnięcie\nPierwsza szóstka w tym roku szkolnym (dnia 18.11)');
    expect(six.en.text).toBe('🏆 Achievement\nThe first 6 this school year (on 18.11)');
    const ten = await run('achievement.yaml', INPUTS, achievement('good_grades', 10));
    expect(ten.pl.text).toBe('🏆 Osiągnięcie\n10 dobrych ocen z rzędu (dnia 18.11)');
    expect(ten.uk.text).toBe('🏆 Досягнення\n10 хороших оцінок поспіль (дата 18.11)');
    expect((await run('achievement.yaml', INPUTS, achievement('no_absence', 30))).en.text).toBe(
      '🏆 Achievement\n30 school days without an absence (on 18.11)',
    );
    expect((await run('achievement.yaml', INPUTS, achievement('no_negative_note', 90))).pl.text).toBe(
      '🏆 Osiągnięcie\n90 dni szkolnych bez negatywnej uwagi (dnia 18.11)',
    );
  });

  it('tells every kind of 17.2 with its count, subject or semester, the child’s name first, in each language', async () => {
    const of = (kind: string, count: number, subject?: string) =>
      fired('event.zofia_achievement', {
        event_type: 'achievement',
        child: 'zofia',
        child_name: 'Zofia',
        kind,
        count,
        date: '2027-03-05',
        ...(subject === undefined ? {} : { subject }),
      });
    const told = {
      sixes: [of('sixes', 25), '25 szóstek w tym roku szkolnym', '25 sixes this school year', '25 шісток цього навчального року'],
      subject_star: [
        of('subject_star', 1, 'Fizyka'),
        'Gwiazda przedmiotu: Fizyka, średnia 5,0 lub więcej',
        'Subject star: Fizyka, an average of 5.0 or more',
        'Зірка предмета: Fizyka, середній бал 5,0 або більше',
      ],
      honours: [of('honours', 1), 'Prognoza: świadectwo z paskiem', 'Honours on the forecast report card', 'Прогноз: свідоцтво з відзнакою'],
      comeback: [
        of('comeback', 2, 'Matematyka'),
        'Poprawa: Matematyka, jedynka lub dwójka poprawiona na 4 lub więcej',
        'Comeback in Matematyka: a 1 or 2 corrected to 4 or more',
        'Виправлено: Matematyka, одиницю чи двійку на 4 або більше',
      ],
      semester_without_one: [of('semester_without_one', 1), 'Semestr 1 bez jedynki', 'Semester 1 without a 1', 'Семестр 1 без одиниці'],
      full_month: [of('full_month', 2), 'Cały miesiąc bez nieobecności', 'A whole month without an absence', 'Цілий місяць без пропусків'],
      punctual: [of('punctual', 30), '30 dni szkolnych bez spóźnienia', '30 school days without being late', '30 навчальних днів без запізнень'],
      praise: [of('praise', 3), '3. pochwała w tym roku szkolnym', 'Praise number 3 this school year', 'Похвала № 3 цього навчального року'],
      exemplary_behaviour: [of('exemplary_behaviour', 1), 'Wzorowe zachowanie', 'Exemplary behaviour', 'Зразкова поведінка'],
      lucky: [
        of('lucky', 1),
        'Szczęśliwy numerek trafił na Ciebie (1. raz w tym roku szkolnym)',
        'The lucky number was yours (time 1 this school year)',
        'Щасливий номер був твій (1-й раз цього навчального року)',
      ],
    } as const;
    for (const [kind, [event, pl, en, uk]] of Object.entries(told)) {
      const sent = await run('achievement.yaml', { achievement_event: ['event.ania_achievement', 'event.zofia_achievement'] }, event);
      expect(passedIn(sent), kind).toEqual(LANGUAGES);
      expect(sent.pl.text).toBe(`Zofia: 🏆 Osiągnięcie\n${pl} (dnia 05.03)`);
      expect(sent.en.text).toBe(`Zofia: 🏆 Achievement\n${en} (on 05.03)`);
      expect(sent.uk.text).toBe(`Zofia: 🏆 Досягнення\n${uk} (дата 05.03)`);
    }
  });

  it('acts on no other event type', async () => {
    const other = fired('event.ania_achievement', { event_type: 'grade', grade: '6' });
    expect(passedIn(await run('achievement.yaml', INPUTS, other))).toEqual([]);
  });
});
