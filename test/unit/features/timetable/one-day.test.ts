// One child's day as every screen shows it (issue 73 item 2, issue 71): the timetable feature says each lesson's change
// in words and the day's span once, and the board, the dashboard and the briefing print the same. A Tuesday with a
// substitution, a cancelled lesson, a lesson moved to Thursday and an extra class after the plan's last lesson,
// through the real schemas, schedule() and renderTimetable; the dashboard's card rendered by Jinja2 as Home Assistant does.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { otherActivitiesResponse, substitutionsResponse, timetablesResponse } from '../../../../src/portal/schemas/timetable.js';
import { schedule } from '../../../../src/school/schedule.js';
import { briefing } from '../../../../src/school/briefing.js';
import { BRIEFING_TEXT } from '../../../../src/i18n/briefing-text.js';
import { renderTimetable } from '../../../../src/features/timetable/states.js';
import { boardModel } from '../../../../src/web/board-model.js';
import { dashboardYaml } from '../../../../src/ha/dashboard.js';
import { ENTITIES } from '../../../../src/features/index.js';
import type { EntityState } from '../../../../src/feature-kit/state.js';
import { warsawInstant } from '../../../../src/util/time.js';
import { renderTemplates, skipWithoutJinja } from '../../../helpers/blueprints.js';
import { BELL, lessonAt, names } from '../../school/fixtures.js';

const lesson = lessonAt(BELL);
const TUESDAY = '2026-03-10';
const days = timetablesResponse.parse({
  Timetable: {
    [TUESDAY]: [
      [lesson(1, 1, 10, 100)],
      [lesson(2, 2, 12, null, { IsSubstitutionClass: true, OrgSubject: { Id: '1' }, OrgTeacher: { Id: '10' }, OrgClassroom: { Id: '100' } })],
      [lesson(3, 3, 10, 101, { IsCanceled: true })],
      [lesson(4, 1, 10, 100, { NewDate: '2026-03-12', NewLessonNo: '6' })],
    ],
    '2026-03-11': [[lesson(1, 2, 12, 100)]],
    '2026-03-12': [
      [lesson(1, 1, 10, 100)],
      // Tuesday's lesson 4 as it arrives: a substitution whose Org* are the slot it left (live-notes 11).
      [lesson(6, 1, 10, 100, { IsSubstitutionClass: true, OrgDate: TUESDAY, OrgLessonNo: '4', OrgSubject: { Id: '1' }, OrgTeacher: { Id: '10' } })],
    ],
  },
}).Timetable;
const substitutions = substitutionsResponse.parse({
  Substitutions: [
    { Id: 9, OrgDate: TUESDAY, OrgLessonNo: 4, OrgSubject: { Id: 1 }, Date: '2026-03-12', LessonNo: 6, Subject: { Id: 1 }, IsShifted: true },
  ],
}).Substitutions;
const extra = otherActivitiesResponse.parse({
  data: [{ status: 'ACTUAL', date: TUESDAY, startTime: '13:40', endTime: '14:25', title: 'Koło matematyczne', teacherName: 'Zieliński Tomasz' }],
}).data;

const NOTES = [null, 'zastępstwo · zamiast: Matematyka', 'odwołana', 'przeniesiona na czw. 12.03, lekcja 6', 'zajęcia dodatkowe'];

const THURSDAY = '2026-03-12';
const THURSDAY_NOTES = [null, 'przeniesiona z wt. 10.03, lekcja 4'];

const stateAt = (time: string, date = TUESDAY) => schedule({ days, substitutions, extra, free: {}, names, now: warsawInstant(date, time) });

function boardAt(time: string, date = TUESDAY) {
  const states = new Map<string, EntityState>(Object.entries(renderTimetable(stateAt(time, date), 'pl')) as [string, EntityState][]);
  const view = { id: 'ania', name: 'Ania', model: 'Klasa 4b', online: true, states, changedAt: warsawInstant(date, time) };
  return boardModel([view], 'pl', warsawInstant(date, time)).children[0]!;
}

