// The week written by the family's own AI (weekly_ai_summary, interfaces 16.4 and 17.2): at its time on its
// weekday the blueprint asks `ai_task.generate_data` of the AI Task entity the family picked, with the chosen
// children's week from the bridge's sensors in the family's language (every grade of the week with its comment,
// lessons missed, this week's note, next week's tests, trips and meetings) and nothing made up; the AI's answer is
// one notification, the children's names first. A child whose week had no lessons held (its lesson_topics, on its
// device, lists none since Monday: a holiday) is left out, and with none left nothing is sent. Run as Home
// Assistant runs it: the trigger, variables and conditions, then every action's template rendered strictly by
// Jinja2; the AI's answer (the `summary` response) is the test's.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  bind,
  loadBlueprint,
  renderActionTemplates,
  runAt,
  runTriggerSide,
  skipWithoutJinja,
  type HaDevice,
  type HaState,
} from '../../helpers/blueprints.js';
import { LANGUAGES, sensor, statesOf, summaryPressed, type States } from '../../helpers/blueprint-run.js';

const FILE = fileURLToPath(new URL('../../../blueprints/automation/dziennik2mqtt/weekly_ai_summary.yaml', import.meta.url));
const FRIDAY = '2026-11-20T15:00:00+01:00';
const ANIA: HaDevice = { id: 'device-ania', name: 'Ania Kowalska' };
const STAS: HaDevice = { id: 'device-stas', name: 'Staś Kowalski' };
const on = (device: HaDevice, state: HaState): HaState => ({ ...state, device });
const KEYS = ['newest_grade', 'catch_up', 'newest_note', 'upcoming_tests'] as const;
const inputsOf = (...children: string[]) =>
  Object.fromEntries(KEYS.map((k) => [k, children.map((c) => `sensor.${c}_${k}`)])) as Record<(typeof KEYS)[number], string[]>;
const BASE = { ai_task: 'ai_task.openai', notify_device: '0123456789abcdef0123456789abcdef' };

/** Ania's week as her sensors hold it on Friday 20 November; her subject averages only when `averages`. */
function aniasWeek(averages = false): HaState[] {
  const states: HaState[] = [
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
      other: [
        {
          kind: 'trip',
          date: '2026-11-26',
          until: null,
          time: '08:00',
          subject: null,
          category: 'Wycieczka',
          content: 'Muzeum Narodowe',
          teacher: null,
        },
        { kind: 'meeting', date: '2026-11-25', until: null, time: '17:00', subject: null, category: 'Zebranie', content: null, teacher: null },
        {
          kind: 'event',
          date: '2026-11-24',
          until: null,
          time: null,
          subject: null,
          category: 'Inne',
          content: 'Dzień postaci z bajek',
          teacher: null,
        },
        { kind: 'trip', date: '2026-12-03', until: null, time: null, subject: null, category: 'Wycieczka', content: 'Teatr', teacher: null },
      ],
    }),
  ];
  if (averages) {
    // Twelve grades this week across two subjects: more than newest_grade's ten newest.
    const grades = (subject: string, n: number, day: string) =>
      Array.from({ length: n }, (_, i) => ({ grade: String(2 + (i % 5)), date: day, comment: i === 0 ? `${subject}: dobrze` : null, weight: 1 }));
    states.push(
      sensor('sensor.ania_average_matematyka', '4.20', {
        subject: 'Matematyka',
        grades: [...grades('Matematyka', 6, '2026-11-19'), ...grades('Matematyka', 2, '2026-11-12')],
      }),
      sensor('sensor.ania_average_historia', '3.90', { subject: 'Historia', grades: grades('Historia', 6, '2026-11-17') }),
    );
  }
  return states.map((s) => on(ANIA, s));
}

