// Nothing forgotten at a restart (interface 19.3): what the last run read within its age, the standing plan, the sent
// box and next week among it, is told by the first pass after a restart at a school hour, not "not known yet" until
// the pass that reads it again, and the start asks the portal no more for it.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';
import type { Harness } from '../helpers/app.js';

// A Wednesday's second lesson; the bridge starts half a minute off the minute.
const school = simulatedSchool('2026-11-18T09:11:30+01:00');
const ANIA = DEMO_ACCOUNTS[0]!;
/** The rows a start leaves for later that this test follows: the standing plan and the sent box. */
const LATER = ['/gateway/api/2.0/TimetableEntries', '/api/outbox/messages'];

type Told = { standing: unknown; sent: string | undefined; sentRead: unknown };

/** What the family sees of the standing plan and the sent messages now. */
function told(h: Harness): Told {
  return {
    standing: h.attributes('ania', 'timetable_today')?.standing_differences,
    sent: h.state('ania', 'sent_message'),
    sentRead: h.attributes('ania', 'sent_message')?.read,
  };
}

const published = (h: Harness, key: string): number => h.rec.on(`${h.base}/ania/${key}/attributes`).length;
const laterReads = (): number => LATER.reduce((n, path) => n + school.sim.count({ path }), 0);

/** The bridge with Ania, after the pass that read what its start left for later, and what the family sees then. */
async function readAll(): Promise<{ h: Harness; before: Told }> {
  // Next Monday's maths in another room: the standing plan has a difference to tell.
  school.sim.account(ANIA.login).addPlanChange({ kind: 'substitution', OrgDate: '2026-11-23', OrgLessonNo: 2, Classroom: 305 });
  const h = await school.firstPasses(['timetable_today', 'sent_message']);
  await h.advanceUntil(() => laterReads() >= LATER.length, 'the reads a start leaves for later', 30);
  await h.advanceMinutes(1);
  return { h, before: told(h) };
}

/** Restarts the bridge and waits for its first pass to publish the timetable and the sent message; resolves to the requests it made. */
async function restartedPass(h: Harness): Promise<typeof school.sim.requests> {
  const [timetables, sent] = [published(h, 'timetable_today'), published(h, 'sent_message')];
  const requests = school.sim.requests.length;
  await h.restart();
  await h.runUntil(() => published(h, 'timetable_today') > timetables && published(h, 'sent_message') > sent, "the restart's first pass");
  return school.sim.requests.slice(requests);
}

describe('a restart at a school hour', () => {
  it('tells the standing plan and the sent message from its first pass, with no more requests than before', async () => {
    const { h, before } = await readAll();
    expect(before.standing).toEqual(expect.arrayContaining([expect.objectContaining({ date: '2026-11-23', no: 2, kind: 'room' })]));
    expect(before.sent).not.toBe('None');
    const atStart = await restartedPass(h);
    // The first pass after the restart: what the last run read, told as it was, read no sooner than its age says.
    expect(told(h)).toEqual(before);
    expect(atStart.filter((r) => LATER.includes(r.path))).toEqual([]);
    // Next week's timetable, read a few minutes before, is not asked again: its differences above are told from the kept week.
    expect(atStart.filter((r) => r.path.endsWith('/Timetables') && r.query.includes('weekStart=2026-11-23'))).toEqual([]);
    // A restart's first pass made 51 requests before any copy was kept (the messaging session, the lists due); 49 with
    // them, this week's and next week's timetable not asked again within their age.
    expect(atStart.length).toBeLessThanOrEqual(51);
  });

  it("tells the sent message from the kept copies alone, the states and Assist's facts kept beside them lost", async () => {
    const { h, before } = await readAll();
    // As after an update, whose first pass takes no Assist facts another version kept; the kept states gone too.
    await rm(join(h.dataDir, 'states'), { recursive: true, force: true });
    await rm(join(h.dataDir, 'asked'), { recursive: true, force: true });
    await restartedPass(h);
    expect(told(h)).toEqual(before);
  });
});