/** The family view's today card, rendered with the feature's states as Home Assistant holds them; character references read back. */
async function dashboardAt(time: string, date = TUESDAY, timetable = true): Promise<string> {
  const doc = parse(dashboardYaml([{ id: 'ania', name: 'Ania', entities: ENTITIES }], 'pl'), { version: '1.1' }) as {
    views: { path: string; sections: { cards: Record<string, unknown>[] }[] }[];
  };
  const cards = doc.views.find((v) => v.path === 'family')!.sections.flatMap((s) => s.cards);
  const template = cards.find((c) => c.type === 'markdown' && (c.content as string).includes('set current_lesson = "sensor.'))!.content as string;
  const rendered = renderTimetable(stateAt(time, date), 'pl');
  const states = {
    ...(timetable ? { 'sensor.ania_timetable_today': rendered.timetable_today } : {}),
    'sensor.ania_plan_changes_today': rendered.plan_changes_today,
  } as unknown as Record<string, { state: string; attributes: Record<string, unknown> }>;
  const [result] = await renderTemplates([{ template, variables: {}, states, strict: true, now: `${date}T${time}:00+01:00` }]);
  if (!result || 'error' in result) throw new Error(`template failed: ${JSON.stringify(result)}`);
  return (result.value as string).replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

describe('one day on every screen', () => {
  it('the feature says each change and the span once: extra classes count in the span and the count', () => {
    const states = renderTimetable(stateAt('07:30'), 'pl');
    expect(states.timetable_today.attributes.lessons?.map((l) => l.note)).toEqual(NOTES);
    expect(states.timetable_today.attributes.hours).toEqual({ from: '08:00', to: '14:25' });
    expect(states.timetable_today.state).toBe('3');
    expect(states.school_day_today.attributes.lessons).toBe(3);
    expect(states.lessons_end_today.state).toBe(`${TUESDAY}T14:25:00+01:00`);
  });

  it('a lesson moved in says where it came from, as the slot it left says where it went; each plan change in the same words', () => {
    const tuesday = renderTimetable(stateAt('07:30'), 'pl');
    const thursday = renderTimetable(stateAt('07:30', THURSDAY), 'pl');
    const arrived = thursday.timetable_today.attributes.lessons![1]!;
    expect(arrived).toMatchObject({
      no: 6,
      subject: 'Matematyka',
      change: 'shifted',
      moved_from: { date: TUESDAY, lesson_no: 4, hours: '10:45-11:30' },
    });
    expect(arrived.moved_to).toBeUndefined();
    expect(thursday.timetable_today.attributes.lessons!.map((l) => l.note)).toEqual(THURSDAY_NOTES);
    // The plan changes say what the slots say, the extra class (no plan change) aside.
    expect(tuesday.plan_changes_today.attributes.changes!.map((c) => c.words)).toEqual(NOTES.slice(1, 4));
    expect(thursday.plan_changes_today.attributes.changes!.map((c) => c.words)).toEqual([THURSDAY_NOTES[1]]);
    expect(thursday.plan_changes_today.attributes.changes![0]).toMatchObject({ kind: 'shifted', lesson_no: 6, original_date: TUESDAY });
  });

  it('the board prints the same notes, and shows the day until the extra class ends', () => {
    expect(boardAt('07:30', THURSDAY).day?.lessons.map((l) => l.note)).toEqual(THURSDAY_NOTES);
    expect(boardAt('07:30').day?.lessons.map((l) => l.note)).toEqual(NOTES);
    expect(boardAt('14:20').day?.date).toBe(TUESDAY);
    expect(boardAt('14:30').day?.date).toBe('2026-03-11');
  });

  it('the briefing says the same span and count', () => {
    const s = stateAt('07:30');
    const at = (time: string) =>
      briefing({
        now: warsawInstant(TUESDAY, time),
        today: TUESDAY,
        days: [s.today],
        tests: [],
        homework: [],
        lucky: undefined,
        registerNumber: undefined,
      });
    expect(BRIEFING_TEXT.pl(at('07:30')).state).toMatch(/^Dziś 8:00–14:25, 3 lekcje\./);
    // Still today's while the extra class goes on, as the board.
    const during = at('14:20');
    expect(during?.day).toBe(TUESDAY);
  });

  it.skipIf(skipWithoutJinja())('the dashboard prints the same notes under the same span (python3-jinja2)', async () => {
    const today = await dashboardAt('07:30');
    expect(today).toContain('### Wtorek 10.03 · 08:00–14:25');
    for (const note of NOTES.filter((n) => n !== null)) expect(today).toContain(`_(${note})_`);
    // A lesson without a change has no note: its line ends with its subject.
    expect(today).toMatch(/^1\\\. 08:00 Matematyka$/m);
    // The timetable's lines say every change, both ends of a move included: no second list beside them.
    expect(today).not.toContain('Zmiany:');
    const thursday = await dashboardAt('07:30', THURSDAY);
    expect(thursday).toContain(`6\\. 12:40 Matematyka _(${THURSDAY_NOTES[1]})_`);
    expect(thursday).not.toContain('Zmiany:');
  });

  it.skipIf(skipWithoutJinja())('without a timetable the dashboard lists each plan change in the same words (python3-jinja2)', async () => {
    const today = await dashboardAt('07:30', TUESDAY, false);
    expect(today).toContain(
      [
        '**Zmiany:**',
        '- **2.** 08:55-09:40 Język polski: zastępstwo · zamiast: Matematyka',
        '- **3.** 09:50-10:35 Wychowanie fizyczne: odwołana',
        '- **4.** 10:45-11:30 Matematyka: przeniesiona na czw. 12.03, lekcja 6',
      ].join('\n'),
    );
    expect(await dashboardAt('07:30', THURSDAY, false)).toContain('- **6.** 12:40-13:25 Matematyka: przeniesiona z wt. 10.03, lekcja 4');
  });
});
