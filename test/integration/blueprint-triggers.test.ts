// The blueprints' trigger side against what the real bridge publishes: the demo school gives Ania a
// grade, a message, plan changes, a test, her lucky number, a free day, an announcement, a school file and
// the school's decision on her parent's excuse; each event the bridge sends
// becomes the state change Home Assistant's MQTT event entity makes of it, and each blueprint's
// trigger, variables and conditions run on it with Jinja2, as Home Assistant renders them. The
// notifications' texts are rendered too, strictly, so a misspelt attribute fails.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, SimLife } from '../../src/simulator/index.js';
import {
  bind,
  eventEntityState,
  loadBlueprint,
  renderActionTemplates,
  runTriggerSide,
  type HaState,
  type StateChange,
} from '../helpers/blueprints.js';
import { simulatedSchool } from '../helpers/school.js';
import { command } from '../helpers/commands.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson; the next school day is Thursday the 19th.
const NOW = '2026-11-18T09:10:00+01:00';
const MINUTE = 60_000;
const KINDS = ['grade', 'message', 'notice', 'plan_change', 'test', 'lucky', 'free_day', 'justification', 'school_file'] as const;
const FOLDER = fileURLToPath(new URL('../../blueprints/automation/dziennik2mqtt/', import.meta.url));
const blueprint = (file: string) => loadBlueprint(join(FOLDER, file));

const school = simulatedSchool(NOW);

/** Ania's events as the bridge published them, and the states Home Assistant would hold. */
async function demoEvents(): Promise<{ changes: Map<string, StateChange[]>; states: Record<string, HaState> }> {
  const account = school.sim.account(ANIA.login);
  account.setLuckyNumber(7, '2026-11-18');
  // The parent excused Monday's two absences (lessons 2 and 3); the school has not decided yet.
  const excuse = account.addRecord('Justifications', {
    id: 5599,
    messageFromParent: 'Ania była u lekarza.',
    postDate: '2026-11-17 19:02:00',
    justificationStatus: 'new',
    dateFrom: '2026-11-16',
    dateTo: '2026-11-16',
    lessons: [
      { number: 2, date: '2026-11-16' },
      { number: 3, date: '2026-11-16' },
    ],
    justifiedAbsences: 2,
    attachment: false,
    notifiedTeachers: [{ name: 'Anna Nowak' }],
  });
  const h = await school.firstPasses(['last_update', 'lucky_number', 'timetable_tomorrow']);
  // Two rounds of demo life: a cancellation and a substitution on the next school day, and more.
  const life = new SimLife({ simulator: school.sim, logins: [ANIA.login], clock: school.clock, firstAfterMs: MINUTE, everyMs: 3 * MINUTE });
  life.start();
  account.addTest({ date: '2026-11-24', content: 'Sprawdzian: ułamki, rozdział 4.' });
  // A change on Friday, which is not the next school day.
  const friday = school.sim.schoolDays(ANIA.login).lessonsOn('2026-11-20')[0]!;
  account.addPlanChange({ kind: 'cancelled', OrgDate: '2026-11-20', OrgLessonNo: friday.lessonNo });
  account.setLuckyNumber(12, '2026-11-19');
  // A grade corrected in place, a test moved to another day and a quiz cancelled (interface 8.3).
  account.editRecord('Grades', 210004, { Grade: '5-' });
  account.editRecord('HomeWorks', 3301, { Date: '2026-11-27' });
  account.removeRecord('HomeWorks', 3302);
  account.school.classFreeDays.push({ Id: 99, Class: 7104, Type: 5, DateFrom: '2026-12-07', DateTo: '2026-12-07', AddDate: account.stamp() });
  await h.advanceMinutes(5);
  life.stop();
  // The cancelled quiz is removed at the second read of the agenda without it (the hourly read).
  await h.advanceMinutes(120);
  // The school accepts the excuse and shares a file (both lists read a few times a day): a refresh reads them now.
  excuse.justificationStatus = 'accept';
  account.addRecord('SchoolFiles', {
    id: 34,
    displayName: 'Regulamin wycieczek.pdf',
    addedOnDate: account.stamp(),
    downloadUrl: '/pliki_szkoly/pobierz/34',
    fileStatus: 'ready',
  });
  await command(h, 'ania', 'refresh', '');
  await h.runUntil(
    () => ['justification', 'school_file'].every((kind) => h.rec.on(`${h.base}/ania/event/${kind}`).length > 0),
    'the decision and the file',
  );

  const changes = new Map<string, StateChange[]>();
  let second = 0;
  for (const kind of KINDS) {
    const entityId = `event.ania_${kind}`;
    let previous: HaState = { entity_id: entityId, state: 'unknown', attributes: {} };
    const list: StateChange[] = [];
    for (const message of h.rec.on(`${h.base}/ania/event/${kind}`)) {
      const at = new Date(Date.parse(NOW) + ++second * 1000).toISOString();
      const next = eventEntityState(entityId, JSON.parse(message.text) as Record<string, unknown>, at);
      list.push({ from: previous, to: next });
      previous = next;
    }
    changes.set(kind, list);
  }
  const tomorrow = {
    entity_id: 'sensor.ania_timetable_tomorrow',
    state: h.state('ania', 'timetable_tomorrow') ?? 'unknown',
    attributes: h.attributes('ania', 'timetable_tomorrow') ?? {},
  };
  return { changes, states: { [tomorrow.entity_id]: tomorrow } };
}

