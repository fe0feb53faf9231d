// The access token stays secret, against the running bridge and the bin: the first start prints the
// addresses without it (stdout is the container's log, pasted into bug reports); the board page
// answered to the cookie alone holds neither the token nor a calendar feed's key; each calendar feed has a key
// of its own that opens that calendar feed and nothing else, so a calendar feed address synced to a phone's cloud does
// not open the board; `token --rotate` renews every key. The old code printed the token at the first
// start, embedded it in every board page, and knew no calendar feed key.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { freePort } from '../helpers/ports.js';
import { tempDir } from '../helpers/portal.js';
import { simulatedSchool } from '../helpers/school.js';
import { send } from '../helpers/web.js';
import { ensureBuilt } from '../helpers/faults-process.js';
import { BinCommands, tokenIn } from '../helpers/security-web.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const accounts = [{ login: ANIA.login, password: ANIA.password }];
const school = simulatedSchool('2026-11-18T09:11:30+01:00');

beforeAll(() => ensureBuilt(), 240_000);

/** The calendar feed addresses with a key in a command's output, by path (`/calendar/ania/lessons.ics`). */
function keyedCalendarFeeds(text: string, port: number): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of text.matchAll(new RegExp(`http://127\\.0\\.0\\.1:${port}(/calendar/[^?\\s]+)\\?key=([\\w-]+)`, 'g'))) found.set(m[1]!, m[2]!);
  return found;
}

describe('the access token stays secret', () => {
  it('first start without the token; the cookie page without it; a calendar feed key opens its calendar feed alone; token --rotate renews the keys', async () => {
    const port = await freePort();
    const printed: string[] = [];
    const h = await school.start({ accounts, http: { port }, out: { write: (t: string) => printed.push(t) } });
    await h.runUntil(
      () => h.state('ania', 'timetable_today') !== undefined && printed.join('').includes('lessons.ics'),
      'the first pass and the feed addresses',
    );
    const token = await tokenIn(h.dataDir);

    // The first start: the board's and the calendar feeds' addresses, bare, and how to get them whole.
    const startup = printed.join('');
    expect(startup).toContain(`http://127.0.0.1:${port}/\n`);
    expect(startup).toContain(`http://127.0.0.1:${port}/calendar/ania/lessons.ics\n`);
    expect(startup).toContain('check --show-token');
    expect(startup).not.toContain(token);
    expect(startup).not.toMatch(/token=|key=/);

    // check --show-token gives each calendar feed a key of its own, none of them the token.
    const bin = await BinCommands.forBridge({ dir: await tempDir(), dataDir: h.dataDir, portal: school.sim.urls, accounts, port });
    const shown = await bin.run('check', '--show-token');
    expect(shown.code).toBe(0);
    expect(shown.out).toContain(`http://127.0.0.1:${port}/?token=${token}`);
    const keys = keyedCalendarFeeds(shown.out, port);
    expect([...keys.keys()].sort()).toEqual(['/calendar/ania/agenda.ics', '/calendar/ania/free-days.ics', '/calendar/ania/lessons.ics']);
    expect(new Set(keys.values()).size).toBe(3);
    const lessonsKey = keys.get('/calendar/ania/lessons.ics')!;
    expect(lessonsKey).not.toContain(token);
    expect(token).not.toContain(lessonsKey);

    // The key opens its own calendar feed, and nothing else: not another calendar feed, the board, its data, an attachment, nor as a token.
    const lessons = await send(port, `/calendar/ania/lessons.ics?key=${lessonsKey}`);
    expect(lessons.status).toBe(200);
    expect(lessons.body).toContain('BEGIN:VCALENDAR');
    for (const target of [
      `/calendar/ania/agenda.ics?key=${lessonsKey}`,
      `/calendar/ania/free-days.ics?key=${lessonsKey}`,
      `/?key=${lessonsKey}`,
      `/api/board?key=${lessonsKey}`,
      `/api/events?key=${lessonsKey}`,
      `/files/ania/1/plan.txt?key=${lessonsKey}`,
      `/?token=${lessonsKey}`,
      `/calendar/ania/lessons.ics?token=${lessonsKey}`,
    ]) {
      expect((await send(port, target, { method: 'HEAD' })).status, target.split('?')[0]).toBe(401);
    }

    // The board opened with the token lists the calendar feeds with their keys, never the token itself.
    const opened = await send(port, `/?token=${token}`);
    expect(opened.status).toBe(200);
    expect(opened.body).not.toContain(token);
    expect(opened.body).toContain(lessonsKey);
    // The same page answered to the cookie alone (a tablet's, read off it) holds neither.
    const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
    const byCookie = await send(port, '/', { headers: { cookie } });
    expect(byCookie.status).toBe(200);
    expect(byCookie.body).toContain('<html');
    expect(byCookie.body).not.toContain(token);
    for (const key of keys.values()) expect(byCookie.body).not.toContain(key);

    // token --rotate: new keys, the old ones open nothing, from the running bridge's next request on.
    const rotated = await bin.run('token', '--rotate');
    expect(rotated.code).toBe(0);
    const fresh = keyedCalendarFeeds(rotated.out, port);
    expect(fresh.size).toBe(3);
    for (const [path, key] of fresh) {
      expect(key, path).not.toBe(keys.get(path));
      expect((await send(port, `${path}?key=${keys.get(path)}`)).status, `${path} with the old key`).toBe(401);
      expect((await send(port, `${path}?key=${key}`)).status, `${path} with the new key`).toBe(200);
    }
  });
});
