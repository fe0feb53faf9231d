// The on-demand budget across a restart (interface 18.2, 19.2), through the MCP server of the running bridge on the
// simulator: 20 far weeks read within the hour, the bridge restarted, and the 21st question reads nothing and says
// when the school can be asked again. Before, the hour's reads were held in memory only: a restart gave 20 more. A
// week read is answered again from its copy while the planner keeps it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mcpUrl } from '../../src/outputs/web/token.js';
import { addDays } from '../../src/util/time.js';
import { ON_DEMAND_LIMITS } from '../../src/engine/on-demand.js';
import { freePort } from '../helpers/ports.js';
import { simulatedSchool } from '../helpers/school.js';

const TODAY = '2026-11-18';
const school = simulatedSchool(`${TODAY}T09:11:30+01:00`);
const weeks = (): number => school.reads('Timetables');

/** get_day's answer for Ania on `date`, asked on a session of its own, as Home Assistant asks. */
async function getDay(url: string, date: string): Promise<string> {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const result = await client.callTool({ name: 'get_day', arguments: { child: 'Ania', date } });
    return (result.content as Array<{ text: string }>).map((c) => c.text).join('\n');
  } finally {
    await client.close();
  }
}

it('keeps the hour’s reads across a restart: 20 read, a restart, and the 21st question is told when it can read again', async () => {
  const port = await freePort();
  const h = await school.firstPasses(['timetable_today', 'newest_grade'], { http: { port }, out: { write: () => true } });
  const url = mcpUrl(`http://127.0.0.1:${port}`, (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim());
  // A Wednesday of each week of the school year the bridge does not hold (neither this week nor the next).
  const far = Array.from({ length: 42 }, (_, i) => addDays('2026-09-02', 7 * i)).filter(
    (d) => d <= '2027-06-16' && (d < TODAY || d > addDays(TODAY, 7)),
  );
  const before = weeks();
  for (const date of far.slice(0, ON_DEMAND_LIMITS.perHour)) expect(await getDay(url, date)).toContain('Odczytane ze szkoły przed chwilą.');
  expect(weeks() - before).toBe(ON_DEMAND_LIMITS.perHour);
  // A week read is kept as long as the planner keeps it: asked again, it is answered from the copy, the budget spent or not.
  const again = await getDay(url, far[0]!);
  expect(again).toMatch(/\nLekcje od \d\d:\d\d do \d\d:\d\d:\n- 1\. /);
  expect(again).not.toContain('Odczytane ze szkoły przed chwilą.');
  expect(weeks() - before).toBe(ON_DEMAND_LIMITS.perHour);

  const passes = (): number => h.rec.on(`${h.base}/ania/last_update`).length;
  const passed = passes();
  await h.restart();
  await h.runUntil(() => passes() > passed, 'the first pass after the restart');
  const restarted = weeks();
  const over = await getDay(url, far[ON_DEMAND_LIMITS.perHour]!);
  expect(over).toContain('najwyżej 20 razy na godzinę');
  // The first of the 20 was read at 09:11: the school can be asked again an hour later.
  expect(over).toMatch(/znów może od 10:11\./);
  expect(over).not.toContain('Odczytane ze szkoły przed chwilą.');
  expect(weeks()).toBe(restarted);
}, 120_000);
