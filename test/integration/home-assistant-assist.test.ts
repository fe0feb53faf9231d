// Assist's way to the register on Docker and the command line (interface 16.4): with `homeassistant:` the
// bridge makes Home Assistant's Model Context Protocol entry through its config-entries flow, the model of
// Home Assistant's REST API (test/helpers/home-assistant.ts) connecting to the MCP server at the address it
// is given as Home Assistant's MCP client does (initialize over Streamable HTTP) and titling the entry by
// the server's name. The entry is made once, not again after a restart, never again once the family
// deleted it, made again at a new address after `token --rotate`, one the family made at the same address taken
// as the bridge's (16.3's rule); the web token is in no log line and not in what the bridge keeps in data_dir.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { createLogger } from '../../src/util/log.js';
import { loadOrCreateToken, rotateToken } from '../../src/outputs/web/token.js';
import { MADE_FILE } from '../../src/outputs/homeassistant/made.js';
import { HomeAssistantModel } from '../helpers/home-assistant.js';
import { McpRecorder } from '../helpers/mcp-recorder.js';
import { simulatedSchool } from '../helpers/school.js';
import { freePort } from '../helpers/ports.js';
import { tempDir } from '../helpers/temp.js';

const [ANIA, , ZOSIA] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!, DEMO_ACCOUNTS[2]!];
const NOW = '2026-11-18T09:11:30+01:00';
const school = simulatedSchool(NOW);
const TOKEN = 'ha-long-lived-token-Zq8w3Lx0Vb7n';

let ha: HomeAssistantModel;
let mcp: McpRecorder | undefined;
beforeEach(async () => {
  ha = new HomeAssistantModel(TOKEN);
  await ha.start();
});
afterEach(async () => {
  await ha.stop();
  await mcp?.stop();
  mcp = undefined;
});

const started = (handler: string) => ha.flowsStarted.filter((h) => h === handler).length;

/** The bridge with Ania, its web server reached by Home Assistant through the recorder's address; `lines`: its log. */
async function bridge(options: { dataDir?: string; port?: number; assist?: boolean; lines?: string[] } = {}) {
  const dataDir = options.dataDir ?? (await tempDir());
  const port = options.port ?? (await freePort());
  mcp ??= new McpRecorder(`http://127.0.0.1:${port}`);
  if (mcp.url === '') await mcp.start();
  const lines = options.lines ?? [];
  const h = await school.start({
    accounts: [{ login: ANIA.login, password: ANIA.password }],
    dataDir,
    http: { port },
    homeassistant: { url: ha.url, token: TOKEN, public_url: mcp.url, ...(options.assist === undefined ? {} : { assist: options.assist }) },
    log: createLogger('debug', { write: (chunk: string) => void lines.push(chunk) }, { format: 'json' }),
  });
  return { h, dataDir, port, lines };
}

