// 70 idle sockets from one LAN address against the running bridge's web server: they take that
// address's share of the connections and no more, so /health, the board and a calendar feed still answer
// another device; and the header timeout (10 s on the bridge's clock, here a fake one) closes the idle
// ones, which gives the address its share back. On the old code the 70 took all 64 places for good.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { CONNECTION_LIMITS } from '../../src/outputs/web/connections.js';
import { HEADERS_TIMEOUT_MS } from '../../src/outputs/web/server.js';
import { freePort } from '../helpers/ports.js';
import { simulatedSchool } from '../helpers/school.js';
import { waitUntil } from '../helpers/mqtt.js';
import { IdleSockets, getFrom, tokenIn } from '../helpers/security-web.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const school = simulatedSchool('2026-11-18T09:11:30+01:00');

/** The attacker (a LAN device) and a family tablet. */
const ATTACKER = '127.0.0.1';
const TABLET = '127.0.0.5';

describe('idle sockets', () => {
  it('70 idle sockets from one address leave /health, the board and the calendar feeds to everyone else, and are closed by the header timeout', async () => {
    const port = await freePort();
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password }], http: { port } });
    await h.runUntil(() => h.state('ania', 'timetable_today') !== undefined, 'the first pass');
    const token = await tokenIn(h.dataDir);

    const idle = await IdleSockets.open(port, 70, ATTACKER);
    try {
      // Only the address's share stays open; the rest are closed at once.
      await waitUntil(() => idle.open === CONNECTION_LIMITS.perAddress, `the attacker's share (${idle.open} open)`);

      expect((await getFrom(TABLET, port, '/health')).status).toBe(200);
      const board = await getFrom(TABLET, port, `/?token=${token}`);
      expect(board.status).toBe(200);
      expect(board.body).toContain('<html');
      const calendarFeed = await getFrom(TABLET, port, `/calendar/ania/lessons.ics?token=${token}`);
      expect(calendarFeed.status).toBe(200);
      expect(calendarFeed.body).toContain('BEGIN:VCALENDAR');
      // The attacker's own address is full meanwhile.
      await expect(getFrom(ATTACKER, port, '/health')).rejects.toThrow();

      // Neither a silent socket nor one stuck in its headers lives past the header timeout, at most 10 s.
      expect(HEADERS_TIMEOUT_MS).toBeLessThanOrEqual(10_000);
      await school.clock.advance(HEADERS_TIMEOUT_MS - 100);
      expect(idle.open).toBe(CONNECTION_LIMITS.perAddress);
      await school.clock.advance(100);
      await waitUntil(() => idle.open === 0, `the idle sockets to be closed (${idle.open} open)`);
      // The address has its share back.
      expect((await getFrom(ATTACKER, port, '/health')).status).toBe(200);
    } finally {
      idle.destroy();
    }
  });
});
