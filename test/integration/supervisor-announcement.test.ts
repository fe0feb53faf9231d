// The app's MCP server made known to Home Assistant through the Supervisor (interface 16.4): the real bridge
// under a model of the Supervisor's discovery API (test/helpers/supervisor.ts, which takes only the services
// hassio-addon/config.yaml lists under `discovery:`). Announced once when the web server runs, not again at a
// restart, again (same uuid) at the new address after `token --rotate`, withdrawn when ha_assist is switched
// off; neither the Supervisor's token nor the web token in a log line.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { createLogger } from '../../src/util/log.js';
import { loadOrCreateToken, rotateToken } from '../../src/outputs/web/token.js';
import { ANNOUNCEMENT_FILE } from '../../src/outputs/homeassistant/announcement.js';
import { SupervisorModel } from '../helpers/supervisor.js';
import { simulatedSchool } from '../helpers/school.js';
import { freePort } from '../helpers/ports.js';
import { tempDir } from '../helpers/temp.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const school = simulatedSchool('2026-11-18T09:11:30+01:00');
const SUPERVISOR_TOKEN = 'supervisor-token-Wq3r9Tz7Kp1m';
const APP_URL = 'http://a0d7b954-dziennik2mqtt:8099';

let supervisor: SupervisorModel;
beforeEach(async () => {
  supervisor = new SupervisorModel(SUPERVISOR_TOKEN);
  await supervisor.start();
});
afterEach(() => supervisor.stop());

async function bridge(dataDir: string, assist: boolean, lines: string[] = []) {
  return school.start({
    accounts: [{ login: ANIA.login, password: ANIA.password }],
    dataDir,
    http: { port: await freePort() },
    supervisor: { token: SUPERVISOR_TOKEN, assist, publicUrl: APP_URL, baseUrl: supervisor.url },
    log: createLogger('debug', { write: (chunk: string) => void lines.push(chunk) }, { format: 'json' }),
  });
}

describe('the announcement to the Supervisor', () => {
  it('is sent once when the web server runs, kept across a restart, and withdrawn once ha_assist is off', async () => {
    const dataDir = await tempDir();
    const lines: string[] = [];
    const h = await bridge(dataDir, true, lines);
    await h.advanceMinutes(1);
    const token = (await loadOrCreateToken(dataDir)).value;
    expect([...supervisor.messages.values()]).toEqual([
      { uuid: expect.any(String), service: 'mcp', config: { url: `${APP_URL}/mcp?key=${encodeURIComponent(token)}` } },
    ]);
    const [uuid] = [...supervisor.messages.keys()];
    await h.advanceMinutes(20);
    await h.restart();
    await h.advanceMinutes(20);
    expect(supervisor.changes()).toEqual(['POST /discovery']);
    await h.stop();

    const off = await bridge(dataDir, false, lines);
    await off.advanceMinutes(1);
    expect(supervisor.messages.size).toBe(0);
    expect(supervisor.changes()).toEqual(['POST /discovery', `DELETE /discovery/${uuid}`]);
    // Off it stays off: nothing is asked at the next start.
    await off.restart();
    await off.advanceMinutes(20);
    expect(supervisor.changes()).toHaveLength(2);
    const text = lines.join('');
    expect(text).toContain('the MCP server announced to Home Assistant');
    expect(text).toContain('withdrawn');
    expect(text.includes(token)).toBe(false);
    expect(text.includes(SUPERVISOR_TOKEN)).toBe(false);
    expect((await readFile(join(dataDir, ANNOUNCEMENT_FILE), 'utf8')).includes(token)).toBe(false);
  });

  it('announces the new address after token --rotate, under the same uuid (Home Assistant follows it)', async () => {
    const dataDir = await tempDir();
    const h = await bridge(dataDir, true);
    await h.advanceMinutes(1);
    const [uuid] = [...supervisor.messages.keys()];
    const token = await rotateToken(dataDir);
    await h.advanceUntil(() => supervisor.changes().length === 2, 'the announcement again', 30);
    expect([...supervisor.messages.values()]).toEqual([{ uuid, service: 'mcp', config: { url: `${APP_URL}/mcp?key=${encodeURIComponent(token)}` } }]);
  });

  it('tries again later when the Supervisor is not ready, and announces once it is', async () => {
    supervisor.outage = 500;
    const dataDir = await tempDir();
    const h = await bridge(dataDir, true);
    await h.advanceMinutes(1);
    expect(supervisor.messages.size).toBe(0);
    supervisor.outage = undefined;
    await h.advanceUntil(() => supervisor.messages.size === 1, 'announced once the Supervisor answers', 10);
    expect(supervisor.calls.filter((c) => c.method === 'POST' && c.status === 200)).toHaveLength(1);
  });
});
