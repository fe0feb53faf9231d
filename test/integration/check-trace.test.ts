// `check --trace FILE` against the simulator playing the live login (both switches): the transcript
// shows how the login ran, request by request, and holds no password, cookie or token value, code or
// state value, or child data; a login that stops is named by its step, in check's output and the file.
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, PortalSimulator } from '../../src/simulator/index.js';
import { buildConfig } from '../../src/config/load.js';
import { runCheck } from '../../src/app/commands/check.js';
import { silentLogger } from '../../src/util/log.js';
import { FakeClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/portal.js';

const ANIA = DEMO_ACCOUNTS[0]!;
let sim: PortalSimulator;
let clock: FakeClock;
let dir: string;

beforeEach(async () => {
  clock = new FakeClock('2026-11-18T09:10:00+01:00');
  sim = new PortalSimulator({ now: () => clock.now() });
  await sim.start();
  dir = await tempDir();
});

afterEach(async () => {
  await sim.stop();
  await rm(dir, { recursive: true, force: true });
});

async function check(): Promise<{ code: number; text: string; trace: string }> {
  const config = await buildConfig(
    { portal: sim.urls, accounts: [{ login: ANIA.login, password: ANIA.password }], data_dir: dir, http: { port: 0 }, language: 'pl' },
    'test',
    { env: {} },
  );
  let text = '';
  const file = join(dir, 'trace.txt');
  const code = await runCheck({ config, out: { write: (t: string) => (text += t) }, log: silentLogger(), clock, trace: file });
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  return { code, text, trace: await readFile(file, 'utf8') };
}

/** Every value the transcript must not hold: cookies of the saved jar, the login's code and state, the child's data. */
async function secrets(): Promise<string[]> {
  const saved = JSON.parse(await readFile(join(dir, 'sessions', `${ANIA.login}.json`), 'utf8')) as {
    cookies: { cookies: { key: string; value: string }[] };
  };
  const cookies = saved.cookies.cookies.map((c) => c.value);
  expect(saved.cookies.cookies.map((c) => c.key)).toEqual(expect.arrayContaining(['oauth_token', 'DZIENNIKSID', 'DeviceCookie']));
  const queries = sim.requests.map((r) => new URLSearchParams(r.query));
  const codes = queries.flatMap((q) => [q.get('code'), q.get('state')]).filter((v): v is string => v !== null);
  expect(codes.length).toBeGreaterThanOrEqual(3);
  const account = sim.account(ANIA.login);
  const { child } = account.data.account;
  const ids = sim.requests.flatMap((r) => r.path.match(/\d{3,}/g) ?? []);
  expect(ids.length).toBeGreaterThan(0);
  return [ANIA.password, ...cookies, ...codes, ...ids, child.firstName, child.lastName, account.parentLid, String(account.school.school.Name)];
}

describe('check --trace', () => {
  it('writes the live login request by request, with no secret and no child data', async () => {
    sim.setLoginSwitch('login-2026', true);
    sim.setLoginSwitch('password-leak', true);
    const { code, text, trace } = await check();
    expect(code).toBe(0);
    expect(text).toContain('zalecenie: Portal zaleca zmianę hasła tego konta');
    expect(text).toContain('przebieg logowania zapisany w');

    // check speaks the config's Polish; the transcript, read in bug reports, stays English.
    expect(trace).toContain("# Each request of every account's login and first reads");
    expect(trace).toContain('## account 1');
    expect(trace).toMatch(
      /1\. GET portal \/loguj\/portalRodzina\?v=… -> 302\n {3}Location: auth \/OAuth\/Authorization\?client_id=46&response_type=code&scope=mydata&state=…/,
    );
    expect(trace).toMatch(/cookies set: AUTHSESSID \(Path=\/\), DeviceCookie \(Path=\/OAuth, Max-Age=31536000\)/);
    expect(trace).toMatch(
      /GET auth \/OAuth\/Authorization\?client_id=46 -> 200\n {3}content type: text\/html\n {3}body: HTML page of \d+ bytes, title "Logowanie", markers: login form/,
    );
    expect(trace).toMatch(
      /POST auth \/OAuth\/Authorization\?client_id=46 -> 200\n {3}content type: application\/json\n {3}body: JSON keys \[status\], status "ok"/,
    );
    expect(trace).toMatch(/markers: requiredActions/);
    expect(trace).toMatch(
      /POST auth \/OAuth\/Authorization\/PerformLogin\?client_id=46 -> 200[^\n]*\n[^\n]*\n {3}body: JSON keys \[status, goTo\], status "ok"/,
    );
    expect(trace).toMatch(/GET portal \/loguj\/portalRodzina\/autoryzacja\?code=…&state=… -> 302/);
    expect(trace).toMatch(/GET portal \/gateway\/api\/2.0\/Auth\/TokenInfo -> 200/);
    expect(trace).toMatch(/GET portal \/gateway\/api\/2.0\/Me -> 200\n(?: {3}[^\n]*\n)*? {3}body: JSON keys \[Me, Resources, Url\]/);
    // An id in a path is the child's too: shown as <id>.
    expect(trace).toContain('GET portal /gateway/api/2.0/Users/<id> -> 200');
    expect(trace).toMatch(/GET messages \/bootstrap\?ticket=… -> 200/);
    expect(trace).toContain('=> logged in and read (advice: password_change_advised)');

    for (const secret of await secrets()) expect(trace, 'a value the transcript must not hold').not.toContain(secret);
  });

  it('names the step where a login stopped, in check and in the transcript', async () => {
    sim.setLoginSwitch('login-2026', true);
    sim.refuseLogin(ANIA.login, { message: 'Wystąpił błąd. Odśwież stronę i spróbuj ponownie.', as: 'string' });
    const { code, text, trace } = await check();
    expect(code).toBe(1);
    expect(text).toContain('FAIL 1234567u: logowanie w portalu się zmieniło');
    expect(text).toContain('logowanie zatrzymało się na kroku: hasło');
    expect(trace).toContain('=> the login stopped at step "password": login_changed');
    expect(trace).not.toContain(ANIA.password);
  });
});
