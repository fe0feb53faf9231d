// One automation for a family (interface 17.2): every event blueprint takes the event entities of several children,
// and each child's event sends one notification whose title starts with that child's name, from the event's own
// `child_name`, in each language. An automation saved before, with one entity (a text, not a list), still runs and
// renders. What belongs to one child beside its event (the next school day of plan_change_tomorrow, the "Open" button
// of new_message) is that child's own, found on the event's device.
import { describe, expect, it } from 'vitest';
import {
  bind,
  loadBlueprint,
  renderActionTemplates,
  renderTemplates,
  runTriggerSide,
  skipWithoutJinja,
  type HaState,
} from '../../helpers/blueprints.js';
import { fired, LANGUAGES, passedIn, run, sensor, statesOf } from '../../helpers/blueprint-run.js';
import { fileURLToPath } from 'node:url';

const CHILDREN = [
  { id: 'ania', name: 'Ania', device: { id: 'device-ania', name: 'Ania Kowalska' } },
  { id: 'stas', name: 'Staś', device: { id: 'device-stas', name: 'Staś Kowalski' } },
  { id: 'zofia', name: 'Zofia', device: { id: 'device-zofia', name: 'Zofia Kowalska' } },
] as const;
type Child = (typeof CHILDREN)[number];

/** Each event blueprint that notifies: its input, the event entity's key and an event of it as the bridge sends it. */
const NOTIFYING: { file: string; input: string; key: string; payload: Record<string, unknown>; extra?: (c: Child) => Record<string, unknown> }[] = [
  {
    file: 'new_grade.yaml',
    input: 'grade_event',
    key: 'grade',
    payload: {
      event_type: 'grade',
      grade: '6',
      subject: 'Matematyka',
      category: 'Sprawdzian',
      weight: 3,
      teacher: 'Piotr Wiśniewski',
      comment: null,
    },
  },
  {
    file: 'new_test.yaml',
    input: 'test_event',
    key: 'test',
    payload: { event_type: 'test', kind: 'test', subject: 'Historia', date: '2026-11-24', time: '08:55', description: 'Rozbiory', teacher: null },
  },
  {
    file: 'new_message.yaml',
    input: 'message_event',
    key: 'message',
    payload: {
      event_type: 'message',
      mailbox: 'inbox',
      sender: 'Anna Nowak',
      topic: 'Wycieczka',
      preview: 'Proszę o zgodę.',
      has_attachments: false,
    },
  },
  {
    file: 'achievement.yaml',
    input: 'achievement_event',
    key: 'achievement',
    payload: { event_type: 'achievement', kind: 'first_six', count: 1, date: '2026-11-18' },
  },
  {
    file: 'absence.yaml',
    input: 'absence_event',
    key: 'absence',
    payload: {
      event_type: 'absence',
      kind: 'unexcused',
      date: '2026-11-17',
      lesson_no: 3,
      subject: 'Historia',
      teacher: 'Anna Nowak',
      type: 'nieobecność',
    },
  },
  {
    file: 'note.yaml',
    input: 'note_event',
    key: 'note',
    payload: { event_type: 'note', kind: 'positive', category: 'Pochwała', teacher: 'Anna Nowak', date: '2026-11-17', text: 'Pomaga innym.' },
  },
  {
    file: 'forecast_changed.yaml',
    input: 'forecast_event',
    key: 'forecast_changed',
    payload: { event_type: 'forecast_changed', subject: 'Fizyka', previous: '4', forecast: '5', average: 4.62 },
  },
  {
    file: 'justification.yaml',
    input: 'justification_event',
    key: 'justification',
    payload: {
      event_type: 'justification',
      id: '7',
      status: 'accepted',
      status_name: 'przyjęte',
      from: '2026-11-16',
      to: '2026-11-16',
      absences: [],
      justified: 2,
    },
  },
  {
    file: 'lucky_number.yaml',
    input: 'lucky_event',
    key: 'lucky',
    payload: { event_type: 'lucky', day: '2026-11-19', number: 12, register_number: 12 },
  },
  {
    file: 'new_homework.yaml',
    input: 'homework_event',
    key: 'homework',
    payload: {
      event_type: 'homework',
      subject: 'Język polski',
      topic: 'Wiersz',
      text: 'Naucz się wiersza.',
      teacher: null,
      due: '2026-11-25',
      attachments: [],
    },
  },
  {
    file: 'new_notice.yaml',
    input: 'notice_event',
    key: 'notice',
    payload: { event_type: 'notice', id: '1', subject: 'Zebranie', date: '2026-11-18', content: 'W czwartek.' },
  },
  {
    file: 'school_file.yaml',
    input: 'school_file_event',
    key: 'school_file',
    payload: { event_type: 'school_file', id: '3', name: 'Regulamin.pdf', date: '2026-11-18' },
  },
  {
    file: 'school_year.yaml',
    input: 'school_year_event',
    key: 'school_year',
    payload: {
      event_type: 'school_year',
      class: '5b',
      tutor: 'Anna Nowak',
      begins: '2026-09-01',
      first_semester_ends: null,
      ends: '2027-06-25',
      summary: { left: { grades: 0, absences: 0, notes: 0, homework: 0, tests: 0 }, arrived: { free_days: 0 } },
    },
  },
  {
    file: 'plan_change_tomorrow.yaml',
    input: 'plan_change_event',
    key: 'plan_change',
    payload: { event_type: 'plan_change', date: '2026-11-19', lesson_no: 2, hours: '08:55-09:40', kind: 'cancelled', subject: 'Fizyka' },
    extra: () => ({ timetable_tomorrow: CHILDREN.map((c) => `sensor.${c.id}_timetable_tomorrow`) }),
  },
];

