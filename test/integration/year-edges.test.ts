// The real bridge across the school year's two other edges (issue 64 item 8), against the simulator and
// the real broker on the fake clock, on the register road and on the family road: one bridge per road,
// the clock moved through the edges in order. The semester's change (the 2026/27 year's first semester
// ends on Friday 29 January): the semester grade given that evening is news once; from Saturday's first
// pass and on 1 February the averages are the second semester's with the first one's kept beside them,
// `semester` the number 2, with no event (the semester without a 1 was over at 18:00, before the bridge's
// first start: already true, never told); a grade entered in February is news once. The summer (the last
// school day is Friday 25 June): the final grades entered meanwhile are news once each, beside May's full
// month without an absence and, that evening, Ania's second semester without a 1 (17.2); into the holidays
// and on a day in July no problem, no school day, the year's results still readable, and no event but
// June's full month. The children's records are held
// where they were laid out (the simulator's recordsHeldOn), so that nothing changes but what the test's
// teachers enter, as in a real register.
// Speed: the bridge reads hourly (poll.interval and fast_interval 60m; the edges are the same at any
// pace), runs through the semester's weekend and the summer's first night, and sleeps (the clock set
// forward, as a machine asleep) from February to the last school day and into July.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_FAMILY } from '../../src/simulator/index.js';
import type { Harness } from '../helpers/app.js';
import { SimulatedSchool } from '../helpers/school.js';

const [ANIA, JAN] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
// Ids in the simulator's school fixture.
const MATHS = 5012;
const HISTORY = 5015;
const TEST = 301; // Sprawdzian, weight 3
const ORAL = 303; // Odpowiedź ustna, weight 1
const TERM = 307; // Ocena śródroczna

// The semester's last day, in the evening; the records as they were that day.
const START = '2027-01-29T19:00:00+01:00';

const ROADS = {
  register: { accounts: [{ login: ANIA.login, password: ANIA.password }], children: ['ania'] },
  family: { accounts: [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }], children: ['ania', 'jan'] },
} as const;

// The school-day sensors, and what they say on a day of the summer.
const SUMMER = {
  school_day_today: 'OFF',
  school_day_tomorrow: 'OFF',
  lessons_start_today: 'None',
  lessons_end_today: 'None',
  lessons_start_tomorrow: 'None',
  timetable_today: '0',
  // The next school day is in a year the portal does not show yet.
  timetable_tomorrow: 'None',
  next_lesson: 'None',
  current_lesson: 'None',
  at_school: 'OFF',
};
const SCHOOL_DAY = Object.keys(SUMMER);

/** The events the bridge fired since message `from` of the recorder: "child/kind" and the payload. */
function firedSince(h: Harness, from: number): { event: string; payload: Record<string, unknown> }[] {
  return h.rec.messages
    .slice(from)
    .filter((m) => m.topic.startsWith(`${h.base}/`) && m.topic.includes('/event/'))
    .map((m) => ({ event: m.topic.slice(h.base.length + 1).replace('/event/', '/'), payload: JSON.parse(m.text) as Record<string, unknown> }));
}

/** The events the bridge fired since message `from`, as "child/kind event_type". */
function eventsSince(h: Harness, from: number): string[] {
  return firedSince(h, from).map(({ event, payload }) => `${event} ${String(payload.event_type)}`);
}

/** The achievements the bridge fired since message `from`, as "child kind date", in order. */
function achievementsSince(h: Harness, from: number): string[] {
  return firedSince(h, from).flatMap(({ event, payload }) =>
    event.endsWith('/achievement') ? [`${String(payload.child)} ${String(payload.kind)} ${String(payload.date)}`] : [],
  );
}

/** What the tests read of an average_<subject>'s attributes. */
type SubjectFacts = Record<string, unknown> & { previous_semester?: { percent?: number } };

/** The per-subject average sensors of a child the bridge published, by key, with their attributes. */
function subjectAverages(h: Harness, child: string): Map<string, SubjectFacts> {
  const topic = new RegExp(`^${h.base}/${child}/(average_[a-z0-9_]+)$`);
  const keys = new Set(h.rec.messages.map((m) => topic.exec(m.topic)?.[1]).filter((k): k is string => k !== undefined));
  return new Map([...keys].sort().map((k) => [k, (h.attributes(child, k) ?? {}) as SubjectFacts]));
}

