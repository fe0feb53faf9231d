// The simulator's school year (live-notes 38-41): Classes answers the year of its today, the summer has
// no lessons, and 1 September (or the day the school chooses, a few days late) moves the child up a
// class with a new id and tutor, last year's records leaving the lists.
import { afterEach, describe, expect, it } from 'vitest';
import { PortalSimulator } from '../../src/simulator/index.js';
import { gatewayGet, logIn } from '../helpers/simulator.js';
import type { TinyBrowser } from '../helpers/simulator.js';

const ANIA = { login: '1234567u', password: 'demo-ania' };
type Klass = {
  Id: number;
  Number: number;
  Symbol: string;
  ClassTutor: { Id: number };
  BeginSchoolYear: string;
  EndFirstSemester: string;
  EndSchoolYear: string;
};

let sim: PortalSimulator;
let now = 0;

afterEach(async () => {
  await sim.stop();
});

async function start(at: string): Promise<TinyBrowser> {
  now = Date.parse(at);
  sim = new PortalSimulator({ now: () => now });
  await sim.start();
  return logIn(sim, ANIA.login, ANIA.password);
}

/** Moves the clock on and logs in again (a night's gap ends the portal's session). */
async function later(at: string): Promise<TinyBrowser> {
  now = Date.parse(at);
  return logIn(sim, ANIA.login, ANIA.password);
}

const klass = async (browser: TinyBrowser) => (await gatewayGet<{ Class: Klass }>(sim, browser, 'Classes')).body.Class;
const list = async <T>(browser: TinyBrowser, endpoint: string, key: string) =>
  (await gatewayGet<Record<string, T[]>>(sim, browser, endpoint)).body[key] ?? [];

describe('the school year in the simulator', () => {
  it("moves the child up on 1 September: a new class and id, another tutor, the new dates, last year's grades gone", async () => {
    let browser = await start('2027-08-31T20:00:00+02:00');
    const old = await klass(browser);
    // The summer: the ended year's class and dates, no lessons, its grades still listed.
    expect(old).toMatchObject({ Number: 4, Symbol: 'b', EndSchoolYear: '2027-06-25' });
    const week = await gatewayGet<{ Timetable: Record<string, unknown[][]> }>(sim, browser, 'Timetables');
    expect(Object.values(week.body.Timetable).flat(2)).toEqual([]);
    expect((await list(browser, 'Grades', 'Grades')).length).toBeGreaterThan(20);
    browser = await later('2027-09-01T07:00:00+02:00');
    const moved = await klass(browser);
    expect(moved).toMatchObject({
      Number: 5,
      Symbol: 'b',
      BeginSchoolYear: '2027-09-01',
      EndFirstSemester: '2028-01-28',
      EndSchoolYear: '2028-06-30',
    });
    expect(moved.Id).not.toBe(old.Id);
    expect(moved.ClassTutor.Id).not.toBe(old.ClassTutor.Id);
    const user = await gatewayGet<{ User: { Class: { Id: number } } }>(sim, browser, 'Users/1843210');
    expect(user.body.User.Class.Id).toBe(moved.Id);
    expect(await list(browser, 'Grades', 'Grades')).toEqual([]);
    expect(await list(browser, 'HomeWorks', 'HomeWorks')).toEqual([]);
    expect(await list(browser, 'Notes', 'Notes')).toEqual([]);
  });

  it('keeps answering the ended year until the day the school moves its children (movesUpAfterDays)', async () => {
    await start('2027-08-31T20:00:00+02:00');
    sim.account(ANIA.login).year.movesUpAfterDays = 3;
    expect(await klass(await later('2027-09-02T07:00:00+02:00'))).toMatchObject({ Number: 4, EndSchoolYear: '2027-06-25' });
    expect(await klass(await later('2027-09-04T07:00:00+02:00'))).toMatchObject({
      Number: 5,
      BeginSchoolYear: '2027-09-01',
      EndSchoolYear: '2028-06-30',
    });
  });
});

describe("a held child's records (recordsHeldOn)", () => {
  const dated = async (browser: TinyBrowser) =>
    new Map((await list<{ Id: number; Date: string; Semester: number }>(browser, 'Grades', 'Grades')).map((g) => [g.Id, g]));

  it('stay where they were laid out as the days pass, across the semester, while the year goes on', async () => {
    let browser = await start('2027-01-28T18:00:00+01:00');
    sim.account(ANIA.login).recordsHeldOn = '2027-01-28';
    const january = await dated(browser);
    browser = await later('2027-02-03T09:00:00+01:00');
    const february = await dated(browser);
    expect([...february.values()]).toEqual([...january.values()]);
    expect([...february.values()].every((g) => g.Semester === 1)).toBe(true);
    // The school year is the clock's: Classes answers the same year, the plan is February's.
    expect(await klass(browser)).toMatchObject({ EndFirstSemester: '2027-01-29' });
  });

  it("moves with today when not held (the demo's world always looks current)", async () => {
    let browser = await start('2027-01-28T18:00:00+01:00');
    const january = await dated(browser);
    browser = await later('2027-02-03T09:00:00+01:00');
    expect([...(await dated(browser)).values()]).not.toEqual([...january.values()]);
  });

  it("keeps a grade a teacher entered in its own day's semester, held or not", async () => {
    await start('2027-01-29T14:00:00+01:00');
    for (const held of ['2027-01-29', undefined]) {
      now = Date.parse('2027-01-29T14:00:00+01:00');
      const account = sim.account(ANIA.login);
      account.recordsHeldOn = held;
      const january = account.addGrade({ subject: 5015, category: 307, grade: '5', period: 'semester' });
      now = Date.parse('2027-02-01T08:00:00+01:00');
      const february = account.addGrade({ subject: 5015, category: 303, grade: '4' });
      const grades = await dated(await later('2027-02-03T09:00:00+01:00'));
      expect(grades.get(january.Id as number)).toMatchObject({ Date: '2027-01-29', Semester: 1 });
      expect(grades.get(february.Id as number)).toMatchObject({ Date: '2027-02-01', Semester: 2 });
    }
  });
});
