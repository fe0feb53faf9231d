// The simulator's world follows its "today": relative fixture dates, records that appear once their
// moment has passed, and the data tests add through SimAccount.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PortalSimulator } from '../../src/simulator/index.js';
import { gatewayGet, logIn } from '../helpers/simulator.js';
import type { TinyBrowser } from '../helpers/simulator.js';
import { ANSWER_BYTES } from '../../src/portal/gateway.js';

const ANIA = { login: '1234567u', password: 'demo-ania' };
let sim: PortalSimulator;
let browser: TinyBrowser;

beforeEach(async () => {
  sim = new PortalSimulator({ now: () => Date.parse('2026-11-20T12:00:00+01:00') });
  await sim.start();
  browser = await logIn(sim, ANIA.login, ANIA.password);
});

afterEach(async () => {
  await sim.stop();
});

type Grade = { Id: number; Date: string; AddDate: string; Grade: string; Semester: number; IsSemester: boolean; Comments?: { Id: number }[] };
const grades = async () => (await gatewayGet<{ Grades: Grade[] }>(sim, browser, 'Grades')).body.Grades;

describe('dates follow today', () => {
  it('shifts every relative date when setToday moves a week on', async () => {
    const before = await grades();
    sim.setToday('2026-11-27');
    const after = await grades();
    expect(after.map((g) => g.Id)).toEqual(before.map((g) => g.Id));
    for (const [i, g] of after.entries()) {
      const shift = (Date.parse(g.Date) - Date.parse(before[i]?.Date ?? '')) / 86_400_000;
      expect(shift).toBe(7);
    }
    const system = await gatewayGet<{ Date: string }>(sim, browser, 'SystemData');
    expect(system.body.Date).toBe('2026-11-27');
    const week = await gatewayGet<{ Timetable: Record<string, unknown> }>(sim, browser, 'Timetables');
    expect(Object.keys(week.body.Timetable)[0]).toBe('2026-11-23');
    sim.setToday(undefined);
    expect((await grades())[0]?.Date).toBe(before[0]?.Date);
  });

  it('uses the Warsaw date of now() by default, and every date is in the past for past records', async () => {
    const list = await grades();
    expect(list.length).toBeGreaterThan(20);
    expect(list.every((g) => g.Date < '2026-11-20' && /^\d{4}-\d\d-\d\d$/.test(g.Date))).toBe(true);
    expect(list.every((g) => g.Semester === 1)).toBe(true);
  });

  it('shows semester grades only once the end of the first semester has come', async () => {
    expect((await grades()).some((g) => g.IsSemester)).toBe(false);
    sim.setToday('2027-03-10');
    const spring = await grades();
    const semester = spring.filter((g) => g.IsSemester);
    expect(semester.length).toBeGreaterThan(0);
    expect(semester.every((g) => g.Semester === 1 && g.Date <= '2027-01-29')).toBe(true);
    expect(spring.filter((g) => !g.IsSemester).every((g) => g.Semester === 2)).toBe(true);
    const classes = await gatewayGet<{ Class: { EndFirstSemester: string; EndSchoolYear: string; BeginSchoolYear: string } }>(
      sim,
      browser,
      'Classes',
    );
    expect(classes.body.Class).toMatchObject({ BeginSchoolYear: '2026-09-01', EndFirstSemester: '2027-01-29', EndSchoolYear: '2027-06-25' });
  });

  it('gives empty timetable days during a school break', async () => {
    sim.setToday('2026-12-28');
    const week = await gatewayGet<{ Timetable: Record<string, unknown[][]> }>(sim, browser, 'Timetables');
    expect(Object.values(week.body.Timetable).every((day) => day.flat().length === 0)).toBe(true);
  });
});

