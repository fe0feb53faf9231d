// `check` with an `email` entry: the family portal logged in once, its linked children listed with their
// links' states, each proved by one read on the family road; `check --trace` covers the road and holds
// neither the e-mail's local part, the password, a token, a cookie value nor a child's data. Each child is
// told on the road the bridge reads it, and `check` piped prints only its own lines (its log in a file).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { DEMO_ACCOUNTS, DEMO_FAMILY, DEMO_FAMILY_ALL, PortalSimulator } from '../../src/simulator/index.js';
import { REGISTER_BROKEN_WORDS } from '../../src/simulator/live-schools.js';
import { buildConfig } from '../../src/config/load.js';
import { runCheck } from '../../src/app/commands/check.js';
import { silentLogger } from '../../src/util/log.js';
import { FakeClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/portal.js';
import { ensureBuilt, REPO, runBin } from '../helpers/faults-process.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
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

interface CheckAs {
  language?: 'pl' | 'en' | 'uk';
  /** Entries beside the e-mail one (a child's own login entry). */
  accounts?: { login: string; password: string }[];
  email?: string;
  http?: { port: number; bind: string };
  showToken?: boolean;
}

async function check(password = DEMO_FAMILY.password, trace?: string, as: CheckAs = {}): Promise<{ code: number; text: string }> {
  const config = await buildConfig(
    {
      portal: sim.urls,
      accounts: [...(as.accounts ?? []), { email: as.email ?? DEMO_FAMILY.email, password }],
      data_dir: dir,
      http: as.http ?? { port: 0 },
      language: as.language ?? 'en',
    },
    'test',
    { env: {} },
  );
  let text = '';
  const code = await runCheck({
    config,
    out: { write: (t: string) => (text += t) },
    log: silentLogger(),
    clock,
    showToken: as.showToken ?? false,
    ...(trace === undefined ? {} : { trace }),
  });
  return { code, text };
}

describe('check with an e-mail entry', () => {
  it('logs the family portal in once, lists both children with their links, and reads each once', async () => {
    const { code, text } = await check();
    expect(code).toBe(0);
    // The entry named by its e-mail, masked as the diagnostics mask it.
    expect(text).toContain('OK   ro…m: the e-mail of the family portal (Konto LIBRUS) works; linked children: 2');
    expect(text).toContain(`OK   ${ANIA.login}: Ania Kowalska, link active, read on the family road (child id: ania)`);
    expect(text).toContain(`OK   ${JANEK.login}: Jan Kowalski, link active, read on the family road (child id: jan)`);
    expect([sim.families.loginCount(), sim.logins()]).toEqual([1, 0]);
    expect(sim.count({ host: 'auth', path: '/3.0/Me' })).toBe(2);
    // The children counted, not the entries: one e-mail brings two.
    expect(text).toContain('\nAll accounts work: 2 children on 1 account.\n');
  });

  it('fails a child whose link needs action, and a wrong password in the family portal’s words', async () => {
    sim.families.setLinkState(JANEK.login, 'need-activation');
    const linked = await check();
    expect(linked.code).toBe(1);
    expect(linked.text).toContain(`OK   ${ANIA.login}:`);
    expect(linked.text).toMatch(new RegExp(`FAIL ${JANEK.login}: the child’s link needs action: .*need-activation`));
    const wrong = await check('wrong');
    expect(wrong.code).toBe(1);
    expect(wrong.text).toContain('FAIL ro…m: wrong e-mail or password: the family portal did not accept the e-mail or password of this email: entry');
    // Not the register login's advice (a numeric login under login:), which does not help an e-mail entry.
    expect(wrong.text).not.toContain('numeric register login of the parent account');
    expect(wrong.text).toContain('the login stopped at step: session check');
  });

  it('speaks Polish under language: pl, the link’s state and the family road’s advice included', async () => {
    const { code, text } = await check(DEMO_FAMILY.password, undefined, { language: 'pl' });
    expect(code).toBe(0);
    expect(text).toContain('OK   ro…m: e-mail portalu dla rodzin (Konto LIBRUS) działa; powiązane dzieci: 2');
    expect(text).toContain(`OK   ${ANIA.login}: Ania Kowalska, powiązanie aktywne, odczyt przez portal dla rodzin (id dziecka: ania)`);
    expect(text).not.toMatch(/family1|active/);
    const wrong = await check('wrong', undefined, { language: 'pl' });
    expect(wrong.text).toContain('FAIL ro…m: błędny e-mail lub hasło: portal dla rodzin nie przyjął adresu e-mail lub hasła z wpisu email:');
    expect(wrong.text).not.toContain('Pod login: wpisuje się numeryczny login');
  });

  it('fails an e-mail the family portal links no child to, saying so', async () => {
    sim.families.add({ email: 'nowy.rodzic@example.com', password: 'haslo', logins: [] });
    const { code, text } = await check('haslo', undefined, { email: 'nowy.rodzic@example.com' });
    expect(code).toBe(1);
    expect(text).toContain('FAIL no…m: no child linked: the family portal links no child to this e-mail.');
  });

  it('--show-token names each calendar once for a child both roads reach', async () => {
    const { code, text } = await check(DEMO_FAMILY.password, undefined, {
      accounts: [{ login: ANIA.login, password: ANIA.password }],
      http: { port: 8123, bind: '127.0.0.1' },
      showToken: true,
    });
    expect(code).toBe(0);
    for (const child of ['ania', 'jan']) {
      for (const calendarFeed of ['lessons', 'agenda', 'free-days'])
        expect(text.match(new RegExp(`/calendar/${child}/${calendarFeed}\\.ics\\?key=`, 'g')), `${child} ${calendarFeed}`).toHaveLength(1);
    }
  });

  it('--trace covers the family road and holds no e-mail, password, token, cookie value or child data', async () => {
    const file = join(dir, 'trace.txt');
    const { code } = await check(DEMO_FAMILY.password, file);
    expect(code).toBe(0);
    const trace = await readFile(file, 'utf8');
    for (const step of [
      'GET family /konto-librus/login -> 200',
      'POST family /konto-librus/login/action -> 302',
      'GET family /api/v3/Me -> 200',
      'GET family /api/v3/SynergiaAccounts -> 200',
      'GET auth /3.0/Me -> 200',
    ]) {
      expect(trace).toContain(step);
    }
    const child = sim.account(ANIA.login).data.account.child;
    for (const secret of ['rodzic', DEMO_FAMILY.password, ANIA.login, JANEK.login, child.firstName, child.lastName, 'Kowalsk'])
      expect(trace).not.toContain(secret);
    // Tokens and cookie values are long hex strings in the simulator: none reaches the file.
    expect(trace).not.toMatch(/[0-9a-f]{32,}/);
  });
});

describe('check tells each linked child’s road as the bridge reads it', () => {
  const ania = { login: ANIA.login, password: ANIA.password };

  it('a child with a working login entry of its own: the register road, the family road behind it', async () => {
    const { code, text } = await check(DEMO_FAMILY.password, undefined, { accounts: [ania], language: 'pl' });
    expect(code).toBe(0);
    expect(text).toContain(
      `OK   ${ANIA.login}: Ania Kowalska, powiązanie aktywne, odczyt z dziennika (własny wpis z loginem); portal dla rodzin zastąpi go, gdy logowanie do dziennika zawiedzie (id dziecka: ania)`,
    );
    // Jan has no login entry: the family road reads him.
    expect(text).toContain(`OK   ${JANEK.login}: Jan Kowalski, powiązanie aktywne, odczyt przez portal dla rodzin (id dziecka: jan)`);
    // Ania both roads reach is one child.
    expect(text).toContain('\nWszystkie konta działają: 2 dzieci na 2 kontach.\n');
  });

  it('three children on two accounts: the last line counts the children, in Ukrainian too', async () => {
    sim.families.add({ ...DEMO_FAMILY_ALL, email: 'troje@example.com' });
    const { code, text } = await check(DEMO_FAMILY_ALL.password, undefined, { accounts: [ania], email: 'troje@example.com', language: 'uk' });
    expect(code).toBe(0);
    expect(text).toContain('\nУсі облікові записи працюють: 3 дитини на 2 облікових записах.\n');
  });

  it('a wrong register password: no OK line for that child on either road, as the bridge reads it on neither', async () => {
    const { code, text } = await check(DEMO_FAMILY.password, undefined, { accounts: [{ ...ania, password: 'wrong' }], language: 'pl' });
    expect(code).toBe(1);
    expect(text).toContain(`FAIL ${ANIA.login}: błędny login lub hasło:`);
    expect(text).toContain(
      `FAIL ${ANIA.login}: Ania Kowalska: hasło we własnym wpisie z loginem jest błędne (zob. wyżej), a mostek nie odczyta dziecka także przez portal dla rodzin`,
    );
    expect(text).not.toContain(`OK   ${ANIA.login}`);
    expect(text).toContain(`OK   ${JANEK.login}:`);
    expect(text).toContain('Konta z błędem: 1 z 2.');
  });

  it('a register login the portal fails: the family road stands in, proved by one read', async () => {
    sim.refuseLogin(ANIA.login, { message: REGISTER_BROKEN_WORDS, as: 'object' });
    const { text } = await check(DEMO_FAMILY.password, undefined, { accounts: [ania] });
    expect(text).toContain(`FAIL ${ANIA.login}: `);
    expect(text).toContain(
      `OK   ${ANIA.login}: Ania Kowalska, link active, read on the family road while its register login fails (see above); the register login is tried again hourly (child id: ania)`,
    );
  });
});

describe('check piped, under language: pl (as the app’s log shows it)', () => {
  // The built bin, as a parent runs it (built once when src is newer).
  beforeAll(() => ensureBuilt(), 240_000);

  it('prints only its own Polish lines, with a wrong register password beside the family entry', async () => {
    const config = join(dir, 'config.yaml');
    const accounts = [
      { login: ANIA.login, password: 'wrong' },
      { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password },
    ];
    await writeFile(config, stringify({ portal: sim.urls, accounts, data_dir: join(dir, 'data'), http: { port: 0 }, language: 'pl' }), {
      mode: 0o600,
    });
    const run = await runBin(['check', '--config', config], { cwd: REPO, env: { PATH: process.env.PATH } });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`FAIL ${ANIA.login}: błędny login lub hasło:`);
    expect(run.stdout).not.toContain(`OK   ${ANIA.login}`);
    // No log line on either stream: no JSON, no English words of the log.
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/"level"|"msg"|refused the login|^\{/m);
    expect(run.stderr).toBe('');
    // The log is kept where a bug report finds it.
    expect(await readFile(join(dir, 'data', 'check.log'), 'utf8')).toMatch(/refused the login/);
  });
});
