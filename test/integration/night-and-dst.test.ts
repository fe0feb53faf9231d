// The night and the days the clocks change, over the real bridge and the simulated portal on the fake
// clock (issue 64, points 4 and 5): from 22:00 to 06:00 the bridge reads nothing on its own (a start
// at midnight included: its first pass reads, then nothing until 06:00, not a new messaging session at
// 02:00 nor a refused list at the next midnight), and the last Sundays of March and of October, 23 and
// 25 hours long, make no storm of passes and skip no daily read.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { warsawDate, warsawInstant, warsawTimeOfDay } from '../../src/util/time.js';
import { simulatedSchool, type SimulatedSchool } from '../helpers/school.js';
import type { Harness } from '../helpers/app.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const HOUR = 60;

const atNight = (ms: number): boolean => warsawTimeOfDay(ms) >= '22:00' || warsawTimeOfDay(ms) < '06:00';

/** Ania's requests (the login's steps aside) made after `from`. */
function requestsAfter(school: SimulatedSchool, from: number) {
  return school.sim.requests.filter((r) => r.at > from && (r.login === undefined || r.login === ANIA.login));
}

/**
 * Every tier hourly by day: what is counted here is the night (nothing), each daily list once a day and the
 * Sunday against the Saturday, which hold at any day's cadence. The passes by day are all of the file's simulated
 * work: the default 3-minute counters cost 25.7 s of CPU alone, every tier at 20 minutes 8.6 s, and hourly about
 * half the requests of that (run beside other work).
 */
const INTERVALS = { interval: '60m', fast_interval: '60m', school_interval: '60m' };

async function started(school: SimulatedSchool): Promise<Harness> {
  return school.firstPasses(['newest_grade'], { poll: INTERVALS });
}

describe('a bridge started at midnight', () => {
  const school = simulatedSchool('2026-11-16T00:00:00+01:00');

  it('reads in its first pass, then nothing until 06:00, and nothing the next night either', async () => {
    const h = await started(school);
    const firstPass = school.clock.now();
    // Past the start's night, through Monday, and through the next night to Tuesday 06:30.
    await h.advanceMinutes(30 * HOUR + 30);
    const night = requestsAfter(school, firstPass).filter((r) => atNight(r.at));
    expect(night.map((r) => `${new Date(r.at).toISOString()} ${r.method} ${r.path}`)).toEqual([]);
    // The morning reads what came due in the night (the lists a start leaves for later among them).
    const morning = requestsAfter(school, Date.parse('2026-11-17T05:59:00+01:00')).filter((r) => warsawTimeOfDay(r.at) < '06:30');
    expect(morning.length).toBeGreaterThan(0);
  }, 120_000);
});

describe('the days the clocks change', () => {
  /**
   * Requests per Warsaw day, from Friday 21:00 to Monday 06:00, the end of the night after the Sunday: the
   * Sunday against the Saturday before it, each after a whole night. (Monday's morning of lessons, read
   * every 5 minutes, asserts nothing here: to noon it was a third of the weekend's passes.)
   */
  async function weekend(school: SimulatedSchool, monday: string) {
    const h = await started(school);
    const from = school.clock.now();
    await h.advanceMinutes((warsawInstant(monday, '06:00') - from) / 60_000);
    const requests = requestsAfter(school, from);
    const onDay = (date: string, path?: string) =>
      requests.filter((r) => warsawDate(r.at) === date && (path === undefined || r.path.endsWith(path))).length;
    const busiestHour = (date: string) => {
      const hours = new Map<number, number>();
      for (const r of requests.filter((r) => warsawDate(r.at) === date))
        hours.set(Math.floor(r.at / 3_600_000), (hours.get(Math.floor(r.at / 3_600_000)) ?? 0) + 1);
      return Math.max(...hours.values());
    };
    return { onDay, busiestHour, night: requests.filter((r) => atNight(r.at)).length };
  }

  for (const [what, start, saturday, sunday, monday] of [
    ['the last Sunday of March (23 hours)', '2026-03-27T21:00:00+01:00', '2026-03-28', '2026-03-29', '2026-03-30'],
    ['the last Sunday of October (25 hours)', '2026-10-23T21:00:00+02:00', '2026-10-24', '2026-10-25', '2026-10-26'],
  ] as const) {
    describe(what, () => {
      const school = simulatedSchool(start);
      it('reads as on any Sunday: no storm of passes, each daily list once, nothing at night', async () => {
        const { onDay, busiestHour, night } = await weekend(school, monday);
        expect(night).toBe(0);
        // The same kind of day as the Saturday, read from 06:00 to 22:00 either way.
        expect(busiestHour(sunday)).toBeLessThanOrEqual(busiestHour(saturday) + 5);
        expect(Math.abs(onDay(sunday) - onDay(saturday))).toBeLessThanOrEqual(onDay(saturday) * 0.05);
        for (const daily of ['/Subjects', '/Users', '/Classes']) {
          expect(onDay(saturday, daily), `${daily} on the Saturday`).toBe(1);
          expect(onDay(sunday, daily), `${daily} on the Sunday`).toBe(1);
        }
      }, 120_000);
    });
  }
});
