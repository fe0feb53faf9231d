// The simulator's data gateway: headers, quirks of spec 4.7/7.1, the writes, per-account overrides and
// the shapes of the resources with logic (timetable, plan changes, lucky number, partial grades).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PortalSimulator } from '../../src/simulator/index.js';
import { gatewayGet, logIn } from '../helpers/simulator.js';
import type { TinyBrowser } from '../helpers/simulator.js';

const ANIA = { login: '1234567u', password: 'demo-ania' };
const JANEK = { login: '7654321u', password: 'demo-janek' };
// A Friday morning in Warsaw, in the first semester.
const FRIDAY_8AM = Date.parse('2026-11-20T08:00:00+01:00');
let sim: PortalSimulator;
let now: number;
let browser: TinyBrowser;

beforeEach(async () => {
  now = FRIDAY_8AM;
  sim = new PortalSimulator({ now: () => now });
  await sim.start();
  browser = await logIn(sim, ANIA.login, ANIA.password);
});

afterEach(async () => {
  await sim.stop();
});

const get = <T = Record<string, unknown>>(endpoint: string, who = browser) => gatewayGet<T>(sim, who, endpoint);
const post = (endpoint: string, who = browser, body = '') =>
  who.request(`${sim.urls.base_url}/gateway/api/2.0/${endpoint}`, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });

