// `check` for a kindergarten child (issue 65): the demo's Zofia is told as the bridge shows her, her
// kindergarten (no class) and her plan of blocks found as the bridge finds it, never "class ?" or a
// timetable "not published yet"; a school child beside her is told as before.
import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PortalSimulator, DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { buildConfig } from '../../src/config/load.js';
import { runCheck } from '../../src/check.js';
import { silentLogger } from '../../src/util/log.js';
import { tempDir } from '../helpers/portal.js';
import type { Language } from '../../src/config/language.js';

const [ANIA, ZOSIA] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[2]!];
let sim: PortalSimulator;
let dir: string;

beforeEach(async () => {
  // A Wednesday morning of the demo's week.
  sim = new PortalSimulator({ now: () => Date.parse('2026-11-18T09:10:00+01:00') });
  await sim.start();
  dir = await tempDir();
});
afterEach(async () => {
  await sim.stop();
  await rm(dir, { recursive: true, force: true });
});

async function check(accounts: { login: string; password: string }[], language: Language): Promise<{ code: number; text: string }> {
  const config = await buildConfig({ portal: sim.urls, accounts, data_dir: dir, language, http: { port: 0 } }, 'test', { env: {} });
  let text = '';
  const code = await runCheck({ config, out: { write: (t: string) => (text += t) }, log: silentLogger() });
  return { code, text };
}

describe('check for a kindergarten child', () => {
  it('prints her kindergarten and her plan of blocks, as the bridge shows them, and her school sister as before', async () => {
    const { code, text } = await check(
      [
        { login: ZOSIA.login, password: ZOSIA.password },
        { login: ANIA.login, password: ANIA.password },
      ],
      'pl',
    );
    expect(code).toBe(0);
    const [zosia = '', ania = ''] = text.split(/^(?=OK {3})/m);
    expect(zosia).toMatch(/^OK {3}5432167u: Zofia Kowalska, przedszkole, Szkoła Podstawowa nr 12 .* \(id dziecka: zofia\)$/m);
    expect(zosia).toContain('plan zajęć przedszkola: tak');
    expect(zosia).not.toMatch(/klasa \?|plan lekcji|nieopublikowany/);
    expect(ania).toMatch(/^OK {3}1234567u: Ania Kowalska, klasa 4b, /m);
    expect(ania).toContain('plan lekcji: tak');
    // Her plan was found as the bridge finds it: Timetables refused, then her identifier's plan answered.
    const plans = sim.requests.filter((r) => r.login === ZOSIA.login && /^\/gateway\/ms\/kindergartens\/timetable\/kindergarteners\//.test(r.path));
    expect(plans.map((r) => r.status)).toEqual([403, 200]);
  });

  it('speaks English under language: en', async () => {
    const { text } = await check([{ login: ZOSIA.login, password: ZOSIA.password }], 'en');
    expect(text).toContain('OK   5432167u: Zofia Kowalska, kindergarten, ');
    expect(text).toContain('kindergarten plan: yes');
    expect(text).not.toContain('class ?');
  });
});
