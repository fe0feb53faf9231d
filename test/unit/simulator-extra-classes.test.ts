// The simulated portal's extra classes (live-notes 42-44): Ania's two a week on school days, one of them cancelled
// next week; Janek's school has none; a kindergarten account and a switched-off module refuse the list.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, PortalSimulator } from '../../src/simulator/index.js';
import type { SimAccountInit } from '../../src/simulator/account.js';
import { gatewayGet, logIn } from '../helpers/simulator.js';

const [ANIA, JANEK, ZOSIA] = DEMO_ACCOUNTS as [SimAccountInit, SimAccountInit, SimAccountInit];
const PATH = 'Timetables/OtherActivitiesRegister';
// Monday 23 November to Sunday 6 December: this and next week, as the bridge asks.
const FORTNIGHT = `${PATH}?dateFrom=2026-11-23&dateTo=2026-12-06&hideOutdatedEntries=false`;
let sim: PortalSimulator;

beforeEach(async () => {
  sim = new PortalSimulator({ now: () => Date.parse('2026-11-24T12:00:00+01:00') });
  await sim.start();
});
afterEach(() => sim.stop());

const asked = async (account: SimAccountInit, endpoint = FORTNIGHT) =>
  gatewayGet<{ data: Record<string, unknown>[] }>(sim, await logIn(sim, account.login, account.password), endpoint);

describe('extra classes', () => {
  it("lists Ania's on their days and hours, teacher surname first, a cancelled one with its status", async () => {
    const { status, body } = await asked(ANIA);
    expect(status).toBe(200);
    expect(body.data.map((c) => [c.date, c.startTime, c.title, c.status])).toEqual([
      ['2026-11-24', '13:40', 'Koło matematyczne', 'ACTUAL'],
      ['2026-11-27', '14:00', 'Chór szkolny', 'ACTUAL'],
      ['2026-12-01', '13:40', 'Koło matematyczne', 'ACTUAL'],
      ['2026-12-04', '14:00', 'Chór szkolny', 'CANCELLED'],
    ]);
    expect(body.data[0]).toEqual({
      status: 'ACTUAL',
      date: '2026-11-24',
      startTime: '13:40',
      endTime: '14:25',
      title: 'Koło matematyczne',
      teacherName: 'Wiśniewski Piotr',
      classroom: { name: 'Sala 22', symbol: '22' },
    });
    expect(body.data[1]?.classroom).toEqual({ symbol: '4' });
  });

  it('names a teacher the register keeps without a first name by the surname alone, never "null"', async () => {
    const maths = sim.account(ANIA.login).school.users.find((u) => u.Id === 162002);
    if (maths) maths.FirstName = null;
    const { body } = await asked(ANIA);
    expect(body.data[0]?.teacherName).toBe('Wiśniewski');
  });

  it('has none in the holidays, none for a school without them, and refuses a kindergarten and a switched-off module', async () => {
    sim.setToday('2026-12-28');
    expect((await asked(ANIA, `${PATH}?dateFrom=2026-12-28&dateTo=2027-01-03`)).body).toEqual({ data: [] });
    sim.setToday(undefined);
    expect((await asked(JANEK)).body).toEqual({ data: [] });
    expect((await asked(ZOSIA)).status).toBe(403);
    expect((await asked(ANIA, PATH)).status).toBe(400);
    sim.account(ANIA.login).setModuleStatus(PATH, 'disabled');
    expect((await asked(ANIA)).body).toMatchObject({ Status: 'Disabled' });
  });
});
