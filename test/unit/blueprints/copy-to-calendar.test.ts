// School events in the family's calendar (copy_to_calendar, interface 17.2): the chosen children's tests, trips and
// meetings (homework if chosen) become entries of a calendar of the family's through `calendar.create_event`, the
// child's name first in each title, once per event the bridge fires (it fires each once, restarts included; the
// entity coming back from `unavailable` runs nothing). Run as Home Assistant runs it: the trigger, variables and
// conditions, then each entry's `calendar.create_event` data rendered strictly by Jinja2, in each language.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bind, loadBlueprint, renderActionTemplates, runTriggerSide, skipWithoutJinja, type StateChange } from '../../helpers/blueprints.js';
import { fired, LANGUAGES } from '../../helpers/blueprint-run.js';

const FILE = fileURLToPath(new URL('../../../blueprints/automation/dziennik2mqtt/copy_to_calendar.yaml', import.meta.url));
const CHILDREN = { ania: 'Ania', stas: 'Staś', zofia: 'Zofia' } as const;
const EVENTS = Object.keys(CHILDREN).flatMap((c) => ['test', 'agenda', 'homework'].map((k) => `event.${c}_${k}`));

const event = (child: keyof typeof CHILDREN, kind: string, payload: Record<string, unknown>) =>
  fired(`event.${child}_${kind}`, { ...payload, child, child_name: CHILDREN[child] });
const test = (extra: Record<string, unknown> = {}) =>
  event('ania', 'test', {
    event_type: 'test',
    kind: 'test',
    subject: 'Matematyka',
    category: 'Sprawdzian',
    date: '2026-11-24',
    time: '08:55',
    description: 'Ułamki, rozdział 4',
    teacher: 'Piotr Wiśniewski',
    ...extra,
  });
const trip = event('stas', 'agenda', {
  event_type: 'agenda',
  kind: 'trip',
  date: '2026-11-27',
  until: '2026-11-29',
  time: '00:00',
  subject: null,
  category: 'Wycieczka',
  description: 'Zielona szkoła w Zakopanem',
  teacher: null,
});
const meeting = event('zofia', 'agenda', {
  event_type: 'agenda',
  kind: 'meeting',
  date: '2026-11-26',
  until: null,
  time: '17:00',
  subject: null,
  category: 'Zebranie',
  description: 'Wywiadówka',
  teacher: 'Anna Nowak',
});
const homework = event('zofia', 'homework', {
  event_type: 'homework',
  subject: 'Język polski',
  topic: 'Wiersz',
  text: 'Naucz się wiersza.',
  teacher: null,
  due: '2026-11-25',
  attachments: [],
});

/** The calendar.create_event calls the automation makes for a state change (none when it does not act), each as its data. */
async function copied(change: StateChange, inputs: Record<string, unknown> = {}, language = 'pl'): Promise<Record<string, unknown>[]> {
  const automation = bind(loadBlueprint(FILE), { events: EVENTS, calendar: 'calendar.rodzina', language, ...inputs });
  const run = await runTriggerSide(automation, change);
  expect(run.errors).toEqual([]);
  if (!run.passed) return [];
  const calls: Record<string, unknown>[] = [];
  for (const item of (run.variables?.entries ?? []) as Record<string, unknown>[]) {
    const texts = await renderActionTemplates(automation, { ...run.variables, repeat: { item } });
    for (const t of texts) expect(t.result, t.path).not.toHaveProperty('error');
    // The branch Home Assistant takes: the whole day's, or the timed one's.
    const allDay = texts.find((t) => t.path === 'actions[0].repeat.sequence[0].if')?.result;
    const branch = `actions[0].repeat.sequence[0].${(allDay as { value: string }).value === 'True' ? 'then' : 'else'}[0].data.`;
    calls.push(
      Object.fromEntries(
        texts.filter((t) => t.path.startsWith(branch)).map((t) => [t.path.slice(branch.length), (t.result as { value: unknown }).value]),
      ),
    );
  }
  return calls;
}

