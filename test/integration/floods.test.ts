// A bulk change is news (issue 36, item 2), through the real bridge, the simulated portal and the real
// broker: 25 grades entered at once on a running bridge fire one `grade` event with `count` and the first
// entries, which the blueprints turn into one sensible notification. The same at the first read after a
// start (interface 18.4): a flood given while the bridge was stopped is told; only one older than a day is
// remembered quietly, with a log line, and what comes after it fires as usual.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import type { FiredPayload } from '../../src/features/kit/contract.js';
import type { gradeEvent } from '../../src/features/grades/grades.js';
import {
  bind,
  eventEntityState,
  loadBlueprint,
  renderActionTemplates,
  runTriggerSide,
  skipWithoutJinja,
  type HaState,
} from '../helpers/blueprints.js';
import type { Harness } from '../helpers/app.js';
import { simulatedSchool } from '../helpers/school.js';
import { LogSink } from '../helpers/faults.js';
import { DAY } from '../../src/util/duration.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson.
const NOW = '2026-11-18T09:10:00+01:00';
const FOLDER = fileURLToPath(new URL('../../blueprints/automation/dziennik2mqtt/', import.meta.url));
const PHONE = { notify_device: '0123456789abcdef0123456789abcdef' };
// Matematyka, Język polski, Przyroda, Historia, Język angielski: a tutor's week of grades.
const SUBJECTS = [5012, 5011, 5014, 5013, 5015];

const school = simulatedSchool(NOW);
const reads = (endpoint: string): number => school.reads(endpoint);
const gradeEvents = (h: Harness) =>
  h.rec
    .on(`${h.base}/ania/event/grade`)
    .map((m) => ({ bytes: Buffer.byteLength(m.text), event: JSON.parse(m.text) as FiredPayload<typeof gradeEvent> & { event_type: string } }));

function enterGrades(count: number): void {
  const account = school.sim.account(ANIA.login);
  for (let i = 0; i < count; i++) account.addGrade({ subject: SUBJECTS[i % SUBJECTS.length]!, category: 1, grade: String(2 + (i % 5)) });
}

async function nextGradesRead(h: Harness): Promise<void> {
  const before = reads('Grades');
  // Minute by minute (each pass done before the clock moves on), not one jump of the clock: a pass the
  // jump started would finish after it and plan the next one beyond every timer the test still moves.
  await h.advanceUntil(() => reads('Grades') > before, 'the next read of the grades', 20);
  await h.advanceMinutes(1);
}

/** The state change Home Assistant's event entity makes of a payload, and what a blueprint does with it. */
async function notification(
  file: string,
  inputs: Record<string, unknown>,
  entityId: string,
  payload: Record<string, unknown>,
  states: Record<string, HaState> = {},
) {
  const automation = bind(loadBlueprint(join(FOLDER, file)), { ...PHONE, ...inputs });
  const to = eventEntityState(entityId, payload, '2026-11-18T08:20:00.000Z');
  const run = await runTriggerSide(automation, { from: { ...to, state: 'unknown' }, to }, states);
  expect(run.errors, file).toEqual([]);
  const texts = run.passed ? await renderActionTemplates(automation, run.variables ?? {}, states) : [];
  for (const t of texts) expect(t.result, `${file} ${t.path}`).not.toHaveProperty('error');
  return { passed: run.passed === true, text: texts.map((t) => ('value' in t.result ? String(t.result.value) : '')).join('\n') };
}

