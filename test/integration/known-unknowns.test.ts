// Known unknowns stay unknown (issue 36, item 9), through the real bridge, the simulated portal and the
// real broker: absences read while the school refuses Attendances/Types are None, not 0; a text grade
// the school keeps out of the grades view (ShowInGradesView false) is not the newest grade and fires
// no event.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import type { Harness } from '../helpers/app.js';
import { firedEvents, simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson.
const NOW = '2026-11-18T09:10:00+01:00';

const school = simulatedSchool(NOW);
const reads = (endpoint: string): number => school.reads(endpoint);
const events = (h: Harness, kind: string) => firedEvents(h, kind);

describe('known unknowns', () => {
  it('absences read while Attendances/Types is refused are unknown (None), then counted once the types answer', async () => {
    const account = school.sim.account(ANIA.login);
    account.setModuleStatus('Attendances/Types', 403);
    const h = await school.firstPasses(['last_update', 'newest_grade']);
    expect(reads('Attendances')).toBeGreaterThan(0);
    expect(h.state('ania', 'absences_unexcused')).toBe('None');
    expect(h.attributes('ania', 'absences_unexcused')).toEqual({});
    expect(events(h, 'absence')).toEqual([]);

    // The types answer again at their next read (daily): the count is known and is no flood of events.
    account.setModuleStatus('Attendances/Types', null);
    await h.restart();
    await h.runUntil(() => h.state('ania', 'absences_unexcused') !== 'None', 'the absences counted');
    expect(Number(h.state('ania', 'absences_unexcused'))).toBeGreaterThan(0);
    expect(events(h, 'absence')).toEqual([]);
  });

  it('a text grade kept out of the grades view is not the newest grade and fires no grade event', async () => {
    // Every tier every 20 minutes: what a read of the text grades makes of each one is shown, not how soon it comes;
    // the default 3- and 5-minute passes of the 150 minutes were most of this test's CPU.
    const h = await school.firstPasses(['last_update', 'newest_grade'], { poll: { fast_interval: '20m', school_interval: '20m' } });
    const newest = h.state('ania', 'newest_grade');
    const account = school.sim.account(ANIA.login);
    account.addRecord('BaseTextGrades', {
      Id: 9902,
      Grade: 'Opinia wychowawcy, nie do dziennika',
      Subject: '@Subjects/5020',
      Category: '@TextGrades/Categories/501',
      AddedBy: '@Users/162006',
      Date: '{{today}}',
      AddDate: account.stamp(),
      Semester: 1,
      ShowInGradesView: false,
    });
    const before = reads('BaseTextGrades');
    // Text grades are read hourly.
    await h.advanceMinutes(70);
    await h.runUntil(() => reads('BaseTextGrades') > before, 'the next read of the text grades');
    await h.advanceMinutes(5);
    expect(h.state('ania', 'newest_grade')).toBe(newest);
    expect(JSON.stringify(h.attributes('ania', 'newest_grade'))).not.toContain('nie do dziennika');
    expect(events(h, 'grade')).toEqual([]);

    // One shown the same way is news, so the read above did see the list.
    account.addRecord('BaseTextGrades', {
      Id: 9903,
      Grade: 'Pracuje systematycznie',
      Subject: '@Subjects/5020',
      Category: '@TextGrades/Categories/501',
      AddedBy: '@Users/162006',
      Date: '{{today}}',
      AddDate: account.stamp(),
      Semester: 1,
      ShowInGradesView: true,
    });
    const again = reads('BaseTextGrades');
    await h.advanceMinutes(70);
    await h.runUntil(() => reads('BaseTextGrades') > again, 'the read after');
    await h.advanceMinutes(5);
    expect(events(h, 'grade')).toEqual([
      expect.objectContaining({ event_type: 'grade', id: 'text:9903', kind: 'text', grade: 'Pracuje systematycznie' }),
    ]);
  });
});
