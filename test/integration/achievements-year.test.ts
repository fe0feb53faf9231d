// The achievement kinds of interface 17.2 over two simulated school years, through the streaks feature as the
// runner makes it (its record in data_dir, prepared before the first pass), its computation on the outputs of the
// features it reads, and the real event gate with its memory in the same data_dir:
// - 2026/27: the first start of a bridge that knew only 16.3's kinds (its event memory already holds the kind
//   `achievement`) on a day when every new kind has something true already: nothing fires, that day, the week
//   after, nor after a restart; the sensor lists them with their progress.
// - 2027/28: every kind comes true once on its day (each day is a pass): each fires exactly once, on its day, and
//   nothing again across two restarts, which keep what only the record knows (the lucky day, a star's day).
// - 2027/28 again, its record cut while the bridge is stopped (interface 18.4): the subject star won meanwhile is
//   announced once at the restart, and the achievements announced before stay announced (the board keeps their badges).
// The lists are what the portal would show on each day: every record dated up to it.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { streaksFeature } from '../../src/features/streaks/streaks.js';
import { EventGate, type GateEvent } from '../../src/once/gate.js';
import { addDays } from '../../src/util/time.js';
import { silentLogger, type Logger } from '../../src/util/log.js';
import { LogSink } from '../helpers/faults.js';
import type { FeatureAccess } from '../../src/features/feature.js';
import type { Inputs, SourceContext } from '../../src/engine/source.js';
import type { Identity } from '../../src/engine/identity.js';
import type { Copies } from '../../src/engine/resource.js';
import type { BehaviourMark } from '../../src/rules/behaviour.js';
import { ACHIEVEMENT_KINDS, type StreakGrade } from '../../src/features/streaks/rules.js';

/** One school year as the portal would hold it, each record on its day. */
interface Year {
  start: string;
  semester1End: string;
  end: string;
  schoolDays: string[];
  absences: string[];
  lates: string[];
  grades: StreakGrade[];
  positive: string[];
  /** Each subject's average and grades from a day on. */
  subjects: { from: string; average: number; count: number }[];
  honoursFrom: string;
  conduct: { grade: string; short: string; date: string; proposal: boolean }[];
  lucky: string[];
}

function weekdays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) if (![0, 6].includes(new Date(`${d}T12:00:00Z`).getUTCDay())) days.push(d);
  return days;
}

const grade = (id: number, shown: string, date: string, improves?: number): StreakGrade => ({
  shown,
  date,
  key: `grade:${id}`,
  subject: 'Matematyka',
  ...(improves === undefined ? {} : { improves: `grade:${improves}` }),
});

/** 2026/27 up to the first start on Wednesday 10 February 2027 (winter break from the 8th): every new kind true already. */
const FIRST: Year = {
  start: '2026-09-01',
  semester1End: '2027-01-29',
  end: '2027-06-25',
  schoolDays: weekdays('2026-09-01', '2027-02-05'),
  // An absence in every month but October; the late in September; none since.
  absences: ['2026-09-14', '2026-11-16', '2026-12-14', '2027-01-11', '2027-02-01'],
  lates: ['2026-09-02'],
  // Five sixes, and a 2 corrected to a 4: no 1 in the first semester.
  grades: [
    grade(1, '2', '2026-09-20'),
    grade(2, '4', '2026-10-01', 1),
    ...['2026-10-05', '2026-10-12', '2026-11-03', '2026-12-01', '2027-01-12'].map((d, i) => grade(10 + i, '6', d)),
  ],
  positive: ['2026-10-01', '2026-11-05', '2026-12-10'],
  subjects: [{ from: '2026-09-01', average: 5.2, count: 6 }],
  honoursFrom: '2026-12-01',
  conduct: [{ grade: 'wzorowe', short: 'wz', date: '2027-01-20', proposal: true }],
  lucky: ['2027-02-10'],
};

/** 2027/28: each new kind comes true once. */
const SECOND: Year = {
  start: '2027-09-01',
  semester1End: '2028-01-28',
  end: '2028-06-23',
  schoolDays: weekdays('2027-09-01', '2028-06-23'),
  // An absence in every month but October: one full month. One late: 30 days without one by mid-October.
  absences: ['2027-09-10', '2027-11-10', '2027-12-10', '2028-01-10', '2028-02-10', '2028-03-10', '2028-04-10', '2028-05-10', '2028-06-09'],
  lates: ['2027-09-03'],
  // A 1 in the first semester, corrected to a 5 two weeks later; five sixes through the winter; none in the second semester.
  grades: [
    grade(20, '1', '2027-10-04'),
    grade(21, '5', '2027-10-18', 20),
    ...['2027-11-08', '2027-12-06', '2028-01-17', '2028-02-14', '2028-03-13'].map((d, i) => grade(30 + i, i % 2 === 0 ? '6' : '6-', d)),
    grade(40, '4', '2028-04-20'),
  ],
  positive: ['2027-10-05'],
  subjects: [
    { from: '2027-09-01', average: 4.5, count: 3 },
    { from: '2027-11-15', average: 5.4, count: 5 },
  ],
  honoursFrom: '2028-05-20',
  conduct: [
    { grade: 'bardzo dobre', short: 'bdb', date: '2028-01-15', proposal: true },
    { grade: 'wzorowe', short: 'wz', date: '2028-06-01', proposal: true },
  ],
  lucky: ['2027-12-03'],
};

