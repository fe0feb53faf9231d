// The diagnostics (interface 9.3) of the real bridge against the simulator: after a login, reads, a
// module the school switched off and an answer nobody has seen (a problem), the bundle a family
// attaches to a bug report (the web server's /diagnostics, and `dziennik2mqtt diagnostics` from what
// the bridge saved) holds every figure a maintainer needs and none of the password, the token, a
// cookie's value or the child's data; the per-child diagnostic entities show the same figures; and
// `/metrics` parses as Prometheus text, its counters moving with the simulator's requests.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { runDiagnostics } from '../../src/app/commands/diagnostics.js';
import { buildConfig } from '../../src/config/load.js';
import { calendarFeedKey, metricsKey } from '../../src/outputs/web/token.js';
import { freePort } from '../helpers/ports.js';
import { simulatedSchool } from '../helpers/school.js';
import { send } from '../helpers/web.js';
import { parsePrometheus } from '../helpers/prometheus.js';
import type { Harness } from '../helpers/app.js';

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson.
const NOW = '2026-11-18T09:10:00+01:00';
const MQTT_AUTH = { username: 'bridge-user', password: 'mqtt-secret-Xy7' };

const school = simulatedSchool(NOW);

interface Bundle {
  dziennik2mqtt: string;
  node: string;
  bridge: { lease?: { holder: string; beat_age_s: number | null; fence: number } };
  config: { mqtt: { password: string; username: string }; accounts: { login: string; password: string }[] };
  children: {
    id: string;
    road: string;
    session: { logged_in_at: string | null; age_minutes: number | null };
    day: {
      requests: number;
      requests_by_resource: Record<string, number>;
      password_logins: number;
      failed_password_logins: number;
      messaging_bootstraps: number;
    };
    resources: Record<
      string,
      { status: string; at: string; age_minutes: number; last_success: string | null; last_success_age_minutes: number | null }
    >;
    problems_7_days: { at: string; reason: string; portal_message?: string; resource?: string }[];
    last_login: { at: string; outcome: string; transcript: string[] } | null;
    school_year: Record<string, string> | null;
  }[];
  data_dir: { files: { path: string; bytes: number }[] };
}

