// What the bridge prints for a person (not its log) speaks the config's language: the web server's
// addresses on the first start, and `token --rotate`. Commands and addresses stay as they are.
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { buildConfig } from '../../src/config/load.js';
import { runTokenRotation } from '../../src/app/commands/token.js';
import { simulatedSchool } from '../helpers/school.js';
import { freePort } from '../helpers/ports.js';
import { tempDir } from '../helpers/temp.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const school = simulatedSchool('2026-11-18T09:10:00+01:00');

describe('the terminal under language: pl', () => {
  it('prints the web server’s first-start lines in Polish', async () => {
    const printed: string[] = [];
    const port = await freePort();
    const h = await school.start({
      accounts: [{ login: ANIA.login, password: ANIA.password }],
      http: { port },
      language: 'pl',
      out: { write: (t: string) => printed.push(t) },
    });
    await h.runUntil(() => printed.join('').includes('calendar/'), 'the addresses');
    const text = printed.join('');
    expect(text).toContain('serwer WWW dziennik2mqtt: tablica i kalendarze');
    expect(text).toContain('`dziennik2mqtt check --show-token` wypisuje je w tej postaci; nie udostępniaj ich');
    expect(text).toContain(`  tablica:  http://127.0.0.1:${port}/`);
    expect(text).not.toMatch(/the board and the calendar feeds|keep those private|board:/);
  });

  it('says what token --rotate did in Polish', async () => {
    const dir = await tempDir();
    try {
      const config = await buildConfig(
        { accounts: [{ login: ANIA.login, password: ANIA.password }], data_dir: dir, http: { port: 0 }, language: 'pl' },
        'test',
        { env: {} },
      );
      let out = '';
      expect(await runTokenRotation({ config, out: { write: (t: string) => (out += t) } })).toBe(0);
      expect(out).toBe(
        'Utworzono nowy token dostępu. Stare adresy i ciasteczka tablicy niczego już nie otwierają (także w działającym mostku, od jego następnego żądania).\n' +
          'Serwer WWW jest wyłączony (http.port wynosi 0): token zacznie obowiązywać po jego włączeniu.\n',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
