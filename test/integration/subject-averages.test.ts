// The per-subject averages and grade_at_risk against the simulated portal and the real broker: exact
// states, the same numbers as `average`, subjects appearing with their first grade, keys kept over a
// restart, and grading.thresholds from the config; and every kind of grade told as what it is (below).
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import type { Harness, HarnessOptions } from '../helpers/app.js';
import { firedEvents, simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson.
const NOW = '2026-11-18T09:10:00+01:00';
// Ids in the simulator's school fixture.
const RELIGION = 5021;
const MATHS = 5012;
const TEST_CATEGORY = 301; // Sprawdzian, weight 3

const school = simulatedSchool(NOW);
let h: Harness | undefined;

async function firstPass(extra: Partial<HarnessOptions> = {}): Promise<Harness> {
  h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password }], ...extra });
  const harness = h;
  await harness.runUntil(() => harness.state('ania', 'last_update') !== undefined, 'the first full pass');
  return harness;
}

type Components = Record<string, { name?: string; state_class?: string; device_class?: string; unit_of_measurement?: string; p: string }>;

function components(h: Harness): Components {
  return (h.rec.json(`${h.prefix}/device/${h.base}_ania/config`) as { cmps: Components }).cmps;
}

const SUBJECT_KEYS = [
  'average_historia',
  'average_informatyka',
  'average_jezyk_angielski',
  'average_jezyk_polski',
  'average_matematyka',
  'average_muzyka',
  'average_plastyka',
  'average_przyroda',
  'average_technika',
  'average_wychowanie_fizyczne',
];