/** Each new kind's day in 2027/28, as the event says it. */
const SECOND_FIRES = {
  punctual: { count: 30, date: weekdays('2027-09-06', '2027-10-15')[29] },
  comeback: { count: 1, date: '2027-10-18', subject: 'Matematyka' },
  praise: { count: 1, date: '2027-10-05' },
  full_month: { count: 1, date: '2027-10-31' },
  subject_star: { count: 1, date: '2027-11-15', subject: 'Fizyka' },
  lucky: { count: 1, date: '2027-12-03' },
  sixes: { count: 5, date: '2028-03-13' },
  honours: { count: 1, date: '2028-05-20' },
  exemplary_behaviour: { count: 1, date: '2028-06-01' },
  semester_without_one: { count: 2, date: '2028-06-23' },
};

/** The kinds beside 16.3's four, each with its day above. */
const NEW_KINDS = Object.keys(SECOND_FIRES);

/** What the features the streaks read hand over on a day: the records dated up to it. */
function inputsOn(y: Year, today: string): Inputs {
  const upTo = (days: readonly string[]) => days.filter((d) => d <= today);
  const subjects = y.subjects.filter((s) => s.from <= today).at(-1);
  const marks: BehaviourMark[] = y.conduct
    .filter((c) => c.date <= today)
    .reverse()
    .map((c) => ({ ...c, period: 'final', semester: 2, teacher: null, category: null }));
  return {
    grades: {
      ordinary: y.grades.filter((g) => g.date! <= today),
      standing: {
        subjects: subjects ? [{ id: '77', subject: 'Fizyka', average: subjects.average, count: subjects.count }] : [],
        honours: today >= y.honoursFrom,
      },
    },
    attendance: {
      days: upTo(y.schoolDays),
      absences: upTo(y.absences).map((date) => ({ date, lessonNo: 1, subject: 'Matematyka' })),
      lates: upTo(y.lates),
      lessons: [],
    },
    notes: { negative: [], positive: upTo(y.positive) },
    behaviour: { marks },
    lucky: y.lucky.includes(today) ? { number: 7, day: today, mine: true } : { number: 3, day: today, mine: false },
  };
}

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** A bridge's start on a data folder: the streaks feature prepared and the child's event gate loaded. */
async function start(dataDir: string, fired: GateEvent[], log: Logger = silentLogger()) {
  const gate = new EventGate({
    child: () => ({ id: 'ania', name: 'Ania' }),
    dataDir,
    log,
    fire: (_kind, payload) => void fired.push(payload),
    onStorage: () => {},
  });
  // As the runner gives it: the child's event memory as the gate holds it.
  const access = {
    dataDir,
    account: { login: 'ania@example.com' },
    log,
    events: { known: (kind: string) => gate.known(kind) },
  } as unknown as FeatureAccess;
  const state = streaksFeature.create(access) as ReturnType<typeof streaksFeature.create> & { prepare(): Promise<void> };
  await state.prepare();
  await gate.load('ania');
  let attributes: Record<string, unknown> = {};
  /** One pass on a day of a year: the streaks computed, their events through the gate. */
  const pass = async (y: Year, today: string) => {
    const ctx = {
      inputs: inputsOn(y, today),
      cache: { refused: () => false } as unknown as Copies,
      identity: { schoolYearBegin: y.start, semester1End: y.semester1End, schoolYearEnd: y.end, fetchedAt: 0 } as Identity,
      today,
      now: Date.parse(`${today}T12:00:00Z`),
      asked: false,
      log,
    } satisfies SourceContext;
    const result = await state.compute!(ctx);
    attributes = (result.states?.streaks?.attributes ?? attributes) as Record<string, unknown>;
    await gate.pass(Object.entries(result.events ?? {}).map(([kind, items]) => [kind, items] as const));
  };
  return { pass, gate, attributes: () => attributes };
}

