// A new school year with the real bridge: the simulator answers the new year's dates in `Classes` from
// 1 September, so a bridge running from 31 August tells Ania's new year once, as one school_year event
// with her class, its tutor, the dates and what the rollover moved (its first start told nothing: a new
// install is not a new year). The new school year blueprint's trigger,
// conditions and texts run on the event as Home Assistant would run them.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import {
  bind,
  eventEntityState,
  loadBlueprint,
  renderActionTemplates,
  runTriggerSide,
  skipWithoutJinja,
  type HaState,
} from '../helpers/blueprints.js';
import { firedEvents, simulatedSchool } from '../helpers/school.js';
import { warsawDate } from '../../src/util/time.js';
import { schoolYearOf } from '../../src/simulator/dates.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const HOUR = 60;
const school = simulatedSchool('2026-08-31T18:00:00+02:00');
const BLUEPRINT = fileURLToPath(new URL('../../blueprints/automation/dziennik2mqtt/school_year.yaml', import.meta.url));

/** The class Ania is in as the simulator's Classes answers it, and its tutor's name from Users. */
function aniasClass(): { name: string; tutor: string } {
  const account = school.sim.account(ANIA.login);
  const klass = account.school.classes.find((c) => c.Id === account.data.account.classId)!;
  const tutor = account.school.users.find((u) => u.Id === klass.ClassTutor)!;
  return { name: `${klass.Number}${klass.Symbol}`, tutor: `${tutor.FirstName} ${tutor.LastName}` };
}

describe.skipIf(skipWithoutJinja())('a new school year', () => {
  it('is one school_year event, which the blueprint tells as one notification', async () => {
    // Every tier every 20 minutes: the new year is told from the identity's daily read, whatever the
    // passes between (two simulated days at the default tiers: 21 s -> 11 s of CPU for the file alone).
    const h = await school.firstPasses(['last_update'], { poll: { fast_interval: '20m', school_interval: '20m' } });
    // Into 1 September, past the next day's read of the child's identity.
    await h.advanceMinutes(25 * HOUR);
    expect(warsawDate(school.clock.now())).toBe('2026-09-01');
    const events = firedEvents(h, 'school_year');
    const { name, tutor } = aniasClass();
    const year = schoolYearOf('2026-09-01');
    expect(events).toEqual([
      {
        event_type: 'school_year',
        child: 'ania',
        child_name: 'Ania',
        class: name,
        tutor,
        begins: year.start,
        first_semester_ends: year.semester1End,
        ends: year.end,
        summary: { left: expect.any(Object), arrived: expect.any(Object) },
      },
    ]);
    // Last year's lists held grades; what they held is counted, not told one by one.
    const summary = events[0]!.summary as { left: Record<string, number> };
    expect(summary.left.grades).toBeGreaterThan(0);
    expect(firedEvents(h, 'grade').filter((e) => e.event_type === 'grade_removed')).toEqual([]);
    // Another day of the new year tells it no more.
    await h.advanceMinutes(24 * HOUR);
    expect(firedEvents(h, 'school_year')).toHaveLength(1);

    const automation = bind(loadBlueprint(BLUEPRINT), {
      school_year_event: 'event.ania_school_year',
      notify_device: '0123456789abcdef0123456789abcdef',
    });
    const before: HaState = { entity_id: 'event.ania_school_year', state: 'unknown', attributes: {} };
    const after = eventEntityState('event.ania_school_year', events[0]!, '2026-09-01T08:00:00.000Z');
    const run = await runTriggerSide(automation, { from: before, to: after });
    expect(run).toMatchObject({ errors: [], passed: true });
    const texts = (await renderActionTemplates(automation, run.variables ?? {})).map((t) =>
      'value' in t.result ? String(t.result.value) : t.result.error,
    );
    // The child's name first, as the event gives it.
    expect(texts[0]).toBe(`Ania: 🎒 nowy rok szkolny: ${name}`);
    expect(texts.join('\n')).toContain(`Wychowawca: ${tutor}. Rok: 01.09.2026 – 25.06.2027, I semestr do 29.01.2027.`);
    expect(texts.join('\n')).toContain(`Z dziennika zniknęły zeszłoroczne wpisy: oceny ${summary.left.grades}, nieobecności`);
    // In English, for a family that chose it.
    const english = bind(loadBlueprint(BLUEPRINT), {
      school_year_event: 'event.ania_school_year',
      notify_device: '0123456789abcdef0123456789abcdef',
      language: 'en',
    });
    const englishRun = await runTriggerSide(english, { from: before, to: after });
    const englishTexts = (await renderActionTemplates(english, englishRun.variables ?? {})).map((t) =>
      'value' in t.result ? String(t.result.value) : t.result.error,
    );
    expect(englishTexts.join('\n')).toContain(`a new school year: ${name}`);
    expect(englishTexts.join('\n')).toContain(`Class tutor: ${tutor}. The year: 01.09.2026 – 25.06.2027, the first semester ends 29.01.2027.`);
  }, 240_000);
});
