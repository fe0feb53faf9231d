// Only what the account has (issue 59, item 3; interface 12.2), against the real bridge, the simulated
// portal and the real broker: a child whose modules the portal refuses (403, 404, 200 Status Disabled)
// shows no made-up value (a count of a refused list is None, never 0; a flag of a missing module is None,
// never OFF), and a module refused for a day leaves discovery, to come back when it answers.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, type ModuleStatus } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';
import type { Harness } from '../helpers/app.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson.
const NOW = '2026-11-18T09:10:00+01:00';

const school = simulatedSchool(NOW);

/** The modules a preschool child's account lacks (live-notes 33), each refused in one of the portal's ways. */
const REFUSED: Record<string, ModuleStatus> = {
  Grades: 403,
  PointGrades: 403,
  BaseTextGrades: 404,
  DescriptiveGrades: 403,
  'BehaviourGrades/Points': 'disabled',
  HomeWorks: 403,
  HomeWorkAssignments: 'disabled',
  SchoolNotices: 404,
  Timetables: 403,
  'Calendars/Substitutions': 403,
};

/** The entities of those modules: every list each is made from is refused. */
const GONE = [
  ['homework_due', 'sensor'],
  ['upcoming_tests', 'sensor'],
  ['next_test', 'sensor'],
  ['newest_grade', 'sensor'],
  ['average', 'sensor'],
  ['grade_at_risk', 'binary_sensor'],
  ['behaviour', 'sensor'],
  ['lucky_number', 'sensor'],
  ['lucky_today', 'binary_sensor'],
  ['unread_notices', 'sensor'],
  ['newest_notice', 'sensor'],
  ['mark_notices_read', 'button'],
  ['grade', 'event'],
  ['homework', 'event'],
  ['test', 'event'],
  ['behaviour_grade', 'event'],
  ['lucky', 'event'],
  ['notice', 'event'],
  ['plan_changes_today', 'sensor'],
  ['plan_changes_tomorrow', 'sensor'],
  ['plan_change', 'event'],
] as const;
/** What the account still has: the messages, the attendance, the lessons held, the agenda's other entries, the plan. */
const KEPT = ['unread_messages', 'absences_unexcused', 'lesson_topics', 'catch_up', 'agenda', 'timetable_today', 'problem'];

const DAY_MINUTES = 24 * 60;

/** The child's device config as the broker holds it: its components by key. */
function components(h: Harness): Record<string, Record<string, unknown>> {
  const config = h.rec.last(`${h.prefix}/device/${h.base}_ania/config`);
  return (JSON.parse(config!.text) as { cmps: Record<string, Record<string, unknown>> }).cmps;
}

function refuse(on: boolean): void {
  const account = school.sim.account(ANIA.login);
  for (const [endpoint, status] of Object.entries(REFUSED)) account.setModuleStatus(endpoint, on ? status : null);
  account.setLuckyForm(on ? 'disabled' : 'object');
}

describe('a child whose modules the portal refuses', () => {
  it('shows no made-up value: the counts of refused lists and the flags of missing modules are None', async () => {
    refuse(true);
    const h = await school.firstPasses(['last_update', 'homework_due', 'upcoming_tests', 'grade_at_risk', 'lucky_today', 'unread_notices']);
    for (const key of [
      'homework_due',
      'upcoming_tests',
      'unread_notices',
      'grade_at_risk',
      'lucky_today',
      'at_school',
      'behaviour',
      'newest_grade',
      'average',
      // Without the timetable nothing is known of the lessons (not "no lessons in the days ahead"), nor of the plan's changes.
      'briefing',
      'plan_changes_today',
      'plan_changes_tomorrow',
    ])
      expect([key, h.state('ania', key)]).toEqual([key, 'None']);
    // What the account has is read as ever.
    expect(Number(h.state('ania', 'unread_messages'))).toBeGreaterThanOrEqual(0);
    expect(h.state('ania', 'problem')).toBe('OFF');
  });
});

describe('a module the portal refuses for a day', () => {
  it('leaves discovery (its components reduced to their platform, its states emptied), stays gone through a restart and comes back when it answers', async () => {
    refuse(true);
    // Every tier every 20 minutes: a refusal lasts a day whatever the passes between, and a pass every 20
    // minutes still asks a refused list again if anything does (the file's CPU alone: 15 s -> 10 s).
    const h = await school.firstPasses(['last_update', 'homework_due', 'grade_at_risk'], { poll: { fast_interval: '20m', school_interval: '20m' } });
    // One refusal is not a day of them: everything is still announced.
    for (const [key] of GONE) expect([key, Object.keys(components(h)[key] ?? {}).length > 1]).toEqual([key, true]);

    await h.advanceMinutes(DAY_MINUTES + 10); // the daily look at the refused lists: refused again
    const gone = components(h);
    for (const [key, platform] of GONE) expect([key, gone[key]]).toEqual([key, { p: platform }]);
    for (const key of KEPT) expect([key, typeof gone[key]?.unique_id]).toEqual([key, 'string']);
    // Their retained states are emptied; what the account has goes on.
    for (const key of ['homework_due', 'grade_at_risk', 'lucky_today', 'unread_notices']) expect([key, h.state('ania', key)]).toEqual([key, '']);
    expect(h.state('ania', 'problem')).toBe('OFF');
    // No request refused more than once an hour: the refused lists once a day, the plan (two weeks) hourly.
    for (const endpoint of Object.keys(REFUSED).filter((e) => e !== 'Timetables')) expect([endpoint, school.reads(endpoint)]).toEqual([endpoint, 2]);
    expect(school.reads('LuckyNumbers')).toBe(2);
    expect(school.reads('Timetables')).toBeLessThanOrEqual(2 * 26);

    // A restart knows what the portal refuses: the first pass announces none of it again (Home Assistant
    // removed the components already, so the new run's config leaves them out).
    await h.restart();
    await h.runUntil(() => h.requestCounts(0).get('GET Grades') === 1, 'the first pass after the restart');
    await h.advanceMinutes(5);
    const restarted = components(h);
    for (const [key] of GONE) expect([key, restarted[key]?.unique_id]).toEqual([key, undefined]);
    for (const key of KEPT) expect([key, typeof restarted[key]?.unique_id]).toEqual([key, 'string']);

    // The school opens the modules: at their next daily look the entities come back, with their states.
    refuse(false);
    await h.advanceMinutes(DAY_MINUTES + 10);
    const back = components(h);
    for (const [key, platform] of GONE) expect([key, back[key]?.p, typeof back[key]?.unique_id]).toEqual([key, platform, 'string']);
    for (const key of ['homework_due', 'upcoming_tests', 'unread_notices'])
      expect([key, Number.isInteger(Number(h.state('ania', key)))]).toEqual([key, true]);
    expect(h.state('ania', 'grade_at_risk')).toMatch(/^(ON|OFF)$/);
    expect(h.state('ania', 'lucky_today')).toMatch(/^(ON|OFF)$/);
    expect(h.state('ania', 'newest_grade')).not.toMatch(/^(None)?$/);
    expect(h.state('ania', 'average')).toMatch(/^\d\.\d\d$/);
  }, 240_000); // two simulated days of passes and a restart
});
