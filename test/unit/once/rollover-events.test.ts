// A new school year through the event gate: one school_year event per child with what the rollover
// moved, none at a first start, none twice (a restart included); last year's records leaving and the new
// year's free days arriving tell nothing one by one, while a teacher's new grade on the first day does.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventGate, type EventBatch } from '../../../src/once/gate.js';
import type { EventPayload } from '../../../src/engine/state.js';
import { silentLogger } from '../../../src/util/log.js';
import { schoolYearEvents } from '../../../src/features/school-year/school-year.js';
import { ROLLOVER_KINDS } from '../../../src/features/index.js';
import type { Identity } from '../../../src/engine/identity.js';

let dataDir: string;
let fired: EventPayload[];
const gates: EventGate[] = [];

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'rollover-'));
  fired = [];
});
afterEach(async () => {
  await Promise.all(gates.splice(0).map((g) => g.save()));
  await rm(dataDir, { recursive: true, force: true });
});

async function gate(): Promise<EventGate> {
  const g = new EventGate({
    child: () => ({ id: 'ania', name: 'Ania' }),
    dataDir,
    log: silentLogger(),
    fire: (_kind, payload) => void fired.push(payload),
    onStorage: () => {},
    // As the runner hands it over: the kinds the features' declarations say a new school year resets.
    rollover: ROLLOVER_KINDS,
  });
  gates.push(g);
  await g.load('ania');
  return g;
}

const grade = (id: number, date: string) => ({ id: `grade:${id}`, payload: { id: `grade:${id}`, grade: '4', subject: 'Matematyka', date } });
const homework = (id: number, due: string) => ({ id: `homework:${id}`, payload: { kind: 'homework', subject: 'Fizyka', topic: 'Zadania', due } });
const absence = (id: number, date: string) => ({ id: `absence:${id}`, payload: { id, date, kind: 'absent' } });
const freeDay = (from: string) => ({
  id: `free:${from}`,
  payload: { name: 'Dzień wolny', scope: 'school', from, to: from, lessons_from: null, lessons_to: null },
});
/** June's grades: as many as a year leaves behind. */
const juneGrades = Array.from({ length: 42 }, (_, i) => grade(i + 1, `2027-06-${String((i % 20) + 1).padStart(2, '0')}`));
const juneAbsences = Array.from({ length: 12 }, (_, i) => absence(i + 1, `2027-06-${String(i + 10).padStart(2, '0')}`));

const identity = (begin: string, className: string): Identity =>
  ({
    firstName: 'Ania',
    lastName: 'Kowalska',
    userId: '1',
    className,
    classTutorId: '9',
    schoolYearBegin: begin,
    semester1End: `${Number(begin.slice(0, 4)) + 1}-01-28`,
    schoolYearEnd: `${Number(begin.slice(0, 4)) + 1}-06-25`,
    fetchedAt: 0,
  }) as Identity;

/** One pass of the lists and the identity, on `today`; `read` marks the lists' read (a removal needs two). */
function pass(
  g: EventGate,
  today: string,
  who: Identity,
  lists: {
    grades: ReturnType<typeof grade>[];
    absences: ReturnType<typeof absence>[];
    free: ReturnType<typeof freeDay>[];
    homework?: ReturnType<typeof homework>[];
  },
  read: string,
) {
  const batches: EventBatch[] = [
    ['grade', lists.grades, { fields: ['grade', 'subject', 'date'], reads: { 'grade:': read } }],
    ['absence', lists.absences, { fields: ['date', 'kind'], reads: { 'absence:': read } }],
    // An assignment's removal carries only its compared fields: its due day dates it.
    ['homework', lists.homework ?? [], { fields: ['subject', 'topic', 'due'], reads: { 'homework:': read } }],
    ['free_day', lists.free],
    ['school_year', schoolYearEvents(who, 'Anna Nowak')],
  ];
  return g.pass(
    batches,
    { now: Date.parse(`${today}T08:00:00+02:00`), lastGood: Date.parse(`${today}T07:00:00+02:00`) },
    {
      today,
      begin: who.schoolYearBegin,
    },
  );
}