/** The bridge's own English values of an event (its kinds, statuses, mailboxes), as whole words. */
const ENGLISH =
  /\b(positive|negative|neutral|test|quiz|trip|meeting|event|homework|cancelled|substitution|room_change|shifted|accepted|rejected|unexcused|excused|late|inbox|first_six|grade|semester_proposal|final_proposal)\b/;

const entity = (c: Child, key: string) => `event.${c.id}_${key}`;
/** What Home Assistant holds beside the event: each child's entities on its own device, the next school day the 19th. */
const family = (key: string, nextDay: (c: Child) => string = () => '2026-11-19') =>
  statesOf(
    ...CHILDREN.flatMap((c): HaState[] => [
      { entity_id: entity(c, key), state: '2026-11-17T10:00:00.000Z', attributes: {}, device: c.device },
      { ...sensor(`sensor.${c.id}_timetable_tomorrow`, '6', { date: nextDay(c) }), device: c.device },
      { ...sensor(`button.${c.id}_open_message`, 'unknown'), device: c.device },
    ]),
  );
const eventOf = (c: Child, key: string, payload: Record<string, unknown>) => fired(entity(c, key), { ...payload, child: c.id, child_name: c.name });

describe.skipIf(skipWithoutJinja())('one automation for the whole family', () => {
  it.each(NOTIFYING)('$file: each of three children notifies once, the title starting with its name, in each language', async (b) => {
    const inputs = { [b.input]: CHILDREN.map((c) => entity(c, b.key)), ...b.extra?.(CHILDREN[0]) };
    for (const child of CHILDREN) {
      const r = await run(b.file, inputs, eventOf(child, b.key, b.payload), family(b.key));
      expect(passedIn(r), `${b.file} ${child.id}`).toEqual(LANGUAGES);
      for (const language of LANGUAGES) {
        expect(r[language].title, `${b.file} ${child.id} ${language}`).toMatch(new RegExp(`^${child.name}: \\S`));
        for (const other of CHILDREN.filter((c) => c !== child)) expect(r[language].text).not.toContain(other.name);
      }
      // No value the bridge sends in English (a kind, a status) reaches a Polish or Ukrainian text (interface 18.1).
      for (const language of ['pl', 'uk'] as const) expect(`${r[language].title}\n${r[language].text}`, `${b.file} ${language}`).not.toMatch(ENGLISH);
    }
  });

  it.each(NOTIFYING)('$file: an automation saved with one entity, as before, still runs and renders', async (b) => {
    const [ania] = CHILDREN;
    const one = { [b.input]: entity(ania, b.key), ...(b.extra ? { timetable_tomorrow: `sensor.${ania.id}_timetable_tomorrow` } : {}) };
    const r = await run(b.file, one, eventOf(ania, b.key, b.payload), family(b.key));
    expect(passedIn(r)).toEqual(LANGUAGES);
    expect(r.pl.title).toMatch(/^Ania: \S/);
  });

  it("a plan change tomorrow: each child's change is told on its own next school day, from its own timetable", async () => {
    const [ania, stas] = CHILDREN;
    const inputs = {
      plan_change_event: CHILDREN.map((c) => entity(c, 'plan_change')),
      timetable_tomorrow: CHILDREN.map((c) => `sensor.${c.id}_timetable_tomorrow`),
    };
    // Staś's school is off on the 19th: his next school day is the 20th.
    const states = family('plan_change', (c) => (c === stas ? '2026-11-20' : '2026-11-19'));
    const change = (c: Child, date: string) =>
      eventOf(c, 'plan_change', { event_type: 'plan_change', date, lesson_no: 1, hours: '08:00-08:45', kind: 'cancelled', subject: 'Fizyka' });
    expect((await run('plan_change_tomorrow.yaml', inputs, change(stas, '2026-11-20'), states)).pl.title).toMatch(/^Staś: 20\.11, 1\. lekcja:/);
    expect(passedIn(await run('plan_change_tomorrow.yaml', inputs, change(stas, '2026-11-19'), states))).toEqual([]);
    expect(passedIn(await run('plan_change_tomorrow.yaml', inputs, change(ania, '2026-11-20'), states))).toEqual([]);
  });

  it("a message's Open action presses its own child's button, and only with one button chosen per child", async () => {
    const file = fileURLToPath(new URL('../../../blueprints/automation/dziennik2mqtt/new_message.yaml', import.meta.url));
    const message = { event_type: 'message', mailbox: 'inbox', sender: 'Anna Nowak', topic: 'Wycieczka', preview: '', has_attachments: false };
    const pressed = async (buttons: unknown, c: Child) => {
      const automation = bind(loadBlueprint(file), {
        message_event: CHILDREN.map((x) => entity(x, 'message')),
        open_message_button: buttons,
        notify_device: '0123456789abcdef0123456789abcdef',
      });
      const states = family('message');
      const r = await runTriggerSide(automation, eventOf(c, 'message', message), states);
      expect(r.errors).toEqual([]);
      const texts = await renderActionTemplates(automation, r.variables ?? {}, states);
      const value = (path: string) => texts.find((t) => t.path === path)?.result;
      return { open: value('actions[0].if[0].value_template'), button: value('actions[0].then[2].target.entity_id') };
    };
    const [ania, stas] = CHILDREN;
    const all = CHILDREN.map((c) => `button.${c.id}_open_message`);
    expect(await pressed(all, stas)).toEqual({ open: { value: 'True' }, button: { value: 'button.stas_open_message' } });
    // Saved before, with Ania's one button: it is hers.
    expect(await pressed('button.ania_open_message', ania)).toEqual({ open: { value: 'True' }, button: { value: 'button.ania_open_message' } });
    // Ania's button alone among three children: Staś's message has no Open action (it would open Ania's newest).
    expect((await pressed(['button.ania_open_message'], stas)).open).toEqual({ value: 'False' });
    expect((await pressed([], ania)).open).toEqual({ value: 'False' });
  });

  it("homework_todo: each child's homework and tests on the family's one list, each item under its child's name", async () => {
    const [ania, stas] = CHILDREN;
    const todo = bind(loadBlueprint(fileURLToPath(new URL('../../../blueprints/automation/dziennik2mqtt/homework_todo.yaml', import.meta.url))), {
      homework_upcoming: [ania, stas].map((c) => `sensor.${c.id}_homework_upcoming`),
      test_event: [ania, stas].map((c) => entity(c, 'test')),
      todo_list: 'todo.szkola',
    });
    const upcoming = (c: Child, subject: string, topic: string): HaState => ({
      ...sensor(`sensor.${c.id}_homework_upcoming`, '1', { items: [{ date: '2026-11-20', subject, topic, text: `${topic}.` }] }),
      device: c.device,
    });
    const [aniasList, stasList] = [upcoming(ania, 'Matematyka', 'Ułamki'), upcoming(stas, 'Historia', 'Rozbiory')];
    const states = statesOf(aniasList, stasList);
    // Ania's list changed: her homework alone is synced, under her name.
    const synced = await runTriggerSide(todo, { from: { ...aniasList, attributes: {} }, to: aniasList }, states, '2026-11-18T09:00:00+01:00');
    expect([synced.errors, synced.passed]).toEqual([[], true]);
    const wanted = synced.variables?.wanted as { summary: string }[];
    expect(wanted.map((w) => w.summary)).toEqual(['Ania: Zadanie: Matematyka – Ułamki']);
    // What her sync finds gone: her own open item the register no longer lists, never her brother's.
    const sequence = (todo.actions as { choose: { sequence: Record<string, unknown>[] }[] }[])[0]!.choose[0]!.sequence;
    const gone = (sequence[1]!.variables as Record<string, string>).gone!;
    const listed_items = [
      { summary: 'Ania: Zadanie: Przyroda – Obserwacja', status: 'needs_action', due: '2026-11-19' },
      { summary: 'Staś: Zadanie: Historia – Mapa', status: 'needs_action', due: '2026-11-19' },
    ];
    const [found] = await renderTemplates([
      { template: gone, variables: { ...synced.variables, listed_items }, states, strict: true, now: '2026-11-18T09:00:00+01:00' },
    ]);
    expect(JSON.parse(String((found as { value: string }).value))).toEqual(['Ania: Zadanie: Przyroda – Obserwacja']);
    // A test of Staś's: its item under his name, as the event names him.
    const test = await runTriggerSide(
      todo,
      eventOf(stas, 'test', { event_type: 'test', kind: 'test', subject: 'Historia', date: '2026-11-24', description: null }),
      states,
    );
    expect(test.variables?.item).toBe('Staś: Sprawdzian: Historia (2026-11-24)');
  });
});
