// The simulated school has a trip both in the agenda (HomeWorks) and in SchoolTrips: a family sees it
// once in upcoming_tests.
import { afterEach, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, PortalSimulator } from '../../src/simulator/index.js';
import { FakeClock } from '../helpers/clock.js';
import { startHarness, type Harness } from '../helpers/app.js';

const ANIA = DEMO_ACCOUNTS[0]!;

let sim: PortalSimulator | undefined;
let h: Harness | undefined;

afterEach(async () => {
  await h?.stop();
  await sim?.stop();
  h = undefined;
  sim = undefined;
});

it('lists the trip to the science centre once in upcoming_tests', async () => {
  // A Wednesday: the trip, on the Wednesday two weeks on, is inside the 14-day window.
  const clock = new FakeClock('2026-11-18T09:10:00+01:00');
  sim = new PortalSimulator({ now: () => clock.now() });
  await sim.start();
  h = await startHarness({ sim, clock, accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania' }] });
  const harness = h;
  await harness.pollUntil(() => harness.attributes('ania', 'upcoming_tests') !== undefined, 'upcoming_tests');
  const other = (harness.attributes('ania', 'upcoming_tests')?.other ?? []) as { kind: string; date: string; content: string | null }[];
  const trips = other.filter((i) => /Kopernik/.test(i.content ?? ''));
  expect(trips).toEqual([expect.objectContaining({ date: '2026-12-02', kind: 'trip' })]);
});