describe('average_<subject>', () => {
  it('publishes one sensor per graded subject with the same numbers as average', async () => {
    const h = await firstPass();
    const cmps = components(h);
    expect(Object.keys(cmps).filter((k) => k.startsWith('average_'))).toEqual(SUBJECT_KEYS);
    expect(cmps.average_jezyk_angielski).toMatchObject({ p: 'sensor', name: 'Średnia – Język angielski', state_class: 'measurement' });
    expect(Object.fromEntries(SUBJECT_KEYS.map((k) => [k, h.state('ania', k)]))).toEqual({
      average_historia: '5.25',
      average_informatyka: '6.00',
      average_jezyk_angielski: '4.67',
      average_jezyk_polski: '4.40',
      average_matematyka: '4.62',
      average_muzyka: '5.00',
      average_plastyka: '5.33',
      average_przyroda: '3.20',
      // Graded in points only: its percentage (see the points test below).
      average_technika: '78.8',
      average_wychowanie_fizyczne: '5.33',
    });
    // One computation: every subject's state is the average's own figure for it (a points subject's, its percentage).
    const overall = h.attributes('ania', 'average') as { subjects: { subject: string; average: number | null; percent?: number }[] };
    const perSubject = SUBJECT_KEYS.map((k) => [(h.attributes('ania', k) as { subject: string }).subject, Number(h.state('ania', k))]);
    expect(perSubject).toEqual(overall.subjects.map((s) => [s.subject, s.average ?? s.percent]));
    // 5+ (2), 4 (3), 5 (1): 28 / 6 = 4.67, a 4; a 5+ of weight 1 makes 33.5 / 7 = 4.79, a 5 only 4.71; of whole
    // grades one 6 (4.86). On 4 November, 14 days back, the 5 alone stood: the average is down.
    const teacher = 'Katarzyna Wójcik';
    expect(h.attributes('ania', 'average_jezyk_angielski')).toEqual({
      subject: 'Język angielski',
      semester: 1,
      count: 3,
      grades: [
        { grade: '5+', weight: 2, category: 'Kartkówka', date: '2026-11-16', teacher, comment: 'Bardzo dobra wymowa, brawo!', kind: 'standard' },
        { grade: '4', weight: 3, category: 'Sprawdzian', date: '2026-11-05', teacher, comment: null, kind: 'standard' },
        { grade: '5', weight: 1, category: 'Odpowiedź ustna', date: '2026-10-26', teacher, comment: null, kind: 'standard' },
      ],
      next_threshold: 4.75,
      needed_for_next: '5+',
      forecast: '4',
      trend: 'down',
      to_next: { grade: '6', count: 1 },
    });
    // The text grade of physical education stands in its list, in its place by day, and counts in no average.
    expect(h.attributes('ania', 'average_wychowanie_fizyczne')).toMatchObject({
      count: 2,
      grades: [
        { grade: '5', kind: 'standard', date: '2026-11-12' },
        {
          grade: 'Aktywnie uczestniczy w zajęciach, chętnie pomaga innym w ćwiczeniach.',
          weight: null,
          category: 'Ocena opisowa',
          date: '2026-11-11',
          teacher: 'Krzysztof Zieliński',
          comment: null,
          kind: 'text',
        },
        { grade: '6', kind: 'standard', date: '2026-11-03' },
      ],
      forecast: '5',
    });
    // The report card: the mean of the nine forecasts (5, 6, 4, 4, 4, 5, 5, 3, 5), under 4.75: no honours.
    expect(h.attributes('ania', 'average')).toMatchObject({ forecast_average: 4.56, honours: false, at_risk: [] });
    expect(overall.subjects.find((s) => s.subject === 'Język angielski')).toMatchObject({
      forecast: '4',
      trend: 'down',
      to_next: { grade: '6', count: 1 },
    });
    // 6 (1), 5 (3): 21 / 4 = 5.25; even a 6 gives 27 / 5 = 5.4, short of 5.5.
    expect(h.attributes('ania', 'average_historia')).toMatchObject({ next_threshold: 5.5, needed_for_next: null });
    expect(h.state('ania', 'grade_at_risk')).toBe('OFF');
    expect(h.attributes('ania', 'grade_at_risk')).toEqual({ threshold: 1.75, subjects: [] });
  });

  it('gives a subject graded in points its percentage: a sensor in %, in average, and its grades as points over the maximum', async () => {
    const h = await firstPass();
    // Technika has point grades only: 8 of 10 (Projekt, weight 2) and 15,5 of 20 (weight 1): 31.5 / 40.
    expect(components(h).average_technika).toMatchObject({
      p: 'sensor',
      name: 'Średnia – Technika',
      state_class: 'measurement',
      unit_of_measurement: '%',
    });
    expect(h.state('ania', 'average_technika')).toBe('78.8');
    const teacher = 'Joanna Dąbrowska';
    expect(h.attributes('ania', 'average_technika')).toEqual({
      subject: 'Technika',
      semester: 1,
      count: 2,
      grades: [
        { grade: '15,5/20 pkt', weight: 1, category: 'Test sprawdzający', date: '2026-11-10', teacher, comment: null, kind: 'point' },
        { grade: '8/10 pkt', weight: 2, category: 'Projekt', date: '2026-11-02', teacher, comment: null, kind: 'point' },
      ],
      next_threshold: null,
      needed_for_next: null,
      percent: 78.8,
    });
    // Informatyka has both: its 1-6 average stays the state, its points' 90 % beside ((9.5 * 2 + 17) / 40).
    expect(h.state('ania', 'average_informatyka')).toBe('6.00');
    expect(h.attributes('ania', 'average_informatyka')).toMatchObject({ percent: 90 });
    expect(components(h).average_informatyka?.unit_of_measurement).toBeUndefined();
    const subjects = (h.attributes('ania', 'average') as { subjects: { subject: string }[] }).subjects;
    expect(subjects.find((s) => s.subject === 'Technika')).toEqual({ subject: 'Technika', average: null, count: 2, percent: 78.8 });
    expect(subjects.find((s) => s.subject === 'Informatyka')).toMatchObject({ average: 6, percent: 90 });
    // The newest grade of the points: as the register shows it, points over the maximum.
    const recent = (h.attributes('ania', 'newest_grade') as { recent: { grade: string; subject: string }[] }).recent;
    expect(recent.filter((g) => g.subject === 'Informatyka').map((g) => g.grade)).toContain('17/20 pkt');
  });

  it('adds a subject with its first grade and says when it puts the grade at risk', async () => {
    const h = await firstPass();
    school.sim.account(ANIA.login).addGrade({ subject: RELIGION, category: TEST_CATEGORY, grade: '1' });
    await h.advanceMinutes(20);
    await h.runUntil(() => h.state('ania', 'average_religia') !== undefined, 'the new subject');
    expect(components(h).average_religia).toMatchObject({ p: 'sensor', name: 'Średnia – Religia', state_class: 'measurement' });
    expect(h.state('ania', 'average_religia')).toBe('1.00');
    // 1 (3): (3 + g) / 4 reaches 1.75 with a 4; a 4- (3.75) makes 1.69.
    expect(h.attributes('ania', 'average_religia')).toMatchObject({ count: 1, next_threshold: 1.75, needed_for_next: '4' });
    expect(h.state('ania', 'grade_at_risk')).toBe('ON');
    expect(h.attributes('ania', 'grade_at_risk')).toEqual({ threshold: 1.75, subjects: [{ subject: 'Religia', average: 1 }] });
  });

  it('removes the sensors of subjects with no grade left (a new school year)', async () => {
    // Every tier every 20 minutes: what is shown is the sensors gone once every kind of grade was read empty, not
    // when; the default 3- and 5-minute passes of the 90 minutes were most of this test's CPU.
    const h = await firstPass({ poll: { fast_interval: '20m', school_interval: '20m' } });
    // Every kind of grade leaves: a subject with a text grade alone keeps its sensor.
    for (const list of ['Grades', 'PointGrades', 'BaseTextGrades']) school.sim.account(ANIA.login).setResource(list, { Grades: [] });
    // The point grades are read hourly: the subjects graded in points go at that read.
    await h.advanceMinutes(90);
    await h.runUntil(() => SUBJECT_KEYS.every((k) => components(h)[k]?.name === undefined), 'the subjects removed');
    const cmps = components(h);
    // Kept reduced to their platform, which is how Home Assistant is told to delete them.
    for (const key of SUBJECT_KEYS) expect(cmps[key]).toEqual({ p: 'sensor' });
    expect(h.rec.last(`${h.base}/ania/average_matematyka`)?.text).toBe('');
    expect(h.state('ania', 'average')).toBe('None');
    expect(h.state('ania', 'grade_at_risk')).toBe('OFF');
  });

  it('announces the subjects again at a restart, before the first pass, under the same keys', async () => {
    const h = await firstPass();
    const topic = `${h.prefix}/device/${h.base}_ania/config`;
    const before = h.rec.on(topic).length;
    await h.restart();
    await h.runUntil(() => school.sim.count({ path: '/gateway/api/2.0/Grades' }) >= 2, 'a pass after the restart');
    const after = h.rec
      .on(topic)
      .slice(before)
      .map((m) => (JSON.parse(m.text) as { cmps: Components }).cmps);
    expect(after.length).toBeGreaterThan(0);
    // Never dropped, not even for a moment: each announcement keeps every subject's full sensor.
    for (const cmps of after) {
      expect(SUBJECT_KEYS.map((k) => cmps[k]?.name)).toEqual(SUBJECT_KEYS.map(() => expect.stringMatching(/^Średnia – /) as unknown));
    }
    expect(h.state('ania', 'average_matematyka')).toBe('4.62');
  });

  it('takes grade_at_risk and needed_for_next from grading.thresholds', async () => {
    const h = await firstPass({ grading: { thresholds: [3.5, 4, 4.5, 5, 5.5] } });
    expect(h.state('ania', 'grade_at_risk')).toBe('ON');
    expect(h.attributes('ania', 'grade_at_risk')).toEqual({ threshold: 3.5, subjects: [{ subject: 'Przyroda', average: 3.2 }] });
    // 2 (2), 4 (3): 16 / 5 = 3.2; (16 + g) / 6 reaches 3.5 with a 5.
    expect(h.attributes('ania', 'average_przyroda')).toMatchObject({ next_threshold: 3.5, needed_for_next: '5' });
  });

  it('counts a plain mean with grading.average: arithmetic', async () => {
    const h = await firstPass({ grading: { average: 'arithmetic' } });
    // 2 (2) and 4 (3): 3.20 weighted, 3.00 plain, a 3 either way; the weights stay listed as the categories give them.
    expect(h.state('ania', 'average_przyroda')).toBe('3.00');
    expect(h.attributes('ania', 'average_przyroda')).toMatchObject({ forecast: '3', grades: [{ weight: 2 }, { weight: 3 }] });
  });
});

