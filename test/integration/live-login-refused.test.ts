// A refused login that says why (live-notes 13), against the real bridge and broker and through
// `check`: the portal's words reach `problem` (attribute and text) and check's line, they are logged
// once per refusal, both forms of `errors` are read, and still one login attempt per refusal window.
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { buildConfig } from '../../src/config/load.js';
import { runCheck } from '../../src/app/commands/check.js';
import { createLogger, silentLogger } from '../../src/util/log.js';
import { tempDir } from '../helpers/portal.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const NOW = '2026-11-18T09:10:00+01:00';
const LOCKED = 'Konto zostało zablokowane po zbyt wielu nieudanych próbach logowania.';

// Over HTTP: the refused login's answers, as the sockets carry them, are this file's subject.
const school = simulatedSchool(NOW, { portal: 'http' });
const loginPosts = (): number => school.sim.count({ host: 'auth', method: 'POST', path: '/OAuth/Authorization' });

describe('a refused login on the bridge', () => {
  it.each(['string', 'object'] as const)('shows the portal’s words given as %s items, logged once, one attempt per window', async (as) => {
    school.sim.refuseLogin(ANIA.login, { message: LOCKED, as });
    const lines: string[] = [];
    const log = createLogger('info', { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) }, { format: 'json' });
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania' }], log, language: 'pl' });
    await h.runUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON');
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'wrong_credentials', portal_message: LOCKED });
    expect(String(h.attributes('ania', 'problem')?.message)).toContain(`Portal odpowiedział: „${LOCKED}”`);

    await h.advanceMinutes(50); // the retries meet the pause, with the same words
    expect(loginPosts()).toBe(1);
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'wrong_credentials', portal_message: LOCKED });
    const said = lines.filter((l) => l.includes('the portal refused the login'));
    expect(said).toHaveLength(1);
    expect(JSON.parse(said[0]!)).toMatchObject({ level: 'warn', reason: 'wrong_credentials', portal_message: LOCKED });
    expect(lines.join('\n')).not.toContain(ANIA.password);
  });

  it('keeps the simulator’s wrong-password words ({message} items) on a wrong password', async () => {
    const h = await school.start({ accounts: [{ login: ANIA.login, password: 'not-this-one', id: 'ania' }] });
    await h.runUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON');
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'wrong_credentials', portal_message: 'Nieprawidłowy login i/lub hasło.' });
  });
});

describe('a refused login in check', () => {
  it('prints the portal’s words after the advice', async () => {
    school.sim.refuseLogin(ANIA.login, { message: LOCKED, as: 'string' });
    const dir = await tempDir();
    try {
      const config = await buildConfig(
        { portal: school.sim.urls, accounts: [{ login: ANIA.login, password: ANIA.password }], data_dir: dir, http: { port: 0 }, language: 'en' },
        'test',
        { env: {} },
      );
      let text = '';
      const code = await runCheck({ config, out: { write: (t: string) => (text += t) }, log: silentLogger(), clock: school.clock });
      expect(code).toBe(1);
      expect(text).toContain(`FAIL 1234567u: wrong login or password:`);
      expect(text).toContain(`The portal said: "${LOCKED}"`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