/** Staś's quieter week: a grade, no absence, no note, a meeting next week. */
const stasWeek = (): HaState[] =>
  [
    sensor('sensor.stas_newest_grade', '4', { recent: [{ grade: '4', subject: 'Plastyka', comment: null, date: '2026-11-19' }] }),
    sensor('sensor.stas_catch_up', '0', { lessons: [] }),
    sensor('sensor.stas_newest_note', 'unknown', {}),
    sensor('sensor.stas_upcoming_tests', '0', {
      items: [],
      other: [
        { kind: 'meeting', date: '2026-11-25', until: null, time: null, subject: null, category: 'Zebranie', content: 'Wywiadówka', teacher: null },
      ],
    }),
  ].map((s) => on(STAS, s));

/** The lessons held a child's lesson_topics lists: one this week, or (a holiday) only the week before. */
const topics = (child: string, device: HaDevice, holiday: boolean) =>
  on(
    device,
    sensor(`sensor.${child}_lesson_topics`, 'x', {
      lessons: [{ date: holiday ? '2026-11-13' : '2026-11-19', no: 1, subject: 'Matematyka', topic: 'x' }],
    }),
  );

interface Sent {
  passed: boolean;
  call?: { action: unknown; response_variable: unknown; instructions: string };
  title?: string;
  message?: string;
}

/**
 * In each language: whether it acts, what the AI is asked (its call's data), and the notification given the AI's
 * answer; at its time on its weekday, or (`pressed`) at the press of the bridge's button for those children.
 */
