// A restart never shrinks what a family sees: the lessons feed a bridge served (both weeks) answers
// whole after a restart, before and after the first read (which leaves next week for later); a first
// start's calendar feed answers 503 with Retry-After until the timetable was read, never an empty calendar that
// a calendar app would take for "every lesson is gone".
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.js';
import { simulatedSchool } from '../helpers/school.js';
import { send } from '../helpers/web.js';
import { parseCalendarFeed } from '../helpers/ics.js';
import type { Harness } from '../helpers/app.js';

// A Wednesday in the first semester, during the second lesson; next week starts on 2026-11-23.
const school = simulatedSchool('2026-11-18T09:10:00+01:00');
const NEXT_WEEK = '2026-11-23T00:00:00+01:00';

/** The lessons feed as the web server answers it: its status, and the lessons of this and of next week. */
async function lessons(h: Harness, port: number): Promise<{ status: number; retryAfter?: string; thisWeek: number; nextWeek: number }> {
  const token = (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim();
  const answer = await send(port, `/calendar/ania/lessons.ics?token=${token}`);
  if (answer.status !== 200)
    return { status: answer.status, retryAfter: answer.headers['retry-after'] as string | undefined, thisWeek: 0, nextWeek: 0 };
  const starts = parseCalendarFeed(answer.body).events.map((e) => e.start);
  const split = new Date(NEXT_WEEK).toISOString();
  return { status: 200, thisWeek: starts.filter((s) => s < split).length, nextWeek: starts.filter((s) => s >= split).length };
}

describe('the calendar feeds across a restart', () => {
  it('answer with both weeks after a restart, before the first read and after it', async () => {
    const port = await freePort();
    const h = await school.firstPasses(['at_school'], { http: { port } });
    // The second normal pass reads next week's timetable.
    await h.advanceMinutes(5);
    const served = await lessons(h, port);
    expect(served.status).toBe(200);
    expect(served.thisWeek).toBeGreaterThan(5);
    expect(served.nextWeek).toBeGreaterThan(10);

    // The timetable cannot be read after the restart: the calendar feed is what the last run served.
    school.sim.failNext(50, 503, { path: /\/Timetables$/ });
    await h.restart();
    expect(await lessons(h, port)).toEqual(served);

    // The first good read after the restart leaves next week for later: the calendar feed keeps it.
    school.sim.clearFaults();
    await h.advanceMinutes(1);
    const after = await lessons(h, port);
    expect(after.nextWeek).toBe(served.nextWeek);
    expect(after.thisWeek).toBe(served.thisWeek);
  });

  it('answers 503 with Retry-After on a first start until the timetable was read', async () => {
    school.sim.failNext(50, 503, { path: /\/Timetables$/ });
    const port = await freePort();
    const h = await school.firstPasses(['last_update'], { http: { port } });
    expect(await lessons(h, port)).toMatchObject({ status: 503, retryAfter: '60' });
  });
});
