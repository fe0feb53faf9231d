// The simulator's kindergarten child (live-notes 33-36), walked by hand with the tests' tiny browser: the
// demo family's third child refuses Timetables and the school's lists, and answers its plan, the activities
// and the rooms on the kindergarten service; the switches for a plan service that is down,
// where the identifier shows and which host takes the child's bearer token. Her account answers as public clients
// report a preschool login (live-notes 58): the school's lists 403 AccessDeny, Me with no class, her unit's grades off.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_FAMILY_ALL, PortalSimulator } from '../../src/simulator/index.js';
import { gatewayGet, logIn, TinyBrowser } from '../helpers/simulator.js';

const ZOSIA = DEMO_ACCOUNTS[2]!;
const ANIA = DEMO_ACCOUNTS[0]!;
let sim: PortalSimulator;

beforeEach(async () => {
  // A Wednesday.
  sim = new PortalSimulator({ now: () => Date.parse('2026-11-18T07:30:00+01:00'), families: [DEMO_FAMILY_ALL] });
  await sim.start();
});
afterEach(() => sim.stop());

type Entries = {
  timetableEntries: {
    date: string;
    startTime: string;
    endTime: string;
    activityTypeIdentifier: string;
    classroomIdentifier: string;
    teachers: string[];
    type: string;
  }[];
};

async function kindergartenPlan(browser: TinyBrowser, lid: string, from: string, to: string): Promise<{ status: number; body: Entries }> {
  const res = await browser.get(`${sim.urls.base_url}/gateway/ms/kindergartens/timetable/kindergarteners/${lid}?dateFrom=${from}&dateTo=${to}`);
  const text = await res.text();
  return { status: res.status, body: (text.startsWith('{') ? JSON.parse(text) : {}) as Entries };
}

