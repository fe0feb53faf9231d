// News within 5 minutes in lessons from the first minute after a start, on both roads: a grade, an
// announcement and a plan change of the next school day added 30 seconds after both children were first
// published reach MQTT within 5 minutes (the first re-read of a list a start read is at its news age
// from that read, not later).
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_FAMILY } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
// A Wednesday in the first semester, during the second lesson (lessons until the afternoon).
const school = simulatedSchool('2026-11-18T09:10:00+01:00');

const ROADS = {
  register: [ANIA, JANEK].map((c) => ({ login: c.login, password: c.password })),
  family: [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }],
};

const CASES = (Object.keys(ROADS) as (keyof typeof ROADS)[]).flatMap((road) => [0.5, 1.5, 3, 4.5].map((after) => [road, after] as const));

describe('news right after a start', () => {
  it.each(CASES)(
    'on the %s road, added %s minutes after the first publish, reaches MQTT within 5 minutes',
    async (road, after) => {
      const h = await school.start({ accounts: ROADS[road] as never });
      await h.runUntil(
        () => ['ania', 'jan'].every((c) => h.state(c, 'newest_grade') !== undefined && h.state(c, 'plan_changes_tomorrow') !== undefined),
        'both children published',
      );
      await h.advanceMinutes(after);
      expect(await school.newsMinutes(h, '2026-11-19')).toBeLessThanOrEqual(5);
    },
    90_000,
  );
});
