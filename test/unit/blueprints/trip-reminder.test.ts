// A trip tomorrow (trip_reminder, interface 16.4): the evening before a school trip, from
// `sensor.<c>_upcoming_tests`' `other` (an agenda entry of kind `trip`, with `until` for one of several days;
// docs/entities.md), where to, when and until when, in each language; nothing without a trip the next day.
import { describe, expect, it } from 'vitest';
import { skipWithoutJinja } from '../../helpers/blueprints.js';
import { LANGUAGES, passedIn, run, sensor, statesOf } from '../../helpers/blueprint-run.js';

const inputs = { upcoming_tests: 'sensor.ania_upcoming_tests', child_name: 'Ania' };
const item = (extra: Record<string, unknown>) => ({ time: null, subject: null, category: null, content: null, teacher: null, until: null, ...extra });
const states = statesOf(
  sensor('sensor.ania_upcoming_tests', '3', {
    items: [item({ date: '2026-11-20', kind: 'test', subject: 'Matematyka', category: 'Sprawdzian' })],
    other: [
      item({ date: '2026-11-20', kind: 'trip', category: 'Wycieczka', content: 'Zielona szkoła w Zakopanem', time: '07:30', until: '2026-11-22' }),
      item({ date: '2026-11-27', kind: 'trip', category: 'Wycieczka', content: 'Muzeum Narodowe', time: '00:00' }),
      item({ date: '2026-11-20', kind: 'meeting', category: 'Zebranie', content: 'Wywiadówka' }),
    ],
  }),
);

describe.skipIf(skipWithoutJinja())('a trip tomorrow (trip_reminder)', () => {
  it('says where to, at what time and until when, the evening before, in each language', async () => {
    const evening = await run('trip_reminder.yaml', inputs, '2026-11-19T19:00:00+01:00', states);
    expect(passedIn(evening)).toEqual(LANGUAGES);
    expect(evening.pl.text).toBe('🚌 Ania, jutro wycieczka\nZielona szkoła w Zakopanem o 07:30, do 22.11');
    expect(evening.en.text).toBe('🚌 Ania, a trip tomorrow\nZielona szkoła w Zakopanem at 07:30, until 22.11');
    expect(evening.uk.text).toBe('🚌 Ania, завтра екскурсія\nZielona szkoła w Zakopanem о 07:30, до 22.11');
  });

  it('stays quiet without a trip the next day: a test or a meeting that day does not count, nor a trip a week away', async () => {
    const tests = statesOf(
      sensor('sensor.ania_upcoming_tests', '1', { items: [item({ date: '2026-11-20', kind: 'test', subject: 'Matematyka' })], other: [] }),
    );
    expect(passedIn(await run('trip_reminder.yaml', inputs, '2026-11-19T19:00:00+01:00', tests))).toEqual([]);
    expect(passedIn(await run('trip_reminder.yaml', inputs, '2026-11-21T19:00:00+01:00', states))).toEqual([]);
    const day = await run('trip_reminder.yaml', inputs, '2026-11-26T19:00:00+01:00', states);
    expect(day.en.text).toBe('🚌 Ania, a trip tomorrow\nMuzeum Narodowe');
  });
});