async function startBridge(options: { metrics: boolean; id?: string }): Promise<{ h: Harness; port: number; token: string }> {
  const account = school.sim.account(ANIA.login);
  account.setModuleStatus('Notes', 'disabled');
  account.setResource('LuckyNumbers', { LuckyNumber: 'many', Draw: [] });
  const port = await freePort();
  const h = await school.start({
    accounts: [{ login: ANIA.login, password: ANIA.password, ...(options.id === undefined ? {} : { id: options.id }) }],
    http: { port, metrics: options.metrics },
    mqttAuth: MQTT_AUTH,
  });
  await h.runUntil(
    () => h.state('ania', 'problem') === 'ON' && h.state('ania', 'newest_grade') !== undefined && h.state('ania', 'requests_today') !== undefined,
    'the first passes',
  );
  const token = (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim();
  return { h, port, token };
}

/** What the bundle must never hold: the password, the token, the saved cookies' values, the MQTT password, the child's data. */
async function forbidden(h: Harness, token: string): Promise<string[]> {
  const saved = JSON.parse(await readFile(join(h.dataDir, 'sessions', `${ANIA.login}.json`), 'utf8')) as {
    cookies: { cookies: { key: string; value: string }[] };
  };
  const cookies = saved.cookies.cookies.map((c) => c.value).filter((v) => v.length >= 8);
  expect(cookies.length).toBeGreaterThanOrEqual(2);
  const { child } = school.sim.account(ANIA.login).data.account;
  // The child's grade and the newest message as Home Assistant shows them.
  const grade = h.attributes('ania', 'newest_grade') ?? {};
  const message = h.attributes('ania', 'newest_message') ?? {};
  const texts = [grade.subject, grade.category, grade.teacher, message.subject, message.sender, message.preview].filter(
    (t): t is string => typeof t === 'string' && t.length >= 5,
  );
  expect(texts.length, 'the grade and the message to look for').toBeGreaterThanOrEqual(3);
  return [ANIA.password, ANIA.login, token, MQTT_AUTH.password, ...cookies, child.firstName, child.lastName, ...texts];
}

describe('the diagnostics bundle', () => {
  it('holds every figure of the child and none of its secrets or data, on the web server and from the CLI', async () => {
    const { h, port, token } = await startBridge({ metrics: false });
    expect((await send(port, '/diagnostics')).status).toBe(401);
    // A calendar feed's key opens its calendar feed only.
    expect((await send(port, `/diagnostics?key=${calendarFeedKey(token, 'ania', 'lessons')}`)).status).toBe(401);
    const answer = await send(port, `/diagnostics?token=${token}`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['content-disposition']).toContain('attachment');
    const web = JSON.parse(answer.body) as Bundle;

    let cli = '';
    const config = await buildConfig(
      {
        mqtt: { url: 'mqtt://127.0.0.1:1883', ...MQTT_AUTH },
        portal: school.sim.urls,
        accounts: [{ login: ANIA.login, password: ANIA.password }],
        data_dir: h.dataDir,
      },
      'test',
      { env: {} },
    );
    // Beside the running bridge: what it saved after its last pass.
    expect(await runDiagnostics({ config, out: { write: (t: string) => (cli += t) }, clock: school.clock })).toBe(0);

    const secrets = await forbidden(h, token);
    for (const [source, text] of [
      ['web', answer.body],
      ['cli', cli],
    ] as const) {
      for (const secret of secrets) expect(text, `${source}: a value the bundle must not hold`).not.toContain(secret);
      const bundle = JSON.parse(text) as Bundle;
      // The build: package.json's version, as --version, check and discovery say it.
      expect(bundle.dziennik2mqtt).toBe(PACKAGE_VERSION);
      expect(bundle.node).toBe(process.version);
      expect(bundle.config.accounts[0]).toMatchObject({ login: '12…u', password: '**REDACTED**' });
      expect(bundle.config.mqtt).toMatchObject({ username: 'br…r', password: '**REDACTED**' });

      const [ania] = bundle.children;
      expect(ania).toMatchObject({ id: 'ania', road: 'register' });
      // The session, logged in with the password once today; the messaging host bootstrapped.
      expect(ania!.session.age_minutes).toBeGreaterThanOrEqual(0);
      expect(ania!.session.logged_in_at).toMatch(/^2026-11-18T09:1\d/);
      expect(ania!.day).toMatchObject({ password_logins: 1, failed_password_logins: 0 });
      expect(ania!.day.messaging_bootstraps).toBeGreaterThanOrEqual(1);
      // Every request of the day, by resource, as the simulator counted them.
      expect(ania!.day.requests_by_resource.Grades).toBe(school.sim.count({ path: '/gateway/api/2.0/Grades' }));
      expect(ania!.day.requests).toBe(Object.values(ania!.day.requests_by_resource).reduce((a, b) => a + b, 0));
      // Each resource's last answer, its age and its last success; the refused module and the unknown answer say how.
      expect(ania!.resources.Grades).toMatchObject({
        status: 'ok',
        age_minutes: expect.any(Number),
        last_success: expect.stringMatching(/^2026-11-18T/),
      });
      expect(ania!.resources.Notes).toMatchObject({ status: '200 Disabled', last_success: null });
      expect(ania!.resources.LuckyNumbers).toMatchObject({ status: '200 unexpected', last_success: null });
      expect(ania!.resources['Users/<id>']).toMatchObject({ status: 'ok' });
      // The problem with its time, reason and resource.
      expect(ania!.problems_7_days).toEqual([
        expect.objectContaining({ at: expect.stringMatching(/^2026-11-18T09:1/), reason: 'unexpected_response', resource: 'LuckyNumbers' }),
      ]);
      // The last login's transcript, redacted as check --trace's.
      expect(ania!.last_login?.outcome).toBe('ok');
      expect(ania!.last_login?.transcript.join('\n')).toMatch(/POST auth \/OAuth\/Authorization\?client_id=46 -> 200/);
      expect(ania!.last_login?.transcript.at(-1)).toBe('=> logged in');
      // The school year the bridge goes by (interface 13.1): the year's dates and class as the identity last read gave them.
      expect(ania!.school_year).toEqual({
        begins: '2026-09-01',
        first_semester_ends: '2027-01-29',
        ends: '2027-06-25',
        class: '4b',
        read_at: expect.stringMatching(/^2026-11-18T09:1/),
      });
      // The data folder, the login in a file's name cut to its hint.
      const files = bundle.data_dir.files.map((f) => f.path);
      expect(files).toEqual(expect.arrayContaining(['http-token', 'sessions/12…u.json', 'figures/12…u.json']));
    }
    expect(JSON.parse(cli)).toMatchObject({ source: 'saved by the bridge' });
    expect(web).toMatchObject({ source: 'running bridge', bridge: { running: true, broker_connected: true } });
    // The lease (interface 15.3): its holder, its beat's age and the fencing number, the same from both.
    const lease = { holder: expect.stringMatching(/^installation [0-9a-f]{8} on .+, pid \d+, since /), fence: expect.any(Number) };
    expect(web.bridge.lease).toMatchObject({ ...lease, beat_age_s: expect.toSatisfy((age: number | null) => age === null || Math.abs(age) < 60) });
    expect((JSON.parse(cli) as Bundle).bridge.lease).toMatchObject({ ...lease, holder: web.bridge.lease?.holder, fence: web.bridge.lease?.fence });
  });

  it("keeps a refused login with the portal's words and its transcript for the CLI after the bridge stopped", async () => {
    school.sim.refuseLogin(ANIA.login, { message: 'Nieprawidłowy login i/lub hasło.', as: 'string' });
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password }] });
    // Before its first login the child is named by its login.
    await h.runUntil(() => h.state(ANIA.login, 'problem') === 'ON', 'the refused login');
    expect(h.state(ANIA.login, 'logins_today')).toBe('1');
    expect(h.attributes(ANIA.login, 'logins_today')).toEqual({ failed: 1, last_outcome: 'wrong_credentials' });
    await h.app.stop();

    const config = await buildConfig(
      { portal: school.sim.urls, accounts: [{ login: ANIA.login, password: ANIA.password }], data_dir: h.dataDir },
      'test',
      { env: {} },
    );
    let text = '';
    await runDiagnostics({ config, out: { write: (t: string) => (text += t) }, clock: school.clock });
    expect(text).not.toContain(ANIA.password);
    expect(text).not.toContain(ANIA.login);
    const [child] = (JSON.parse(text) as Bundle).children;
    expect(child!.day).toMatchObject({ password_logins: 1, failed_password_logins: 1 });
    expect(child!.problems_7_days).toEqual([
      expect.objectContaining({ reason: 'wrong_credentials', portal_message: 'Nieprawidłowy login i/lub hasło.' }),
    ]);
    expect(child!.last_login).toMatchObject({ outcome: 'wrong_credentials' });
    expect(child!.last_login?.transcript.at(-1)).toBe('=> failed: wrong_credentials');
    expect(child!.session.logged_in_at).toBeNull();
    expect(child!.id).toBe('12…u');
  });
});

