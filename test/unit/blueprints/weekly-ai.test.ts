// The week written by the family's own AI (weekly_ai_summary, interface 16.4): at its time on its weekday
// the blueprint asks `ai_task.generate_data` of the AI Task entity the family picked, with the week's facts
// from the bridge's sensors in the family's language (grades with their comments, lessons missed, this
// week's note, next week's tests) and nothing made up; the AI's answer is the notification. Run as Home
// Assistant runs it: the trigger, variables and conditions, then every action's template rendered strictly
// by Jinja2; the AI's answer (the `summary` response) is what the test gives.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bind, loadBlueprint, renderActionTemplates, runAt, skipWithoutJinja } from '../../helpers/blueprints.js';
import { LANGUAGES, sensor, statesOf } from '../../helpers/blueprint-run.js';

const FILE = fileURLToPath(new URL('../../../blueprints/automation/dziennik2mqtt/weekly_ai_summary.yaml', import.meta.url));
const INPUTS = {
  ai_task: 'ai_task.openai',
  newest_grade: 'sensor.ania_newest_grade',
  catch_up: 'sensor.ania_catch_up',
  newest_note: 'sensor.ania_newest_note',
  upcoming_tests: 'sensor.ania_upcoming_tests',
  child_name: 'Ania',
  notify_device: '0123456789abcdef0123456789abcdef',
};

const WEEK = statesOf(
  sensor('sensor.ania_newest_grade', '5', {
    recent: [
      { grade: '5', subject: 'Matematyka', comment: 'Świetna praca klasowa', date: '2026-11-18' },
      { grade: '3+', subject: 'Historia', comment: null, date: '2026-11-16' },
      { grade: '4', subject: 'Fizyka', comment: null, date: '2026-11-13' },
    ],
  }),
  sensor('sensor.ania_catch_up', '1', {
    lessons: [
      { date: '2026-11-19', no: 2, subject: 'Matematyka', topic: 'Ułamki' },
      { date: '2026-11-10', no: 1, subject: 'Fizyka', topic: null },
    ],
  }),
  sensor('sensor.ania_newest_note', 'Pomoc w organizacji apelu', { kind: 'positive', category: 'Pochwała', date: '2026-11-17' }),
  sensor('sensor.ania_upcoming_tests', '2', {
    items: [
      { date: '2026-11-24', subject: 'Matematyka', category: 'Sprawdzian' },
      { date: '2026-12-01', subject: 'Przyroda', category: 'Kartkówka' },
    ],
  }),
);

/** In each language: whether it acts, what the AI is asked (its call's data), and the notification given the AI's answer. */
async function week(at: string, states = WEEK) {
  const out: Record<string, { passed: boolean; call?: Record<string, unknown>; title?: string; message?: string }> = {};
  for (const language of LANGUAGES) {
    const automation = bind(loadBlueprint(FILE), { ...INPUTS, language });
    const result = await runAt(automation, at, states);
    expect(result.errors, language).toEqual([]);
    if (!result.passed) {
      out[language] = { passed: false };
      continue;
    }
    const variables = { ...result.variables, summary: { conversation_id: 'c1', data: `AI (${language})` } };
    const texts = await renderActionTemplates(automation, variables, states, at);
    const value = (path: string) => {
      const found = texts.find((t) => t.path === path)?.result;
      expect(found, path).toBeDefined();
      expect(found).not.toHaveProperty('error');
      return String((found as { value: unknown }).value);
    };
    const [generate] = automation.actions as Record<string, unknown>[];
    out[language] = {
      passed: true,
      call: { action: generate?.action, response_variable: generate?.response_variable, instructions: value('actions[0].data.instructions') },
      title: value('actions[1].title'),
      message: value('actions[1].message'),
    };
  }
  return out;
}

describe.skipIf(skipWithoutJinja())('the week written by your AI (weekly_ai_summary)', () => {
  it("asks the family's AI Task entity with the week's facts, in the family's language, and sends its answer", async () => {
    const friday = await week('2026-11-20T15:00:00+01:00');
    expect(friday.pl).toEqual({
      passed: true,
      call: {
        action: 'ai_task.generate_data',
        response_variable: 'summary',
        instructions: expect.stringMatching(/^Napisz po polsku krótkie .*niczego nie dopisuj/),
      },
      title: 'Ania, tydzień w szkole',
      message: 'AI (pl)',
    });
    // The facts: this week's grades (Friday's of the week before left out) with the teacher's comment, the
    // lessons missed this week, this week's note, and next week's tests alone.
    expect(friday.pl?.call?.instructions).toMatch(
      new RegExp(
        [
          'Ania:',
          'Oceny w tym tygodniu: 5 \\(Matematyka: Świetna praca klasowa\\), 3\\+ \\(Historia\\)',
          'Opuszczone lekcje: 2026-11-19 Matematyka \\(Ułamki\\)',
          'Uwaga: positive, Pomoc w organizacji apelu \\(Pochwała\\)',
          'Sprawdziany w przyszłym tygodniu: 2026-11-24 Matematyka \\(Sprawdzian\\)$',
        ].join('\\n'),
      ),
    );
    expect(friday.en?.call?.instructions).toMatch(/^Write in English .*\nAnia:\nThis week's grades: 5 \(Matematyka: Świetna praca klasowa\)/s);
    expect(friday.uk?.call?.instructions).toMatch(/^Напиши українською .*\nAnia:\nОцінки цього тижня: 5 /s);
    expect(friday.uk?.message).toBe('AI (uk)');
    expect(friday.en?.call?.instructions).not.toContain('Fizyka');
    expect(friday.en?.call?.instructions).not.toContain('Przyroda');
  });

  it('says "none" for a quiet week, leaves out an older note, and acts only on its weekday', async () => {
    const quiet = statesOf(
      sensor('sensor.ania_newest_grade', 'unknown'),
      sensor('sensor.ania_newest_note', 'Spóźnienie', { kind: 'negative', category: null, date: '2026-10-02' }),
      sensor('sensor.ania_upcoming_tests', '0', { items: [] }),
    );
    const friday = await week('2026-11-20T15:00:00+01:00', quiet);
    expect(friday.en?.call?.instructions).toMatch(/\nAnia:\nThis week's grades: none\nLessons missed: none\nNext week's tests: none$/);
    expect((await week('2026-11-19T15:00:00+01:00')).pl?.passed).toBe(false);
  });
});
