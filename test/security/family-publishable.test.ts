// What a family posts in a public bug report, on the family road (an `email` entry): the diagnostics
// bundle (the command's and /diagnostics), the log, the figures, the data folder and /metrics hold no
// register login of either child, no e-mail, no password and no token, even tokens of letters alone
// whose token login's connection was reset (so the path stood in an error); a fixed message is told by
// its id and placeholders, never its text; the board's cookie and a calendar feed's key do not open the bundle;
// and a child whose link the portal lists as needing action shows `problem` while its data is still read.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_FAMILY } from '../../src/simulator/index.js';
import { runDiagnostics } from '../../src/app/commands/diagnostics.js';
import { buildConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/util/log.js';
import { cookieFor, calendarFeedKey } from '../../src/outputs/web/token.js';
import { BOARD_COOKIE } from '../../src/outputs/web/request.js';
import { diagnosticsRoutes } from '../../src/outputs/web/diagnostics.js';
import { freePort } from '../helpers/ports.js';
import { simulatedSchool } from '../helpers/school.js';
import { send } from '../helpers/web.js';
import type { Harness } from '../helpers/app.js';
import type { WebRequest } from '../../src/outputs/web/types.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
// A Wednesday in the first semester, during the second lesson.
// Over HTTP: a token login's connection reset and the cookies across hosts are what may leak.
const school = simulatedSchool('2026-11-18T09:10:00+01:00', { portal: 'http' });

/** Every file of a folder, with its path relative to it. */
async function filesOf(dir: string, under = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(join(dir, under), { withFileTypes: true })) {
    const path = under === '' ? entry.name : `${under}/${entry.name}`;
    if (entry.isDirectory()) found.push(...(await filesOf(dir, path)));
    else found.push(path);
  }
  return found;
}

interface Started {
  h: Harness;
  port: number;
  token: string;
  lines: string[];
  fullName: string;
}

