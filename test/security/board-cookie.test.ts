// The board's cookie and the access token, against the running bridge and the bin: the cookie is
// never the token (an HMAC of it) and cannot be used as one; `token --rotate` makes a new token that
// the running bridge takes without a restart, so the old calendar feed addresses, cookies and open streams stop
// working; `check` shows the token only with --show-token. The old code put the raw token in the
// cookie, knew no `token` command, and printed the token at every check.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { freePort } from '../helpers/ports.js';
import { tempDir } from '../helpers/portal.js';
import { simulatedSchool } from '../helpers/school.js';
import { waitUntil } from '../helpers/mqtt.js';
import { send } from '../helpers/web.js';
import { ensureBuilt } from '../helpers/faults-process.js';
import { BinCommands, StreamReader, tokenIn } from '../helpers/security-web.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const accounts = [{ login: ANIA.login, password: ANIA.password }];
const school = simulatedSchool('2026-11-18T09:11:30+01:00');

// The commands run as the user runs them: the bin of dist/, built first when src/ is newer.
beforeAll(() => ensureBuilt(), 240_000);

async function bridge() {
  const port = await freePort();
  const h = await school.start({ accounts, http: { port } });
  await h.runUntil(() => h.state('ania', 'timetable_today') !== undefined, 'the first pass');
  const bin = await BinCommands.forBridge({ dir: await tempDir(), dataDir: h.dataDir, portal: school.sim.urls, accounts, port });
  return { h, port, bin };
}

const calendarFeed = (token: string): string => `/calendar/ania/lessons.ics?token=${encodeURIComponent(token)}`;

describe("the board's cookie and the token", () => {
  it('sets a cookie that is not the token; token --rotate ends the old addresses, cookies and streams in the running bridge', async () => {
    const { h, port, bin } = await bridge();
    const old = await tokenIn(h.dataDir);
    const opened = await send(port, `/?token=${old}`);
    expect(opened.status).toBe(200);
    const setCookie = String(opened.headers['set-cookie']);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Path=\//);
    const cookie = setCookie.split(';')[0]!;
    const value = cookie.slice(cookie.indexOf('=') + 1);
    expect(value).not.toContain(old);
    expect(old).not.toContain(value);
    // The cookie opens the board, but is no token: a cookie read off a tablet gives no calendar feed address.
    expect((await send(port, '/', { headers: { cookie } })).status).toBe(200);
    expect((await send(port, calendarFeed(value))).status).toBe(401);
    expect((await send(port, `/?token=${value}`)).status).toBe(401);
    const stream = await StreamReader.open('127.0.0.1', port, '/api/events', { cookie });
    expect(stream.status).toBe(200);

    const rotated = await bin.run('token', '--rotate');
    expect(rotated.code).toBe(0);
    const fresh = await tokenIn(h.dataDir);
    expect(fresh).not.toBe(old);
    expect(rotated.out).toContain(`http://127.0.0.1:${port}/?token=${fresh}`);
    const freshKey = /\/calendar\/ania\/lessons\.ics\?key=([\w-]{43})\n/.exec(rotated.out)?.[1];
    expect(freshKey).toBeDefined();
    expect(rotated.out).not.toContain(old);

    // With no request at all, the bridge notices within 30 s (its clock) and ends the stream let in by the old cookie.
    await school.clock.advance(30_000);
    await waitUntil(() => stream.ended, 'the old stream to end');
    expect((await send(port, calendarFeed(old))).status).toBe(401);
    expect((await send(port, `/?token=${old}`)).status).toBe(401);
    expect((await send(port, '/', { headers: { cookie } })).status).toBe(401);
    expect((await send(port, '/api/events', { headers: { cookie }, method: 'HEAD' })).status).toBe(401);
    // The new addresses work, and the board's new cookie differs from the old one.
    const newCalendarFeed = await send(port, calendarFeed(fresh));
    expect(newCalendarFeed.status).toBe(200);
    expect(newCalendarFeed.body).toContain('BEGIN:VCALENDAR');
    const reopened = await send(port, `/?token=${fresh}`);
    expect(reopened.status).toBe(200);
    const newCookie = String(reopened.headers['set-cookie']).split(';')[0]!;
    expect(newCookie).not.toBe(cookie);
    expect((await send(port, '/', { headers: { cookie: newCookie } })).status).toBe(200);
    // The page lists the calendar feeds with the keys of the token in force, never a token.
    expect(reopened.body).toContain(freshKey);
    expect(reopened.body).not.toContain(fresh);
    expect(reopened.body).not.toContain(old);
  });

  it('check prints the addresses with the token only with --show-token; token needs --rotate', async () => {
    const { h, port, bin } = await bridge();
    const token = await tokenIn(h.dataDir);
    const plain = await bin.run('check');
    expect(plain.code).toBe(0);
    expect(plain.out).toContain(`  tablica:  http://127.0.0.1:${port}/\n`);
    expect(plain.out).toContain('check --show-token');
    expect(plain.out).not.toContain(token);
    expect(plain.out).not.toContain('token=');
    const shown = await bin.run('check', '--show-token');
    expect(shown.code).toBe(0);
    expect(shown.out).toContain(`http://127.0.0.1:${port}/?token=${token}`);
    expect(shown.out).toMatch(new RegExp(`http://127\\.0\\.0\\.1:${port}/calendar/ania/lessons\\.ics\\?key=[\\w-]{43}\n`));
    // `token` alone changes nothing: a usage error, the token stays.
    expect((await bin.run('token')).code).toBe(2);
    expect(await tokenIn(h.dataDir)).toBe(token);
  });
});