describe('the demo family’s kindergarten child', () => {
  it('is the demo family’s third child, four years old, on its family account beside her siblings', () => {
    expect(ZOSIA).toMatchObject({ login: '5432167u', profile: 'zosia' });
    expect(DEMO_FAMILY_ALL.logins).toEqual([DEMO_ACCOUNTS[0]!.login, DEMO_ACCOUNTS[1]!.login, ZOSIA.login]);
    expect(sim.account(ZOSIA.login).kindergarten).toBeDefined();
    expect(sim.account(ANIA.login).kindergarten).toBeUndefined();
  });

  it('refuses Timetables and the grades, and answers the plan for her identifier only, with every block of the week', async () => {
    const browser = await logIn(sim, ZOSIA.login, ZOSIA.password);
    expect((await gatewayGet(sim, browser, 'Timetables?weekStart=2026-11-16')).status).toBe(403);
    expect((await gatewayGet(sim, browser, 'Grades')).status).toBe(403);
    expect((await gatewayGet(sim, browser, 'SchoolNotices')).status).toBe(200);
    const lid = sim.account(ZOSIA.login).childLid;
    const week = await kindergartenPlan(browser, lid, '2026-11-16', '2026-11-22');
    expect(week.status).toBe(200);
    const wednesday = week.body.timetableEntries.filter((e) => e.date === '2026-11-18');
    expect(wednesday.map((e) => `${e.startTime}-${e.endTime}`)).toEqual(['08:00-08:30', '08:30-09:15', '09:30-11:00', '11:00-11:45', '11:45-12:30']);
    expect(wednesday[1]).toMatchObject({ activityTypeIdentifier: 'LID-KG-ACT-02', type: 'planned' });
    expect(wednesday[1]!.teachers[0]).toMatch(/^LID-AUTH-USER-/);
    // Five weekdays, none at the weekend.
    expect(new Set(week.body.timetableEntries.map((e) => e.date)).size).toBe(5);
    // The parent's identifier is no kindergartener.
    const parent = (await gatewayGet<{ UserIdentifier: string }>(sim, browser, 'Auth/TokenInfo')).body.UserIdentifier;
    expect((await kindergartenPlan(browser, parent, '2026-11-16', '2026-11-22')).status).toBe(403);
  });

  it('names the activities, the rooms and her group', async () => {
    const browser = await logIn(sim, ZOSIA.login, ZOSIA.password);
    const types = await browser.get(`${sim.urls.base_url}/gateway/ms/kindergartens/activities-types`);
    const { activitiesTypes } = (await types.json()) as { activitiesTypes: { identifier: string; name: string }[] };
    expect(activitiesTypes.find((a) => a.identifier === 'LID-KG-ACT-02')?.name).toBe('rytmika');
    const rooms = await gatewayGet<{ data: { identifier: string; symbol: string; name: string }[] }>(sim, browser, 'Auth/Classrooms');
    expect(rooms.body.data[0]).toMatchObject({ symbol: '1', name: 'sala 1' });
    const lid = sim.account(ZOSIA.login).childLid;
    const kid = await gatewayGet<{ data: { groupIdentifier: string } }>(sim, browser, `Auth/Users/Kindergarteners/${lid}`);
    const group = await browser.get(`${sim.urls.base_url}/gateway/ms/kindergartens/groups/${kid.body.data.groupIdentifier}`);
    expect(await group.json()).toMatchObject({ name: 'Biedronki' });
  });

  it("answers as a preschool login does: the school's lists refused, no class, a unit without grades, the rest answered", async () => {
    const browser = await logIn(sim, ZOSIA.login, ZOSIA.password);
    const status = async (endpoint: string) => (await gatewayGet(sim, browser, endpoint)).status;
    const refused = ['Timetables', 'Attendances', 'Attendances/Types', 'Grades', 'Grades/Categories', 'Grades/Averages', 'PointGrades'];
    refused.push('BaseTextGrades', 'DescriptiveGrades', 'BehaviourGrades/Points', 'Notes', 'HomeWorks', 'HomeWorkAssignments', 'Calendars');
    expect(Object.fromEntries(await Promise.all(refused.map(async (e) => [e, await status(e)])))).toEqual(
      Object.fromEntries(refused.map((e) => [e, 403])),
    );
    const grades = await gatewayGet<{ Code: string; Message: string }>(sim, browser, 'Grades');
    expect(grades.body).toMatchObject({ Status: 'Error', Code: 'AccessDeny', Message: 'Account not have access to resource' });
    const answered = ['Me', 'Users', 'Schools', 'Units', 'SchoolNotices', 'SchoolFreeDays', 'ClassFreeDays'];
    expect(await Promise.all(answered.map(status))).toEqual(answered.map(() => 200));
    expect((await gatewayGet<{ Status: string }>(sim, browser, 'LuckyNumbers')).body.Status).toBe('Disabled');
    // Me names no class; her user record none either, and its unit is the kindergarten's, whose settings give no grades.
    expect((await gatewayGet<{ Me: Record<string, unknown> }>(sim, browser, 'Me')).body.Me.Class).toBeUndefined();
    const { userId } = sim.account(ZOSIA.login).data.account;
    const user = (await gatewayGet<{ User: { Class?: unknown; Unit: { Id: number } } }>(sim, browser, `Users/${userId}`)).body.User;
    expect(user.Class).toBeUndefined();
    const units = (await gatewayGet<{ Units: { Id: number; GradesSettings: Record<string, boolean> }[] }>(sim, browser, 'Units')).body.Units;
    expect(units.find((u) => u.Id === user.Unit.Id)?.GradesSettings).toMatchObject({
      StandardGradesEnabled: false,
      PointGradesEnabled: false,
      DescriptiveGradesEnabled: false,
    });
    // A pupil of the same school: her class named, her unit's grades on.
    const pupil = await logIn(sim, ANIA.login, ANIA.password);
    expect((await gatewayGet<{ Me: Record<string, unknown> }>(sim, pupil, 'Me')).body.Me.Class).toBeDefined();
    expect((await gatewayGet(sim, pupil, 'Grades')).status).toBe(200);
  });

  it('shows the identifier where the switch says', async () => {
    const browser = await logIn(sim, ZOSIA.login, ZOSIA.password);
    const lid = sim.account(ZOSIA.login).childLid;
    const me = async () => (await gatewayGet<{ Me: { User: Record<string, unknown> } }>(sim, browser, 'Me')).body.Me.User;
    expect(JSON.stringify(await me())).not.toContain('LID-');
    sim.account(ZOSIA.login).kindergarten!.identifierIn = 'me';
    expect((await me()).Identifier).toBe(lid);
    const user = await gatewayGet<{ User: { AccountId: string } }>(sim, browser, `Users/${sim.account(ZOSIA.login).data.account.userId}`);
    expect(user.body.User.AccountId).toBe(lid);
  });

  it('answers 503 while the plan service is down, and takes the bearer token at the host the switch names', async () => {
    const browser = await logIn(sim, ZOSIA.login, ZOSIA.password);
    const kg = sim.account(ZOSIA.login).kindergarten!;
    const lid = sim.account(ZOSIA.login).childLid;
    kg.kindergartenPlanDown = true;
    expect((await kindergartenPlan(browser, lid, '2026-11-18', '2026-11-18')).status).toBe(503);
    kg.kindergartenPlanDown = false;
    const token = await bearer();
    const path = `ms/kindergartens/timetable/kindergarteners/${lid}?dateFrom=2026-11-18&dateTo=2026-11-18`;
    const at = (url: string) => fetch(url, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.status);
    expect([await at(`${sim.urls.base_url}/gateway/${path}`), await at(`${sim.urls.auth_url}/${path}`)]).toEqual([401, 200]);
    kg.bearerAt = 'none';
    expect([await at(`${sim.urls.base_url}/gateway/${path}`), await at(`${sim.urls.auth_url}/${path}`)]).toEqual([401, 404]);
    kg.bearerAt = 'gateway';
    expect([await at(`${sim.urls.base_url}/gateway/${path}`), await at(`${sim.urls.auth_url}/${path}`)]).toEqual([200, 404]);
  });
});

/** Zosia's bearer token from the family portal, as the family road gets it. */
async function bearer(): Promise<string> {
  const browser = new TinyBrowser();
  const form = await browser.get(`${sim.urls.family_url}/konto-librus/login`);
  const token = /name="_token" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  await browser.request(`${sim.urls.family_url}/konto-librus/login/action`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Referer: `${sim.urls.family_url}/konto-librus/login` },
    body: new URLSearchParams({ email: DEMO_FAMILY_ALL.email, password: DEMO_FAMILY_ALL.password, _token: token }).toString(),
  });
  const res = await browser.get(`${sim.urls.family_url}/api/v3/SynergiaAccounts`);
  const { accounts } = (await res.json()) as { accounts: { login: string; accessToken: string }[] };
  return accounts.find((a) => a.login === ZOSIA.login)!.accessToken;
}
