// A lesson moved to another day (live-notes 11), against the real bridge and broker: the slot it
// leaves is `shifted` (not cancelled) saying where it goes, even with the target week not fetched;
// the day it arrives shows it as shifted from its old slot, saying where from; the event and the lessons feed say so.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { parseCalendarFeed } from '../helpers/ics.js';
import { simulatedSchool } from '../helpers/school.js';
import { freePort } from '../helpers/ports.js';
import { WEB } from '../../src/outputs/web/output.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// Thursday morning before lessons; Thursday's lesson 3 (Matematyka) moves to next Thursday, lesson 8.
const NOW = '2026-11-19T07:30:00+01:00';
const MOVE = { from: { date: '2026-11-19', lessonNo: 3 }, to: { date: '2026-11-26', lessonNo: 8 } };

const school = simulatedSchool(NOW);
const weekReads = (monday: string): number => school.sim.requests.filter((r) => r.path.endsWith('/Timetables') && r.query.includes(monday)).length;

describe('a lesson moved elsewhere', () => {
  it('is shifted on the day it leaves and on the day it arrives, in the event and in the calendar feed', async () => {
    // The web server on: it serves the lessons feed from what the passes published.
    const h = await school.firstPasses(['timetable_today', 'plan_changes_today'], { http: { port: await freePort() } });
    // Moved after the first pass, which primes the event memory. Nothing in the class calendar says so,
    // so the week is read again within three hours.
    school.sim.account(ANIA.login).moveLesson(MOVE);
    await h.advanceMinutes(180);

    // The day it leaves; the states need only this week (the next school day is Friday).
    const today = h.attributes('ania', 'timetable_today') as { lessons: Record<string, unknown>[] };
    const slot = today.lessons.find((l) => l.no === 3)!;
    expect(slot).toMatchObject({ subject: 'Matematyka', change: 'shifted', moved_to: { date: '2026-11-26', lesson_no: 8, hours: '14:35-15:20' } });
    expect(slot.note).toBe('przeniesiona na czw. 26.11, lekcja 8');
    expect(h.state('ania', 'timetable_today')).toBe(String(today.lessons.filter((l) => l.change !== 'cancelled' && l.change !== 'shifted').length));
    expect(h.state('ania', 'plan_changes_today')).toBe('2'); // with the fixture's substitution in lesson 2
    const change = {
      date: '2026-11-26',
      lesson_no: 8,
      hours: '14:35-15:20',
      kind: 'shifted',
      subject: 'Matematyka',
      original_date: '2026-11-19',
      original_lesson_no: 3,
      original_hours: '09:50-10:35',
      original_subject: 'Matematyka',
    };
    expect((h.attributes('ania', 'plan_changes_today') as { changes: unknown[] }).changes).toEqual([
      expect.objectContaining({ lesson_no: 2, kind: 'substitution' }),
      expect.objectContaining(change),
    ]);
    expect(h.state('ania', 'lessons_start_today')).toBe('2026-11-19T08:55:00+01:00');
    const moved = () =>
      h.rec
        .on(`${h.base}/ania/event/plan_change`)
        .map((m) => JSON.parse(m.text) as Record<string, unknown>)
        .filter((e) => e.kind === 'shifted');
    expect(moved()).toEqual([expect.objectContaining({ event_type: 'plan_change', ...change })]);
    expect(h.state('ania', 'problem')).toBe('OFF');

    // The lessons feed: the old slot says where it went.
    const lessons = parseCalendarFeed(h.app.outputOf(WEB)!.snapshot.calendarFeedSource('ania', 'lessons', 'pl')!.body).events;
    const left = lessons.find((e) => e.start === new Date('2026-11-19T09:50:00+01:00').toISOString())!;
    expect(left.summary).toBe('Matematyka (przeniesiona na czw. 26.11, lekcja 8)');
    expect(left.status).toBe('CANCELLED');

    // A week later: the day it arrives.
    school.clock.set('2026-11-26T07:30:00+01:00');
    const before = weekReads('2026-11-23');
    await h.advanceMinutes(21);
    await h.runUntil(() => weekReads('2026-11-23') > before, 'the new week read');
    const arrival = (h.attributes('ania', 'timetable_today') as { lessons: Record<string, unknown>[] }).lessons.find((l) => l.no === 8)!;
    // It says where it came from, as the slot it left said where it went, and so does the plan change.
    const from = 'przeniesiona z czw. 19.11, lekcja 3';
    expect(arrival).toMatchObject({ subject: 'Matematyka', change: 'shifted', from: '14:35', note: from });
    expect(arrival.moved_from).toEqual({ date: '2026-11-19', lesson_no: 3, hours: '09:50-10:35' });
    const shifts = (h.attributes('ania', 'plan_changes_today') as { changes: { kind: string }[] }).changes.filter((c) => c.kind === 'shifted');
    expect(shifts).toEqual([
      expect.objectContaining({ lesson_no: 8, kind: 'shifted', original_date: '2026-11-19', original_lesson_no: 3, words: from }),
    ]);
    expect(moved()).toHaveLength(1);
    const arrived = parseCalendarFeed(h.app.outputOf(WEB)!.snapshot.calendarFeedSource('ania', 'lessons', 'pl')!.body).events.find(
      (e) => e.start === new Date('2026-11-26T14:35:00+01:00').toISOString(),
    )!;
    // Where it came from, as timetable_*'s note says it on the screens.
    expect(arrived.summary).toBe('Matematyka (przeniesiona z czw. 19.11, lekcja 3)');
    expect(arrived.description).toContain('przeniesiona z czw. 19.11, lekcja 3');
    expect(arrived.status).toBe('CONFIRMED');
  });
});