const PHONE = { notify_device: '0123456789abcdef0123456789abcdef' };

describe('blueprints against the events of the real bridge', () => {
  it('notify for their own events, by the conditions, with texts that render', async () => {
    const { changes, states } = await demoEvents();
    const events = (kind: string): StateChange[] => changes.get(kind) ?? [];
    // The demo produced every kind, the plan changes on Thursday and on Friday.
    expect(KINDS.filter((k) => events(k).length === 0)).toEqual([]);
    const planChangeDates = events('plan_change').map((c) => c.to.attributes.date);
    expect(planChangeDates).toEqual(expect.arrayContaining(['2026-11-19', '2026-11-20']));
    expect(states['sensor.ania_timetable_tomorrow']?.attributes.date).toBe('2026-11-19');
    const all = KINDS.flatMap((k) => events(k));
    // Each names its child: the id of its topics and the first name the board says.
    expect(new Set(all.map((c) => `${String(c.to.attributes.child)} ${String(c.to.attributes.child_name)}`))).toEqual(new Set(['ania Ania']));

    /** Which of all the changes make the automation act, and the texts it would send for them. */
    const outcome = async (file: string, inputs: Record<string, unknown>) => {
      const automation = bind(blueprint(file), { ...PHONE, ...inputs });
      return Promise.all(
        all.map(async (change) => {
          const run = await runTriggerSide(automation, change, states);
          expect(run.errors, `${file} on ${change.to.entity_id}`).toEqual([]);
          const texts = run.passed ? await renderActionTemplates(automation, run.variables ?? {}, states) : [];
          for (const t of texts) expect(t.result, `${file} ${t.path}`).not.toHaveProperty('error');
          return { change, acted: run.passed === true, texts: texts.map((t) => ('value' in t.result ? String(t.result.value) : '')) };
        }),
      );
    };
    const actedOn = (results: Awaited<ReturnType<typeof outcome>>) => results.filter((r) => r.acted).map((r) => r.change);

    // A new grade: every grade event, nothing else; the subject filter narrows it.
    const grades = await outcome('new_grade.yaml', { grade_event: 'event.ania_grade' });
    expect(actedOn(grades)).toEqual(events('grade'));
    const subject = String(events('grade')[0]!.to.attributes.subject);
    expect(grades.find((r) => r.acted)!.texts.join('\n')).toContain(subject);
    expect(actedOn(await outcome('new_grade.yaml', { grade_event: 'event.ania_grade', subjects: ['Astronomia'] }))).toEqual([]);
    // The corrected grade says what it was; with the switch off only new grades notify.
    const corrected = grades.find((r) => r.acted && r.change.to.attributes.event_type === 'grade_changed');
    expect(corrected?.texts.join('\n')).toMatch(/^Ania: Ocena zmieniona:\s+4 → 5- \(Język polski\)/);
    expect(actedOn(await outcome('new_grade.yaml', { grade_event: 'event.ania_grade', changes: false }))).toEqual(
      events('grade').filter((c) => c.to.attributes.event_type === 'grade'),
    );
    expect(actedOn(await outcome('new_grade.yaml', { grade_event: 'event.ania_grade', subjects: [subject] })).length).toBeGreaterThan(0);

    // The lucky number: Thursday's is Ania's 12.
    const lucky = await outcome('lucky_number.yaml', { lucky_event: 'event.ania_lucky' });
    expect(actedOn(lucky)).toEqual(events('lucky'));
    expect(lucky.find((r) => r.acted)!.texts.join('\n')).toMatch(/^Ania: 🍀 12 to Twój szczęśliwy numerek![\s\S]*W dniu 19\.11/);

    // Tomorrow's plan: the Thursday changes, not Friday's; every one with the switch off.
    const planChangeInputs = { plan_change_event: 'event.ania_plan_change', timetable_tomorrow: 'sensor.ania_timetable_tomorrow' };
    const planChanges = await outcome('plan_change_tomorrow.yaml', planChangeInputs);
    expect(actedOn(planChanges).map((c) => c.to.attributes.date)).toEqual(planChangeDates.filter((d) => d === '2026-11-19'));
    expect(actedOn(planChanges).map((c) => c.to.attributes.kind)).toEqual(expect.arrayContaining(['cancelled', 'substitution']));
    const substitution = planChanges.find((r) => r.acted && r.change.to.attributes.kind === 'substitution')!;
    expect(substitution.texts.join('\n')).toMatch(/zastępstwo[\s\S]*zamiast/);
    expect(actedOn(await outcome('plan_change_tomorrow.yaml', { ...planChangeInputs, only_next_school_day: false }))).toEqual(events('plan_change'));

    // A new test; quizzes only leaves the Sprawdzian out.
    const tests = await outcome('new_test.yaml', { test_event: 'event.ania_test', language: 'en' });
    expect(actedOn(tests)).toEqual(events('test'));
    expect(tests.find((r) => r.acted)!.texts.join('\n')).toMatch(/^Ania: Test: Matematyka[\s\S]*24\.11 08:55: Sprawdzian: ułamki/);
    // The moved test says from which day to which; the cancelled quiz says so; quizzes only: the quiz alone.
    const types = events('test').map((c) => c.to.attributes.event_type);
    expect(types).toEqual(expect.arrayContaining(['test', 'test_changed', 'test_removed']));
    const said = (type: string) => tests.find((r) => r.acted && r.change.to.attributes.event_type === type)!.texts.join('\n');
    expect(said('test_changed')).toMatch(/Test moved: Matematyka[\s\S]*\d\d\.11 → 27\.11 08:55: Sprawdzian: ułamki zwykłe/);
    expect(said('test_removed')).toMatch(/Quiz cancelled: Przyroda[\s\S]*09:50: Kartkówka/);
    expect(actedOn(await outcome('new_test.yaml', { test_event: 'event.ania_test', kinds: ['quiz'] }))).toEqual(
      events('test').filter((c) => c.to.attributes.kind === 'quiz'),
    );
    expect(actedOn(await outcome('new_test.yaml', { test_event: 'event.ania_test', changes: false }))).toEqual(
      events('test').filter((c) => c.to.attributes.event_type === 'test'),
    );

    // A new message with its preview, with and without the Open action.
    const message = await outcome('new_message.yaml', { message_event: 'event.ania_message', open_message_button: 'button.ania_open_message' });
    expect(actedOn(message)).toEqual(events('message').filter((c) => c.to.attributes.mailbox === 'inbox'));
    const texts = message.find((r) => r.acted)!.texts;
    expect(texts.join('\n')).toContain(String(events('message')[0]!.to.attributes.topic));
    expect(texts).toContain('D2M_OPEN_01JDZIENNIK2MQTTCONTEXT');
    expect(actedOn(await outcome('new_message.yaml', { message_event: 'event.ania_message' }))).toEqual(actedOn(message));

    // Refresh the calendars: plan changes, tests and free days of the chosen events, not grades.
    const refresh = await outcome('refresh_calendars.yaml', {
      events: ['event.ania_plan_change', 'event.ania_test', 'event.ania_free_day', 'event.ania_grade'],
      calendars: ['calendar.ania_lekcje'],
    });
    expect(actedOn(refresh)).toEqual([...events('plan_change'), ...events('test'), ...events('free_day')]);

    // The school's decision: the excuse decided now, not the one accepted before the bridge's first read.
    expect(events('justification').map((c) => [c.to.attributes.id, c.to.attributes.status])).toEqual([['5599', 'accepted']]);
    const justification = await outcome('justification.yaml', { justification_event: 'event.ania_justification' });
    expect(actedOn(justification)).toEqual(events('justification'));
    expect(justification.find((r) => r.acted)!.texts.join('\n')).toMatch(
      /^Ania: ✅ Usprawiedliwienie przyjęte\n16\.11: lekcja 2 \(\S+.*\), lekcja 3 /,
    );
    expect(actedOn(await outcome('justification.yaml', { justification_event: 'event.ania_justification', statuses: ['rejected'] }))).toEqual([]);
    // An announcement and a school file, each by its own blueprint.
    expect(actedOn(await outcome('new_notice.yaml', { notice_event: 'event.ania_notice' }))).toEqual(events('notice'));
    const file = await outcome('school_file.yaml', { school_file_event: 'event.ania_school_file' });
    expect(actedOn(file)).toEqual(events('school_file'));
    expect(file.find((r) => r.acted)!.texts.join('\n')).toMatch(/Regulamin wycieczek\.pdf \(dodany 18\.11\)/);
  }, 240_000);

  it('do not notify again when the entity comes back after a restart or a reconnect', async () => {
    const last: HaState = eventEntityState(
      'event.ania_grade',
      { event_type: 'grade', subject: 'Matematyka', grade: '5' },
      '2026-11-18T08:00:00.000Z',
    );
    const unavailable: HaState = { ...last, state: 'unavailable', attributes: {} };
    const automation = bind(blueprint('new_grade.yaml'), { ...PHONE, grade_event: 'event.ania_grade' });
    expect((await runTriggerSide(automation, { from: last, to: unavailable })).triggered).toBe(false);
    expect((await runTriggerSide(automation, { from: unavailable, to: last })).triggered).toBe(false);
    expect(await runTriggerSide(automation, { from: { ...last, state: 'unknown' }, to: last })).toMatchObject({ triggered: true, passed: true });
  });
});
