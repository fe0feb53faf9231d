// `check` on Home Assistant's API (interface 15.4): whether it answers the config's token, and each child's
// calendars and homework list as the bridge keeps them: would make, made, kept, removed by the family; and
// Assist's Model Context Protocol entry (16.4) likewise, with the tools it offers. Of a kindergarten child, only what
// the bridge makes for her: her lessons and days off, no agenda calendar nor homework list (16.2).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { buildConfig } from '../../src/config/load.js';
import { runCheck } from '../../src/app/commands/check.js';
import { silentLogger } from '../../src/util/log.js';
import { HomeAssistantModel } from '../helpers/home-assistant.js';
import { simulatedSchool } from '../helpers/school.js';
import { freePort } from '../helpers/ports.js';
import { tempDir } from '../helpers/temp.js';
import { McpRecorder } from '../helpers/mcp-recorder.js';
import { HOME_ASSISTANT_STATISTICS } from '../../src/outputs/homeassistant/output.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const school = simulatedSchool('2026-11-18T09:11:30+01:00');
const TOKEN = 'check-token-Hn4v8Tq2Wc6z';

let ha: HomeAssistantModel;
beforeEach(async () => {
  ha = new HomeAssistantModel(TOKEN);
  await ha.start();
});
afterEach(() => ha.stop());

/** `check` of the config's entries (`accounts`: login entries, or an e-mail one), in English. */
async function check(dataDir: string, port: number, homeassistant?: Record<string, string | boolean>, accounts: object[] = [entry(ANIA)]) {
  const config = await buildConfig(
    {
      portal: school.sim.urls,
      accounts,
      data_dir: dataDir,
      http: { port },
      language: 'en',
      homeassistant,
    },
    'test',
    { env: {} },
  );
  let text = '';
  const code = await runCheck({ config, out: { write: (t: string) => (text += t) }, log: silentLogger() });
  return { code, text };
}

const entry = ({ login, password }: { login: string; password: string }) => ({ login, password });
const lines = (text: string) => text.split('\n').filter((l) => l.startsWith('     Ania – '));

it('tells what it would make, what it made, what it keeps of the family and what the family removed', async () => {
  const dataDir = await tempDir();
  const port = await freePort();
  const homeassistant = { url: ha.url, token: TOKEN, public_url: `http://127.0.0.1:${port}`, assist: false };
  const before = await check(dataDir, port, homeassistant);
  expect(before.code).toBe(0);
  expect(before.text).toContain(`OK   Home Assistant's API at ${ha.url} answers; each child's calendars and homework list:`);
  expect(lines(before.text)).toEqual([
    '     Ania – lessons: would make',
    '     Ania – agenda: would make',
    '     Ania – days off: would make',
    '     Ania – homework: would make',
  ]);
  expect(ha.entries).toEqual([]);
  // The WebSocket of the statistics: reached, the token taken; nothing imported before the bridge ran.
  const socket = `ws://${ha.url.slice('http://'.length)}/api/websocket`;
  expect(before.text).toContain(`OK   Home Assistant's WebSocket at ${socket} answers and takes the token`);
  expect(before.text).toContain('     the school year in the statistics: nothing imported yet');

  // The family had made the homework list by hand under the bridge's name: the bridge takes it as its own (16.3).
  ha.familyMakes('local_todo', 'Ania – homework', { todo_list_name: 'Ania – homework', storage_key: 'ania_homework' });
  const h = await school.start({
    accounts: [{ login: ANIA.login, password: ANIA.password }],
    dataDir,
    http: { port },
    homeassistant,
    language: 'en',
  });
  await h.advanceUntil(() => ha.entries.length === 4, 'the calendars made', 5);
  await h.advanceUntil(() => ha.socket.statistics.has('dziennik2mqtt:ania_average'), 'the year imported', 5);
  await h.app.outputOf(HOME_ASSISTANT_STATISTICS)?.idle();
  await h.stop();
  const rows = [...ha.socket.statistics.keys()].reduce((sum, id) => sum + ha.socket.rowsOf(id).size, 0);
  expect((await check(dataDir, port, homeassistant)).text).toContain(
    `     the school year in the statistics: ${ha.socket.statistics.size} statistics, ${rows} daily rows imported`,
  );
  ha.familyDeletes('Ania – days off');
  expect(lines((await check(dataDir, port, homeassistant)).text)).toEqual([
    '     Ania – lessons: made',
    '     Ania – agenda: made',
    '     Ania – days off: removed by the family',
    '     Ania – homework: made',
  ]);
});