async function week(at: string, inputs: Record<string, unknown>, states: States, pressed?: readonly string[]): Promise<Record<string, Sent>> {
  const out: Record<string, Sent> = {};
  for (const language of LANGUAGES) {
    const automation = bind(loadBlueprint(FILE), { ...BASE, ...inputs, language });
    const result =
      pressed === undefined ? await runAt(automation, at, states) : await runTriggerSide(automation, summaryPressed(at, pressed), states, at);
    expect(result.triggered, language).toBe(true);
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
    const friday = await week(FRIDAY, inputsOf('ania'), statesOf(...aniasWeek()));
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
    // lessons missed this week, this week's note, next week's tests, and next week's trips and meetings alone.
    expect(friday.pl?.call?.instructions).toMatch(
      new RegExp(
        [
          '\\nAnia:',
          'Oceny w tym tygodniu: 5 \\(Matematyka: Świetna praca klasowa\\), 3\\+ \\(Historia\\)',
          'Opuszczone lekcje: 2026-11-19 Matematyka \\(Ułamki\\)',
          'Uwaga pozytywna: Pomoc w organizacji apelu \\(Pochwała\\)',
          'Sprawdziany w przyszłym tygodniu: 2026-11-24 Matematyka \\(Sprawdzian\\)',
          'Wycieczki i zebrania w przyszłym tygodniu: 2026-11-26 08:00 wycieczka: Muzeum Narodowe, 2026-11-25 17:00 zebranie$',
        ].join('\\n'),
      ),
    );
    expect(friday.en?.call?.instructions).toMatch(/^Write in English .*\nAnia:\nThis week's grades: 5 \(Matematyka: Świetna praca klasowa\)/s);
    expect(friday.en?.call?.instructions).toMatch(
      /\nNext week's trips and meetings: 2026-11-26 08:00 trip: Muzeum Narodowe, 2026-11-25 17:00 parent-teacher meeting$/,
    );
    expect(friday.uk?.call?.instructions).toMatch(/^Напиши українською .*\nAnia:\nОцінки цього тижня: 5 /s);
    expect(friday.uk?.message).toBe('AI (uk)');
    // The note's kind in the family's words, never the bridge's English value.
    expect(friday.en?.call?.instructions).toContain('\nPraise: Pomoc w organizacji apelu (Pochwała)\n');
    expect(friday.uk?.call?.instructions).toContain('\nПохвала: Pomoc w organizacji apelu (Pochwała)\n');
    for (const language of ['pl', 'uk'] as const)
      expect(friday[language]?.call?.instructions, language).not.toMatch(/\b(positive|negative|neutral|trip|meeting|event|test|quiz)\b/);
    for (const other of ['Fizyka', 'Przyroda', 'Teatr', 'bajek']) expect(friday.en?.call?.instructions).not.toContain(other);
  });

  it("tells every grade of the week from the child's subject averages, more than the newest ten", async () => {
    const friday = await week(FRIDAY, inputsOf('ania'), statesOf(...aniasWeek(true)));
    const line = /\nOceny w tym tygodniu: (.*)\n/.exec(friday.pl?.call?.instructions ?? '')?.[1] ?? '';
    expect(line.split('), ')).toHaveLength(12);
    expect(line).toMatch(/^\d \(Matematyka: Matematyka: dobrze\), /);
    expect(line).toContain('(Historia: Historia: dobrze)');
    expect(line).not.toContain('Fizyka');
  });

  it('tells several children in one notification, each under its name, the names first in the title', async () => {
    const friday = await week(FRIDAY, inputsOf('ania', 'stas'), statesOf(...aniasWeek(), ...stasWeek()));
    expect(friday.pl?.title).toBe('Ania i Staś, tydzień w szkole');
    expect(friday.en?.title).toBe('Ania and Staś, the week at school');
    expect(friday.uk?.title).toBe('Ania і Staś, тиждень у школі');
    expect(friday.pl?.call?.instructions).toMatch(
      /\nAnia:\nOceny w tym tygodniu: 5 [\s\S]*\n\nStaś:\nOceny w tym tygodniu: 4 \(Plastyka\)\nOpuszczone lekcje: brak\nSprawdziany w przyszłym tygodniu: brak\nWycieczki i zebrania w przyszłym tygodniu: 2026-11-25 zebranie: Wywiadówka$/,
    );
  });

  it('leaves out a child on holiday, and sends nothing in a week without lessons', async () => {
    // Each child's lesson_topics, found on its device: no input names it.
    const inputs = inputsOf('ania', 'stas');
    const family = (aniaOff: boolean, stasOff: boolean) =>
      statesOf(...aniasWeek(), ...stasWeek(), topics('ania', ANIA, aniaOff), topics('stas', STAS, stasOff));
    const stasAway = await week(FRIDAY, inputs, family(false, true));
    expect(stasAway.pl?.title).toBe('Ania, tydzień w szkole');
    expect(stasAway.pl?.call?.instructions).not.toContain('Staś');
    expect((await week(FRIDAY, inputs, family(false, false))).pl?.title).toBe('Ania i Staś, tydzień w szkole');
    const holiday = await week(FRIDAY, inputs, family(true, true));
    expect(LANGUAGES.map((l) => holiday[l]?.passed)).toEqual([false, false, false]);
  });

  it('says "none" for a quiet week, leaves out an older note, and acts only on its weekday', async () => {
    const quiet = statesOf(
      ...[
        sensor('sensor.ania_newest_grade', 'unknown'),
        sensor('sensor.ania_newest_note', 'Spóźnienie', { kind: 'negative', category: null, date: '2026-10-02' }),
        sensor('sensor.ania_upcoming_tests', '0', { items: [] }),
      ].map((s) => on(ANIA, s)),
    );
    const friday = await week(FRIDAY, inputsOf('ania'), quiet);
    expect(friday.en?.call?.instructions).toMatch(/\nAnia:\nThis week's grades: none\nLessons missed: none\nNext week's tests: none$/);
    expect((await week('2026-11-19T15:00:00+01:00', inputsOf('ania'), statesOf(...aniasWeek()))).pl?.passed).toBe(false);
  });

  it("answers the bridge's button at once with one ai_task call, to the parent or to the pupil, a holiday week too", async () => {
    // Wednesday: not the summary's weekday; Ania's week a holiday (no lesson held since Monday).
    const wednesday = '2026-11-18T18:20:00+01:00';
    const states = statesOf(...aniasWeek(), ...stasWeek(), topics('ania', ANIA, true), topics('stas', STAS, true));
    expect((await runAt(bind(loadBlueprint(FILE), { ...BASE, ...inputsOf('ania', 'stas') }), wednesday, states)).passed).toBe(false);
    const parent = await week(wednesday, inputsOf('ania', 'stas'), states, ['ania']);
    for (const language of LANGUAGES) {
      expect(parent[language]?.passed, language).toBe(true);
      expect(parent[language]?.call?.action).toBe('ai_task.generate_data');
    }
    // Only the child the button names, addressed to the parent.
    expect(parent.pl?.title).toBe('Ania, tydzień w szkole');
    expect(parent.pl?.call?.instructions).toMatch(/^Napisz po polsku krótkie .*dla rodzica/);
    expect(parent.pl?.call?.instructions).not.toContain('Staś');
    // The pupil: the task in the second person, in every language; every child when the button names none.
    const pupil = await week(wednesday, { ...inputsOf('ania', 'stas'), audience: 'pupil' }, states, []);
    expect(pupil.pl?.call?.instructions).toMatch(/^Napisz po polsku .*skierowane do ucznia, w drugiej osobie/);
    expect(pupil.en?.call?.instructions).toMatch(/^Write in English .*addressed to the pupil, in the second person/);
    expect(pupil.uk?.call?.instructions).toMatch(/^Напиши українською .*звернене до учня, у другій особі/);
    expect(pupil.pl?.title).toBe('Ania i Staś, tydzień w szkole');
  });

  it('pressed on a Monday, names the tests of the days coming and the grades of the last seven, not a fixed week', async () => {
    // Monday morning: Tuesday's maths test is in the next seven days (a fixed week said "next week: none").
    const monday = await week('2026-11-23T07:30:00+01:00', inputsOf('ania'), statesOf(...aniasWeek()), ['ania']);
    const facts = monday.pl?.call?.instructions ?? '';
    expect(facts).toContain('\nOceny z ostatnich 7 dni: 5 (Matematyka: Świetna praca klasowa)\n');
    expect(facts).toContain('\nSprawdziany w najbliższych 7 dniach: 2026-11-24 Matematyka (Sprawdzian)\n');
    expect(facts).toMatch(/\nWycieczki i zebrania w najbliższych 7 dniach: .*2026-11-25 17:00 zebranie/);
    // The Friday of the week before (the 13th) and the quiz of 1 December lie outside the fourteen days.
    for (const outside of ['Fizyka', 'Przyroda']) expect(facts).not.toContain(outside);
    expect(monday.en?.call?.instructions).toContain('\nTests in the next 7 days: 2026-11-24 Matematyka (Sprawdzian)\n');
    expect(monday.uk?.call?.instructions).toContain('\nКонтрольні в найближчі 7 днів: 2026-11-24 Matematyka (Sprawdzian)\n');
  });

  it("sends none of the messages' text unless chosen", async () => {
    const message = on(
      ANIA,
      sensor('sensor.ania_newest_message', 'Zebranie z rodzicami w czwartek', { sender: 'Anna Nowak', preview: 'Zapraszam na zebranie o 17:00' }),
    );
    const states = statesOf(...aniasWeek(), message);
    const inputs = { ...inputsOf('ania'), newest_message: ['sensor.ania_newest_message'] };
    const off = await week(FRIDAY, inputs, states);
    for (const language of LANGUAGES) {
      expect(off[language]?.call?.instructions, language).not.toContain('Zebranie z rodzicami w czwartek');
      expect(off[language]?.call?.instructions, language).not.toContain('Zapraszam');
    }
    const chosen = await week(FRIDAY, { ...inputs, include_messages: true }, states);
    expect(chosen.pl?.call?.instructions).toContain(
      'Najnowsza wiadomość ze szkoły: Zebranie z rodzicami w czwartek (Anna Nowak): Zapraszam na zebranie o 17:00',
    );
  });

  it('runs as saved for one child, each entity a text (its old child_name input left unread)', async () => {
    const saved = { ...Object.fromEntries(KEYS.map((k) => [k, `sensor.ania_${k}`])), child_name: 'Ania' };
    const friday = await week(FRIDAY, saved, statesOf(...aniasWeek()));
    expect(friday.pl?.title).toBe('Ania, tydzień w szkole');
    expect(friday.pl?.call?.instructions).toMatch(/\nAnia:\nOceny w tym tygodniu: 5 \(Matematyka/);
  });
});