describe.each(Object.entries(ROADS))('the year on the %s road', (_road, { accounts, children }) => {
  const school = new SimulatedSchool();
  let h: Harness;
  /** Where the recorder stood when the test began: its events are those after. */
  let mark = 0;
  const until = (iso: string) => h.advanceMinutes(Math.round((Date.parse(iso) - school.clock.now()) / 60_000));

  beforeAll(async () => {
    await school.open(START);
    for (const child of [ANIA, JAN]) school.sim.account(child.login).recordsHeldOn = START.slice(0, 10);
    h = await school.start({ accounts: accounts as never, poll: { interval: '60m', fast_interval: '60m' } });
    await h.runUntil(() => children.every((c) => h.state(c, 'average') !== undefined), 'the first passes');
  }, 60_000);
  afterAll(() => school.close());
  beforeEach(() => {
    mark = h.rec.messages.length;
  });

  it('the semester grade given on its last evening is news once, and counts in no average', { timeout: 60_000 }, async () => {
    expect(h.attributes('ania', 'average')).toMatchObject({ semester: 1 });
    expect(h.state('ania', 'average')).toBe('4.87');
    school.sim.account(ANIA.login).addGrade({ subject: HISTORY, category: TERM, grade: '5', period: 'semester' });
    await h.advanceUntil(() => h.attributes('ania', 'average_historia')?.semester_grade === '5', 'the semester grade', 120);
    expect(eventsSince(h, mark)).toEqual(['ania/grade grade']);
    expect(h.state('ania', 'average')).toBe('4.87');
    expect(h.attributes('ania', 'average_historia')).toMatchObject({ semester: 1, count: 2, semester_grade: '5' });
  });

  it("from the semester's last evening to 1 February: the second semester, the first one's averages beside it, no flood", {
    timeout: 60_000,
  }, async () => {
    // The first semester as its last day ended: each subject's average (or a percentage) and grades counted.
    const first = subjectAverages(h, 'ania');
    const figures = new Map([...first.keys()].map((key) => [key, Number(h.state('ania', key))]));
    const overall = Number(h.state('ania', 'average'));
    const secondSemesterKeepsTheFirst = (): void => {
      expect(h.state('ania', 'average')).toBe('None');
      expect(h.attributes('ania', 'average')).toMatchObject({ semester: 2, previous_semester: { semester: 1, average: overall, count: 23 } });
      const second = subjectAverages(h, 'ania');
      expect([...second.keys()]).toEqual([...first.keys()]);
      for (const [key, before] of first) {
        const after = second.get(key)!;
        expect(h.state('ania', key), key).toBe('None');
        expect(after, key).toMatchObject({ semester: 2, count: 0 });
        expect(after.semester_grade, key).toBe(before.semester_grade);
        // A subject graded in points only keeps its percentage.
        const kept = after.previous_semester?.percent === undefined ? { average: figures.get(key) } : { percent: figures.get(key) };
        expect(after.previous_semester, key).toMatchObject({ semester: 1, count: before.count, ...kept });
      }
      expect(second.get('average_historia')).toMatchObject({ semester_grade: '5', previous_semester: { semester: 1, average: 5.25, count: 2 } });
      for (const child of children) expect(h.state(child, 'problem'), child).toBe('OFF');
      // Nothing: the first semester, without a 1, was over at 18:00, before the bridge's first start at 19:00.
      expect(eventsSince(h, mark)).toEqual([]);
    };
    // Saturday's first pass: the portal's first semester ended on Friday.
    await until('2027-01-30T06:05:00+01:00');
    secondSemesterKeepsTheFirst();
    // Monday 1 February, the first pass of the second semester's first school day.
    await until('2027-02-01T06:05:00+01:00');
    for (const child of children) expect(h.state(child, 'last_read'), child).toMatch(/^2027-02-01T06:0\d/);
    secondSemesterKeepsTheFirst();
  });

  it('a grade entered in February is news once and makes the new average', { timeout: 60_000 }, async () => {
    await until('2027-02-01T09:00:00+01:00');
    school.sim.account(ANIA.login).addGrade({ subject: MATHS, category: ORAL, grade: '4' });
    await h.advanceUntil(() => h.state('ania', 'average_matematyka') === '4.00', "February's grade", 120);
    expect(eventsSince(h, mark)).toEqual(['ania/grade grade']);
    expect(h.state('ania', 'average')).toBe('4.00');
    expect(h.attributes('ania', 'average_matematyka')).toMatchObject({ semester: 2, count: 1, previous_semester: { semester: 1 } });
  });

  it("the final grades entered in June are news, and the last school day has the year's results", { timeout: 60_000 }, async () => {
    const account = school.sim.account(ANIA.login);
    // Entered while the bridge's host slept from February to the last week of June.
    const entered = (subject: number, category: number, grade: string, day: string, period?: 'final_proposal' | 'final') =>
      account.addGrade({ subject, category, grade, date: day, addDate: `${day} 12:00:00`, ...(period ? { period } : {}) });
    entered(MATHS, TEST, '5', '2027-06-01');
    entered(MATHS, TERM, '5', '2027-06-11', 'final_proposal');
    entered(MATHS, TERM, '5', '2027-06-23', 'final');
    entered(HISTORY, TERM, '6', '2027-06-23', 'final');
    school.clock.set(Date.parse('2027-06-25T16:00:00+02:00'));
    await until('2027-06-25T18:00:00+02:00');
    // One event for each grade a teacher entered, and maths' forecast lifted by its 5 (4.75: a 5); May, which the
    // bridge's host slept through, a month without an absence for each child; and at 18:00 the second semester over,
    // Ania's without a 1 (Jan's had no grade). Nothing else.
    const achievements = [...children.map((c) => `${c} full_month 2027-05-31`), 'ania semester_without_one 2027-06-25'];
    expect(eventsSince(h, mark).sort()).toEqual(
      [
        ...Array(4).fill('ania/grade grade'),
        'ania/forecast_changed forecast_changed',
        ...achievements.map((a) => `${a.split(' ')[0]}/achievement achievement`),
      ].sort(),
    );
    expect(achievementsSince(h, mark).sort()).toEqual(achievements.sort());
    expect(JSON.parse(h.rec.last(`${h.base}/ania/event/forecast_changed`)!.text)).toMatchObject({
      subject: 'Matematyka',
      forecast: '5',
      average: 4.75,
    });
    yearsResults();
    // Still a school day (its lessons over): the summer begins tomorrow.
    for (const child of children) expect([h.state(child, 'school_day_today'), h.state(child, 'school_day_tomorrow')], child).toEqual(['ON', 'OFF']);
    for (const child of children) expect(h.state(child, 'problem'), child).toBe('OFF');
  });

  /** Ania's year as it ended: the second semester's averages and the final grades, the first semester's beside. */
  function yearsResults(): void {
    // Maths this semester: 4 (weight 1) and 5 (weight 3), 19 / 4 = 4.75; no other subject graded since February.
    expect(h.state('ania', 'average')).toBe('4.75');
    expect(h.attributes('ania', 'average')).toMatchObject({ semester: 2, previous_semester: { semester: 1, average: 4.87, count: 23 } });
    expect(h.state('ania', 'average_matematyka')).toBe('4.75');
    expect(h.attributes('ania', 'average_matematyka')).toMatchObject({
      semester: 2,
      count: 2,
      semester_grade: '5',
      final_proposal: '5',
      final_grade: '5',
      previous_semester: { semester: 1 },
    });
    expect(h.attributes('ania', 'average_historia')).toMatchObject({
      semester: 2,
      semester_grade: '5',
      final_grade: '6',
      previous_semester: { semester: 1, average: 5.25 },
    });
  }

  /** Every child's day is no school day: nothing today or on the next day, no lesson, not at school. */
  function noSchool(): void {
    for (const child of children) {
      const states = Object.fromEntries(SCHOOL_DAY.map((key) => [key, h.state(child, key)]));
      expect(states, child).toEqual(SUMMER);
    }
  }

  it("from the last school day's evening into the summer: no problem, no school day, the results kept, the last achievements", {
    timeout: 60_000,
  }, async () => {
    /** The summer's day, with no event but the achievements given, each once. */
    const summer = (achievements: readonly string[]): void => {
      noSchool();
      yearsResults();
      for (const child of children) expect(h.state(child, 'problem'), child).toBe('OFF');
      expect(eventsSince(h, mark).sort()).toEqual(achievements.map((a) => `${a.split(' ')[0]}/achievement achievement`).sort());
      expect(achievementsSince(h, mark).sort()).toEqual([...achievements].sort());
    };
    // The evening, the night and the first morning of the holidays: nothing.
    await until('2027-06-26T10:00:00+02:00');
    summer([]);
    // A Thursday in July, an hour into when the lessons would be, the bridge's host asleep since Saturday: June, ended
    // meanwhile, was a month without an absence for each child; nothing else.
    school.clock.set(Date.parse('2027-07-15T07:00:00+02:00'));
    await until('2027-07-15T09:00:00+02:00');
    summer(children.map((c) => `${c} full_month 2027-06-30`));
  });
});