describe('a flood on a running bridge', () => {
  it('25 grades at once fire one grade event with the count and the first ten; a phone gets one notification that says so', async () => {
    const h = await school.firstPasses(['last_update', 'newest_grade']);
    expect(gradeEvents(h)).toEqual([]); // the first run primes the memory
    enterGrades(25);
    await nextGradesRead(h);
    const fired = gradeEvents(h);
    expect(fired).toHaveLength(1);
    const { event, bytes } = fired[0]!;
    expect(event).toMatchObject({ event_type: 'grade', count: 25 });
    if (!('entries' in event)) throw new Error('not a flood');
    expect(event.entries).toHaveLength(10);
    expect(event.entries[0]).toMatchObject({ kind: 'grade', subject: expect.any(String), grade: expect.stringMatching(/^[2-6]$/) });
    expect(bytes).toBeLessThan(8 * 1024);
    // Nothing more for them later.
    await h.advanceMinutes(30);
    expect(gradeEvents(h)).toHaveLength(1);

    if (skipWithoutJinja()) return;
    const grade = await notification('new_grade.yaml', { grade_event: 'event.ania_grade' }, 'event.ania_grade', event);
    expect(grade.passed).toBe(true);
    expect(grade.text).toMatch(/^Ania: Nowe oceny: 25$/m);
    expect(grade.text).toMatch(/^\d \([^)]+\)(, \d \([^)]+\)){9} i 15 więcej$/m);
    expect(grade.text).not.toMatch(/None|undefined/);
    expect(
      (await notification('new_grade.yaml', { grade_event: 'event.ania_grade', subjects: ['Historia'] }, 'event.ania_grade', event)).passed,
    ).toBe(true);
    expect(
      (await notification('new_grade.yaml', { grade_event: 'event.ania_grade', subjects: ['Astronomia'] }, 'event.ania_grade', event)).passed,
    ).toBe(false);
  }, 120_000);

  it('25 grades given while the bridge was stopped ten minutes are one event with the count at the first read after the start, and a log line', async () => {
    const logs = new LogSink();
    const h = await school.firstPasses(['last_update', 'newest_grade'], { log: logs.logger('info') });
    await h.app.stop();
    enterGrades(25);
    await h.advanceMinutes(10);
    await h.restart();
    await h.runUntil(() => reads('Grades') > 0 && h.state('ania', 'newest_grade') !== undefined, 'the first pass after the start');
    await nextGradesRead(h);
    expect(gradeEvents(h).map((f) => f.event)).toEqual([expect.objectContaining({ event_type: 'grade', count: 25 })]);
    expect(logs.matching(/"msg":"flood: told as one event with its count"/)).toEqual([expect.stringContaining('"event":"grade","count":25')]);
  }, 120_000);

  it('a flood older than a day (the bridge stopped two days) is remembered quietly with a log line; the next grade fires as usual', async () => {
    const logs = new LogSink();
    const h = await school.firstPasses(['last_update', 'newest_grade'], { log: logs.logger('info') });
    enterGrades(25);
    // Stopped for two days (as a backup restored from two days ago would be).
    await h.app.stop();
    school.clock.set(school.clock.now() + 2 * DAY);
    await h.restart();
    await h.runUntil(() => reads('Grades') > 0 && h.state('ania', 'newest_grade') !== undefined, 'the first pass after the start');
    await nextGradesRead(h);
    expect(gradeEvents(h)).toEqual([]);
    expect(logs.matching(/back after more than a day/)).toEqual([expect.stringMatching(/"remembered":\{"grade":25\b.*"away_h":4[89]/)]);
    enterGrades(1);
    await nextGradesRead(h);
    expect(gradeEvents(h).map((f) => f.event)).toEqual([expect.objectContaining({ event_type: 'grade', kind: 'grade' })]);
  }, 120_000);
});

describe.skipIf(skipWithoutJinja())('a flood in the blueprints', () => {
  const entries = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
  it('a flood of tests, messages or plan changes gives one notification saying how many, and adds no to-do items', async () => {
    const tests = {
      event_type: 'test',
      count: 22,
      entries: entries(10, (i) => ({
        date: `2026-11-${20 + (i % 9)}`,
        time: '08:55',
        subject: 'Matematyka',
        kind: i % 2 ? 'quiz' : 'test',
        category: 'Sprawdzian',
        description: 'Rozdział 4',
        teacher: 'Piotr Wiśniewski',
      })),
    };
    const test = await notification('new_test.yaml', { test_event: 'event.ania_test', language: 'en' }, 'event.ania_test', tests);
    expect(test).toMatchObject({ passed: true });
    expect(test.text).toMatch(/^New tests: 22$/m);
    expect(test.text).toMatch(/Matematyka 20\.11, .* and 12 more$/m);
    expect((await notification('new_test.yaml', { test_event: 'event.ania_test', kinds: ['quiz'] }, 'event.ania_test', tests)).passed).toBe(true);
    expect(
      (
        await notification(
          'homework_todo.yaml',
          { homework_upcoming: 'sensor.ania_homework_upcoming', test_event: 'event.ania_test', todo_list: 'todo.ania' },
          'event.ania_test',
          tests,
        )
      ).passed,
    ).toBe(false);

    const messages = {
      event_type: 'message',
      count: 21,
      entries: entries(10, (i) => ({
        id: String(i),
        mailbox: 'inbox',
        sender: 'Anna Nowak',
        topic: `Temat ${i}`,
        preview: 'Dzień dobry',
        date: '2026-11-18T08:00:00+01:00',
        has_attachments: false,
      })),
    };
    const message = await notification('new_message.yaml', { message_event: 'event.ania_message' }, 'event.ania_message', messages);
    expect(message.passed).toBe(true);
    expect(message.text).toMatch(/Nowe wiadomości: 21/);
    expect(message.text).toContain('Temat 0; Temat 1');

    const tomorrow: HaState = { entity_id: 'sensor.ania_timetable_tomorrow', state: '6', attributes: { date: '2026-11-19' } };
    const changes = {
      event_type: 'plan_change',
      count: 30,
      entries: entries(10, (i) => ({
        date: '2026-11-19',
        lesson_no: i + 1,
        hours: '08:00-08:45',
        kind: 'cancelled',
        subject: 'Matematyka',
        teacher: null,
        room: null,
        original_date: null,
        original_subject: 'Matematyka',
        note: null,
      })),
    };
    const planChanges = await notification(
      'plan_change_tomorrow.yaml',
      { plan_change_event: 'event.ania_plan_change', timetable_tomorrow: tomorrow.entity_id },
      'event.ania_plan_change',
      changes,
      { [tomorrow.entity_id]: tomorrow },
    );
    expect(planChanges.passed).toBe(true);
    expect(planChanges.text).toMatch(/^Zmiany w planie: 30$/m);
    expect(planChanges.text).toMatch(/19\.11 1\. Matematyka, 19\.11 2\. Matematyka/);
  });
});