/** Both demo children on the family road, with the web server, Ania with a fixed message naming her in full. */
async function familyBridge(): Promise<Started> {
  const { child } = school.sim.account(ANIA.login).data.account;
  const fullName = `${child.firstName} ${child.lastName}`;
  const lines: string[] = [];
  const log = createLogger('debug', { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) }, { format: 'json' });
  const port = await freePort();
  const sick = {
    id: 'sick',
    name: 'Chora',
    to: 'class_tutor',
    topic: `Nieobecność: ${fullName}`,
    body: `${fullName} ({class}) jest dziś chora, {date}.`,
  };
  const entry = {
    email: DEMO_FAMILY.email,
    password: DEMO_FAMILY.password,
    children: [
      { login: ANIA.login, id: 'ania', messages: [sick] },
      { login: JANEK.login, id: 'jan' },
    ],
  };
  const h = await school.start({ accounts: [entry] as never, http: { port, metrics: true }, log });
  await h.runUntil(
    () => ['ania', 'jan'].every((c) => h.state(c, 'newest_grade') !== undefined && h.state(c, 'requests_today') !== undefined),
    'the first passes of both children',
  );
  // The fast pass: the messaging session, opened with the one-time token.
  await h.runUntil(() => school.sim.count({ path: /^\/loguj\/token\// }) >= 2, 'the token logins', 3 * 60_000);
  const token = (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim();
  return { h, port, token, lines, fullName };
}

describe('the family road’s bug report', () => {
  it('holds no login, e-mail, password or token in the bundle, the log, the figures or the data folder, and names both children by id', async () => {
    school.sim.families.lettersOnlyTokens = true;
    // The first token logins' connections are reset: their paths stand in the errors of a failed pass.
    school.sim.failNext(2, 0, { path: /^\/loguj\/token\// });
    const { h, port, token, lines, fullName } = await familyBridge();
    const tokens = school.sim.families.issued;
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    expect(tokens.every((t) => /^[a-z]+$/.test(t))).toBe(true);
    // The reset connections were met, and logged.
    expect(school.sim.requests.filter((r) => r.status === 0 && r.path.startsWith('/loguj/token/')).length).toBe(2);
    expect(lines.some((l) => l.includes('/loguj/token/…'))).toBe(true);

    const web = await send(port, `/diagnostics?token=${token}`);
    expect(web.status).toBe(200);
    let cli = '';
    const config = await buildConfig(
      {
        portal: school.sim.urls,
        accounts: [
          {
            email: DEMO_FAMILY.email,
            password: DEMO_FAMILY.password,
            children: [
              { login: ANIA.login, id: 'ania', messages: [{ id: 'sick', name: 'Chora', to: 'class_tutor', topic: fullName, body: fullName }] },
              { login: JANEK.login, id: 'jan' },
            ],
          },
        ],
        data_dir: h.dataDir,
      },
      'test',
      { env: {} },
    );
    expect(await runDiagnostics({ config, out: { write: (t: string) => (cli += t) }, clock: school.clock })).toBe(0);
    const metrics = await send(port, `/metrics?token=${token}`);
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('dziennik2mqtt_');

    const secrets = [ANIA.login, JANEK.login, DEMO_FAMILY.email, DEMO_FAMILY.password, ...tokens];
    for (const [source, text] of [
      ['/diagnostics', web.body],
      ['diagnostics command', cli],
      ['/metrics', metrics.body],
      ['log', lines.join('\n')],
    ] as const) {
      for (const secret of secrets) expect(text.toLowerCase(), `${source} holds ${secret.slice(0, 3)}…`).not.toContain(secret.toLowerCase());
    }
    for (const text of [web.body, cli]) {
      const bundle = JSON.parse(text) as {
        children: { id: string; road: string }[];
        config: { families: { children: { messages: unknown[] }[] }[] };
        data_dir: { files: { path: string }[] };
      };
      expect(bundle.children.map((c) => c.id).sort()).toEqual(['ania', 'jan']);
      expect(text).not.toContain(fullName);
      expect(bundle.config.families[0]!.children[0]!.messages).toEqual([{ id: 'sick', to: 'class_tutor', placeholders: expect.any(Array) }]);
      expect(bundle.data_dir.files.some((f) => f.path.startsWith('figures/'))).toBe(true);
    }
    expect(
      (JSON.parse(web.body) as { config: { families: { children: { messages: { placeholders: string[] }[] }[] }[] } }).config.families[0]!
        .children[0]!.messages[0]!.placeholders,
    ).toEqual(['{class}', '{date}']);

    // Every file the bridge wrote but the sessions (which must hold the live tokens and cookies).
    await h.app.stop();
    for (const path of await filesOf(h.dataDir)) {
      if (path.startsWith('sessions/')) continue;
      const text = path.startsWith('downloads/') ? path : `${path}\n${await readFile(join(h.dataDir, path), 'utf8')}`;
      for (const t of tokens) expect(text, `${path} holds a token`).not.toContain(t);
    }
    for (const login of [ANIA.login, JANEK.login]) {
      const figures = await readFile(join(h.dataDir, 'figures', `${login}.json`), 'utf8');
      expect(figures).toContain('/loguj/token/…');
    }
  });

  it('opens /diagnostics with the token only: the board’s cookie and a calendar feed’s key get 401', async () => {
    const { port, token } = await familyBridge();
    const cookie = { cookie: `${BOARD_COOKIE}=${cookieFor(token)}` };
    // The cookie opens the board, not the bundle.
    expect((await send(port, '/', { headers: cookie })).status).toBe(200);
    expect((await send(port, '/diagnostics', { headers: cookie })).status).toBe(401);
    expect((await send(port, `/diagnostics?key=${calendarFeedKey(token, 'ania', 'lessons')}`)).status).toBe(401);
    expect((await send(port, `/diagnostics?token=${token}`)).status).toBe(200);
    // Through ingress (the app's panel), as with the token.
    const [route] = diagnosticsRoutes({ bundle: () => Promise.resolve('{}') });
    const asked = (via: WebRequest['via']) => route!({ segments: ['diagnostics'], via } as unknown as WebRequest)?.status;
    expect([asked('ingress'), asked('query'), asked('cookie'), asked('key')]).toEqual([200, 200, 401, 401]);
  });
});

describe('a link the family must see to', () => {
  it('shows problem link_needs_action while the token still reads the child, leaves the other child alone, and ends by itself', async () => {
    school.sim.families.setLinkState(JANEK.login, 'requiring_an_action', { tokenBeside: true });
    const h = await school.start({ accounts: [{ email: DEMO_FAMILY.email, password: DEMO_FAMILY.password }] as never });
    await h.runUntil(
      () => h.state('jan', 'problem') === 'ON' && h.state('jan', 'newest_grade') !== undefined && h.state('ania', 'last_update') !== undefined,
      'the first passes',
    );
    expect(h.attributes('jan', 'problem')).toMatchObject({ reason: 'link_needs_action', portal_message: 'requiring_an_action' });
    expect(String(h.attributes('jan', 'problem')?.message)).toMatch(/portal/i);
    // Its data is read as ever.
    expect(h.state('jan', 'grades_count') ?? h.state('jan', 'newest_grade')).toBeDefined();
    expect(h.state('ania', 'problem')).toBe('OFF');

    school.sim.families.setLinkState(JANEK.login, 'active');
    await h.advanceUntil(() => h.state('jan', 'problem') === 'OFF', 'the link active again', 40);
    expect(h.state('ania', 'problem')).toBe('OFF');
  });
});