describe('the diagnostic entities', () => {
  it('show the requests and logins of the day, the last successful read and the session age', async () => {
    const { h } = await startBridge({ metrics: false });
    expect(Number(h.state('ania', 'requests_today'))).toBeGreaterThan(10);
    expect(Number(h.state('ania', 'requests_today'))).toBeLessThanOrEqual(school.sim.count());
    expect(h.attributes('ania', 'requests_today')).toMatchObject({ resources: expect.objectContaining({ Grades: 1, Notes: 1 }) });
    expect(h.state('ania', 'logins_today')).toBe('1');
    expect(h.state('ania', 'last_read')).toMatch(/^2026-11-18T09:1\d:\d\d\+01:00$/);
    expect(h.state('ania', 'session_age')).toBe('0');
    await h.advanceMinutes(30);
    expect(h.state('ania', 'session_age')).toMatch(/^(2\d|30)$/);
  });
});

describe('/metrics', () => {
  it('answers Prometheus text behind the token or its own key, its counters moving with the requests', async () => {
    // The child's id configured: every series is named by it, the first login's too.
    const { h, port, token } = await startBridge({ metrics: true, id: 'ania' });
    expect((await send(port, '/metrics')).status).toBe(401);
    expect((await send(port, `/metrics?key=${calendarFeedKey(token, 'ania', 'lessons')}`)).status).toBe(401);
    const scrape = async (target: string, headers: Record<string, string> = {}) => {
      const answer = await send(port, target, { headers });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      return parsePrometheus(answer.body);
    };
    const first = await scrape(`/metrics?key=${metricsKey(token)}`);
    expect(first.types.get('dziennik2mqtt_portal_requests_total')).toBe('counter');
    expect(first.types.get('dziennik2mqtt_poll_duration_seconds')).toBe('histogram');
    const grades = (m: typeof first) => m.value('dziennik2mqtt_portal_requests_total', { child: 'ania', resource: 'Grades', status: 'ok' });
    expect(grades(first)).toBe(school.sim.count({ path: '/gateway/api/2.0/Grades' }));
    expect(first.value('dziennik2mqtt_portal_requests_total', { child: 'ania', resource: 'Notes', status: '200 Disabled' })).toBe(1);
    expect(first.value('dziennik2mqtt_logins_total', { child: 'ania', outcome: 'ok' })).toBe(1);
    expect(first.value('dziennik2mqtt_poll_duration_seconds_count', { child: 'ania' })).toBeGreaterThanOrEqual(1);
    expect(first.value('dziennik2mqtt_mqtt_publishes_total')).toBeGreaterThan(20);
    expect(first.value('process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
    expect(first.value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);

    // Passes later: the counter moved with the simulator's count of Grades requests.
    await h.advanceMinutes(60);
    const later = await scrape('/metrics', { authorization: `Bearer ${metricsKey(token)}` });
    expect(grades(later)).toBe(school.sim.count({ path: '/gateway/api/2.0/Grades' }));
    expect(grades(later)).toBeGreaterThan(grades(first)!);
    expect(later.value('dziennik2mqtt_poll_duration_seconds_count', { child: 'ania' })).toBeGreaterThan(
      first.value('dziennik2mqtt_poll_duration_seconds_count', { child: 'ania' })!,
    );
    // The token opens it too.
    expect(grades(await scrape(`/metrics?token=${token}`))).toBe(grades(later));
  });

  it('is not served while http.metrics is off', async () => {
    const { port, token } = await startBridge({ metrics: false });
    expect((await send(port, `/metrics?token=${token}`)).status).toBe(404);
  });
});
