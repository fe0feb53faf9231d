// `check` against the simulated portal: what a parent reads when an account works, and when not.
import { readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PortalSimulator, DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { buildConfig } from '../../src/config/load.js';
import { deviceOnlyJar, runCheck } from '../../src/app/commands/check.js';
import { SessionStore } from '../../src/portal/session-store.js';
import { silentLogger } from '../../src/util/log.js';
import { tempDir } from '../helpers/portal.js';
import type { Language } from '../../src/config/language.js';

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const ANIA = DEMO_ACCOUNTS[0]!;
const JANEK = DEMO_ACCOUNTS[1]!;
const ZOSIA = DEMO_ACCOUNTS[2]!;
let sim: PortalSimulator;

beforeEach(async () => {
  sim = new PortalSimulator({ now: () => Date.parse('2026-11-18T09:10:00+01:00') });
  await sim.start();
});
afterEach(() => sim.stop());

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function check(
  accounts: { login: string; password: string }[],
  dataDir?: string,
  http?: { port: number; bind?: string },
  showToken = false,
  language: Language | null = 'en',
): Promise<{ code: number; text: string }> {
  const dir = dataDir ?? (await tempDir());
  if (dataDir === undefined) dirs.push(dir);
  const config = await buildConfig(
    { portal: sim.urls, accounts, data_dir: dir, ...(http ? { http } : {}), ...(language ? { language } : {}) },
    'test',
    { env: {} },
  );
  let text = '';
  const code = await runCheck({ config, out: { write: (t: string) => (text += t) }, log: silentLogger(), showToken });
  return { code, text };
}

describe('check (language: en)', () => {
  it('prints the child, class, school and modules of a working account and exits 0', async () => {
    const { code, text } = await check([{ login: ANIA.login, password: ANIA.password }]);
    expect(code).toBe(0);
    // First, the build that answers: package.json's version, as --version, the diagnostics and discovery say it.
    expect(text.split('\n')[0]).toBe(`dziennik2mqtt ${PACKAGE_VERSION}`);
    expect(text).toContain('OK   1234567u: Ania Kowalska, class 4b');
    expect(text).toContain('(child id: ania)');
    expect(text).toContain('class register number: 12');
    expect(text).toMatch(/modules: messages: yes, lucky number: yes, announcements: yes, timetable: yes/);
    expect(text).toContain('All accounts work: 1 child on 1 account.');
  });

  it('explains a wrong password (the numeric login under login:, the family e-mail under email:) and exits 1', async () => {
    const { code, text } = await check([{ login: ANIA.login, password: 'nope' }]);
    expect(code).toBe(1);
    expect(text).toContain('FAIL 1234567u');
    expect(text).toContain('numeric register login');
    // The e-mail is a road of its own now, not a mistake.
    expect(text).toContain('goes under email:');
    expect(text).not.toMatch(/not the e-mail/);
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

  it('proves the password with a real login even when the bridge has a saved session, and leaves that session alone', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const sessionFile = join(dataDir, 'sessions', `${ANIA.login}.json`);
    expect((await check([{ login: ANIA.login, password: ANIA.password }], dataDir)).code).toBe(0);
    const saved = await readFile(sessionFile, 'utf8');

    // The password was changed in the config: the saved session still works, the password does not.
    const { code, text } = await check([{ login: ANIA.login, password: 'changed-by-mistake' }], dataDir);
    expect(code).toBe(1);
    expect(text).toContain('FAIL 1234567u: wrong login or password');
    expect(text).not.toContain('changed-by-mistake');
    expect(await readFile(sessionFile, 'utf8')).toBe(saved);
  });

  it('logs in with the password on every run, never on the saved session alone', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    await check([{ login: ANIA.login, password: ANIA.password }], dataDir);
    const saved = await readFile(join(dataDir, 'sessions', `${ANIA.login}.json`), 'utf8');
    const before = sim.logins(ANIA.login);
    const { code } = await check([{ login: ANIA.login, password: ANIA.password }], dataDir);
    expect(code).toBe(0);
    expect(sim.logins(ANIA.login)).toBe(before + 1);
    expect(await readFile(join(dataDir, 'sessions', `${ANIA.login}.json`), 'utf8')).toBe(saved);
  });

  it('names a portal that does not answer as service down, with advice', async () => {
    sim.failNext(5, 503);
    const { code, text } = await check([{ login: ANIA.login, password: ANIA.password }]);
    expect(code).toBe(1);
    expect(text).toContain('FAIL 1234567u: portal not reachable');
    expect(text).toContain('Try again later');
  });
});

describe("check speaks the config's language", () => {
  const accounts = [
    { login: ANIA.login, password: ANIA.password },
    { login: JANEK.login, password: 'wrong' },
  ];

  it("speaks Polish by default (the config's default language), with the same exit code, logins and ids", async () => {
    const { code, text } = await check(accounts, undefined, { port: 8123, bind: '127.0.0.1' }, false, null);
    expect(code).toBe(1);
    expect(text).toContain('OK   1234567u: Ania Kowalska, klasa 4b,');
    expect(text).toContain('(id dziecka: ania)');
    expect(text).toContain('numer w dzienniku: 12');
    expect(text).toMatch(/moduły: wiadomości: tak, szczęśliwy numerek: tak, ogłoszenia: tak, plan lekcji: tak/);
    expect(text).toContain(`FAIL ${JANEK.login}: błędny login lub hasło: portal nie przyjął loginu lub hasła.`);
    expect(text).toContain('Portal odpowiedział: „Nieprawidłowy login i/lub hasło.”');
    expect(text).toContain('     logowanie zatrzymało się na kroku: hasło\n');
    expect(text).toContain('Konta z błędem: 1 z 2.');
    expect(text).toContain('serwer WWW (adresy z tokenem dostępu: dziennik2mqtt check --show-token):');
    expect(text).toContain('  tablica:  http://127.0.0.1:8123/\n');
    expect(text).toContain('  stan:     http://127.0.0.1:8123/health\n');
    expect(text).not.toMatch(/account|class |modules|web server|board:|health:|password/);
  });

  it("speaks Ukrainian with language: uk, the portal's words and the addresses left as they are", async () => {
    sim.refuseLogin(JANEK.login, { message: 'Konto zostało zablokowane po zbyt wielu nieudanych próbach logowania.', as: 'string' });
    const { code, text } = await check(accounts, undefined, { port: 0 }, false, 'uk');
    expect(code).toBe(1);
    expect(text).toContain('OK   1234567u: Ania Kowalska, клас 4b,');
    expect(text).toContain('(id дитини: ania)');
    expect(text).toContain('номер у журналі: 12');
    expect(text).toMatch(/модулі: повідомлення: так, щасливий номер: так, оголошення: так, розклад: так/);
    expect(text).toContain(`FAIL ${JANEK.login}: неправильний логін або пароль: портал не прийняв логін або пароль.`);
    expect(text).toContain('Портал відповів: «Konto zostało zablokowane po zbyt wielu nieudanych próbach logowania.»');
    expect(text).toContain('Облікових записів з помилкою: 1 з 2.');
    expect(text).toContain('вебсервер: вимкнено (http.port дорівнює 0)');
    expect(text).not.toMatch(/account|class |modules|web server|klasa|moduły/);
  });

  it('says all accounts work in Ukrainian and exits 0', async () => {
    const { code, text } = await check(accounts.slice(0, 1), undefined, undefined, false, 'uk');
    expect(code).toBe(0);
    expect(text).toContain('Усі облікові записи працюють: 1 дитина на 1 обліковому записі.');
  });
});

describe('the jar check logs in with', () => {
  it('keeps only the device cookie of the saved session, with its path', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    await check([{ login: ANIA.login, password: ANIA.password }], dataDir);
    const saved = await new SessionStore(dataDir, ANIA.login).load();
    expect(saved).toBeDefined();
    const cookies = (await (await deviceOnlyJar(saved!)).serialize()).cookies;
    const savedDevice = (saved!.cookies as { cookies: { key: string; value: string }[] }).cookies.find((c) => c.key === 'DeviceCookie');
    expect(savedDevice).toBeDefined();
    expect(cookies.map((c) => [c.key, c.value, c.path])).toEqual([['DeviceCookie', savedDevice!.value, '/OAuth']]);
  });

  it("prints the board's and each child's feed URLs with the token the bridge will use, with --show-token only", async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const accounts = [ANIA, JANEK].map((a) => ({ login: a.login, password: a.password }));
    // Without --show-token: the bare addresses, and no token made (the first start prints the full ones).
    const bare = (await check(accounts, dataDir, { port: 8123, bind: '127.0.0.1' })).text;
    expect(bare).toContain('  board:    http://127.0.0.1:8123/\n');
    expect(bare).toContain('check --show-token');
    expect(bare).not.toMatch(/token=/);
    await expect(readFile(join(dataDir, 'http-token'), 'utf8')).rejects.toThrow(/ENOENT/);
    const { text } = await check(accounts, dataDir, { port: 8123, bind: '127.0.0.1' }, true);
    const token = (await readFile(join(dataDir, 'http-token'), 'utf8')).trim();
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(text).toContain(`http://127.0.0.1:8123/?token=${token}`);
    for (const child of ['ania', 'jan']) {
      // Each calendar feed with a key of its own, which opens that calendar feed alone (test/security/token-secrecy.test.ts).
      for (const calendarFeed of ['lessons', 'agenda', 'free-days'])
        expect(text).toMatch(new RegExp(`http://127\\.0\\.0\\.1:8123/calendar/${child}/${calendarFeed}\\.ics\\?key=[\\w-]{43}\n`));
    }
    expect(text).toContain('http://127.0.0.1:8123/health');
    // The same token at the next check (and at the bridge's start).
    expect((await check(accounts.slice(0, 1), dataDir, { port: 8123, bind: '127.0.0.1' }, true)).text).toContain(`?token=${token}`);
    expect((await check(accounts.slice(0, 1), dataDir, { port: 8123, bind: '127.0.0.1' })).text).not.toContain(token);
    expect((await check(accounts.slice(0, 1), dataDir, { port: 0 })).text).toContain('web server: off');
  });
});

