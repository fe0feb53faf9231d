// The achievement blueprint, run as Home Assistant runs it (test/helpers/blueprint-run.ts): each kind of the
// `achievement` event told in the family's language with its count and day, and no other event type acted on.
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

  it('acts on no other event type', async () => {
    const other = fired('event.ania_achievement', { event_type: 'grade', grade: '6' });
    expect(passedIn(await run('achievement.yaml', INPUTS, other))).toEqual([]);
  });
});
