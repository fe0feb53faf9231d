// `check` against the simulated portal: what a parent reads when an account works, and when not.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PortalSimulator, DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { buildConfig } from '../../src/config/load.js';
import { runCheck } from '../../src/check.js';
import { silentLogger } from '../../src/util/log.js';
import { tempDir } from '../helpers/portal.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const JANEK = DEMO_ACCOUNTS[1]!;
let sim: PortalSimulator;

beforeEach(async () => {
  sim = new PortalSimulator({ now: () => Date.parse('2026-11-18T09:10:00+01:00') });
  await sim.start();
});
afterEach(() => sim.stop());

async function check(accounts: { login: string; password: string }[]): Promise<{ code: number; text: string }> {
  const config = await buildConfig({ portal: sim.urls, accounts, data_dir: await tempDir() }, 'test', { env: {} });
  let text = '';
  const code = await runCheck({ config, out: { write: (t: string) => (text += t) }, log: silentLogger() });
  return { code, text };
}

describe('check', () => {
  it('prints the child, class, school and modules of a working account and exits 0', async () => {
    const { code, text } = await check([{ login: ANIA.login, password: ANIA.password }]);
    expect(code).toBe(0);
    expect(text).toContain('OK   1234567u: Ania Kowalska, class 4b');
    expect(text).toContain('(child id: ania)');
    expect(text).toContain('class register number: 12');
    expect(text).toMatch(/modules: messages: yes, lucky number: yes, announcements: yes, timetable: yes/);
    expect(text).toContain('All 1 account(s) work.');
  });

  it('explains a wrong password (the numeric login, not the e-mail) and exits 1', async () => {
    const { code, text } = await check([{ login: ANIA.login, password: 'nope' }]);
    expect(code).toBe(1);
    expect(text).toContain('FAIL 1234567u');
    expect(text).toContain('numeric register login');
    expect(text).not.toContain('nope');
  });

  it('says to log in once in a browser when the portal asks for a captcha', async () => {
    sim.requireCaptcha(ANIA.login, 'login');
    const { code, text } = await check([{ login: ANIA.login, password: ANIA.password }]);
    expect(code).toBe(1);
    expect(text).toContain('captcha');
    expect(text).toContain('web browser');
  });

  it('reports a school without the messages module and still exits 0', async () => {
    sim.messaging.setModuleAbsent(ANIA.login, true);
    const { code, text } = await check([{ login: ANIA.login, password: ANIA.password }]);
    expect(code).toBe(0);
    expect(text).toContain('messages: no (the school has no messages module)');
  });

  it('exits 1 when one of two accounts fails', async () => {
    const { code, text } = await check([
      { login: ANIA.login, password: ANIA.password },
      { login: JANEK.login, password: 'wrong' },
    ]);
    expect(code).toBe(1);
    expect(text).toContain('1 of 2 account(s) failed.');
  });
});
