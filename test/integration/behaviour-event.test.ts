// A behaviour entry is no subject grade (issue 36, item 5), through the real bridge, the simulated
// portal and the real broker: a new entry of BehaviourGrades/Points changes `behaviour` and fires one
// `behaviour_grade` event (announced in discovery like the other events), never a `grade` event, and
// `newest_grade` stays the child's newest subject grade.
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

describe('a behaviour entry', () => {
  it('goes to behaviour and a behaviour_grade event, never to the grades', async () => {
    // Every tier every 20 minutes: the entry waits for its list's age (hours), however often the passes come,
    // and the default 3- and 5-minute passes of the 7 hours were most of this test's CPU.
    const h = await school.firstPasses(['last_update', 'newest_grade'], { poll: { fast_interval: '20m', school_interval: '20m' } });
    const newest = { state: h.state('ania', 'newest_grade'), attributes: h.attributes('ania', 'newest_grade') };

    const account = school.sim.account(ANIA.login);
    account.addRecord('BehaviourGrades/Points', {
      Id: 1211,
      BehaviourGrade: { Id: '2', Url: '{{api}}/BehaviourGrades/Types/2' },
      ShortName: '',
      Text: '',
      Category: '@BehaviourGrades/Points/Categories/3',
      Semester: 1,
      AddDate: account.stamp(),
      AddedBy: '@Users/162001',
      Comments: [],
    });
    const before = reads('BehaviourGrades/Points');
    // Read with the other kinds of grade: hourly, every 6 hours while the school's list is empty (Ania's is).
    await h.advanceMinutes(7 * 60);
    await h.runUntil(() => reads('BehaviourGrades/Points') > before, 'the next read of the behaviour entries');
    await h.advanceMinutes(2);

    expect(h.state('ania', 'behaviour')).toBe('bardzo dobre (propozycja)');
    expect(events(h, 'grade')).toEqual([]);
    expect(events(h, 'behaviour_grade')).toEqual([
      expect.objectContaining({
        event_type: 'behaviour_grade',
        id: 'behaviour:1211',
        grade: 'bardzo dobre',
        short: 'bdb',
        proposal: true,
        period: 'semester',
        points: null,
      }),
    ]);
    expect({ state: h.state('ania', 'newest_grade'), attributes: h.attributes('ania', 'newest_grade') }).toEqual(newest);
    expect(JSON.stringify(h.attributes('ania', 'newest_grade'))).not.toContain('behaviour');
    // The child's device announces the event entity with its event type.
    const device = h.rec.messages.filter((m) => m.topic.startsWith(`${h.prefix}/`) && m.text.includes('"behaviour_grade"'));
    expect(device.length).toBeGreaterThan(0);
    expect(JSON.parse(device.at(-1)!.text).cmps.behaviour_grade).toMatchObject({ p: 'event', event_types: ['behaviour_grade'] });
  });
});