describe('the achievements of a school year', () => {
  it('fire each once on its day, none for what was true at the first start, none again after a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'achievements-year-'));
    dirs.push(dataDir);
    const fired: GateEvent[] = [];

    // A bridge of 16.3's kinds ran before: its event memory knows the kind.
    let bridge = await start(dataDir, fired);
    await bridge.gate.pass([['achievement', []]]);
    await bridge.gate.save();

    // 2026/27, the first start with the new kinds, and the week after: nothing fires.
    bridge = await start(dataDir, fired);
    await bridge.pass(FIRST, '2027-02-10');
    const progress = bridge.attributes().progress as Record<string, { count: number }>;
    const first = bridge.attributes().achievements as { kind: string; announced: boolean }[];
    const listed = first.map((a) => a.kind);
    // Listed as never announced: the board celebrates none of them.
    expect(first.filter((a) => a.announced)).toEqual([]);
    for (const kind of NEW_KINDS) {
      expect(listed, `${kind} is listed at the first start`).toContain(kind);
      expect(progress[kind]!.count, `${kind}'s progress`).toBeGreaterThan(0);
    }
    expect(progress.sixes).toEqual({ count: 5, next: 10 });
    for (let d = '2027-02-11'; d <= '2027-02-17'; d = addDays(d, 1)) await bridge.pass(FIRST, d);
    await bridge.gate.save();
    bridge = await start(dataDir, fired);
    await bridge.pass(FIRST, '2027-02-17');
    expect(fired).toEqual([]);

    // 2027/28, a pass every day, a restart on 6 December and one after the year's end.
    const days = [];
    for (let d = '2027-09-01'; d <= '2028-06-30'; d = addDays(d, 1)) days.push(d);
    for (const d of days) {
      if (d === '2027-12-06') {
        await bridge.gate.save();
        bridge = await start(dataDir, fired);
      }
      await bridge.pass(SECOND, d);
    }
    await bridge.gate.save();
    bridge = await start(dataDir, fired);
    await bridge.pass(SECOND, '2028-06-30');
    await bridge.pass(SECOND, '2028-07-01');
    await bridge.gate.save();
    // What only the record kept across the restarts: the day the lucky number was hers, the star's own day.
    expect((bridge.attributes().progress as Record<string, unknown>).lucky).toEqual({ count: 1, next: 3 });
    expect(bridge.attributes().achievements).toContainEqual({
      kind: 'subject_star',
      count: 1,
      date: '2027-11-15',
      subject: 'Fizyka',
      announced: true,
    });

    expect(ACHIEVEMENT_KINDS.filter((k) => NEW_KINDS.includes(k))).toHaveLength(10);
    const news = fired.filter((e) => NEW_KINDS.includes(e.kind as string));
    expect(news.map((e) => e.kind).sort()).toEqual([...NEW_KINDS].sort());
    for (const e of news) {
      const { event_type, child, child_name, kind, ...rest } = e;
      expect({ event_type, child, child_name }).toEqual({ event_type: 'achievement', child: 'ania', child_name: 'Ania' });
      expect(rest, String(kind)).toEqual(SECOND_FIRES[kind as keyof typeof SECOND_FIRES]);
    }
    // 16.3's kinds of the year fired once each too (the first 6, the runs of days).
    const ids = fired.map((e) => `${e.kind as string}:${e.count as number}:${(e.subject as string | undefined) ?? ''}`);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a record cut while the bridge is stopped: the star won meanwhile is announced once, those announced before stay announced', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'achievements-cut-'));
    dirs.push(dataDir);
    const fired: GateEvent[] = [];
    let bridge = await start(dataDir, fired);
    // A first start on the year's first day, then a pass a day until a Friday in November.
    for (let d = '2027-09-01'; d <= '2027-11-12'; d = addDays(d, 1)) await bridge.pass(SECOND, d);
    await bridge.gate.save();
    const before = fired.map((e) => e.kind);
    expect(before).toEqual(expect.arrayContaining(['punctual', 'comeback', 'praise', 'full_month']));
    const announced = (bridge.attributes().achievements as { kind: string; count: number; announced: boolean }[]).filter((a) => a.announced);
    expect(announced.map((a) => `${a.kind} ${a.count}`).sort()).toEqual(fired.map((e) => `${e.kind as string} ${e.count as number}`).sort());

    // Stopped over the weekend; the record cut short (a disk error); the star comes true on Monday the 15th.
    const folder = join(dataDir, 'achievements');
    const [file] = await readdir(folder);
    const text = await readFile(join(folder, file!), 'utf8');
    await writeFile(join(folder, file!), text.slice(0, Math.floor(text.length / 2)));
    const logs = new LogSink();
    bridge = await start(dataDir, fired, logs.logger('info'));
    await bridge.pass(SECOND, '2027-11-15');
    await bridge.pass(SECOND, '2027-11-16');
    await bridge.gate.save();
    bridge = await start(dataDir, fired);
    await bridge.pass(SECOND, '2027-11-17');

    const after = fired.slice(before.length);
    expect(after.map((e) => [e.kind, e.subject])).toEqual([['subject_star', 'Fizyka']]);
    const listed = bridge.attributes().achievements as { kind: string; announced: boolean }[];
    for (const a of announced)
      expect(
        listed.find((l) => l.kind === a.kind && l.announced),
        `${a.kind} stays announced`,
      ).toBeDefined();
    expect(listed.find((l) => l.kind === 'subject_star')?.announced).toBe(true);
    expect(logs.matching(/achievements record rebuilt from the event memory/)).toEqual([expect.stringContaining('"lost":"unreadable"')]);
  });
});