const types = () => fired.map((e) => e.event_type);
const ended = identity('2026-09-01', '7b');
const begun = identity('2027-09-01', '8b');
const june = { grades: juneGrades, absences: juneAbsences, free: [], homework: [homework(1, '2027-06-28'), homework(2, '2027-06-29')] };
const newFreeDays = ['2027-10-14', '2027-11-10', '2027-12-23', '2027-12-24', '2027-12-31'].map(freeDay);

describe('a new school year', () => {
  it('is one school_year event with the new class, its tutor, the dates and what the rollover moved; nothing else', async () => {
    const g = await gate();
    await pass(g, '2027-06-25', ended, june, 'r1');
    await pass(g, '2027-06-25', ended, june, 'r1');
    expect(fired).toEqual([]); // a first start is not a new year
    // 1 September: the portal shows 8b and empties last year's lists; the new year's free days come.
    await pass(g, '2027-09-01', begun, { grades: [], absences: [], free: newFreeDays }, 'r2');
    await pass(g, '2027-09-01', begun, { grades: [], absences: [], free: newFreeDays }, 'r3');
    expect(fired).toEqual([
      {
        event_type: 'school_year',
        child: 'ania',
        child_name: 'Ania',
        class: '8b',
        tutor: 'Anna Nowak',
        begins: '2027-09-01',
        first_semester_ends: '2028-01-28',
        ends: '2028-06-25',
        summary: { left: { grades: 42, absences: 12, notes: 0, homework: 2, tests: 0 }, arrived: { free_days: 5 } },
      },
    ]);
    // A teacher's first grade of the year, on the first day: news, as ever.
    await pass(g, '2027-09-01', begun, { grades: [grade(500, '2027-09-01')], absences: [], free: newFreeDays }, 'r4');
    expect(types()).toEqual(['school_year', 'grade']);
  });

  it('fires once: the same year again, after a restart too, fires nothing', async () => {
    let g = await gate();
    await pass(g, '2027-06-25', ended, june, 'r1');
    await pass(g, '2027-09-01', begun, june, 'r2');
    await g.save();
    g = await gate();
    await pass(g, '2027-09-02', begun, { grades: [], absences: [], free: [] }, 'r3');
    await pass(g, '2027-09-02', begun, { grades: [], absences: [], free: [] }, 'r4');
    expect(types()).toEqual(['school_year']);
  });

  it('counts the lists emptied days before the portal shows the new class, and tells them nowhere else', async () => {
    const g = await gate();
    await pass(g, '2027-06-25', ended, june, 'r1');
    // The portal empties the lists on 1 September but answers last year's class until the 6th (live-notes 39).
    await pass(g, '2027-09-01', ended, { grades: [], absences: [], free: newFreeDays }, 'r2');
    await pass(g, '2027-09-02', ended, { grades: [], absences: [], free: newFreeDays }, 'r3');
    expect(fired).toEqual([]);
    await pass(g, '2027-09-06', begun, { grades: [], absences: [], free: newFreeDays }, 'r4');
    expect(fired).toMatchObject([
      { event_type: 'school_year', class: '8b', summary: { left: { grades: 42, absences: 12 }, arrived: { free_days: 5 } } },
    ]);
  });

  it('leaves a teacher removing a grade in the summer, and a free day added later in the year, news', async () => {
    const g = await gate();
    await pass(g, '2027-06-25', ended, june, 'r1');
    await pass(g, '2027-07-10', ended, { ...june, grades: juneGrades.slice(1) }, 'r2');
    await pass(g, '2027-07-10', ended, { ...june, grades: juneGrades.slice(1) }, 'r3');
    expect(types()).toEqual(['grade_removed']);
    await pass(g, '2027-09-01', begun, { grades: [], absences: [], free: [] }, 'r4');
    await pass(g, '2027-10-01', begun, { grades: [], absences: [], free: [freeDay('2027-11-02')] }, 'r5');
    expect(types()).toEqual(['grade_removed', 'school_year', 'free_day']);
  });
});
