// Edits and removals are news (interface 8.3), through the real bridge, the simulated portal and the
// real broker: a grade corrected in place, a test moved and one cancelled, an absence excused, each
// with its event type and `previous`; a removal only after two reads without the record; a restart
// in between forgets nothing.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import type { Harness } from '../helpers/app.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson.
const NOW = '2026-11-18T09:10:00+01:00';

const school = simulatedSchool(NOW);
const firstPass = () => school.firstPasses(['last_update', 'newest_grade', 'upcoming_tests', 'absences_unexcused']);
const reads = (endpoint: string): number => school.sim.count({ path: `/gateway/api/2.0/${endpoint}` });
const events = (h: Harness, kind: string): Record<string, unknown>[] =>
  h.rec.on(`${h.base}/ania/event/${kind}`).map((m) => JSON.parse(m.text) as Record<string, unknown>);
const ofType = (h: Harness, kind: string, type: string) => events(h, kind).filter((e) => e.event_type === type);

describe('edits and removals', () => {
  it('a grade corrected in place fires grade_changed with the previous grade, once', async () => {
    const h = await firstPass();
    school.sim.account(ANIA.login).editRecord('Grades', 210004, { Grade: '5-' });
    const before = reads('Grades');
    await h.advanceUntil(() => reads('Grades') > before, 'the next read of the grades', 20);
    expect(ofType(h, 'grade', 'grade_changed')).toEqual([
      expect.objectContaining({ id: 'grade:210004', grade: '5-', subject: 'Język polski', previous: { grade: '4' } }),
    ]);
    expect(ofType(h, 'grade', 'grade')).toEqual([]); // not a new grade
    await h.advanceMinutes(40);
    expect(events(h, 'grade')).toHaveLength(1);
  });

  it('a grade written with its comment fires once, the comment in its first event; a comment added later is grade_changed with previous', async () => {
    const h = await firstPass(); // the start read Grades/Comments: it is minutes old when the grade comes
    const account = school.sim.account(ANIA.login);
    account.addGrade({ subject: 5012, category: 301, grade: '6', comment: 'Świetna praca!' });
    await h.advanceUntil(() => events(h, 'grade').length > 0, 'the grade event', 6);
    expect(events(h, 'grade')).toEqual([
      expect.objectContaining({ event_type: 'grade', grade: '6', subject: 'Matematyka', comment: 'Świetna praca!', category: expect.any(String) }),
    ]);
    expect(h.attributes('ania', 'newest_grade')).toMatchObject({ comment: 'Świetna praca!' });

    // An older grade, not the newest, commented later: told as an edit, the comment reaching MQTT.
    account.addGradeComment(210004, 'Poprawa w piątek.');
    const before = reads('Grades');
    await h.advanceUntil(() => reads('Grades') > before, 'the next read of the grades', 6);
    expect(ofType(h, 'grade', 'grade_changed')).toEqual([
      expect.objectContaining({ id: 'grade:210004', comment: 'Poprawa w piątek.', previous: { comment: null } }),
    ]);
    await h.advanceMinutes(20);
    expect(events(h, 'grade').map((e) => e.event_type)).toEqual(['grade', 'grade_changed']);
  });

  it('an id the lookup still lacks after the read made for it: the grade fires without it, the lookup not asked again for 10 minutes', async () => {
    const h = await firstPass();
    const categories = reads('Grades/Categories');
    const grades = reads('Grades');
    school.sim.account(ANIA.login).addGrade({ subject: 5012, category: 999, grade: '2' });
    await h.advanceUntil(() => events(h, 'grade').length > 0, 'the grade event', 6);
    expect(events(h, 'grade')).toEqual([expect.objectContaining({ grade: '2', category: null })]);
    expect(reads('Grades/Categories')).toBe(categories + 1); // at once, in the pass that found the grade
    await h.advanceMinutes(9);
    expect(reads('Grades')).toBeGreaterThanOrEqual(grades + 2); // the grades were read meanwhile...
    expect(reads('Grades/Categories')).toBe(categories + 1); // ...the categories not
    await h.advanceUntil(() => reads('Grades/Categories') > categories + 1, 'the categories asked again once 10 minutes old', 3);
    expect(events(h, 'grade')).toHaveLength(1);
  });

  it('a test moved to another day fires test_changed with the previous date; a cancelled one test_removed after two reads', async () => {
    const h = await firstPass();
    const account = school.sim.account(ANIA.login);
    const tests = () => (h.attributes('ania', 'upcoming_tests')?.items ?? []) as { date: string; content: string }[];
    const fractions = tests().find((t) => t.content.startsWith('Sprawdzian: ułamki'));
    const quiz = tests().find((t) => t.content.startsWith('Kartkówka'));
    expect(fractions && quiz).toBeTruthy();
    account.editRecord('HomeWorks', 3301, { Date: '2026-11-27' });
    account.removeRecord('HomeWorks', 3302);

    // The removal changes the class calendar's ids, so the agenda is read again at the next pass.
    const before = reads('HomeWorks');
    await h.advanceUntil(() => reads('HomeWorks') > before, 'the agenda read after the edit', 20);
    expect(tests().map((t) => t.content)).not.toContain(quiz!.content);
    expect(ofType(h, 'test', 'test_removed')).toEqual([]); // one read without it is not enough
    expect(ofType(h, 'test', 'test_changed')).toEqual([
      expect.objectContaining({ date: '2026-11-27', subject: 'Matematyka', previous: { date: fractions!.date } }),
    ]);

    // A restart between the two reads keeps the first miss.
    // Counted before the restart: in process the restarted bridge's first pass may read the agenda before it returns.
    const again = reads('HomeWorks');
    await h.restart();
    await h.runUntil(() => reads('HomeWorks') > again, 'the agenda read after the restart');
    expect(ofType(h, 'test', 'test_removed')).toEqual([
      {
        event_type: 'test_removed',
        child: 'ania',
        child_name: 'Ania',
        date: quiz!.date,
        time: '09:50',
        subject: 'Przyroda',
        kind: 'quiz',
        category: 'Inne',
        description: quiz!.content,
      },
    ]);
    expect(ofType(h, 'test', 'test_changed')).toHaveLength(1);
    await h.advanceMinutes(80);
    expect(events(h, 'test').map((e) => e.event_type)).toEqual(['test_changed', 'test_removed']);
  });

  it('an absence excused later fires absence_changed with its previous type and kind', async () => {
    const h = await firstPass();
    const unexcused = Number(h.state('ania', 'absences_unexcused'));
    school.sim.account(ANIA.login).setAttendanceType('t4100231', 3);
    const before = reads('Attendances');
    // Attendance is read every poll.interval, within an eighth more (22.5 minutes).
    await h.advanceUntil(() => reads('Attendances') > before, 'the next read of the attendance', 23);
    expect(Number(h.state('ania', 'absences_unexcused'))).toBe(unexcused - 1);
    expect(ofType(h, 'absence', 'absence_changed')).toEqual([
      expect.objectContaining({ id: 't4100231', type: 'Nieobecność uspr.', kind: 'excused', previous: { type: 'Nieobecność', kind: 'unexcused' } }),
    ]);
  });

  it('a portal hiccup that drops a grade for one read removes nothing; gone for two reads, it is removed', async () => {
    const h = await firstPass();
    const account = school.sim.account(ANIA.login);
    // One grade missing from one answer (more than 20 at once would be kept quiet anyway).
    const dropped = account.editRecord('Grades', 210004, {});
    account.removeRecord('Grades', 210004);
    const before = reads('Grades');
    await h.advanceUntil(() => reads('Grades') > before, 'the read of the empty list', 20);
    account.addRecord('Grades', dropped);
    const after = reads('Grades');
    await h.advanceUntil(() => reads('Grades') > after, 'the read of the list back', 20);
    await h.advanceMinutes(40);
    expect(events(h, 'grade')).toEqual([]);

    // Counted in reads, not minutes: while lessons are on the fetch plan reads grades every few minutes.
    account.removeRecord('Grades', 210004);
    const gone = reads('Grades');
    await h.advanceUntil(() => reads('Grades') > gone, 'the first read without it', 20);
    await h.advanceMinutes(1);
    expect(events(h, 'grade')).toEqual([]);
    await h.advanceUntil(() => reads('Grades') > gone + 1, 'the second read without it', 20);
    await h.advanceMinutes(1);
    expect(events(h, 'grade')).toEqual([
      {
        event_type: 'grade_removed',
        child: 'ania',
        child_name: 'Ania',
        grade: '4',
        subject: 'Język polski',
        category: expect.any(String),
        date: expect.any(String),
      },
    ]);
  });
});
