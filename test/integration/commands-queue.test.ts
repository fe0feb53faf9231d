// Commands go through the account's queue (issue 37, item 4): a command published while a pass runs
// waits for the pass to end, so that a command never meets a pass halfway (a message opened while the
// pass lists the mailbox, a send while the session is renewed). A refresh only waits for the account.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';
import { waitUntil } from '../helpers/mqtt.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const school = simulatedSchool('2026-11-18T09:10:00+01:00');

describe('a command published during a pass', () => {
  it.each([
    // Opening marks the message read: the counters and the inbox list are read again right after it (issue 47).
    [
      'open_message',
      'newest',
      (path: string) => /^\/api\/inbox\/messages\/\d+$/.test(path),
      ['/api/inbox/unreadMessagesCount', '/api/inbox/messages'],
    ],
    ['mark_notices_read', 'all', (path: string) => path.startsWith('/gateway/api/2.0/SchoolNotices/MarkAsRead'), []],
  ])(
    '%s runs after the pass, never during it',
    async (name, payload, isCommandRequest, readAgain) => {
      school.sim.messaging.addMessage(ANIA.login, { topic: 'Zebranie', body: 'W czwartek.', from: 162001 });
      const h = await school.firstPasses(['unread_messages', 'unread_notices']);
      // Each gateway read takes a moment, so that a refresh's pass lasts long enough to meet the command.
      school.sim.setLatency(100, { host: 'portal' });
      const before = school.sim.requests.length;
      await h.rec.publish(`${h.base}/ania/refresh/set`, '');
      await waitUntil(() => school.sim.requests.length > before, "the refresh's pass to begin");
      const result = `${h.base}/ania/${name}/result`;
      await h.rec.publish(`${h.base}/ania/${name}/set`, payload);
      await waitUntil(() => h.rec.on(result).length > 0 && h.rec.on(`${h.base}/ania/refresh/result`).length > 0, 'both results', 15_000);
      expect(JSON.parse(h.rec.on(result)[0]!.text)).not.toHaveProperty('error');
      const requests = school.sim.requests.slice(before);
      const commandAt = requests.findIndex((r) => isCommandRequest(r.path));
      // The refresh's pass read a good part of the register, and all of it before the command's first request.
      expect(commandAt).toBeGreaterThan(5);
      // After it, only the command's own requests, and what it asks to be read again once it is done.
      const after = requests
        .slice(commandAt)
        .filter((r) => !isCommandRequest(r.path))
        .map((r) => r.path);
      // (The re-read is queued behind the command: it may still be under way when the results are in.)
      expect(after.filter((path) => !readAgain.includes(path))).toEqual([]);
    },
    30_000,
  );
});