describe('gateway basics', () => {
  it('answers JSON with Cache-Control no-store, also on errors', async () => {
    for (const endpoint of ['Me', 'NoSuchModule', 'SchoolInfo', 'StudentDuty']) {
      const { res } = await get(endpoint);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect((await get('NoSuchModule')).status).toBe(404);
  });

  it('lists the module index at the root', async () => {
    const { status, body } = await get<{ Resources: Record<string, { Url: string }> }>('');
    expect(status).toBe(200);
    expect(Object.keys(body.Resources).length).toBeGreaterThanOrEqual(70);
    expect(body.Resources.SchoolInfo?.Url).toBe(`${sim.urls.base_url}/gateway/api/2.0/SchoolInfo`);
  });

  it('answers 401 Insufficient scopes for the listed modules and keeps the session alive', async () => {
    for (const endpoint of ['SchoolInfo', 'Duties', 'WhatsNew', 'OsinInfo']) {
      const { status, body } = await get(endpoint);
      expect(status).toBe(401);
      expect(JSON.stringify(body)).toContain('Insufficient scopes');
    }
    expect((await get('Me')).status).toBe(200);
  });

  it.each([
    ['StudentDuty', 403, 'Account not have access to resource'],
    ['Substitutions', 403, ''],
    ['Grades/CategoriesAverages', 403, ''],
    ['Calendars/TeacherFreeDays', 403, ''],
    ['ExamResult', 404, ''],
    ['AttendanceTypes', 404, ''],
    ['DescriptiveGrades/Text', 404, ''],
    ['Employees', 405, 'Employees/Substitutions'],
    ['Educators', 405, 'Educators/EducatorCalendarTasks'],
    ['ChangeRegister', 400, 'InvalidRequest'],
    ['PushChanges', 400, 'FilterInvalidValue'],
  ])('%s answers %i', async (endpoint, status, marker) => {
    const answer = await get(endpoint);
    expect(answer.status).toBe(status);
    expect(JSON.stringify(answer.body)).toContain(marker);
  });

  it('answers OneRoster with 500 and an empty HTML body', async () => {
    const res = await browser.get(`${sim.urls.base_url}/gateway/api/2.0/OneRoster`);
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toBe('');
  });

  it('gives the child under Users/{UserId} and 404 under Users/{Account.Id}', async () => {
    type Me = { Me: { Account: { Id: number; UserId: number }; Class: { Id: number } } };
    const { Me } = (await get<Me>('Me')).body;
    const child = await get<{ User: Record<string, unknown> }>(`Users/${Me.Account.UserId}`);
    expect(child.body.User).toMatchObject({ FirstName: 'Ania', LastName: 'Kowalska', ClassRegisterNumber: 12, Class: { Id: Me.Class.Id } });
    expect(child.body.User.AccountId).toMatch(/^LID-AUTH-USER-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect((await get(`Users/${Me.Account.Id}`)).status).toBe(404);
    const users = (await get<{ Users: { FirstName: string | null }[] }>('Users')).body.Users;
    expect(users.some((u) => u.FirstName === null)).toBe(true);
  });

  it('marks a notice read once; a second time is 400 [212]; an unknown id 404', async () => {
    type Notices = { SchoolNotices: { Id: string; WasRead: boolean }[] };
    const unread = (await get<Notices>('SchoolNotices')).body.SchoolNotices.find((n) => !n.WasRead);
    expect(unread?.Id).toMatch(/^LID-NBOARD-NOTICE-/);
    const first = await post(`SchoolNotices/MarkAsRead/${unread?.Id}`);
    expect(first.status).toBe(200);
    const after = (await get<Notices>('SchoolNotices')).body.SchoolNotices.find((n) => n.Id === unread?.Id);
    expect(after?.WasRead).toBe(true);
    const second = await post(`SchoolNotices/MarkAsRead/${unread?.Id}`);
    expect(second.status).toBe(400);
    expect(await second.json()).toEqual({ Status: 'Error', Code: 'InvalidRequest', Message: '[212] Invalid request params' });
    expect((await post('SchoolNotices/MarkAsRead/LID-NBOARD-NOTICE-nope')).status).toBe(404);
    expect((await get(`SchoolNotices/MarkAsRead/${unread?.Id}`)).status).toBe(405);
    expect(sim.account(ANIA.login).notices.find((n) => n.Id === unread?.Id)?.WasRead).toBe(true);
  });
});

describe('per-account overrides', () => {
  it('setModuleStatus changes one endpoint (or a subtree) of one account until cleared', async () => {
    const account = sim.account(ANIA.login);
    account.setModuleStatus('GradingSystem', 'insufficient_scopes');
    const refused = await get('GradingSystem');
    expect(refused.status).toBe(401);
    expect(JSON.stringify(refused.body)).toContain('Insufficient scopes');
    account.setModuleStatus('Auth/DescriptiveGradingSystem/*', 404);
    expect((await post('Auth/DescriptiveGradingSystem/PartialGrades/Student/x')).status).toBe(404);
    account.setModuleStatus('Timetables', 403);
    expect((await get('Timetables')).status).toBe(403);
    account.setModuleStatus('GradingSystem', null);
    expect((await get('GradingSystem')).body).toEqual({ countZero: false, plusValue: 0.5, minusValue: 0.25 });
    const janek = await logIn(sim, JANEK.login, JANEK.password);
    expect((await get('Timetables', janek)).status).toBe(200);
  });

  it('setResource serves a raw body, tokens expanded, until cleared', async () => {
    const account = sim.account(ANIA.login);
    account.setResource('GradingSystem', { countZero: true, plusValue: '0,5', minusValue: '0,3', day: '{{today}}' });
    expect((await get('GradingSystem')).body).toEqual({ countZero: true, plusValue: '0,5', minusValue: '0,3', day: '2026-11-20' });
    account.setResource('GradingSystem', undefined);
    expect((await get('GradingSystem')).body).toMatchObject({ countZero: false });
  });
});

type Lesson = Record<string, unknown> & { Subject: { Id: string }; Teacher: { Id: string } };
type Timetable = { Timetable: Record<string, Lesson[][]> };

describe('timetable and plan changes', () => {
  it('gives 7 days of equal slot lists with string ids, a cancellation, a substitution and a room change', async () => {
    const thisWeek = (await get<Timetable>('Timetables?weekStart=2026-11-16')).body.Timetable;
    const nextWeek = (await get<Timetable>('Timetables?weekStart=2026-11-23')).body.Timetable;
    expect(Object.keys(thisWeek)).toHaveLength(7);
    expect(new Set(Object.values(thisWeek).map((d) => d.length)).size).toBe(1);
    expect(thisWeek['2026-11-21']?.flat()).toEqual([]);
    const first = thisWeek['2026-11-16']?.[1]?.[0];
    expect(first).toMatchObject({ LessonNo: '1', HourFrom: '08:00', HourTo: '08:45', IsCanceled: false, IsSubstitutionClass: false });
    expect(typeof first?.Subject.Id).toBe('string');
    expect(thisWeek['2026-11-16']?.[3]).toHaveLength(2);

    const substitution = thisWeek['2026-11-20']?.[2]?.[0];
    expect(substitution).toMatchObject({
      IsSubstitutionClass: true,
      Teacher: { Id: '162011' },
      OrgTeacher: { Id: '162001' },
      OrgClassroom: { Id: '301' },
    });
    expect(substitution).not.toHaveProperty('Classroom');
    expect(substitution?.SubstitutionClassUrl).toMatch(/Calendars\/Substitutions\/\d+$/);

    expect(nextWeek['2026-11-23']?.[4]?.[0]).toMatchObject({ IsCanceled: true });
    const moved = nextWeek['2026-11-23']?.[5]?.[0];
    expect(moved).toMatchObject({ IsSubstitutionClass: true, Classroom: { Id: '310' }, OrgClassroom: { Id: '305' } });
    expect(moved?.Teacher).toEqual(moved?.OrgTeacher);
    expect(moved?.Subject).toEqual(moved?.OrgSubject);
  });

  it('answers one day with day=, 403 for a week not yet published, 400 for a bad date', async () => {
    const day = (await get<Timetable>('Timetables?day=2026-11-18')).body.Timetable;
    expect(Object.keys(day)).toEqual(['2026-11-18']);
    expect((await get('Timetables?weekStart=2026-11-30')).status).toBe(200);
    expect((await get('Timetables?weekStart=2026-12-14')).status).toBe(403);
    expect((await get('Timetables?weekStart=2026-13-01')).status).toBe(400);
  });

  it('lists plan changes: a cancellation has only the Org side; dateFrom/dateTo is a 400', async () => {
    type Subs = { Substitutions: Record<string, unknown>[] };
    const list = (await get<Subs>('Calendars/Substitutions')).body.Substitutions;
    const cancelled = list.find((s) => s.IsCancelled === true);
    expect(cancelled).toMatchObject({ OrgLessonNo: expect.any(String), IsShifted: false });
    expect(cancelled).not.toHaveProperty('Date');
    expect(cancelled).not.toHaveProperty('Teacher');
    const substitution = list.find((s) => s.IsCancelled === false && s.Date === '2026-11-20');
    expect(substitution).toMatchObject({
      LessonNo: '2',
      Teacher: { Id: 162011 },
      OrgTeacher: { Id: 162001 },
      OrgClassroomSymbol: '12',
      ClassroomSymbol: null,
    });
    const one = await get<{ Substitution: { Id: number } }>(`Calendars/Substitutions/${String(substitution?.Id)}`);
    expect(one.body.Substitution.Id).toBe(substitution?.Id);
    expect((await get('Calendars/Substitutions?dateFrom=2026-11-01&dateTo=2026-11-30')).status).toBe(400);
  });

  it('lists the free days of every class, one of them for some lessons only', async () => {
    type Free = { ClassFreeDays: { Class: { Id: number }; LessonNoFrom?: string; LessonNoTo?: string; AddDate?: string }[] };
    const days = (await get<Free>('ClassFreeDays')).body.ClassFreeDays;
    expect(new Set(days.map((d) => d.Class.Id)).size).toBeGreaterThan(1);
    expect(days.find((d) => d.Class.Id === 7104 && d.LessonNoFrom !== undefined)).toMatchObject({ LessonNoFrom: '5', LessonNoTo: '7' });
    expect(days.every((d) => d.AddDate === undefined)).toBe(true);
    expect((await get<Free>('Calendars/ClassFreeDays')).body.ClassFreeDays.every((d) => d.AddDate !== undefined)).toBe(true);
  });

  it('resolves every attendance record to a lesson and a type; ids are numbers and t-strings', async () => {
    type Att = { Attendances: { Id: number | string; Lesson: { Id: number }; Type: { Id: number } }[] };
    const records = (await get<Att>('Attendances')).body.Attendances;
    const lessons = new Set((await get<{ Lessons: { Id: number }[] }>('Lessons')).body.Lessons.map((l) => l.Id));
    const types = new Set((await get<{ Types: { Id: number }[] }>('Attendances/Types')).body.Types.map((t) => t.Id));
    expect(records.length).toBeGreaterThan(50);
    expect(records.every((r) => lessons.has(r.Lesson.Id) && types.has(r.Type.Id))).toBe(true);
    expect(records.some((r) => typeof r.Id === 'string' && /^t\d+$/.test(r.Id))).toBe(true);
    expect(records.some((r) => typeof r.Id === 'number')).toBe(true);
    expect(types.has(1685)).toBe(true);
  });
});

describe('lucky number', () => {
  type Lucky = { LuckyNumber: { LuckyNumber: number; LuckyNumberDay: string } };

  it("is today's on a school-day morning, the next school day's from 15:00 and at weekends", async () => {
    expect((await get<Lucky>('LuckyNumbers')).body.LuckyNumber.LuckyNumberDay).toBe('2026-11-20');
    now = Date.parse('2026-11-20T15:00:00+01:00');
    expect((await get<Lucky>('LuckyNumbers')).body.LuckyNumber.LuckyNumberDay).toBe('2026-11-23');
    now = Date.parse('2026-11-22T09:00:00+01:00');
    // Two days on, the session from beforeEach has died: a new login.
    const sunday = (await get<Lucky>('LuckyNumbers', await logIn(sim, ANIA.login, ANIA.password))).body.LuckyNumber;
    expect(sunday.LuckyNumberDay).toBe('2026-11-23');
    expect(sunday.LuckyNumber).toBeGreaterThanOrEqual(1);
    expect(sunday.LuckyNumber).toBeLessThanOrEqual(30);
  });

  it("is the school's: a class's own free day moves neither its day nor its number", async () => {
    // Jan's class 1a has a day of its own off on Wednesday 25 November (a trip); Ania's 4b has not.
    const jans = sim.account(JANEK.login);
    const trip = { Id: 990, Class: jans.data.account.classId, Type: 3, DateFrom: '2026-11-25', DateTo: '2026-11-25', AddDate: '2026-11-18 09:00:00' };
    jans.school.classFreeDays.push(trip);
    now = Date.parse('2026-11-24T15:00:00+01:00');
    const ania = (await get<Lucky>('LuckyNumbers', await logIn(sim, ANIA.login, ANIA.password))).body.LuckyNumber;
    const jan = (await get<Lucky>('LuckyNumbers', await logIn(sim, JANEK.login, JANEK.password))).body.LuckyNumber;
    expect(ania.LuckyNumberDay).toBe('2026-11-25');
    expect(jan).toEqual(ania);
  });

  it('answers 403 for forDay and follows setLuckyNumber', async () => {
    expect((await get('LuckyNumbers?forDay=2026-11-20')).status).toBe(403);
    sim.account(ANIA.login).setLuckyNumber(12, '2026-11-20');
    expect((await get<Lucky>('LuckyNumbers')).body).toEqual({ LuckyNumber: { LuckyNumber: 12, LuckyNumberDay: '2026-11-20' } });
  });
});

describe('newer partial grades', () => {
  it("answers the POST for the child's LID, 403 for another LID, and 405 to a GET", async () => {
    const janek = await logIn(sim, JANEK.login, JANEK.password);
    const token = (await get<{ UserIdentifier: string }>('Auth/TokenInfo', janek)).body;
    const info = (await get<{ IdentifierOfStudentAssignedWithUser: string }>(`Auth/UserInfo/${token.UserIdentifier}`, janek)).body;
    const lid = info.IdentifierOfStudentAssignedWithUser;
    const res = await post(`Auth/DescriptiveGradingSystem/PartialGrades/Student/${lid}`, janek, '{}');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { studentId: string; scaleValue: { value: unknown } }[]; pagination: { total: number } };
    expect(body.data.length).toBe(body.pagination.total);
    expect(body.data.every((g) => g.studentId === lid)).toBe(true);
    expect(body.data.some((g) => g.scaleValue.value === 0)).toBe(true);
    expect((await post('Auth/DescriptiveGradingSystem/PartialGrades/Student/LID-AUTH-USER-other', janek, '{}')).status).toBe(403);
    expect((await get(`Auth/DescriptiveGradingSystem/PartialGrades/Student/${lid}`, janek)).status).toBe(405);
    expect((await get('Auth/DescriptiveGradingSystem/PartialGrades', janek)).status).toBe(405);
    type Subjects = { data: { identifier: string; numericIdentifier: number }[] };
    expect((await get<Subjects>('Auth/Subjects', janek)).body.data[0]?.identifier).toMatch(/^LID-/);
  });

  it('gives homework attachment descriptors, and a 400 for the file id alone', async () => {
    const ok = await get<{ DownloadUrl: string }>('HomeWorkAssignments/Attachment/4402-771');
    expect(ok.body.DownloadUrl).toBe(`${sim.urls.base_url}/homework/downloadFile/771`);
    expect((await get('HomeWorkAssignments/Attachment/771')).status).toBe(400);
  });
});
