// The voice, the morning briefing and the to-do blueprints against what the real bridge publishes for
// the demo school (in Ukrainian and Polish): their templates rendered strictly with Jinja2, as Home
// Assistant renders them, so a misspelt attribute or entity fails.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import type { Language } from '../../src/config/language.js';
import {
  bind,
  eventEntityState,
  skipWithoutJinja,
  loadBlueprint,
  renderActionTemplates,
  renderTemplates,
  runTriggerSide,
  type HaState,
} from '../helpers/blueprints.js';
import { simulatedSchool } from '../helpers/school.js';
import type { Harness } from '../helpers/app.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday during the second lesson: the briefing is about today.
const NOW = '2026-11-18T09:10:00+01:00';
const FOLDER = fileURLToPath(new URL('../../blueprints/automation/dziennik2mqtt/', import.meta.url));
const blueprint = (file: string) => loadBlueprint(join(FOLDER, file));
const school = simulatedSchool(NOW);

const KEYS = ['briefing', 'lucky_number', 'lucky_today', 'upcoming_tests', 'school_day_today'];
const ENTITY: Record<string, string> = {
  briefing: 'sensor.ania_briefing',
  lucky_number: 'sensor.ania_lucky_number',
  lucky_today: 'binary_sensor.ania_lucky_today',
  upcoming_tests: 'sensor.ania_upcoming_tests',
  school_day_today: 'binary_sensor.ania_school_day_today',
};