it('lists of the kindergarten child only the calendars the bridge makes for her, as it then makes them', async () => {
  const dataDir = await tempDir();
  const port = await freePort();
  const homeassistant = { url: ha.url, token: TOKEN, public_url: `http://127.0.0.1:${port}`, assist: false };
  const family = [entry(ANIA), entry(DEMO_ACCOUNTS[2]!)];
  const told = (text: string) => text.split('\n').filter((l) => / {5}(Ania|Zofia) – /.test(l));
  expect(told((await check(dataDir, port, homeassistant, family)).text)).toEqual([
    '     Ania – lessons: would make',
    '     Ania – agenda: would make',
    '     Ania – days off: would make',
    '     Ania – homework: would make',
    '     Zofia – lessons: would make',
    '     Zofia – days off: would make',
  ]);
  const h = await school.start({
    accounts: family.map(({ login, password }) => ({ login, password })),
    dataDir,
    http: { port },
    homeassistant,
    language: 'en',
  });
  await h.advanceUntil(() => ha.entries.length === 6, 'the calendars and the homework list made', 5);
  await h.advanceMinutes(5);
  await h.stop();
  expect(ha.entries.map((e) => e.title).sort()).toEqual(
    ['Ania – lessons', 'Ania – agenda', 'Ania – days off', 'Ania – homework', 'Zofia – lessons', 'Zofia – days off'].sort(),
  );
  expect(told((await check(dataDir, port, homeassistant, family)).text)).toEqual([
    '     Ania – lessons: made',
    '     Ania – agenda: made',
    '     Ania – days off: made',
    '     Ania – homework: made',
    '     Zofia – lessons: made',
    '     Zofia – days off: made',
  ]);
  // Read on the family road (an e-mail entry linking her alone), she is told the same.
  const kowalscy = { email: 'kowalscy@example.com', password: 'demo-kowalscy' };
  school.sim.families.add({ ...kowalscy, logins: [DEMO_ACCOUNTS[2]!.login] });
  expect(told((await check(await tempDir(), port, homeassistant, [kowalscy])).text)).toEqual([
    '     Zofia – lessons: would make',
    '     Zofia – days off: would make',
  ]);
});

it('says a refused token, and that nothing is set up without homeassistant:', async () => {
  const dataDir = await tempDir();
  const port = await freePort();
  const refused = await check(dataDir, port, { url: ha.url, token: 'not-the-token-123' });
  expect(refused.code).toBe(1);
  expect(refused.text).toContain(`FAIL Home Assistant's API at ${ha.url}: the token is refused (401)`);
  const off = await check(dataDir, port);
  expect(off.text).toContain("Home Assistant's API: not set up (homeassistant: in the config), nothing is made there");
  expect(off.code).toBe(0);
});

it('fails on a WebSocket that refuses the token, and says the statistics are off when they are', async () => {
  const dataDir = await tempDir();
  const port = await freePort();
  ha.socket.outage = 401;
  const refused = await check(dataDir, port, { url: ha.url, token: TOKEN });
  expect(refused.code).toBe(1);
  expect(refused.text).toMatch(/FAIL Home Assistant's WebSocket at ws:\/\/127\.0\.0\.1:\d+\/api\/websocket: the token is refused/);
  expect(refused.text).not.toContain(TOKEN.slice(0, 12));
  const off = await check(dataDir, port, { url: ha.url, token: TOKEN, statistics: false } as never);
  expect(off.code).toBe(0);
  expect(off.text).toContain("the school year's statistics: off (homeassistant.statistics: false)");
});

it("tells whether Home Assistant has Assist's entry, made or removed by the family, and lists its tools", async () => {
  const dataDir = await tempDir();
  const port = await freePort();
  const mcp = new McpRecorder(`http://127.0.0.1:${port}`);
  await mcp.start();
  try {
    const homeassistant = { url: ha.url, token: TOKEN, public_url: mcp.url };
    const assist = (text: string) => text.split('\n').filter((l) => /^ {5}(Assist|its tools)/.test(l));
    expect(assist((await check(dataDir, port, homeassistant)).text)).toEqual([
      '     Assist (the Model Context Protocol entry "dziennik2mqtt"): would make',
      '     its tools: get_day, get_grades, get_upcoming, get_lesson_topics, get_attendance, get_behaviour, get_school, get_messages, open_message',
    ]);
    const h = await school.start({
      accounts: [{ login: ANIA.login, password: ANIA.password }],
      dataDir,
      http: { port },
      homeassistant,
      language: 'en',
    });
    await h.advanceUntil(() => ha.entriesOf('mcp').length === 1, 'the MCP entry made', 5);
    await h.stop();
    expect(assist((await check(dataDir, port, homeassistant)).text)[0]).toBe('     Assist (the Model Context Protocol entry "dziennik2mqtt"): made');
    ha.familyDeletes('dziennik2mqtt');
    expect(assist((await check(dataDir, port, homeassistant)).text)[0]).toBe(
      '     Assist (the Model Context Protocol entry "dziennik2mqtt"): removed by the family',
    );
    // Switched off, check says whether Home Assistant has one all the same (made by hand, or kept from before).
    expect(assist((await check(dataDir, port, { ...homeassistant, assist: false })).text)).toEqual([
      '     Assist: no Model Context Protocol entry is made (homeassistant.assist: false)',
    ]);
  } finally {
    await mcp.stop();
  }
});
