// `/health` of the running bridge without the token: ok, degraded or down, and how many children are
// online, never who they are (a child's id is often its first name, and /health is open to the LAN).
// With the token (or the board's cookie) it names them. The old code listed every child by id to
// anyone.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { freePort } from '../helpers/ports.js';
import { simulatedSchool } from '../helpers/school.js';
import { send } from '../helpers/web.js';
import { tokenIn } from '../helpers/security-web.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
const accounts = [ANIA, JANEK].map((a) => ({ login: a.login, password: a.password }));
const school = simulatedSchool('2026-11-18T09:11:30+01:00');

/** Nothing in an open answer may tell who the children are. */
function namesNoChild(body: string): void {
  for (const word of ['ania', 'jan', ANIA.login, JANEK.login]) expect(body.toLowerCase()).not.toContain(word.toLowerCase());
}

describe('/health without the token', () => {
  it('says ok or down with counts and names no child; with the token or the cookie it names them', async () => {
    const port = await freePort();
    const h = await school.start({ accounts, http: { port } });
    await h.runUntil(() => h.state('ania', 'lucky_number') !== undefined && h.state('jan', 'lucky_number') !== undefined, 'the first passes');
    const token = await tokenIn(h.dataDir);

    const ok = await send(port, '/health');
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ status: 'ok', children: 2, online: 2 });
    namesNoChild(ok.body);
    const byChild = { ania: { online: true }, jan: { online: true } };
    expect(JSON.parse((await send(port, `/health?token=${token}`)).body)).toEqual({ status: 'ok', children: 2, online: 2, by_child: byChild });
    const cookie = String((await send(port, `/?token=${token}`)).headers['set-cookie']).split(';')[0]!;
    expect(JSON.parse((await send(port, '/health', { headers: { cookie } })).body)).toMatchObject({ by_child: byChild });
    // A wrong token is no token: the open answer.
    expect(JSON.parse((await send(port, '/health?token=guess')).body)).toEqual({ status: 'ok', children: 2, online: 2 });

    // (degraded, a child offline after three days without a good pass: test/unit/outputs/web/server.test.ts)

    await h.mqtt().stop();
    const down = await send(port, '/health');
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body)).toEqual({ status: 'down', children: 2, online: 2, error: 'not connected to the MQTT broker' });
    namesNoChild(down.body);
  });
});
