// The web server in the running bridge, against the simulator and the test broker: /health answers
// from the start, nothing else without the token, and what a pass published is what the pages read.
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { freePort } from '../helpers/ports.js';
import { simulatedSchool } from '../helpers/school.js';
import { send } from '../helpers/web.js';
import { createLogger } from '../../src/util/log.js';
import { parseCalendarFeed } from '../helpers/ics.js';
import { WEB } from '../../src/outputs/web/output.js';
import { runTokenRotation } from '../../src/app/commands/token.js';

const [ANIA, JANEK, ZOSIA] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!, DEMO_ACCOUNTS[2]!];
const NOW = '2026-11-18T09:11:30+01:00';
const accounts = [ANIA, JANEK].map((a) => ({ login: a.login, password: a.password }));

const school = simulatedSchool(NOW);

describe('the web server in the bridge', () => {
  it('answers /health, refuses pages without the token, and reads what the passes published', async () => {
    const port = await freePort();
    const printed: string[] = [];
    const h = await school.start({ accounts, http: { port }, out: { write: (t: string) => printed.push(t) } });
    await h.runUntil(() => h.state('ania', 'lucky_number') !== undefined && h.state('jan', 'lucky_number') !== undefined, 'the first passes');

    const health = await send(port, '/health');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ status: 'ok', children: 2, online: 2 });
    const refused = await send(port, '/');
    expect(refused.status).toBe(401);
    expect(refused.body).not.toMatch(/ania|jan/i);

    // The token the bridge made at its first start; the addresses printed once, without it.
    const token = (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim();
    const text = printed.join('');
    expect(text).toContain(`:${port}/\n`);
    expect(text).not.toContain(token);
    expect(text).toContain('check --show-token');
    // The children's ids come with their first pass: their calendar feeds are printed once both are known.
    for (const child of ['ania', 'jan']) {
      for (const calendarFeed of ['lessons', 'agenda', 'free-days']) expect(text).toContain(`/calendar/${child}/${calendarFeed}.ics\n`);
    }
    expect(text).not.toContain('<child>');
    expect(text.match(/calendar\/ania\/lessons/g)).toHaveLength(1);

    const data = h.app.outputOf(WEB)?.snapshot;
    const ania = data?.children().find((c) => c.id === 'ania');
    expect(ania?.states.get('lucky_number')?.state).toBe(h.state('ania', 'lucky_number'));
    expect(ania?.states.get('timetable_today')?.state).toBe('6');
    expect(ania?.name).toMatch(/^Ania /);
    expect(ania?.online).toBe(true);
    expect(ania?.changedAt).toBeGreaterThan(0);
    // Nothing answers the board yet in this part; with the token an unknown path is simply 404.
    expect((await send(port, `/no-such-page?token=${token}`)).status).toBe(404);
  });

  it("serves each child's calendar feeds with the token: iCalendar, ETag and 304, 404 for an unknown child or feed", async () => {
    const port = await freePort();
    const h = await school.start({ accounts, http: { port } });
    await h.runUntil(() => h.state('ania', 'timetable_today') !== undefined && h.state('jan', 'lucky_number') !== undefined, 'the first passes');
    const token = (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim();
    const lessons = await send(port, `/calendar/ania/lessons.ics?token=${token}`);
    expect(lessons.status).toBe(200);
    expect(lessons.headers['content-type']).toMatch(/^text\/calendar/);
    expect(lessons.headers['last-modified']).toBeDefined();
    const calendar = parseCalendarFeed(lessons.body);
    expect(calendar.events.length).toBeGreaterThan(10);
    expect(calendar.events.some((e) => e.start.startsWith('2026-11-18') && e.summary.startsWith('Przyroda'))).toBe(true);
    const again = await send(port, `/calendar/ania/lessons.ics?token=${token}`, { headers: { 'if-none-match': lessons.headers.etag as string } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    for (const calendarFeed of ['agenda', 'free-days']) {
      const answer = await send(port, `/calendar/jan/${calendarFeed}.ics?token=${token}`);
      expect(answer.status, calendarFeed).toBe(200);
      expect(parseCalendarFeed(answer.body).name, calendarFeed).toMatch(/^Jan /);
    }
    expect((await send(port, `/calendar/zosia/lessons.ics?token=${token}`)).status).toBe(404);
    expect((await send(port, `/calendar/ania/grades.ics?token=${token}`)).status).toBe(404);
    expect((await send(port, `/calendar/ania/../../http-token?token=${token}`)).status).toBe(404);
    const refused = await send(port, '/calendar/ania/lessons.ics');
    expect(refused.status).toBe(401);
    expect(refused.body).not.toContain('VCALENDAR');
  });

  // Issue 122: the first start listed the kindergarten child's agenda feed, which answers 404 (she has no agenda).
  it("lists at the first start and at token --rotate only calendar feeds that answer, a kindergarten child's without the agenda", async () => {
    const port = await freePort();
    const printed: string[] = [];
    const both = [ANIA, ZOSIA].map((a) => ({ login: a.login, password: a.password }));
    const h = await school.start({ accounts: both, http: { port }, out: { write: (t: string) => printed.push(t) } });
    const listed = (): string[] => [...printed.join('').matchAll(/\/calendar\/[^\s]+\.ics/g)].map((m) => m[0]);
    await h.runUntil(() => listed().length > 0, 'the calendar feeds printed');
    expect(listed()).toEqual([
      '/calendar/ania/lessons.ics',
      '/calendar/ania/agenda.ics',
      '/calendar/ania/free-days.ics',
      '/calendar/zofia/lessons.ics',
      '/calendar/zofia/free-days.ics',
    ]);
    const token = (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim();
    for (const path of listed()) expect((await send(port, `${path}?token=${token}`)).status, path).toBe(200);
    expect((await send(port, `/calendar/zofia/agenda.ics?token=${token}`)).status).toBe(404);
    // `token --rotate` lists the same feeds, each with the new token's key.
    let rotated = '';
    expect(await runTokenRotation({ config: h.config, out: { write: (t: string) => (rotated += t) } })).toBe(0);
    expect([...rotated.matchAll(/\/calendar\/[^\s?]+\.ics/g)].map((m) => m[0])).toEqual(listed());
  });

  it('prints the addresses only at the first start, and says /health is 503 while the broker is away', async () => {
    const port = await freePort();
    const printed: string[] = [];
    const h = await school.start({ accounts: [{ ...accounts[0]!, id: 'ania' }], http: { port }, out: { write: (t: string) => printed.push(t) } });
    await h.runUntil(() => h.state('ania', 'lucky_number') !== undefined, 'the first pass');
    expect(printed.join('')).toMatch(/\/calendar\/ania\/agenda\.ics\n/);
    printed.length = 0;
    await h.restart();
    expect(printed.join('')).toBe('');
    expect((await send(port, '/health')).status).toBe(200);
    await h.mqtt().stop();
    const down = await send(port, '/health');
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body)).toMatchObject({ status: 'down' });
  });

  it('lets the ingress proxy in without the token, and never logs the token', async () => {
    const port = await freePort();
    const lines: string[] = [];
    const log = createLogger('debug', { write: (line: string) => void lines.push(line) });
    // The test plays the Supervisor's proxy from 127.0.0.1.
    const h = await school.start({ accounts: accounts.slice(0, 1), http: { port }, ingressAddress: '127.0.0.1', log });
    await h.runUntil(() => h.state('ania', 'lucky_number') !== undefined, 'the first pass');
    const token = (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim();
    expect((await send(port, '/no-such-page', { headers: { 'x-ingress-path': '/api/hassio_ingress/x1' } })).status).toBe(404);
    expect((await send(port, '/health')).status).toBe(200);
    await send(port, `/?token=${token}`);
    await send(port, `/calendar/ania/lessons.ics?token=${token}`);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(token);
    expect(lines.join('\n')).toContain('web server listening');
  });

  it('keeps reading when its port is taken', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const h = await school.start({ accounts: accounts.slice(0, 1), http: { port } });
      await h.runUntil(() => h.state('ania', 'lucky_number') !== undefined, 'the first pass');
      expect(h.app.outputOf(WEB)?.url).toBeUndefined();
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('stays off with http.port 0', async () => {
    const h = await school.start({ accounts: accounts.slice(0, 1), http: { port: 0 } });
    await h.runUntil(() => h.state('ania', 'lucky_number') !== undefined, 'the first pass');
    expect(h.app.outputOf(WEB)).toBeUndefined();
    expect(h.app.outputOf(WEB)?.snapshot).toBeUndefined();
  });
});
