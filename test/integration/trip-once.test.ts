// The simulated school has a trip both in the agenda (HomeWorks) and in SchoolTrips: a family sees it
// once in upcoming_tests.
import { expect, it } from 'vitest';
import { simulatedSchool } from '../helpers/school.js';

// A Wednesday: the trip, on the Wednesday two weeks on, is inside the 14-day window.
const school = simulatedSchool('2026-11-18T09:10:00+01:00');

it('lists the trip to the science centre once in upcoming_tests', async () => {
  const h = await school.firstPasses(['upcoming_tests']);
  const other = (h.attributes('ania', 'upcoming_tests')?.other ?? []) as { kind: string; date: string; content: string | null }[];
  const trips = other.filter((i) => /Kopernik/.test(i.content ?? ''));
  expect(trips).toEqual([expect.objectContaining({ date: '2026-12-02', kind: 'trip' })]);
});