describe.skipIf(skipWithoutJinja())('school events in the family calendar (copy_to_calendar)', () => {
  it("copies each child's test, trip and meeting once, its name first, an hour's entry timed and a trip over its days", async () => {
    expect(await copied(test())).toEqual([
      {
        summary: 'Ania: Sprawdzian – Matematyka',
        description: 'Ułamki, rozdział 4\nPiotr Wiśniewski',
        start_date_time: '2026-11-24 08:55:00',
        end_date_time: '2026-11-24 09:40:00',
      },
    ]);
    // A trip of three days, its "00:00" no hour: whole days, the end the day after its last (exclusive).
    expect(await copied(trip)).toEqual([
      {
        summary: 'Staś: Wycieczka – Zielona szkoła w Zakopanem',
        description: 'Zielona szkoła w Zakopanem',
        start_date: '2026-11-27',
        end_date: '2026-11-30',
      },
    ]);
    expect(await copied(meeting, {}, 'en')).toEqual([
      {
        summary: 'Zofia: Parent-teacher meeting – Wywiadówka',
        description: 'Wywiadówka\nAnna Nowak',
        start_date_time: '2026-11-26 17:00:00',
        end_date_time: '2026-11-26 18:00:00',
      },
    ]);
    for (const language of LANGUAGES) expect((await copied(test(), {}, language))[0]?.summary, language).toMatch(/^Ania: \S+/);
    expect((await copied(test(), {}, 'uk'))[0]?.summary).toBe('Ania: Контрольна – Matematyka');
  });

  it('ends an entry the school gives an end (time_to) then, a trip of one day at 16:00, not after an hour', async () => {
    const day = event('ania', 'agenda', {
      event_type: 'agenda',
      kind: 'trip',
      date: '2026-11-27',
      until: null,
      time: '07:45',
      time_to: '16:00',
      subject: null,
      category: 'Wycieczka',
      description: 'Kopalnia Soli',
      teacher: null,
    });
    expect(await copied(day)).toMatchObject([{ start_date_time: '2026-11-27 07:45:00', end_date_time: '2026-11-27 16:00:00' }]);
    expect(await copied(test({ time_to: '10:30' }))).toMatchObject([
      { start_date_time: '2026-11-24 08:55:00', end_date_time: '2026-11-24 10:30:00' },
    ]);
  });

  it('copies homework only when chosen, on its due day; a quiz only when quizzes are', async () => {
    expect(await copied(homework)).toEqual([]);
    expect(await copied(homework, { kinds: ['test', 'homework'] })).toEqual([
      {
        summary: 'Zofia: Zadanie domowe – Język polski – Wiersz',
        description: 'Naucz się wiersza.',
        start_date: '2026-11-25',
        end_date: '2026-11-26',
      },
    ]);
    expect(await copied(test({ kind: 'quiz' }), { kinds: ['test'] })).toEqual([]);
    expect((await copied(test({ kind: 'quiz' })))[0]?.summary).toBe('Ania: Kartkówka – Matematyka');
  });

  it('adds a moved test on its new day saying from where, and a cancelled one marked; no other edit, none with changes off', async () => {
    const moved = test({ event_type: 'test_changed', date: '2026-11-27', previous: { date: '2026-11-24' } });
    expect(await copied(moved)).toMatchObject([
      { summary: 'Ania: Sprawdzian – Matematyka (przeniesiono z 24.11)', start_date_time: '2026-11-27 08:55:00' },
    ]);
    expect((await copied(moved, {}, 'en'))[0]?.summary).toBe('Ania: Test – Matematyka (moved from 24.11)');
    expect(await copied(test({ event_type: 'test_removed' }))).toMatchObject([{ summary: 'Ania: Sprawdzian – Matematyka (odwołano)' }]);
    expect(await copied(test({ event_type: 'test_changed', previous: { description: 'Ułamki' } }))).toEqual([]);
    expect(await copied(moved, { changes: false })).toEqual([]);
  });

  it("copies a flood's entries, acts on no other event, and not on the entity coming back after a restart", async () => {
    const flood = event('ania', 'test', {
      event_type: 'test',
      count: 25,
      entries: [test().to.attributes, test({ subject: 'Historia', date: '2026-11-25', time: null }).to.attributes].map(
        ({ event_types: _types, event_type: _type, child: _child, child_name: _name, ...entry }) => entry,
      ),
    });
    expect((await copied(flood)).map((c) => [c.summary, c.start_date ?? c.start_date_time])).toEqual([
      ['Ania: Sprawdzian – Matematyka', '2026-11-24 08:55:00'],
      ['Ania: Sprawdzian – Historia', '2026-11-25'],
    ]);
    expect(
      await copied(event('ania', 'grade', { event_type: 'grade', grade: '5', subject: 'Matematyka' }), { events: ['event.ania_grade'] }),
    ).toEqual([]);
    const restart = test();
    const automation = bind(loadBlueprint(FILE), { events: EVENTS, calendar: 'calendar.rodzina' });
    expect((await runTriggerSide(automation, { from: { ...restart.to, state: 'unavailable', attributes: {} }, to: restart.to })).triggered).toBe(
      false,
    );
  });

  it('runs as saved with one entity, as a text', async () => {
    expect(await copied(test(), { events: 'event.ania_test' })).toMatchObject([{ summary: 'Ania: Sprawdzian – Matematyka' }]);
  });
});