/** The bridge's states for the voice blueprints; Ania's register number is 12, the lucky number's day `luckyDay`. */
async function bridge(language: Language, luckyDay = '2026-11-18'): Promise<{ h: Harness; states: Record<string, HaState> }> {
  school.sim.account(ANIA.login).setLuckyNumber(12, luckyDay);
  // A test on the next school day, so that "is there a test tomorrow" has something to say.
  school.sim.account(ANIA.login).addTest({ date: '2026-11-19', content: 'Sprawdzian: ułamki.' });
  const h = await school.start({ language, accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania' }] });
  await h.runUntil(() => KEYS.every((k) => h.state('ania', k) !== undefined) && h.state('ania', 'upcoming_tests') !== '0', 'the first passes');
  const states: Record<string, HaState> = {};
  for (const key of KEYS) {
    const id = ENTITY[key]!;
    // Home Assistant's binary sensors read on/off where the bridge sends ON/OFF.
    const state = id.startsWith('binary_sensor.') ? h.state('ania', key)!.toLowerCase() : h.state('ania', key)!;
    states[id] = { entity_id: id, state, attributes: h.attributes('ania', key) ?? {} };
  }
  return { h, states };
}

describe.skipIf(skipWithoutJinja())('the voice and day blueprints against the real bridge', () => {
  it('answer the three questions and read the briefing aloud, in Ukrainian', async () => {
    const { states } = await bridge('uk');
    const text = String(states['sensor.ania_briefing']!.attributes.text);
    expect(text).toMatch(/^(Сьогодні|Завтра|У )/);

    const ask = bind(blueprint('ask_aloud.yaml'), {
      child_name: 'Ania',
      language: 'uk',
      briefing: ENTITY.briefing,
      lucky_number: ENTITY.lucky_number,
      lucky_today: ENTITY.lucky_today,
      upcoming_tests: ENTITY.upcoming_tests,
    });
    const answers = async (id: string, child?: string): Promise<string[]> => {
      const variables = { ...(ask.variables as Record<string, unknown>), trigger: { platform: 'conversation', id, slots: child ? { child } : {} } };
      const condition = (ask.conditions as { value_template: string }[])[0]!.value_template;
      const [passes] = await renderTemplates([{ template: condition, variables, states, strict: true, as: 'boolean' }]);
      if (!(passes && 'value' in passes && passes.value === true)) return [];
      return (await renderActionTemplates(ask, variables, states, NOW))
        .filter((r) => r.path.endsWith('set_conversation_response'))
        .map((r) => {
          expect(r.result, r.path).not.toHaveProperty('error');
          return 'value' in r.result ? String(r.result.value).trim() : '';
        });
    };
    // The actions hold the three answers (lucky, day, test) in that order; each renders from the states.
    const [lucky, day, test] = await answers('lucky');
    expect(lucky).toBe('Щасливий номер — 12. Цей номер має Ania!');
    expect(day).toBe(text);
    expect(test).toMatch(/^(Так, Ania має контрольну: .+\.|Ні, Ania не має контрольної найближчого навчального дня\.)$/);
    // The name stands as the subject, in the nominative: no case of it the sentence would need ("у Ані", "номер Ані").
    for (const answer of [lucky, test]) expect(answer).not.toMatch(/(у|номер) Ania/);
    // A question naming another child is left to that child's automation.
    expect(await answers('day', 'Janek')).toEqual([]);
    expect(await answers('day', 'Ania')).toHaveLength(3);

    const morning = bind(blueprint('morning_briefing.yaml'), {
      briefing: ENTITY.briefing,
      school_day_today: ENTITY.school_day_today,
      tts_engine: 'tts.piper',
      speaker: 'media_player.kitchen',
    });
    const spoken = await renderActionTemplates(morning, morning.variables as Record<string, unknown>, states);
    expect(spoken.map((r) => ('value' in r.result ? r.result.value : r.result.error))).toEqual([text]);
    expect(states['binary_sensor.ania_school_day_today']!.state).toBe('on');
  }, 60_000);

  it("say which day the lucky number is for when the portal already shows the next school day's, in every language", async () => {
    // Wednesday morning, Thursday's number already shown: the bridge's lucky_today stays OFF, its day says Thursday.
    const { states } = await bridge('en', '2026-11-19');
    expect(states[ENTITY.lucky_number!]).toMatchObject({ state: '12', attributes: { day: '2026-11-19' } });
    expect(states[ENTITY.lucky_today!]!.state).toBe('off');
    const luckyAnswer = async (language: Language): Promise<string> => {
      const ask = bind(blueprint('ask_aloud.yaml'), {
        child_name: 'Ania',
        language,
        briefing: ENTITY.briefing,
        lucky_number: ENTITY.lucky_number,
        lucky_today: ENTITY.lucky_today,
        upcoming_tests: ENTITY.upcoming_tests,
      });
      const variables = { ...(ask.variables as Record<string, unknown>), trigger: { platform: 'conversation', id: 'lucky', slots: {} } };
      const [lucky] = (await renderActionTemplates(ask, variables, states, NOW)).filter((r) => r.path.endsWith('set_conversation_response'));
      expect(lucky!.result).not.toHaveProperty('error');
      return 'value' in lucky!.result ? String(lucky!.result.value).trim() : '';
    };
    expect(await luckyAnswer('en')).toBe("The lucky number for Thursday is 12. It will be Ania's number!");
    expect(await luckyAnswer('pl')).toBe('Szczęśliwy numerek na czwartek to 12. Ten numer ma Ania!');
    expect(await luckyAnswer('uk')).toBe('Щасливий номер на четвер — 12. Цей номер матиме Ania!');
  }, 60_000);

  it("fill the to-do list with the two weeks' homework (every open item at the first run, a removed one marked done or removed), and each new test (Polish)", async () => {
    const { h } = await bridge('pl');
    // A test entered after the bridge's first read is news: the test event.
    school.sim.account(ANIA.login).addTest({ date: '2026-11-20', content: 'Kartkówka: czasowniki.' });
    // A trip and a meeting are no to-do items; homework due in two days, in twelve (inside the two weeks) and in 22 (beyond).
    school.sim.account(ANIA.login).addAgendaEntry({ date: '2026-11-27', time: '08:00', category: 3, content: 'Wycieczka do Muzeum Narodowego.' });
    school.sim.account(ANIA.login).addAgendaEntry({ date: '2026-11-26', time: '17:30', category: 4, content: 'Zebranie z rodzicami klasy 4b.' });
    school.sim.account(ANIA.login).addHomework({ lesson: 8402, due: '2026-11-20', topic: 'Ułamki – zadania', text: 'Zadania 5–9 ze str. 48.' });
    school.sim.account(ANIA.login).addHomework({ lesson: 8401, due: '2026-11-30', topic: 'Wypracowanie', text: 'Opis przyrody, jedna strona.' });
    school.sim.account(ANIA.login).addHomework({ lesson: 8401, due: '2026-12-10', topic: 'Lektura na grudzień', text: 'Przeczytaj całą.' });
    await h.advanceMinutes(30);
    const todo = bind(blueprint('homework_todo.yaml'), {
      homework_upcoming: 'sensor.ania_homework_upcoming',
      test_event: 'event.ania_test',
      todo_list: 'todo.szkola',
      removed: 'complete',
    });
    const run = async (entityId: string, payload: Record<string, unknown>, at: string) => {
      const change = { from: { entity_id: entityId, state: 'unknown', attributes: {} }, to: eventEntityState(entityId, payload, at) };
      const outcome = await runTriggerSide(todo, change);
      expect(outcome.errors).toEqual([]);
      return outcome;
    };

    // The homework: the list as the bridge published it, every open item at once.
    const upcoming: HaState = {
      entity_id: 'sensor.ania_homework_upcoming',
      state: h.state('ania', 'homework_upcoming')!,
      attributes: h.attributes('ania', 'homework_upcoming')!,
    };
    const states = { [upcoming.entity_id]: upcoming };
    const synced = await runTriggerSide(todo, { from: { ...upcoming, state: 'unknown', attributes: {} }, to: upcoming }, states);
    expect([synced.errors, synced.passed]).toEqual([[], true]);
    // A list, as Home Assistant parses a variable's result.
    const wanted = synced.variables?.wanted as { summary: string; due: string; description: string }[];
    expect(wanted.map((w) => [w.summary, w.due])).toEqual([
      ['Zadanie: Matematyka – Ułamki – karta pracy', '2026-11-19'],
      ['Zadanie: Język polski – Lektura – rozdziały 5–7', '2026-11-20'],
      ['Zadanie: Matematyka – Ułamki – zadania', '2026-11-20'],
      ['Zadanie: Język polski – Wypracowanie', '2026-11-30'],
    ]);
    // What the sync does with a list holding: one of them done already, homework the register no longer lists (open,
    // due this week), homework whose day has passed, and an item of the family's own.
    const sequence = (todo.actions as { choose: { sequence: Record<string, unknown>[] }[] }[])[0]!.choose[0]!.sequence;
    const variables = sequence[1]!.variables as Record<string, string>;
    const listed = {
      'todo.szkola': {
        items: [
          { summary: 'Zadanie: Matematyka – Ułamki – karta pracy', status: 'completed', due: '2026-11-19' },
          { summary: 'Zadanie: Przyroda – Obserwacja pogody', status: 'needs_action', due: '2026-11-21' },
          { summary: 'Zadanie: Muzyka – Piosenka', status: 'needs_action', due: '2026-11-16' },
          { summary: 'Kupić blok techniczny', status: 'needs_action', due: '2026-11-19' },
        ],
      },
    };
    const sync = { ...synced.variables, wanted, listed };
    const [items] = await renderTemplates([{ template: variables.listed_items!, variables: sync, states, strict: true, now: NOW }]);
    const withItems = { ...sync, listed_items: JSON.parse(String((items as { value: string }).value)) as unknown };
    const [toAdd, gone] = await renderTemplates(
      [variables.to_add!, variables.gone!].map((template) => ({ template, variables: withItems, states, strict: true, now: NOW })),
    );
    expect((JSON.parse(String((toAdd as { value: string }).value)) as { summary: string }[]).map((i) => i.summary)).toEqual([
      'Zadanie: Język polski – Lektura – rozdziały 5–7',
      'Zadanie: Matematyka – Ułamki – zadania',
      'Zadanie: Język polski – Wypracowanie',
    ]);
    expect(JSON.parse(String((gone as { value: string }).value))).toEqual(['Zadanie: Przyroda – Obserwacja pogody']);
    // Marked done by default; removed when the family chose so.
    const removal = JSON.stringify(sequence[3]);
    expect(removal).toMatch(/todo\.update_item.*"status":"completed"/);
    expect(removal).toMatch(/todo\.remove_item/);
    for (const r of await renderActionTemplates(todo, { ...withItems, to_add: [], gone: [], repeat: { item: wanted[0] } }, states, NOW))
      expect(r.result, r.path).not.toHaveProperty('error');

    const tests = h.rec.on(`${h.base}/ania/event/test`).map((m) => JSON.parse(m.text) as Record<string, unknown>);
    expect(tests.length).toBeGreaterThan(0);
    const added = await run('event.ania_test', tests.find((t) => t.date === '2026-11-20')!, '2026-11-18T08:10:00.000Z');
    expect(added.passed).toBe(true);
    expect(added.variables?.item).toMatch(/^(Sprawdzian|Kartkówka): .+ \(2026-11-20\)$/);
    expect(added.variables?.due).toBe('2026-11-20');
    const homeworkBranch = { listed, listed_items: [], to_add: [], gone: [], repeat: { item: wanted[0] } };
    for (const r of await renderActionTemplates(todo, { ...added.variables, ...homeworkBranch }))
      expect(r.result, r.path).not.toHaveProperty('error');

    // The test's removal (event type test_removed, interface 8.3) names the very same item.
    const removed = await run(
      'event.ania_test',
      { ...tests.find((t) => t.date === '2026-11-20')!, event_type: 'test_removed' },
      '2026-11-18T09:10:00.000Z',
    );
    expect(removed.passed).toBe(true);
    expect(removed.variables?.item).toBe(added.variables?.item);
    const action = (todo.actions as { choose: { sequence: { action: string; data: Record<string, unknown> }[] }[] }[])[0]!.choose[1]!.sequence[0]!;
    expect(action).toMatchObject({ action: 'todo.update_item', data: { status: 'completed' } });
  }, 60_000);
});