// Every kind of grade told as what it is (issue 80): a classic descriptive grade (DescriptiveGrades, its mark in Map,
// its comment in DescriptiveGrades/Comments) of a pupil graded 1-6 is her newest grade and stands in its subject's
// grades, counted in no average; a semester proposal is never the newest grade nor one of the latest; `to_next` says
// why it names no grade; a subject's forecast moving fires `forecast_changed`.
type Newest = {
  kind?: string;
  grade?: string;
  comment?: string;
  recent: { grade: string; kind: string }[];
  proposals: { grade: string; period: string }[];
};

describe('every kind of grade', () => {
  it('tells a classic descriptive grade as her newest, with its comment, in its subject’s grades, counted in no average', async () => {
    // Her form-period class is graded descriptively: one grade there already (a kind with grades is read at the news
    // age; one whose list is empty waits 6 hours), a second, commented, comes in the lesson.
    const account = school.sim.account(ANIA.login);
    account.addDescriptiveGrade({ mark: '4' });
    const h = await school.firstPasses(['newest_grade', 'average']);
    const average = h.state('ania', 'average');
    const subjects = (h.attributes('ania', 'average') as { subjects: unknown[] }).subjects.length;
    account.addDescriptiveGrade({ mark: '5', comment: 'Chętnie pomaga kolegom w pracy zespołowej.' });
    const told = () => h.attributes('ania', 'newest_grade') as Newest;
    await h.advanceUntil(() => told().kind === 'descriptive' && told().grade === '5', 'the descriptive grade', 10);

    const newest = told();
    expect(newest).toMatchObject({
      kind: 'descriptive',
      grade: '5',
      subject: 'Zajęcia z wychowawcą',
      category: 'Praca w zespole i odpowiedzialność',
      teacher: 'Anna Nowak',
      comment: 'Chętnie pomaga kolegom w pracy zespołowej.',
    });
    expect(newest.recent[0]).toMatchObject({ kind: 'descriptive', grade: '5' });
    expect(firedEvents(h, 'grade').map((e) => [e.kind, e.grade, e.subject, e.comment])).toEqual([
      ['descriptive', '5', 'Zajęcia z wychowawcą', 'Chętnie pomaga kolegom w pracy zespołowej.'],
    ]);
    // Its subject, graded in nothing else, has its sensor: no average, the grade in its list.
    expect(h.state('ania', 'average_zajecia_z_wychowawca')).toBe('None');
    expect(h.attributes('ania', 'average_zajecia_z_wychowawca')).toMatchObject({
      subject: 'Zajęcia z wychowawcą',
      count: 0,
      forecast: null,
      to_next: { reason: 'no_grades' },
      grades: [
        {
          grade: '5',
          kind: 'descriptive',
          weight: null,
          category: 'Praca w zespole i odpowiedzialność',
          comment: 'Chętnie pomaga kolegom w pracy zespołowej.',
        },
        expect.objectContaining({ grade: '4', kind: 'descriptive', comment: null }),
      ],
    });
    expect(h.state('ania', 'average')).toBe(average);
    expect((h.attributes('ania', 'average') as { subjects: unknown[] }).subjects).toHaveLength(subjects);
    // A subject at the top says so (Informatyka: a 6).
    expect(h.attributes('ania', 'average_informatyka')).toMatchObject({ forecast: '6', to_next: { reason: 'top' } });
  });

  it('never tells a semester proposal as the newest grade: the commented grade before it stays, the proposal in proposals', async () => {
    const h = await school.firstPasses(['newest_grade']);
    const account = school.sim.account(ANIA.login);
    account.addGrade({ subject: MATHS, category: TEST_CATEGORY, grade: '5', comment: 'Bardzo dobra praca klasowa.' });
    await h.advanceUntil(() => (h.attributes('ania', 'newest_grade') as Newest).comment === 'Bardzo dobra praca klasowa.', 'the commented grade', 20);
    await h.advanceMinutes(1);
    account.addGrade({ subject: MATHS, category: 307, grade: '4+', period: 'semester_proposal' });
    await h.advanceUntil(() => firedEvents(h, 'grade').some((e) => e.period === 'semester_proposal'), 'the proposal', 20);

    expect(h.state('ania', 'newest_grade')).toBe('5');
    const newest = h.attributes('ania', 'newest_grade') as Newest;
    expect(newest).toMatchObject({ subject: 'Matematyka', comment: 'Bardzo dobra praca klasowa.' });
    expect(newest.recent.map((r) => r.grade)).not.toContain('4+');
    expect(newest.proposals).toEqual([expect.objectContaining({ grade: '4+', subject: 'Matematyka', period: 'semester_proposal' })]);
    expect(h.attributes('ania', 'average_matematyka')).toMatchObject({ semester_proposal: '4+' });
  });

  it('fires forecast_changed when a subject’s forecast moves, never at the first read', async () => {
    const h = await school.firstPasses(['average_matematyka']);
    const before = h.attributes('ania', 'average_matematyka') as { forecast: string };
    await h.advanceMinutes(10);
    expect(firedEvents(h, 'forecast_changed')).toEqual([]);
    // Two 1s of a test's weight pull the average down a grade or more.
    for (let i = 0; i < 2; i++) school.sim.account(ANIA.login).addGrade({ subject: MATHS, category: TEST_CATEGORY, grade: '1' });
    await h.advanceUntil(() => firedEvents(h, 'forecast_changed').length > 0, 'the forecast moved', 20);
    const after = h.attributes('ania', 'average_matematyka') as { forecast: string };
    expect(after.forecast).not.toBe(before.forecast);
    expect(firedEvents(h, 'forecast_changed')).toEqual([
      {
        event_type: 'forecast_changed',
        child: 'ania',
        child_name: 'Ania',
        subject: 'Matematyka',
        previous: before.forecast,
        forecast: after.forecast,
        average: Number(h.state('ania', 'average_matematyka')),
      },
    ]);
  });
});
