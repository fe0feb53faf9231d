// What to catch up after an absence (catch_up, interface 16.4): at its time on a day the child missed
// lessons, the lessons' numbers, subjects and topics from `sensor.<c>_catch_up`'s `lessons`, in each language;
// nothing on a day without an absence. The sensor's state is made as the bridge makes it (renderCatchUp), so
// the blueprint reads the attributes the bridge publishes: each lesson's number is its `no` (interface 17.2).
import { describe, expect, it } from 'vitest';
import { renderCatchUp } from '../../../src/features/lessons-held/lessons-held.js';
import { skipWithoutJinja } from '../../helpers/blueprints.js';
import { LANGUAGES, passedIn, run, sensor, statesOf } from '../../helpers/blueprint-run.js';

const inputs = { catch_up: 'sensor.ania_catch_up', child_name: 'Ania' };
// Newest first, a day's lessons last first, as the bridge lists them.
const published = renderCatchUp([
  { date: '2026-11-19', no: 3, subject: 'Historia', topic: null },
  { date: '2026-11-19', no: 2, subject: 'Matematyka', topic: 'Ułamki zwykłe' },
  { date: '2026-11-10', no: 1, subject: 'Fizyka', topic: 'Ruch jednostajny' },
]);
const states = statesOf(sensor('sensor.ania_catch_up', String(published.state), published.attributes));

describe.skipIf(skipWithoutJinja())('what to catch up after an absence (catch_up)', () => {
  it("lists the day's missed lessons with their numbers and topics, in lesson order, in each language", async () => {
    const day = await run('catch_up.yaml', inputs, '2026-11-19T17:00:00+01:00', states);
    expect(passedIn(day)).toEqual(LANGUAGES);
    expect(day.pl.text).toBe('Ania, do nadrobienia z dzisiaj\n2. lekcja, Matematyka: Ułamki zwykłe\n3. lekcja, Historia: temat nie wpisany');
    expect(day.en.text).toBe('Ania, to catch up from today\n2. lesson, Matematyka: Ułamki zwykłe\n3. lesson, Historia: no topic written');
    expect(day.uk.text).toBe('Ania, надолужити з сьогодні\n2. урок, Matematyka: Ułamki zwykłe\n3. урок, Historia: тему не записано');
  });

  it('names a lesson whose number the absence does not give by its subject alone, after the numbered ones', async () => {
    const unnumbered = renderCatchUp([
      { date: '2026-11-19', no: null, subject: 'Religia', topic: null },
      { date: '2026-11-19', no: 4, subject: 'Fizyka', topic: 'Siły' },
    ]);
    const day = await run('catch_up.yaml', inputs, '2026-11-19T17:00:00+01:00', statesOf(sensor('sensor.ania_catch_up', '2', unnumbered.attributes)));
    expect(day.pl.text).toBe('Ania, do nadrobienia z dzisiaj\n4. lekcja, Fizyka: Siły\nReligia: temat nie wpisany');
  });

  it('stays quiet on a day without an absence, an older one left out', async () => {
    expect(passedIn(await run('catch_up.yaml', inputs, '2026-11-20T17:00:00+01:00', states))).toEqual([]);
    expect(passedIn(await run('catch_up.yaml', inputs, '2026-11-20T17:00:00+01:00', statesOf(sensor('sensor.ania_catch_up', 'unknown'))))).toEqual(
      [],
    );
  });
});
