// A kindergarten child's briefing in the family's language (issue 59 item 2): the day's hours and its
// activities in order, "w przedszkolu" instead of lessons; a school child's briefing is said as before.
import { describe, expect, it } from 'vitest';
import { BRIEFING_TEXT } from '../../../src/i18n/briefing-text.js';
import type { Briefing } from '../../../src/i18n/briefing-text.js';

const block = (subject: string) => ({ subject, change: null, note: null, takesPlace: true });
const TOMORROW: Briefing = {
  day: '2026-11-19',
  when: 'tomorrow',
  weekday: 4,
  start: '08:00',
  end: '12:30',
  lessons: [block('rytmika'), block('spacer')],
  tests: [],
  homework: [],
  luckyMine: false,
  proposals: [],
  freeBefore: [],
};

describe('the briefing of a kindergarten child', () => {
  it('says the hours and the activities in Polish, English and Ukrainian', () => {
    expect(BRIEFING_TEXT.pl(TOMORROW, 'kindergarten')).toEqual({
      state: 'Jutro 8:00–12:30 w przedszkolu: rytmika, spacer.',
      text: 'Jutro w przedszkolu od 8:00 do 12:30: rytmika, spacer.',
    });
    expect(BRIEFING_TEXT.en(TOMORROW, 'kindergarten')).toEqual({
      state: 'Tomorrow 8:00–12:30 at kindergarten: rytmika, spacer.',
      text: 'Tomorrow at kindergarten from 8:00 to 12:30: rytmika, spacer.',
    });
    expect(BRIEFING_TEXT.uk(TOMORROW, 'kindergarten')).toEqual({
      state: 'Завтра 8:00–12:30 у садочку: rytmika, spacer.',
      text: 'Завтра у садочку з 8:00 до 12:30: rytmika, spacer.',
    });
  });

  it('names a free day before it, and says when no day is ahead', () => {
    const afterFree: Briefing = { ...TOMORROW, when: 'later', weekday: 1, freeBefore: [{ date: '2026-11-20', name: 'Dzień wolny' }] };
    expect(BRIEFING_TEXT.pl(afterFree, 'kindergarten').state).toBe(
      'W poniedziałek 8:00–12:30 w przedszkolu: rytmika, spacer. Piątek wolny: Dzień wolny.',
    );
    expect(BRIEFING_TEXT.pl(null, 'kindergarten').state).toBe('Brak zajęć w przedszkolu w najbliższych dniach.');
  });

  it('leaves a school child’s briefing as it was', () => {
    expect(BRIEFING_TEXT.pl(TOMORROW).state).toBe('Jutro 8:00–12:30, 2 lekcje.');
    expect(BRIEFING_TEXT.pl(TOMORROW, 'school')).toEqual(BRIEFING_TEXT.pl(TOMORROW));
  });
});