describe('changing the world', () => {
  it('addGrade adds a grade with its comment, dated now', async () => {
    const account = sim.account(ANIA.login);
    const added = account.addGrade({ subject: 5012, category: 302, grade: '6', comment: 'Wzorowo!' });
    const list = await grades();
    const grade = list.find((g) => g.Id === added.Id);
    expect(grade).toMatchObject({ Grade: '6', Date: '2026-11-20', AddDate: '2026-11-20 12:00:00', Semester: 1 });
    const comments = await gatewayGet<{ Comments: { Id: number; Text: string }[] }>(sim, browser, 'Grades/Comments');
    expect(comments.body.Comments.find((c) => c.Id === grade?.Comments?.[0]?.Id)?.Text).toBe('Wzorowo!');
  });

  it('addNotice adds an unread notice that can be marked read', async () => {
    const notice = sim.account(ANIA.login).addNotice({ Subject: 'Próbna ewakuacja', Content: 'Jutro o 10:00.' });
    type Notices = { SchoolNotices: { Id: string; WasRead: boolean; CreationDate: string }[] };
    const listed = (await gatewayGet<Notices>(sim, browser, 'SchoolNotices')).body.SchoolNotices.find((n) => n.Id === notice.Id);
    expect(listed).toMatchObject({ WasRead: false, CreationDate: '2026-11-20 12:00:00' });
    const res = await browser.request(`${sim.urls.base_url}/gateway/api/2.0/SchoolNotices/MarkAsRead/${notice.Id}`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(notice.WasRead).toBe(true);
  });

  it('addRecord appends to any static list, in fixture form', async () => {
    const account = sim.account(ANIA.login);
    const id = account.nextId('Notes');
    account.addRecord('Notes', {
      Id: id,
      Text: 'Udział w konkursie recytatorskim.',
      Category: '@Notes/Categories/1',
      Teacher: '@Users/162001',
      Date: '{{today}}',
      Positive: 1,
      AddDate: '{{today}} 09:00:00',
    });
    type Notes = { Notes: { Id: number; Date: string; Teacher: { Id: number; Url: string } }[] };
    const note = (await gatewayGet<Notes>(sim, browser, 'Notes')).body.Notes.find((n) => n.Id === id);
    expect(note).toMatchObject({ Date: '2026-11-20', Teacher: { Id: 162001, Url: `${sim.urls.base_url}/gateway/api/2.0/Users/162001` } });
    expect(() => account.addRecord('Me', {})).toThrow(/no list/);
  });

  it('keeps accounts added later apart from the demo family', async () => {
    const extra = sim.addAccount({ login: '5550001u', password: 'pw', profile: 'janek', firstName: 'Zosia' });
    expect(() => sim.addAccount({ login: '5550001u', password: 'x' })).toThrow(/exists/);
    expect(() => sim.account('nobody')).toThrow(/no account/);
    const zosia = await logIn(sim, '5550001u', 'pw');
    type Me = { Me: { User: { FirstName: string } } };
    expect((await gatewayGet<Me>(sim, zosia, 'Me')).body.Me.User.FirstName).toBe('Zosia');
    expect(extra.childLid).not.toBe(sim.account('7654321u').childLid);
  });
});

describe('a lesson moved out of a split slot', () => {
  // Monday's third lesson is split: English with the child's teacher (8403) and with the other group's (8404). Some
  // schools list the other group first in the plan; the lesson a move takes is still the child's own group's.
  type Lesson = { Lesson: { Id: string }; IsCanceled: boolean; NewDate?: string };
  const moveFromSplitSlot = (ownGroupOnly: boolean) => {
    const account = sim.account(ANIA.login);
    account.data.week['1']?.[3]?.reverse();
    account.ownGroupOnly = ownGroupOnly;
    account.moveLesson({ from: { date: '2026-11-23', lessonNo: 3 }, to: { date: '2026-11-24', lessonNo: 8 } });
  };
  const week = async () =>
    (await gatewayGet<{ Timetable: Record<string, Lesson[][]> }>(sim, browser, 'Timetables?weekStart=2026-11-23')).body.Timetable;
  const told = (slot: Lesson[] | undefined) => (slot ?? []).map((l) => [l.Lesson.Id, l.IsCanceled, l.NewDate ?? null]);

  it("moves the child's own group's lesson; the other group's stays in its slot", async () => {
    moveFromSplitSlot(false);
    const days = await week();
    expect(told(days['2026-11-23']?.[3])).toEqual([
      ['8404', false, null],
      ['8403', true, '2026-11-24'],
    ]);
    expect(told(days['2026-11-24']?.[8])).toEqual([['8403', false, null]]);
  });

  it("brings no lesson of the other group into a timetable that holds the child's group alone", async () => {
    moveFromSplitSlot(true);
    const days = await week();
    expect(told(days['2026-11-23']?.[3])).toEqual([['8403', true, '2026-11-24']]);
    expect(told(days['2026-11-24']?.[8])).toEqual([['8403', false, null]]);
  });
});

describe('a plan change in a split slot', () => {
  // Monday's third lesson is split: English with the child's teacher (lesson 8403) and the other group's (8404). The
  // change names the group's lesson it is to; a change that names none is to the slot's first.
  type Lesson = { Lesson: { Id: string }; IsCanceled: boolean };
  type Change = { OrgLesson: { Id: number | string }; OrgTeacher: { Id: number | string } };
  const slot = async () =>
    (
      (await gatewayGet<{ Timetable: Record<string, Lesson[][]> }>(sim, browser, 'Timetables?weekStart=2026-11-23')).body.Timetable[
        '2026-11-23'
      ]?.[3] ?? []
    ).map((l) => [l.Lesson.Id, l.IsCanceled]);
  const changes = async () => (await gatewayGet<{ Substitutions: Change[] }>(sim, browser, 'Calendars/Substitutions')).body.Substitutions;

  it("cancels the named group's lesson alone, and lists the change with that group's teacher", async () => {
    const account = sim.account(ANIA.login);
    const before = (await changes()).length;
    account.addPlanChange({ kind: 'cancelled', OrgDate: '2026-11-23', OrgLessonNo: 3, OrgLesson: 8404 });
    expect(await slot()).toEqual([
      ['8403', false],
      ['8404', true],
    ]);
    const listed = (await changes()).slice(before);
    expect(listed.map((c) => [String(c.OrgLesson.Id), String(c.OrgTeacher.Id)])).toEqual([['8404', String(account.data.lessons['8404']?.teacher)]]);
  });

  it("cancels the slot's first lesson when the change names none", async () => {
    sim.account(ANIA.login).addPlanChange({ kind: 'cancelled', OrgDate: '2026-11-23', OrgLessonNo: 3 });
    expect(await slot()).toEqual([
      ['8403', true],
      ['8404', false],
    ]);
  });
});

describe("a hostile portal's standing plan (interface 19.2)", () => {
  type Entry = { Id: number; Lesson?: { Id: number }; DayOfTheWeek: number; LessonNo: number };

  it('serves 28,000 entries and 5,000 repeats, Sundays and lessonless ones among them, within what the bridge reads of one answer', async () => {
    sim.account(ANIA.login).serveHostileStandingTimetable();
    const res = await browser.get(`${sim.urls.base_url}/gateway/api/2.0/TimetableEntries`);
    const text = await res.text();
    // Under the gateway's cap for any answer: what refuses it is the standing plan's own cap (1 MB), not the simulator.
    expect(Buffer.byteLength(text)).toBeLessThan(ANSWER_BYTES);
    const entries = (JSON.parse(text) as { TimetableEntries: Entry[] }).TimetableEntries;
    expect(entries).toHaveLength(33_000);
    expect(new Set(entries.map((e) => e.Id)).size).toBe(33_000);
    const slot = (e: Entry | undefined) => e && { lesson: e.Lesson?.Id, day: e.DayOfTheWeek, no: e.LessonNo };
    expect(entries.slice(28_000).map(slot)).toEqual(entries.slice(0, 5_000).map(slot));
    expect(entries.some((e) => e.DayOfTheWeek === 7 && e.Lesson !== undefined)).toBe(true);
    expect(entries.filter((e) => e.Lesson === undefined)).toHaveLength(3_300);
    sim.account(ANIA.login).setResource('TimetableEntries', undefined);
    expect((await gatewayGet<{ TimetableEntries: Entry[] }>(sim, browser, 'TimetableEntries')).body.TimetableEntries.length).toBeLessThan(100);
  });
});