// A kindergarten child (issue 65): the demo's Zofia is told as the bridge shows her, her kindergarten (no class)
// and her plan of blocks found as the bridge finds it, never "class ?" or a timetable "not published yet".
describe('check for a kindergarten child', () => {
  it('prints her kindergarten and her plan of blocks, as the bridge shows them, and her school sister as before', async () => {
    const { code, text } = await check(
      [
        { login: ZOSIA.login, password: ZOSIA.password },
        { login: ANIA.login, password: ANIA.password },
      ],
      undefined,
      { port: 0 },
      false,
      'pl',
    );
    expect(code).toBe(0);
    // The version line first, then each account's.
    const [, zosia = '', ania = ''] = text.split(/^(?=OK {3})/m);
    expect(zosia).toMatch(/^OK {3}5432167u: Zofia Kowalska, przedszkole, Szkoła Podstawowa nr 12 .* \(id dziecka: zofia\)$/m);
    expect(zosia).toContain('plan zajęć przedszkola: tak');
    expect(zosia).not.toMatch(/klasa \?|plan lekcji|nieopublikowany/);
    // Her kindergarten has no lucky number (403), which is not an error, and no kinds of grades to tell.
    expect(zosia).toContain('szczęśliwy numerek: nie w przedszkolu');
    expect(zosia).not.toMatch(/\(403\)|oceny punktowe|ocenianie opisowe/);
    expect(ania).toMatch(/^OK {3}1234567u: Ania Kowalska, klasa 4b, /m);
    expect(ania).toContain('plan lekcji: tak');
    // Her plan was found as the bridge finds it: Timetables refused, then her identifier's plan answered.
    const kindergartenPlanReads = sim.requests.filter(
      (r) => r.login === ZOSIA.login && /^\/gateway\/ms\/kindergartens\/timetable\/kindergarteners\//.test(r.path),
    );
    expect(kindergartenPlanReads.map((r) => r.status)).toEqual([403, 200]);
  });

  // Issue 122: a kindergarten has no agenda, and her agenda feed answers 404; check lists only the feeds she has.
  it('lists with --show-token only the calendar feeds she has: no agenda', async () => {
    const { text } = await check([{ login: ZOSIA.login, password: ZOSIA.password }], undefined, { port: 8123, bind: '127.0.0.1' }, true);
    expect([...text.matchAll(/\/calendar\/[^\s?]+\.ics/g)].map((m) => m[0])).toEqual([
      '/calendar/zofia/lessons.ics',
      '/calendar/zofia/free-days.ics',
    ]);
  });

  it('speaks English under language: en', async () => {
    const { text } = await check([{ login: ZOSIA.login, password: ZOSIA.password }], undefined, { port: 0 });
    expect(text).toContain('OK   5432167u: Zofia Kowalska, kindergarten, ');
    expect(text).toContain('kindergarten plan: yes');
    expect(text).toContain('lucky number: not in a kindergarten');
    expect(text).not.toContain('class ?');
  });
});
