// A declaration brings what its signal is read from: the parent-teacher meetings are vouched for by the
// class calendar's ids, so a feature alone on that list (a "next meeting" sensor, added as a newcomer
// would, with no other feature reading the calendar) still sees a new meeting at the calendar's news
// age in lessons, not at the list's own age of nearly three hours.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { feature } from '../../src/features/feature.js';
import { want } from '../../src/engine/resource.js';
import { sensor } from '../../src/features/kit/entities.js';
import { CONFERENCES } from '../../src/features/agenda/resources.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson.
const school = simulatedSchool('2026-11-18T09:10:00+01:00');

describe("a declaration's signal", () => {
  it('reads the class calendar for a feature alone on the meetings: a new meeting within 5 minutes in lessons', async () => {
    // How many meetings the feature last computed from (undefined before its first computation).
    let seen: number | undefined;
    const meetings = feature({
      name: 'meetings',
      reads: () => [want(CONFERENCES)],
      entities: [sensor('meetings', { en: 'Meetings', pl: 'Zebrania', uk: 'Збори' })],
      create: () => ({
        compute: (ctx) => {
          seen = ctx.cache.get(CONFERENCES)?.ParentTeacherConferences.length;
          return Promise.resolve({});
        },
      }),
    });
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password }], features: [meetings] });
    await h.runUntil(() => seen !== undefined, 'the first pass');
    const before = seen!;
    await h.advanceMinutes(20);
    const added = school.clock.now();
    school.sim.account(ANIA.login).addMeeting({ date: '2026-11-26', time: '17:00', topic: 'Wywiadówka' });
    // Within the news age (5 minutes in lessons) and the pass that reads it; the list's own age is 175 minutes.
    const minutes = await school.minutesUntil(h, added, () => seen === before + 1, 15);
    expect(minutes).toBeLessThanOrEqual(6);
    // The calendar was read for it, though no feature names it in its reads.
    expect(school.reads('Calendars')).toBeGreaterThan(0);
  }, 60_000);
});
