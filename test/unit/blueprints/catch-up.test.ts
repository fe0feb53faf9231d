// What to catch up after an absence (catch_up, interface 16.4): at its time on a day the child missed
// lessons, the subjects and topics of those lessons from `sensor.<c>_catch_up`'s `lessons` (docs/entities.md),
// in each language; nothing on a day without an absence.
import { describe, expect, it } from 'vitest';
import { skipWithoutJinja } from '../../helpers/blueprints.js';
import { LANGUAGES, passedIn, run, sensor, statesOf } from '../../helpers/blueprint-run.js';

const inputs = { catch_up: 'sensor.ania_catch_up', child_name: 'Ania' };
const states = statesOf(
  sensor('sensor.ania_catch_up', '3', {
    lessons: [
      { date: '2026-11-19', number: 3, subject: 'Historia', topic: null },
      { date: '2026-11-19', number: 2, subject: 'Matematyka', topic: 'Ułamki zwykłe' },
      { date: '2026-11-10', number: 1, subject: 'Fizyka', topic: 'Ruch jednostajny' },
    ],
  }),
);

describe.skipIf(skipWithoutJinja())('what to catch up after an absence (catch_up)', () => {
  it("lists the day's missed lessons with their topics, in lesson order, in each language", async () => {
    const day = await run('catch_up.yaml', inputs, '2026-11-19T17:00:00+01:00', states);
    expect(passedIn(day)).toEqual(LANGUAGES);
    expect(day.pl.text).toBe('Ania, do nadrobienia z dzisiaj\n2. lekcja, Matematyka: Ułamki zwykłe\n3. lekcja, Historia: temat nie wpisany');
    expect(day.en.text).toBe('Ania, to catch up from today\n2. lesson, Matematyka: Ułamki zwykłe\n3. lesson, Historia: no topic written');
    expect(day.uk.text).toBe('Ania, надолужити з сьогодні\n2. урок, Matematyka: Ułamki zwykłe\n3. урок, Historia: тему не записано');
  });

  it('stays quiet on a day without an absence, an older one left out', async () => {
    expect(passedIn(await run('catch_up.yaml', inputs, '2026-11-20T17:00:00+01:00', states))).toEqual([]);
    expect(passedIn(await run('catch_up.yaml', inputs, '2026-11-20T17:00:00+01:00', statesOf(sensor('sensor.ania_catch_up', 'unknown'))))).toEqual(
      [],
    );
  });
});