describe("Assist's Model Context Protocol entry", () => {
  it("is made once every child is read, so that Home Assistant's first listing names the whole family (a first start)", async () => {
    const port = await freePort();
    mcp ??= new McpRecorder(`http://127.0.0.1:${port}`);
    if (mcp.url === '') await mcp.start();
    const h = await school.start({
      accounts: [
        { login: ANIA.login, password: ANIA.password },
        { login: ZOSIA.login, password: ZOSIA.password },
      ],
      http: { port },
      homeassistant: { url: ha.url, token: TOKEN, public_url: mcp.url },
    });
    await h.advanceUntil(() => ha.entriesOf('mcp').length === 1, 'the MCP entry', 5);
    const [entry] = ha.entriesOf('mcp');
    // Home Assistant lists the tools as it sets the entry up, and again only 30 minutes later.
    const listed = await ha.firstListings.get(entry!.entry_id)!;
    for (const tool of listed) expect(tool.description, tool.name).toContain("The family's children: Ania (ania), Zofia (zofia).");
  });

  it('is made once, titled dziennik2mqtt, at the MCP address with the web token, and not again at a restart', async () => {
    const { h, dataDir, lines } = await bridge();
    await h.advanceUntil(() => ha.entriesOf('mcp').length === 1, 'the MCP entry', 5);
    const token = (await loadOrCreateToken(dataDir)).value;
    expect(ha.entriesOf('mcp').map((e) => [e.title, e.data.url])).toEqual([['dziennik2mqtt', `${mcp?.url}/mcp?key=${encodeURIComponent(token)}`]]);
    // Home Assistant connected to the bridge's own server as its MCP client does: initialize, then initialized; then,
    // setting the entry up, a session of its own that lists the tools. The server names no session (each request stands
    // alone), so the client has none to end with a DELETE.
    await ha.firstListings.get(ha.entriesOf('mcp')[0]!.entry_id);
    expect(mcp?.calls.map((c) => `${c.method} ${c.status}`)).toEqual([
      'initialize 200',
      'notifications/initialized 202',
      'initialize 200',
      'notifications/initialized 202',
      'tools/list 200',
    ]);
    // Beside the calendars and the homework list, made as before.
    await h.advanceUntil(() => ha.entries.length === 5, 'every entry', 5);

    await h.restart();
    await h.advanceMinutes(30);
    expect(ha.entriesOf('mcp')).toHaveLength(1);
    expect(started('mcp')).toBe(1);
    // The token is in no log line, nor in what the bridge keeps of the entries.
    expect(lines.join('').includes(token)).toBe(false);
    expect(lines.join('')).toContain('made in Home Assistant');
    expect((await readFile(join(dataDir, MADE_FILE), 'utf8')).includes(token)).toBe(false);
  });

  it('stays deleted once the family deleted it, across passes and a restart', async () => {
    const { h } = await bridge();
    await h.advanceUntil(() => ha.entriesOf('mcp').length === 1, 'the MCP entry', 5);
    ha.familyDeletes('dziennik2mqtt');
    // A new homework makes the keeper look again; a restart makes it look at every entry.
    school.sim.account(ANIA.login).addHomework({ lesson: 8401, due: '2026-11-25', topic: 'Wiersz', text: 'Naucz się wiersza.' });
    await h.advanceMinutes(20);
    await h.restart();
    await h.advanceMinutes(30);
    expect(ha.entriesOf('mcp')).toEqual([]);
    expect(started('mcp')).toBe(1);
    expect(ha.entries).toHaveLength(4);
  });

  it('is made again at its new address after token --rotate, the old one deleted', async () => {
    const { h, dataDir } = await bridge();
    await h.advanceUntil(() => ha.entriesOf('mcp').length === 1, 'the MCP entry', 5);
    const before = ha.entriesOf('mcp')[0]?.entry_id;
    const token = await rotateToken(dataDir);
    await h.advanceUntil(() => ha.entriesOf('mcp')[0]?.entry_id !== before, 'the MCP entry made again', 30);
    expect(ha.entriesOf('mcp').map((e) => e.data.url)).toEqual([`${mcp?.url}/mcp?key=${encodeURIComponent(token)}`]);
  });

  it('is not made with assist: false, the calendars and the homework list made as ever', async () => {
    const { h } = await bridge({ assist: false });
    await h.advanceUntil(() => ha.entries.length === 4, 'the calendars and the homework list', 5);
    await h.advanceMinutes(20);
    expect(ha.entriesOf('mcp')).toEqual([]);
    expect(started('mcp')).toBe(0);
  });

  it("takes the family's own entry of the same address as the bridge's: not made twice, not deleted, none held as the family's", async () => {
    const dataDir = await tempDir();
    const port = await freePort();
    mcp = new McpRecorder(`http://127.0.0.1:${port}`);
    await mcp.start();
    const token = (await loadOrCreateToken(dataDir)).value;
    ha.familyMakes('mcp', 'dziennik2mqtt', { url: `${mcp.url}/mcp?key=${encodeURIComponent(token)}` });
    const theirs = ha.entriesOf('mcp')[0]?.entry_id;
    const { h } = await bridge({ dataDir, port });
    await h.advanceUntil(() => ha.entries.length === 5, 'every entry', 5);
    await h.advanceMinutes(20);
    expect(ha.entriesOf('mcp').map((e) => e.entry_id)).toEqual([theirs]);
    expect(JSON.parse(await h.app.diagnostics()).bridge.home_assistant).toMatchObject({ made: 5, kept: 0 });
  });
});
