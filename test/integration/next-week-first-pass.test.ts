// Next week from the first pass (interface 18.2): a start at 10:00 on a Monday, when the next school day is still this
// week's, reads next week's timetable in its first pass where the school has published it, so that Assist and the
// lessons calendar feed know next week when that pass ends, without a request more.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpUrl } from '../../src/outputs/web/token.js';
import { freePort } from '../helpers/ports.js';
import { simulatedSchool } from '../helpers/school.js';
import { send } from '../helpers/web.js';
import { answers, hasSdk } from '../helpers/assist.js';

const school = simulatedSchool('2026-11-16T10:00:00+01:00');
const NEXT_TUESDAY = '2026-11-24';

describe.skipIf(!hasSdk() && !process.env.CI)('a start on a Monday morning', () => {
  it("knows next week's plan when its first pass ends", async () => {
    const port = await freePort();
    const h = await school.firstPasses(['last_update', 'timetable_today'], { http: { port }, out: { write: () => true } });
    // The first pass read this week and next week, and nothing more of the timetable.
    expect(school.reads('Timetables')).toBe(2);
    const token = (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim();
    const before = school.sim.count();
    // The lessons calendar feed holds next week's Tuesday.
    const feed = await send(port, `/calendar/ania/lessons.ics?token=${token}`);
    expect(feed.body).toContain(`DTSTART;TZID=Europe/Warsaw:${NEXT_TUESDAY.replaceAll('-', '')}T08`);
    // Assist tells next Tuesday's lessons from what the bridge holds: no request, no word of the school asked.
    const [tuesday] = await answers(mcpUrl(`http://127.0.0.1:${port}`, token), [
      { tool: 'get_day', arguments: { child: 'Ania', date: NEXT_TUESDAY } },
    ]);
    expect(tuesday?.text).toMatch(new RegExp(`^Ania \\(ania\\) — .*\\(${NEXT_TUESDAY}\\)\\nLekcje od \\d\\d:\\d\\d do \\d\\d:\\d\\d:\\n- 1\\. `));
    expect(school.sim.count()).toBe(before);
  }, 120_000);
});
